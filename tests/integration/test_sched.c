/*
 * test_sched.c - the schedulers a lab already has, driving shards of a
 * run as dist/ ships them: a Slurm job array on a single-node cluster of
 * Debian's slurm-wlm (tests/slurm/cluster.sh, in the test's directory, on
 * loopback), the Ansible playbook against localhost (three inventory
 * hosts, one machine), and the Kubernetes Indexed Job's shape (no
 * validator of Kubernetes' schema is packaged for Debian 12, and kubectl
 * needs a server to validate: its structure is checked instead). Each,
 * merged, must give the groups one unsharded run gives. The host backend
 * makes the runs take seconds; each target has its own directory, as
 * shards on one machine need (one place is one run's at a time).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "it.h"
#include "unit.h"

/* A profile of four targets, each its own directory under base. */
static void four_targets(const char *prof, const char *base)
{
	char text[2048];

	it_sh("mkdir -p '%s/a' '%s/b' '%s/c' '%s/d'", base, base, base, base);
	snprintf(text, sizeof(text),
		 "{\"name\": \"sched\", \"backend\": \"host\",\n"
		 " \"targets\": [{\"name\": \"a\", \"dir\": \"%s/a\"}, "
		 "{\"name\": \"b\", \"dir\": \"%s/b\"}, {\"name\": \"c\", "
		 "\"dir\": \"%s/c\"}, {\"name\": \"d\", \"dir\": \"%s/d\"}],\n"
		 " \"disk_size\": \"4M\", \"modes\": [\"lazy\", \"thin\"],\n"
		 " \"workload\": {\"bs\": \"64K\", \"qd\": 4, \"passes\": "
		 "[\"first-write\", \"rewrite\"]}}\n",
		 base, base, base, base);
	it_write_file(prof, text);
}

/* The (target, mode) groups of merged's summary.csv are those of one
 * unsharded run of prof: 0 when so. */
static int same_groups(const char *merged, const char *prof, const char *state)
{
	char one[700];

	snprintf(one, sizeof(one), "%s.one", merged);
	return it_sh("rm -rf '%s' && PROVBENCH_STATE_DIR='%s' '%s' run -q -o "
		     "'%s' '%s' >/dev/null && cut -d, -f6,11 '%s/summary.csv' "
		     "| sort > '%s.g' && cut -d, -f6,11 \"$(ls -d '%s'/*/ | "
		     "grep -v latest | head -1)summary.csv\" | sort > "
		     "'%s.g1' && test \"$(wc -l < '%s.g')\" = 9 && diff "
		     "'%s.g' '%s.g1' >&2",
		     one, state, it_bin("provbench"), one, prof, merged, merged,
		     one, merged, merged, merged, merged);
}

/* the provbench under test, as an absolute path (a scheduler's job
 * starts elsewhere) */
static void abs_bin(char *out, size_t len)
{
	char real[4096];

	if (realpath(it_bin("provbench"), real))
		snprintf(out, len, "%s", real);
	else
		snprintf(out, len, "%s", it_bin("provbench"));
}

/* its directory, for PATH */
static void bin_dir(char *out, size_t len)
{
	char *sl;

	abs_bin(out, len);
	sl = strrchr(out, '/');
	if (sl)
		*sl = '\0';
}

/*
 * dist/slurm/provbench-array.sbatch as its header says to run it: an
 * array of three tasks, each a shard; the three results merged.
 */
static void slurm_array_merged(void)
{
	SCRATCH(base, "sched-slurm");
	SCRATCH(prof, "sched-slurm/p.json");
	SCRATCH(res, "sched-slurm/results");
	SCRATCH(merged, "sched-slurm/merged");
	SCRATCH(state, "sched-slurm/state");
	char bin[600];
	int rc;

	if (it_sh("command -v slurmctld slurmd sbatch >/dev/null"))
		PB_SKIP("Slurm (Debian's slurm-wlm, make deps) is not "
			"installed");
	if (!it_is_root())
		PB_SKIP("slurmd runs jobs as root here");
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s/cluster' '%s'", base, state),
			      0);
	four_targets(prof, base);
	bin_dir(bin, sizeof(bin));
	CU_ASSERT_EQUAL_FATAL(
		it_sh("tests/slurm/cluster.sh start '%s/cluster'", base), 0);
	rc = it_sh("cd '%s' && SLURM_CONF='%s/cluster/slurm.conf' "
		   "PATH='%s':$PATH PROVBENCH_STATE_DIR='%s' sbatch --wait "
		   "--array=0-2 -o '%s/out-%%a.txt' "
		   "\"$OLDPWD/dist/slurm/provbench-array.sbatch\" '%s' '%s' "
		   ">/dev/null",
		   base, base, bin, state, base, prof, res);
	it_sh("tests/slurm/cluster.sh stop '%s/cluster'", base);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		it_sh("cat '%s'/out-*.txt >&2", base);
	CU_ASSERT_EQUAL(it_sh("ls -d '%s'/*-sched-s0of3 '%s'/*-sched-s1of3 "
			      "'%s'/*-sched-s2of3 >/dev/null",
			      res, res, res),
			0);
	CU_ASSERT_EQUAL(it_sh("'%s' report -q -o '%s' '%s'/*-sched-s?of3",
			      it_bin("provbench"), merged, res),
			0);
	CU_ASSERT_EQUAL(same_groups(merged, prof, state), 0);
}

/* dist/ansible/provbench-shards.yml against localhost, three inventory
 * hosts (one a shard each), fetched and merged by the play */
static void ansible_playbook_localhost(void)
{
	SCRATCH(base, "sched-ansible");
	SCRATCH(prof, "sched-ansible/p.json");
	SCRATCH(inv, "sched-ansible/inventory.ini");
	SCRATCH(state, "sched-ansible/state");
	char text[1024], bin[600];
	int rc;

	if (it_sh("command -v ansible-playbook >/dev/null"))
		PB_SKIP("Ansible (Debian's ansible-core, make deps) is not "
			"installed");
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s'", state), 0);
	/* the header's password files, as a lab makes them */
	CU_ASSERT_EQUAL_FATAL(it_sh("cd '%s' && umask 077 && echo s3cret-pw > "
				    "pw && echo s3cret-gpw > gpw",
				    base),
			      0);
	four_targets(prof, base);
	abs_bin(bin, sizeof(bin));
	snprintf(text, sizeof(text),
		 "[controllers]\n"
		 "c0 ansible_connection=local "
		 "ansible_python_interpreter=/usr/bin/python3\n"
		 "c1 ansible_connection=local "
		 "ansible_python_interpreter=/usr/bin/python3\n"
		 "c2 ansible_connection=local "
		 "ansible_python_interpreter=/usr/bin/python3\n");
	it_write_file(inv, text);
	/* one host at a time: the three are one machine */
	rc = it_sh("PROVBENCH_STATE_DIR='%s' ANSIBLE_NOCOLOR=1 "
		   "ANSIBLE_LOCALHOST_WARNING=false "
		   "ANSIBLE_LOCAL_TEMP='%s/tmp' ANSIBLE_REMOTE_TEMP='%s/tmp' "
		   "ansible-playbook -i '%s' -f 1 "
		   "dist/ansible/provbench-shards.yml -e profile='%s' -e "
		   "provbench='%s' -e fetch_dir='%s/shards' -e "
		   "work_root='%s/work' -e password_file='%s/pw' -e "
		   "guest_password_file='%s/gpw' > '%s/play.log' 2>&1",
		   state, base, base, inv, prof, bin, base, base, base, base,
		   base);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		it_sh("tail -30 '%s/play.log' >&2", base);
	/* each controller holds both, 0600, and the play's log neither */
	CU_ASSERT_EQUAL(it_sh("cd '%s' && for c in c0 c1 c2; do test \"$(stat "
			      "-c %%a work/$c/password work/$c/guest-password)"
			      "\" = \"600\n600\" && grep -qx s3cret-gpw "
			      "work/$c/guest-password || exit 1; done; ! grep "
			      "-q s3cret play.log",
			      base),
			0);
	snprintf(text, sizeof(text), "%s/shards/merged", base);
	CU_ASSERT_EQUAL(same_groups(text, prof, state), 0);
}

/*
 * dist/kubernetes: an Indexed Job whose pods each run one shard of as
 * many as it has completions, the lab's settings from a Secret through
 * envFrom and the password from another as a file only, the results on
 * one claim that merge-job.yaml, applied after a kubectl wait, reads.
 * The header's commands are checked against what kubectl 1.32 refuses
 * (--from-env-file with --from-file, create_secret.go's validation) and
 * for the order: the merge after the wait after the shards.
 */
static void kubernetes_manifest_shape(void)
{
	if (it_sh("python3 -c 'import yaml' 2>/dev/null"))
		PB_SKIP("python3-yaml is not installed");
	CU_ASSERT_EQUAL(
		it_sh("python3 - dist/kubernetes/indexed-job.yaml "
		      "dist/kubernetes/merge-job.yaml <<'EOF'\n"
		      "import re, sys, yaml\n"
		      "text = open(sys.argv[1]).read()\n"
		      "(job,) = list(yaml.safe_load_all(text))\n"
		      "(merge,) = list(yaml.safe_load_all(open(sys.argv[2])))\n"
		      "assert job['apiVersion'] == 'batch/v1' and "
		      "job['kind'] == 'Job'\n"
		      "s = job['spec']\n"
		      "assert s['completionMode'] == 'Indexed'\n"
		      "n = s['completions']\n"
		      "assert s['parallelism'] == n\n"
		      "pod = s['template']['spec']\n"
		      "assert pod['restartPolicy'] == 'Never'\n"
		      "c = pod['containers'][0]\n"
		      "cmd = c['command']\n"
		      "assert cmd[:2] == ['provbench', 'run']\n"
		      "assert '--yes' in cmd\n"
		      "assert cmd[cmd.index('--shard-count') + 1] == str(n)\n"
		      "lab = c['envFrom'][0]['secretRef']['name']\n"
		      "env = {e['name']: e['value'] for e in c['env']}\n"
		      "assert 'PROVBENCH_PASSWORD' not in env\n"
		      "mounts = {m['name']: m['mountPath'] for m in "
		      "c['volumeMounts']}\n"
		      "vols = {v['name']: v for v in pod['volumes']}\n"
		      "assert set(mounts) == set(vols)\n"
		      "pw = [v for v in vols.values() if 'secret' in v]\n"
		      "assert len(pw) == 1\n"
		      "sec = pw[0]['secret']\n"
		      "assert sec['secretName'] != lab, 'password in envFrom'\n"
		      "item, guest = sec['items']\n"
		      "assert env['PROVBENCH_PASSWORD_FILE'] == "
		      "mounts[pw[0]['name']] + '/' + item['path']\n"
		      "assert env['PROVBENCH_GUEST_PASSWORD_FILE'] == "
		      "mounts[pw[0]['name']] + '/' + guest['path']\n"
		      "assert 'PROVBENCH_GUEST_PASSWORD' not in env\n"
		      "out = cmd[cmd.index('-o') + 1]\n"
		      "assert out == mounts['results']\n"
		      "claim = vols['results']['persistentVolumeClaim']"
		      "['claimName']\n"
		      "m = merge['spec']['template']['spec']\n"
		      "assert m['volumes'][0]['persistentVolumeClaim']"
		      "['claimName'] == claim\n"
		      "assert ('-s*of%%d' %% n) in "
		      "m['containers'][0]['command'][-1]\n"
		      "head = re.sub(r'\\\\\\n#\\s*', ' ', '\\n'.join("
		      "l for l in text.splitlines() if l.startswith('#')))\n"
		      "cmds = [l.lstrip('# ').strip() for l in "
		      "head.splitlines() if l.lstrip('# ').startswith("
		      "'kubectl ')]\n"
		      "for k in cmds:\n"
		      "    assert not ('--from-env-file' in k and "
		      "('--from-file' in k or '--from-literal' in k)), k\n"
		      "secrets = {k.split()[4]: k for k in cmds if "
		      "k.startswith('kubectl create secret generic ')}\n"
		      "assert '--from-env-file' in secrets[lab]\n"
		      "assert 'password' in secrets[sec['secretName']]\n"
		      "assert 'guest-password=' in secrets[sec['secretName']]\n"
		      "i = lambda w: [j for j, k in enumerate(cmds) if w in "
		      "k][0]\n"
		      "assert i('apply -f indexed-job.yaml') < i('kubectl "
		      "wait') "
		      "< i('apply -f merge-job.yaml')\n"
		      "assert 'job/' + job['metadata']['name'] in "
		      "cmds[i('kubectl wait')]\n"
		      "EOF"),
		0);
}

/*
 * The header's kubectl commands, run as written with --dry-run=client
 * (offline: they make objects without a server) in a scratch directory
 * holding lab.env, password and lab.json; the kubectl wait and applies
 * are left out: a client dry run of a Job still asks a server for its
 * API list (1.32: "couldn't get current server API group list"), so the
 * Jobs are checked by kubernetes_manifest_shape. Skipped by name
 * without kubectl (Debian 12 packages none).
 */
static void kubernetes_commands_kubectl(void)
{
	SCRATCH(dir, "k8s");
	char top[1024];

	if (it_sh("command -v kubectl >/dev/null 2>&1"))
		PB_SKIP("kubectl is not installed");
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(top, sizeof(top)));
	CU_ASSERT_EQUAL(
		it_sh("set -e; rm -rf '%s'; mkdir -p '%s'; cd '%s'; "
		      "printf 'PROVBENCH_URL=https://vc/sdk\\n"
		      "PROVBENCH_USERNAME=u\\n' > lab.env; echo pw > password; "
		      "echo gpw > guest-password; "
		      "echo '{}' > lab.json; n=0; "
		      "sed -n 's/^#   *//p' "
		      "'%s/dist/kubernetes/indexed-job.yaml' "
		      "| sed -e :a -e '/\\\\$/N; s/\\\\\\n *//; ta' "
		      "| grep '^kubectl create ' > cmds; "
		      "while read -r c; do n=$((n + 1)); "
		      "$c --dry-run=client -o yaml > out.$n || "
		      "{ echo \"refused: $c\" >&2; exit 1; }; done < cmds; "
		      "test $n -eq 3; grep -q PROVBENCH_URL out.1; "
		      "! grep -q password: out.1; grep -q 'password:' out.2; "
		      "grep -q 'guest-password:' out.2",
		      dir, dir, dir, top),
		0);
}

static const struct pb_case cases[] = {
	PB_CASE(slurm_array_merged),
	PB_CASE(ansible_playbook_localhost),
	PB_CASE(kubernetes_manifest_shape),
	PB_CASE(kubernetes_commands_kubectl),
	PB_CASES_END,
};

const struct pb_suite suite_sched_it = {"sched", NULL, NULL, cases};
