/*
 * test_harness.c - `provbench run`, `check` and `cleanup` end to end
 * against the simulator fixture with its guest sandbox: the runner really
 * runs there, on a sparse file standing in for each attached disk, found
 * by the disk's uuid through the by-id links the fixture lays out.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "it.h"
#include "unit.h"
#include "vs_int.h"

#include <curl/curl.h>

/* The server a case runs against: vCenter, or a standalone ESXi. */
static bool lab_esx;

static const char *lab_vm(void)
{
	return lab_esx ? "ha-host_VM0" : "DC0_H0_VM0";
}

/* text with every DC0_H0_VM0 made the lab's VM name */
static void write_profile(const char *path, const char *text)
{
	struct pb_buf b = PB_BUF_INIT(1 << 20);
	const char *p = text, *q;

	while ((q = strstr(p, "DC0_H0_VM0"))) {
		pb_buf_add(&b, p, (size_t)(q - p));
		pb_buf_addstr(&b, lab_vm());
		p = q + strlen("DC0_H0_VM0");
	}
	pb_buf_addstr(&b, p);
	it_write_file(path, b.data);
	pb_buf_dispose(&b);
}

/*
 * The lab for one test: a guest sandbox DIR/<guest> (root gets its path),
 * the profile written, a simulator serving that sandbox as the lab's
 * server, its VMs powered on with disk.EnableUUID=TRUE as a prepared lab
 * VM is (unless uuid_live is false), with more fixture flags (NULL
 * ended, or NULL), and the environment pointed at it.
 */
static int lab_start(struct vcsim *v, struct it_env *e, char *root,
		     size_t rootlen, const char *guest, const char *state,
		     const char *prof, const char *text, bool uuid_live,
		     const char *const *more)
{
	const char *f[24] = {"-guest-root", root};
	int n = 2;

	snprintf(root, rootlen, "%s/%s", it_dir(), guest);
	if (it_sh("mkdir -p '%s' '%s'", root, state))
		return -1;
	if (lab_esx)
		f[n++] = "-esx";
	if (uuid_live)
		f[n++] = "-enable-uuid";
	while (more && *more && n < 23)
		f[n++] = *more++;
	f[n] = NULL;
	write_profile(prof, text);
	if (vcsim_start(v, f))
		return -1;
	it_vcsim_env(e, v, state);
	return 0;
}

static int start_lab(struct vcsim *v, struct it_env *e, char *root,
		     size_t rootlen, const char *guest, const char *state,
		     const char *prof, const char *text, const char *flag,
		     const char *val)
{
	const char *const more[] = {flag, val, NULL};

	return lab_start(v, e, root, rootlen, guest, state, prof, text, true,
			 more);
}

#define PROFILE_ALL                                                            \
	"{\"name\": \"it-all\", \"backend\": \"vsphere\",\n"                   \
	" \"vsphere\": {\"vm\": \"DC0_H0_VM0\", \"lun\": "                     \
	"\"naa.6000c290000000000000000000000001\", \"guest_dir\": "            \
	"\"/opt/pb\"},\n"                                                      \
	" \"disk_size\": \"8M\", \"modes\": [\"rdm\", \"rdmp\", \"eager\", "   \
	"\"lazy\", \"thin\"],\n"                                               \
	" \"repetitions\": 1, \"order\": \"shuffle\", \"seed\": 7,\n"          \
	" \"workload\": {\"bs\": \"64K\", \"qd\": 4, \"pattern\": \"rand\", "  \
	"\"passes\": [\"first-write\", \"rewrite\", \"read\"]}}\n"

/*
 * A lab without a spare LUN (issue 38): the profile names its LUN by an
 * unset variable; without rdm in --modes nothing asks for it (check and
 * a dry run against the simulator pass), with rdm the run says which
 * variable and why, before any server is reached.
 */
#define PROFILE_NO_LUN                                                         \
	"{\"name\": \"it-nolun\", \"backend\": \"vsphere\",\n"                 \
	" \"vsphere\": {\"vm\": \"DC0_H0_VM0\", \"lun\": "                     \
	"\"env:PB_IT_NO_SUCH_LUN\", \"guest_dir\": \"/opt/pb\"},\n"            \
	" \"disk_size\": \"8M\", \"modes\": [\"rdm\", \"eager\", \"thin\"],\n" \
	" \"workload\": {\"bs\": \"64K\", \"passes\": [\"first-write\", "      \
	"\"rewrite\"]}}\n"

static void no_lun_without_rdm(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600];
	SCRATCH(prof, "nolun.json");
	SCRATCH(state, "state-nolun");

	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root), "guest1",
					state, prof, PROFILE_NO_LUN, NULL,
					NULL),
			      0);
	CU_ASSERT_EQUAL(it_pbn(&r, &e,
			       (const char *[]){"run", "-n", "--modes",
						"eager,thin", prof, NULL}),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "2 mode(s)"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "baseline: eager, rdm not being in this run"));
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-n", prof, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "vsphere.lun (PB_IT_NO_SUCH_LUN):"
					     " environment variable not set "
					     "(mode rdm needs it"));
	it_result_dispose(&r);
	vcsim_stop(&v);
}

static char *disk_keys(const struct vcsim *v)
{
	return it_vm_disk_keys(v, lab_vm());
}

/*
 * A plan above confirm_above on a datastore (issue 38: a shared array
 * must not take 1.5 TiB by surprise): check and a dry run say so; run
 * without a terminal refuses, creating nothing, unless --yes; on a
 * terminal it asks, and "n" is no.
 */
#define PROFILE_CONFIRM                                                        \
	"{\"name\": \"it-confirm\", \"backend\": \"vsphere\",\n"               \
	" \"vsphere\": {\"vm\": \"DC0_H0_VM0\", \"guest_dir\": "               \
	"\"/opt/pb\"},\n"                                                      \
	" \"confirm_above\": \"16M\",\n"                                       \
	" \"disk_size\": \"4M\", \"modes\": [\"thin\", \"eager\"],\n"          \
	" \"workload\": {\"bs\": \"64K\", \"passes\": [\"first-write\", "      \
	"\"rewrite\"]}}\n"

static void confirm_large_plans(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600], cmd[2400], *before, *after;
	SCRATCH(prof, "confirm.json");
	SCRATCH(state, "state-confirm");
	SCRATCH(res, "results-confirm");
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};

	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root), "guest1",
					state, prof, PROFILE_CONFIRM, NULL,
					NULL),
			      0);
	before = disk_keys(&v);
	/* 16 MiB of passes and 4 MiB of eager's zeros */
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "confirm: 20 MiB to shared "
					     "storage is above confirm_above "
					     "(16 MiB): run asks first"));
	/* and where it goes: the section names no datastore */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "per place: datastore (the VM's own) 20 MiB\n"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the plan writes 20 MiB to shared "
					     "storage, above confirm_above "
					     "(16 MiB), and there is no "
					     "terminal to ask on: run --yes"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("test -e '%s'", res), 1);
	/* on a terminal (script(1)'s), "n" */
	snprintf(cmd, sizeof(cmd),
		 "printf 'n\\n' | script -qec \"'%s' run -o '%s' '%s'\" "
		 "/dev/null",
		 it_bin("provbench"), res, prof);
	CU_ASSERT_EQUAL(it_run_env(&r, argv, e.vars, 0, 0), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Go on? [y/N]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "not confirmed; nothing was "
					     "created"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("test -e '%s'", res), 1);
	after = disk_keys(&v);
	CU_ASSERT_STRING_EQUAL(before, after);
	free(after);
	/* --yes: run unattended */
	CU_ASSERT_EQUAL(
		it_pbn(&r, &e,
		       (const char *[]){"run", "--yes", "-o", res, prof, NULL}),
		0);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("ls '%s'/*/run.json > /dev/null", res), 0);
	free(before);
	vcsim_stop(&v);
}

static void run_all_modes(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char *before, *after, flags_root[600];
	SCRATCH(prof, "all.json");
	SCRATCH(state, "state1");
	SCRATCH(res, "results1");
	SCRATCH(journal, "state1/journal.jsonl");
	json_t *doc, *item, *passes, *env;
	size_t i;
	int modes_seen = 0;

	it_sh("rm -rf '%s' '%s'", state, res);
	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, flags_root, sizeof(flags_root),
					"guest1", state, prof, PROFILE_ALL,
					NULL, NULL),
			      0);
	before = disk_keys(&v);

	/* check and dry-run create nothing; check tries a transfer */
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "5 mode(s) x 1 repetition(s)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "guest transfer: "));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, lab_esx ? "the URL said *"
				      : "DC0_H0 does not resolve: its "
					"management vmknic 127.0.0.1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "disk.EnableUUID = TRUE"));
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "--dry-run", prof, NULL), 0);
	it_result_dispose(&r);
	/* check --json: the plan, each finding by name, the verdict */
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", "--json", prof, NULL), 0);
	{
		json_t *j = json_loads(r.out, 0, NULL), *c;
		static const char *const want[] = {"server", "VM", "datastore",
						   "guest login",
						   "guest transfer"};
		size_t w, k;

		CU_ASSERT_PTR_NOT_NULL_FATAL(j);
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(j, "verdict")), "ok");
		CU_ASSERT_EQUAL(json_array_size(json_object_get(
					json_object_get(j, "plan"), "items")),
				5);
		for (w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
			bool found = false;

			json_array_foreach(json_object_get(j, "checks"), k, c)
				found |=
				!strcmp(json_string_value(
						json_object_get(c, "name")),
					want[w]);
			if (!found)
				CU_FAIL(want[w]);
		}
		json_decref(j);
	}
	it_result_dispose(&r);

	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	/* progress on stderr: the run's place, elapsed and what is left,
	 * the steps that take time; the results' paths on stdout */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "[1/5] repetition 1, "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, " elapsed)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, " elapsed, about "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "creating eager disk (zeroed"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "[1/5]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "run.json: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "report: "));
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT(json_is_false(json_object_get(doc, "interrupted")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(
				json_object_get(doc, "plan"), "seed")),
			7);
	env = json_object_get(doc, "environment");
	CU_ASSERT_PTR_NOT_NULL(json_object_get(env, "server"));
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(
			json_object_get(env, "server"), "api_version_used")),
		"6.5");
	/* what a storage engineer needs to trust a number */
	CU_ASSERT(json_integer_value(json_object_get(
			  json_object_get(env, "datastore"), "free_at_start")) >
		  0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
				       json_object_get(env, "lun"), "vendor")),
			       "PROVBNCH");
	CU_ASSERT(json_is_false(
		json_object_get(json_object_get(env, "vm"), "snapshots")));
	CU_ASSERT(json_is_false(
		json_object_get(json_object_get(env, "vm"), "power_cycled")));
	CU_ASSERT_PTR_NOT_NULL(
		json_string_value(json_object_get(env, "guest_transfer")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "results")), 5);
	json_array_foreach(json_object_get(doc, "results"), i, item)
	{
		json_t *disk = json_object_get(item, "disk");
		json_t *rb = json_object_get(disk, "readback");

		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(item, "status")),
			"ok");
		if (strcmp(json_string_value(json_object_get(item, "status")),
			   "ok"))
			fprintf(stderr, "\n  %s: %s",
				json_string_value(
					json_object_get(item, "mode")),
				json_string_value(
					json_object_get(item, "error")));
		/* the mode read back from the server is the mode asked */
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(rb, "mode")),
			json_string_value(json_object_get(item, "mode")));
		/* provisioning is timed by the server's task */
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
					       disk, "provision_source")),
				       "server task");
		/* a physical RDM is found by the LUN's own NAA id */
		if (!strcmp(json_string_value(json_object_get(item, "mode")),
			    "rdmp"))
			CU_ASSERT_STRING_EQUAL(
				json_string_value(
					json_object_get(disk, "uuid")),
				"6000c290000000000000000000000001");
		passes = json_object_get(json_object_get(item, "runner"),
					 "passes");
		CU_ASSERT_EQUAL(json_array_size(passes), 3);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(
					json_array_get(passes, 0), "bytes")),
				8 << 20);
		modes_seen++;
	}
	CU_ASSERT_EQUAL(modes_seen, 5);
	/* no password in anything the run wrote */
	CU_ASSERT_EQUAL(it_sh("grep -rq secret '%s' '%s'", res, state), 1);
	json_decref(doc);

	/* the runner's directory in the guest is the guest user's alone */
	CU_ASSERT_EQUAL(
		it_sh("test \"$(stat -c %%a '%s/opt/pb')\" = 700", flags_root),
		0);
	/* the VM has exactly its own disks; nothing left anywhere */
	after = disk_keys(&v);
	CU_ASSERT_STRING_EQUAL(before, after);
	CU_ASSERT_EQUAL(it_sh("ls '%s/.disks' | grep -q .", flags_root), 1);
	CU_ASSERT_EQUAL(it_sh("ls '%s/opt/pb' | grep -qE 'out-|log-|check-'",
			      flags_root),
			1);
	/* this simulator's own datastores (others run at the same time),
	 * which are there, and hold nothing of provbench's */
	CU_ASSERT_EQUAL(it_sh("ls '%s' | grep -q '^govcsim-'", v.tmp), 0);
	CU_ASSERT_EQUAL(it_sh("find '%s' -name 'provbench-*' 2>/dev/null | "
			      "grep -q .",
			      v.tmp),
			1);
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""), 5);
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"destroyed\""), 5);
	free(before);
	free(after);
	vcsim_stop(&v);
}

static void run_all_modes_vcenter(void)
{
	lab_esx = false;
	run_all_modes();
}

static void run_all_modes_esx(void)
{
	lab_esx = true;
	run_all_modes();
	lab_esx = false;
}

#define PROFILE_SLOW                                                           \
	"{\"name\": \"it-slow\", \"backend\": \"vsphere\",\n"                  \
	" \"vsphere\": {\"vm\": \"DC0_H0_VM0\", \"guest_dir\": "               \
	"\"/opt/pb\"},\n"                                                      \
	" \"disk_size\": \"1G\", \"modes\": [\"lazy\", \"thin\"],\n"           \
	" \"workload\": {\"bs\": \"4K\", \"qd\": 1, \"pattern\": \"rand\", "   \
	"\"engine\": \"psync\", \"direct\": false,\n"                          \
	" \"passes\": [\"first-write\", \"rewrite\"]}}\n"

/* A runner that stays: a command pass that sleeps, so a test can kill the
 * harness while its guest runner certainly runs, however slow the host. */
#define PROFILE_STAYS                                                          \
	"{\"name\": \"it-stays\", \"backend\": \"vsphere\",\n"                 \
	" \"vsphere\": {\"vm\": \"DC0_H0_VM0\", \"guest_dir\": "               \
	"\"/opt/pb\"},\n"                                                      \
	" \"disk_size\": \"1M\", \"modes\": [\"lazy\", \"thin\"],\n"           \
	" \"workload\": {\"bs\": \"64K\", \"passes\": [\"command\"], "         \
	"\"command\": \"sleep 300\"}}\n"

/* Is a runner in the guest sandbox root still running? */
static bool guest_runner_running(const char *root)
{
	/* [/]: the pattern does not match the shell that runs pgrep */
	return it_sh("pgrep -f '%s[/]opt/pb/provbench-runner' >/dev/null",
		     root) == 0;
}

/*
 * SIGKILL mid-mode, then cleanup: the guest runner the dead run left is
 * stopped, and exactly the leftover disk goes.
 */
#define PROFILE_TARGETS                                                        \
	"{\"name\": \"it-targets\", \"backend\": \"vsphere\",\n"               \
	" \"vsphere\": {\"guest_dir\": \"/opt/pb\"},\n"                        \
	" \"disk_size\": \"8M\", \"modes\": [\"eager\", \"thin\"],\n"          \
	" \"repetitions\": 2, \"order\": \"shuffle\",\n"                       \
	" \"workload\": {\"bs\": \"64K\", \"qd\": 4, \"passes\": "             \
	"[\"first-write\", \"rewrite\"]},\n"                                   \
	" \"targets\": [{\"name\": \"vm0-ds0\", \"vm\": \"DC0_H0_VM0\", "      \
	"\"datastore\": \"LocalDS_0\"},\n"                                     \
	"  {\"name\": \"vm0-ds1\", \"vm\": \"DC0_H0_VM0\", \"datastore\": "    \
	"\"LocalDS_1\"},\n"                                                    \
	"  {\"name\": \"vm1-ds1\", \"vm\": \"DC0_H0_VM1\", \"datastore\": "    \
	"\"LocalDS_1\"}]}\n"

/* another VM's run on the second datastore, extra keys added */
#define OTHER_RUN(extra)                                                       \
	"{\"name\": \"it-other\", \"backend\": \"vsphere\",\n"                 \
	" \"vsphere\": {\"vm\": \"DC0_C0_RP0_VM0\", \"datastore\": "           \
	"\"LocalDS_1\", \"guest_dir\": \"/opt/pb2\"},\n"                       \
	" \"disk_size\": \"1M\", \"modes\": [\"thin\"]," extra "\n"            \
	" \"workload\": {\"bs\": \"64K\", \"passes\": [\"first-write\"]}}\n"

/* Has the newest run under res a summary.txt line with needle? Every
 * column and finding is there, lines as they are. */
static bool latest_has(const char *res, const char *needle)
{
	char path[800];

	snprintf(path, sizeof(path), "%s/latest/summary.txt", res);
	return it_count(path, needle) > 0;
}

/*
 * Three targets on two datastores (vCenter, one at a time): each disk on
 * its target's datastore and VM, every result naming its target, the
 * report per target, and both VMs left with exactly their own disks; a
 * run killed mid-way leaves what cleanup removes, on the right VM.
 */
static void targets_on_two_datastores(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char *b0, *b1, *a0, *a1, root[600];
	SCRATCH(prof, "targets.json");
	SCRATCH(state, "state-targets");
	SCRATCH(res, "results-targets");
	SCRATCH(journal, "state-targets/journal.jsonl");
	SCRATCH(sum, "results-targets/latest/summary.csv");
	static const char *const want_ds[] = {"[LocalDS_0]", "[LocalDS_1]",
					      "[LocalDS_1]"};
	const char *const more[] = {"-datastores", "2", NULL};
	json_t *doc, *item;
	int per[3] = {0, 0, 0};
	size_t i;
	pid_t pid;
	int st;

	lab_esx = false;
	it_sh("rm -rf '%s' '%s'", state, res);
	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root),
					"guest-targets", state, prof,
					PROFILE_TARGETS, true, more),
			      0);
	b0 = it_vm_disk_keys(&v, "DC0_H0_VM0");
	b1 = it_vm_disk_keys(&v, "DC0_H0_VM1");
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "x 3 targets = 12 disks"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "target vm1-ds1:\n"));
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	/* a controller's share: only the targets named */
	CU_ASSERT_EQUAL(it_pbn(&r, &e,
			       (const char *[]){"run", "--dry-run", "--targets",
						"vm1-ds1,vm0-ds0", prof, NULL}),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "x 2 targets = 8 disks"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "targets: vm0-ds0, vm1-ds1\n"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(
		it_pbn(&r, &e,
		       (const char *[]){"run", "--targets", "vm2", prof, NULL}),
		2);
	CU_ASSERT_PTR_NOT_NULL(strstr(
		r.err, "provbench: --targets: 'vm2' is not a target of the "
		       "profile (vm0-ds0, vm0-ds1, vm1-ds1)"));
	CU_ASSERT_EQUAL(it_sh("test -e '%s'", res), 1);
	it_result_dispose(&r);

	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "] vm1-ds1: repetition "));
	it_result_dispose(&r);
	/* every finding: summary.txt (the terminal shows the first 7) */
	CU_ASSERT(latest_has(res, "thin: first-write penalty "));
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "targets")), 3);
	json_array_foreach(json_object_get(doc, "results"), i, item)
	{
		json_int_t t =
			json_integer_value(json_object_get(item, "target"));
		const char *file = json_string_value(
			json_object_get(json_object_get(item, "disk"), "file"));

		CU_ASSERT_FATAL(t >= 0 && t < 3);
		per[t]++;
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(item, "status")),
			"ok");
		/* on its target's datastore: beside the VM on the VM's own,
		 * at the top of another (as the backend names them) */
		CU_ASSERT(file &&
			  !strncmp(file, want_ds[t], strlen(want_ds[t])));
		CU_ASSERT(file && strstr(file, t ? "] provbench-"
						 : "] DC0_H0_VM0/provbench-"));
	}
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(per[i], 4);
	json_decref(doc);
	CU_ASSERT_EQUAL(it_sh("test $(grep -c ',vm0-ds0,' '%s') = 2 && "
			      "test $(grep -c ',vm1-ds1,DC0_H0_VM1,' '%s') = 2",
			      sum, sum),
			0);
	a0 = it_vm_disk_keys(&v, "DC0_H0_VM0");
	a1 = it_vm_disk_keys(&v, "DC0_H0_VM1");
	CU_ASSERT_STRING_EQUAL(b0, a0);
	CU_ASSERT_STRING_EQUAL(b1, a1);
	free(a0);
	free(a1);
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""),
			it_count(journal, "\"op\":\"destroyed\""));

	/* killed while the first target (the second VM, on the second
	 * datastore) has its disk: cleanup removes it from that VM, through
	 * that target, and leaves the other VM alone */
	it_write_file(prof,
		      "{\"name\": \"it-targets\", \"backend\": \"vsphere\",\n"
		      " \"vsphere\": {\"guest_dir\": \"/opt/pb\"},\n"
		      " \"disk_size\": \"1M\", \"modes\": [\"thin\"],\n"
		      " \"workload\": {\"bs\": \"64K\", \"passes\": "
		      "[\"command\"], \"command\": \"sleep 300\"},\n"
		      " \"targets\": [{\"name\": \"vm1-ds1\", \"vm\": "
		      "\"DC0_H0_VM1\", \"datastore\": \"LocalDS_1\"},\n"
		      "  {\"name\": \"vm0-ds0\", \"vm\": \"DC0_H0_VM0\"}]}\n");
	pid = it_spawn_run(&e, res, prof);
	CU_ASSERT_FATAL(it_wait_created(journal, 20000));
	for (i = 0; i < 200 && !it_count(journal, "\"op\":\"started\""); i++)
		usleep(50000);
	/* meanwhile another run on another VM, on the same datastore:
	 * warned (they interfere) and said in its run.json; one that asks
	 * to be alone is refused before anything is made */
	{
		SCRATCH(prof2, "targets-other.json");
		SCRATCH(res2, "results-targets-other");
		json_t *d2;

		it_write_file(prof2, OTHER_RUN(""));
		CU_ASSERT_EQUAL(it_pbn(&r, &e,
				       (const char *[]){"run", "-q", "-o", res2,
							prof2, NULL}),
				0);
		CU_ASSERT_PTR_NOT_NULL(
			strstr(r.err, "warning: another provbench run is using "
				      "vsphere "));
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, " datastore LocalDS_1: "
						     "the two interfere"));
		it_result_dispose(&r);
		d2 = it_load_run_json(res2);
		CU_ASSERT_PTR_NOT_NULL(strstr(
			json_string_value(json_array_get(
				json_object_get(
					json_object_get(d2, "environment"),
					"shared_with_other_runs"),
				0)),
			"datastore LocalDS_1"));
		json_decref(d2);
		it_write_file(prof2, OTHER_RUN(" \"exclusive\": true,"));
		it_sh("rm -rf '%s'", res2);
		CU_ASSERT_EQUAL(it_pbn(&r, &e,
				       (const char *[]){"run", "-q", "-o", res2,
							prof2, NULL}),
				2);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "datastore LocalDS_1 "
						     "(\"exclusive\": true "
						     "refuses to share it)"));
		CU_ASSERT_EQUAL(it_sh("test -e '%s'", res2), 1);
		it_result_dispose(&r);

		/* the same from another controller (its own state
		 * directory: no lock of ours to see): the server shows the
		 * first run's disk on the datastore */
		{
			SCRATCH(state2, "state-targets-other-machine");
			struct it_env e2;

			it_sh("mkdir -p '%s'", state2);
			it_vcsim_env(&e2, &v, state2);
			it_write_file(prof2, OTHER_RUN(""));
			CU_ASSERT_EQUAL(
				it_pbn(&r, &e2,
				       (const char *[]){"run", "-q", "-o", res2,
							prof2, NULL}),
				0);
			CU_ASSERT_PTR_NOT_NULL(strstr(
				r.err, "another provbench run, from another "
				       "machine, is using vsphere "));
			CU_ASSERT_PTR_NOT_NULL(strstr(
				r.err, " datastore LocalDS_1 (the server "
				       "shows 1 provbench disk no run of this "
				       "machine made: [LocalDS_1] provbench-"));
			it_result_dispose(&r);
			it_write_file(prof2,
				      OTHER_RUN(" \"exclusive\": true,"));
			it_sh("rm -rf '%s'", res2);
			CU_ASSERT_EQUAL(
				it_pbn(&r, &e2,
				       (const char *[]){"run", "-q", "-o", res2,
							prof2, NULL}),
				2);
			CU_ASSERT_PTR_NOT_NULL(
				strstr(r.err, "\"exclusive\": true refuses to "
					      "share it"));
			CU_ASSERT_EQUAL(it_sh("test -e '%s'", res2), 1);
			it_result_dispose(&r);
		}
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	a1 = it_vm_disk_keys(&v, "DC0_H0_VM1");
	CU_ASSERT_STRING_NOT_EQUAL(b1, a1); /* the disk is left */
	free(a1);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "1 disk(s) removed"));
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	a0 = it_vm_disk_keys(&v, "DC0_H0_VM0");
	a1 = it_vm_disk_keys(&v, "DC0_H0_VM1");
	CU_ASSERT_STRING_EQUAL(b0, a0);
	CU_ASSERT_STRING_EQUAL(b1, a1);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "0 disk(s) removed"));
	it_result_dispose(&r);
	free(a0);
	free(a1);
	free(b0);
	free(b1);
	vcsim_stop(&v);
}

/* three targets on three VMs, two of them on one datastore, at once */
#define AT_ONCE_TARGETS                                                        \
	" \"concurrency\": 3,\n"                                               \
	" \"targets\": [{\"name\": \"a\", \"vm\": \"DC0_H0_VM0\", "            \
	"\"datastore\": \"LocalDS_0\"},\n"                                     \
	"  {\"name\": \"b\", \"vm\": \"DC0_H0_VM1\", \"datastore\": "          \
	"\"LocalDS_1\"},\n"                                                    \
	"  {\"name\": \"c\", \"vm\": \"DC0_C0_RP0_VM0\", \"datastore\": "      \
	"\"LocalDS_1\"}]}\n"

#define PROFILE_AT_ONCE                                                        \
	"{\"name\": \"it-at-once\", \"backend\": \"vsphere\",\n"               \
	" \"vsphere\": {\"guest_dir\": \"/opt/pb\"},\n"                        \
	" \"disk_size\": \"32M\", \"modes\": [\"eager\", \"thin\"],\n"         \
	" \"repetitions\": 2, \"order\": \"shuffle\",\n"                       \
	" \"workload\": {\"bs\": \"64K\", \"qd\": 4, \"passes\": "             \
	"[\"first-write\", \"rewrite\"]},\n" AT_ONCE_TARGETS

#define PROFILE_AT_ONCE_SLOW                                                   \
	"{\"name\": \"it-at-once\", \"backend\": \"vsphere\",\n"               \
	" \"vsphere\": {\"guest_dir\": \"/opt/pb\"},\n"                        \
	" \"disk_size\": \"1M\", \"modes\": [\"thin\"],\n"                     \
	" \"workload\": {\"bs\": \"64K\", \"passes\": [\"command\"], "         \
	"\"command\": \"sleep 300\"},\n" AT_ONCE_TARGETS

static const char *const at_once_vms[] = {"DC0_H0_VM0", "DC0_H0_VM1",
					  "DC0_C0_RP0_VM0"};

/* Every VM's disks, one string per VM, in at_once_vms' order. */
static void at_once_disks(const struct vcsim *v, char *out[3])
{
	for (int i = 0; i < 3; i++)
		out[i] = it_vm_disk_keys(v, at_once_vms[i]);
}

static void at_once_same(char *a[3], char *b[3])
{
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_PTR_NOT_NULL(a[i]);
		CU_ASSERT(a[i] && b[i] && !strcmp(a[i], b[i]));
		if (a[i] && b[i] && strcmp(a[i], b[i]))
			fprintf(stderr, "\n%s: %s -> %s\n", at_once_vms[i],
				a[i], b[i]);
		free(b[i]);
	}
}

/* Is a guest runner still running in any VM's sandbox under root? */
static bool any_guest_runner(const char *root)
{
	return it_sh("pgrep -f '%s/[^ ]*[/]opt/pb/provbench-runner' "
		     ">/dev/null",
		     root) == 0;
}

/*
 * Three targets on three VMs and two datastores with concurrency 3 (each
 * VM its own guest, as real ones are): each wave is one mode on all three
 * at once, their passes overlap on the clock, the report sums them (the
 * aggregate) and says two of them shared a datastore; every VM is left
 * with its own disks. Then SIGINT and kill -9 while all three run.
 */
static void targets_at_once(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char *before[3], *after[3], root[600];
	SCRATCH(prof, "at-once.json");
	SCRATCH(state, "state-at-once");
	SCRATCH(res, "results-at-once");
	SCRATCH(journal, "state-at-once/journal.jsonl");
	SCRATCH(fleet, "results-at-once/latest/fleet.csv");
	SCRATCH(sum, "results-at-once/latest/summary.txt");
	const char *const more[] = {"-datastores", "2", "-guest-per-vm", NULL};
	json_t *doc, *items;
	long long wave_of[12], logins, logouts;
	size_t i, j, n;
	pid_t pid;
	int st;

	lab_esx = false;
	it_sh("rm -rf '%s' '%s'", state, res);
	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root),
					"guest-at-once", state, prof,
					PROFILE_AT_ONCE, true, more),
			      0);
	at_once_disks(&v, before);
	logins = it_soap_calls(&v, "Login");
	logouts = it_soap_calls(&v, "Logout");
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	/* one session on the server for the three targets: one login, one
	 * logout, a collector of its own for each of the two sharing it */
	CU_ASSERT_EQUAL(it_soap_calls(&v, "Login") - logins, 1);
	CU_ASSERT_EQUAL(it_soap_calls(&v, "Logout") - logouts, 1);
	CU_ASSERT_EQUAL(it_soap_calls(&v, "CreatePropertyCollector"), 2);
	CU_ASSERT_EQUAL(it_soap_calls(&v, "DestroyPropertyCollector"), 2);
	/* a worker's lines carry its target */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, " [c]   creating "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "targets at once (up to 3 per "
					     "wave)"));
	it_result_dispose(&r);
	CU_ASSERT(latest_has(res, "targets b, c shared vsphere "));
	CU_ASSERT(latest_has(res, " datastore LocalDS_1 while measured at "
				  "once"));
	/* a and b are on the standalone host, c in the cluster */
	CU_ASSERT(latest_has(res, "targets a, b shared vsphere "));
	CU_ASSERT(latest_has(res, " host host-"));
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	items = json_object_get(doc, "results");
	n = json_array_size(items);
	CU_ASSERT_EQUAL_FATAL(n, 12);
	for (i = 0; i < n; i++) {
		json_t *a = json_array_get(items, i);

		wave_of[i] = json_integer_value(json_object_get(a, "wave"));
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(a, "status")), "ok");
	}
	/* four waves of three: one mode and repetition, every target, and
	 * the three first writes of a wave ran at the same time */
	for (i = 0; i < n; i++) {
		json_t *a = json_array_get(items, i);
		unsigned seen = 0, k = 0;
		double s[3], e2[3], lo = 0, hi = 1e30;

		for (j = 0; j < n; j++) {
			json_t *b = json_array_get(items, j), *p;

			if (wave_of[j] != wave_of[i])
				continue;
			CU_ASSERT_STRING_EQUAL(
				json_string_value(json_object_get(b, "mode")),
				json_string_value(json_object_get(a, "mode")));
			CU_ASSERT_EQUAL(
				json_integer_value(json_object_get(b, "rep")),
				json_integer_value(json_object_get(a, "rep")));
			seen |= 1u << json_integer_value(
					json_object_get(b, "target"));
			p = json_array_get(
				json_object_get(json_object_get(b, "runner"),
						"passes"),
				0);
			if (k < 3) {
				s[k] = (double)json_integer_value(
					       json_object_get(
						       p, "started_unix_ns")) /
				       1e9;
				e2[k] = s[k] + json_real_value(json_object_get(
						       p, "seconds"));
				k++;
			}
		}
		CU_ASSERT_EQUAL(seen, 7u);
		CU_ASSERT_EQUAL_FATAL(k, 3);
		for (j = 0; j < 3; j++) {
			lo = s[j] > lo ? s[j] : lo;
			hi = e2[j] < hi ? e2[j] : hi;
		}
		CU_ASSERT(hi > lo); /* they overlapped */
	}
	/* its datastore and its ESXi host */
	CU_ASSERT_EQUAL(
		json_array_size(json_object_get(
			json_array_get(json_object_get(doc, "targets"), 2),
			"places")),
		2);
	json_decref(doc);
	/* fleet.csv: a row per mode and pass, each with an aggregate */
	CU_ASSERT_EQUAL(it_sh("test $(grep -c '^[^,]*,it-at-once,,thin,' "
			      "'%s') = 2 && test $(grep -c "
			      "',eager,first-write,0,2,3,[0-9]' '%s') = 1",
			      fleet, fleet),
			0);
	CU_ASSERT_EQUAL(it_sh("grep -q 'thin   first-write (pass 1)     2  "
			      "     3  [0-9.]* MiB/s' '%s'",
			      sum),
			0);
	at_once_disks(&v, after);
	at_once_same(before, after);
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""),
			it_count(journal, "\"op\":\"destroyed\""));

	/* SIGINT while all three run: every guest's runner stopped, every
	 * disk gone, exit 130 */
	it_write_file(prof, PROFILE_AT_ONCE_SLOW);
	n = (size_t)it_count(journal, "\"op\":\"started\"");
	pid = it_spawn_run(&e, res, prof);
	for (i = 0;
	     i < 400 && (size_t)it_count(journal, "\"op\":\"started\"") < n + 3;
	     i++)
		usleep(50000);
	CU_ASSERT_EQUAL((size_t)it_count(journal, "\"op\":\"started\""), n + 3);
	CU_ASSERT(any_guest_runner(root));
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	CU_ASSERT_FALSE(any_guest_runner(root));
	at_once_disks(&v, after);
	at_once_same(before, after);
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""),
			it_count(journal, "\"op\":\"destroyed\""));
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "results")), 3);
	json_array_foreach(json_object_get(doc, "results"), i, items)
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(items, "status")),
			"interrupted");
	json_decref(doc);

	/* kill -9 while all three run: three disks left, one per VM, and
	 * cleanup removes exactly those and stops the runners */
	pid = it_spawn_run_to_kill(&e, res, prof);
	for (i = 0;
	     i < 400 && (size_t)it_count(journal, "\"op\":\"started\"") < n + 6;
	     i++)
		usleep(50000);
	CU_ASSERT_EQUAL((size_t)it_count(journal, "\"op\":\"started\""), n + 6);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	at_once_disks(&v, after);
	for (i = 0; i < 3; i++) {
		CU_ASSERT(after[i] && before[i] && strcmp(after[i], before[i]));
		free(after[i]);
	}
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "3 disk(s) removed"));
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	CU_ASSERT_FALSE(any_guest_runner(root));
	at_once_disks(&v, after);
	at_once_same(before, after);
	for (i = 0; i < 3; i++)
		free(before[i]);
	vcsim_stop(&v);
}

/*
 * The server drops the session the three targets share, mid-run (the
 * 60th call's cookie is forgotten): the first target to see
 * NotAuthenticated logs in again, the others take that login, and the
 * run measures everything: two logins in all, not one per target.
 */
static void shared_login_renewed(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600];
	SCRATCH(prof, "at-once-expire.json");
	SCRATCH(state, "state-at-once-expire");
	SCRATCH(res, "results-at-once-expire");
	const char *const more[] = {"-datastores",   "2",  "-guest-per-vm",
				    "-expire-after", "60", NULL};
	json_t *doc, *item;
	size_t i;

	lab_esx = false;
	it_sh("rm -rf '%s' '%s'", state, res);
	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root),
					"guest-at-once-expire", state, prof,
					PROFILE_AT_ONCE, true, more),
			      0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_soap_calls(&v, "Login"), 2);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "results")), 12);
	json_array_foreach(json_object_get(doc, "results"), i, item)
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(item, "status")),
			"ok");
	json_decref(doc);
	vcsim_stop(&v);
}

/*
 * A matrix over datastores (the targets) and disk sizes (the points),
 * with concurrency 2: each disk on its datastore at its point's size, as
 * the server reads it back; the report's rows are per datastore and size.
 */
static void matrix_datastores_and_sizes(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600];
	SCRATCH(prof, "matrix-ds.json");
	SCRATCH(state, "state-matrix-ds");
	SCRATCH(res, "results-matrix-ds");
	SCRATCH(sum, "results-matrix-ds/latest/summary.csv");
	const char *const more[] = {"-datastores", "2", "-guest-per-vm", NULL};
	json_t *doc, *item;
	size_t i;
	int seen = 0;

	lab_esx = false;
	it_sh("rm -rf '%s' '%s'", state, res);
	CU_ASSERT_EQUAL_FATAL(
		lab_start(
			&v, &e, root, sizeof(root), "guest-matrix-ds", state,
			prof,
			"{\"name\": \"it-matrix\", \"backend\": \"vsphere\",\n"
			" \"vsphere\": {\"vm\": \"DC0_H0_VM0\", "
			"\"guest_dir\": \"/opt/pb\"},\n"
			" \"modes\": [\"thin\"], \"concurrency\": 2,\n"
			" \"workload\": {\"bs\": \"64K\", \"passes\": "
			"[\"first-write\"]},\n"
			" \"matrix\": {\"datastore\": [\"LocalDS_0\", "
			"\"LocalDS_1\"], \"disk_size\": [\"4M\", \"8M\"]}}\n",
			true, more),
		0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "x 2 targets = 4 disks of 4 "
					     "MiB to 8 MiB"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	json_array_foreach(json_object_get(doc, "results"), i, item)
	{
		json_t *disk = json_object_get(item, "disk");
		const char *file =
			json_string_value(json_object_get(disk, "file"));
		const char *w =
			json_string_value(json_object_get(item, "workload"));
		json_int_t t =
			json_integer_value(json_object_get(item, "target"));
		json_int_t cap = json_integer_value(json_object_get(
			json_object_get(disk, "readback"), "capacity"));

		CU_ASSERT_FATAL(file && w && (t == 0 || t == 1));
		CU_ASSERT(
			!strncmp(file, t ? "[LocalDS_1]" : "[LocalDS_0]", 11));
		CU_ASSERT_EQUAL(cap,
				strstr(w, "disk_size=8M") ? 8 << 20 : 4 << 20);
		seen |= 1 << (t * 2 + (strstr(w, "disk_size=8M") != NULL));
	}
	CU_ASSERT_EQUAL(seen, 15);
	json_decref(doc);
	CU_ASSERT_EQUAL(it_sh("test $(grep -c 'datastore=LocalDS_1,.*,"
			      "disk_size=8M,' '%s') = 1",
			      sum),
			0);
	vcsim_stop(&v);
}

static void kill9_then_cleanup(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char *before, *during, *after, root[600];
	SCRATCH(prof, "slow.json");
	SCRATCH(state, "state2");
	SCRATCH(results, "results2");
	SCRATCH(journal, "state2/journal.jsonl");
	pid_t pid;
	int st;

	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root), "guest2",
					state, prof, PROFILE_STAYS, NULL, NULL),
			      0);
	it_sh("rm -rf '%s' '%s'", state, results);
	it_sh("mkdir -p '%s'", state);
	before = disk_keys(&v);
	pid = it_spawn_run(&e, results, prof);
	CU_ASSERT_FATAL(it_wait_created(journal, 20000));
	for (int i = 0; i < 200 && !it_count(journal, "\"op\":\"started\"");
	     i++)
		usleep(50000);
	CU_ASSERT_EQUAL(it_count(journal, "\"guest_pid\""), 1);
	/* a second run on the same VM meanwhile: refused, nothing done */
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", results, prof), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "another provbench run holds"));
	it_result_dispose(&r);
	/* a dry cleanup says what cleanup would do: nothing, a live run's
	 * disk is not a leftover */
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", "--dry-run", prof, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "another provbench run holds"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "would remove"));
	it_result_dispose(&r);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	during = disk_keys(&v);
	CU_ASSERT_STRING_NOT_EQUAL(before, during); /* the disk is left */
	CU_ASSERT_TRUE(guest_runner_running(root)); /* and its runner */

	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", "--dry-run", prof, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "would remove"));
	it_result_dispose(&r);
	/* by its results directory, the profile's file gone: the profile
	 * run.json holds is the one used */
	CU_ASSERT_EQUAL(it_sh("mv '%s' '%s.moved'", prof, prof), 0);
	CU_ASSERT_EQUAL(it_sh("ls -d '%s'/*/ > '%s/rundir'", results, it_dir()),
			0);
	{
		SCRATCH(list, "rundir");
		char *dir = pb_slurp_file(list, NULL);

		CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
		dir[strcspn(dir, "\n")] = '\0';
		CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", dir, NULL, NULL), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "1 disk(s) removed"));
		it_result_dispose(&r);
		free(dir);
	}
	CU_ASSERT_EQUAL(it_sh("mv '%s.moved' '%s'", prof, prof), 0);
	after = disk_keys(&v);
	CU_ASSERT_STRING_EQUAL(before, after);
	CU_ASSERT_FALSE(guest_runner_running(root));
	/* nothing left to do the second time */
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "0 disk(s) removed"));
	it_result_dispose(&r);
	free(before);
	free(during);
	free(after);
	vcsim_stop(&v);
}

static void kill9_then_cleanup_vcenter(void)
{
	lab_esx = false;
	kill9_then_cleanup();
}

static void kill9_then_cleanup_esx(void)
{
	lab_esx = true;
	kill9_then_cleanup();
	lab_esx = false;
}

/*
 * Every signal that stops a run, during the runner: the guest's runner
 * stopped, the disk detached and destroyed, partial results, the exit
 * code for that signal, no leftovers.
 */
static void signals_clean_up(void)
{
	struct vcsim v;
	struct it_env e;
	char *before, *after, root[600];
	SCRATCH(prof, "slow.json");
	SCRATCH(state, "state3");
	SCRATCH(res, "results3");
	SCRATCH(journal, "state3/journal.jsonl");
	size_t i;

	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root), "guest3",
					state, prof, PROFILE_SLOW, NULL, NULL),
			      0);
	before = disk_keys(&v);
	for (i = 0; i < it_nstop_signals; i++) {
		json_t *doc, *item;
		pid_t pid;
		int st, started = it_count(journal, "\"op\":\"started\"");

		it_sh("rm -rf '%s'", res);
		pid = it_spawn_run(&e, res, prof);
		/* the guest's runner is running: its process is journaled */
		CU_ASSERT_FATAL(it_wait_journal(journal, "\"op\":\"started\"",
						started + 1, 20000));
		kill(pid, it_stop_signals[i].sig);
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) ||
		    WEXITSTATUS(st) != it_stop_signals[i].rc) {
			fprintf(stderr, "\n  %s: status %#x",
				it_stop_signals[i].name, st);
			CU_FAIL(it_stop_signals[i].name);
		}
		after = disk_keys(&v);
		CU_ASSERT_STRING_EQUAL(before, after);
		free(after);
		CU_ASSERT_FALSE(any_guest_runner(root));
		CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""),
				it_count(journal, "\"op\":\"destroyed\""));
		doc = it_load_run_json(res);
		CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
		CU_ASSERT(json_is_true(json_object_get(doc, "interrupted")));
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
					       doc, "interrupted_by")),
				       it_stop_signals[i].name);
		item = json_array_get(json_object_get(doc, "results"), 0);
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(item, "status")),
			"interrupted");
		json_decref(doc);
	}
	free(before);
	vcsim_stop(&v);
}

/*
 * A guest runner that stops (SIGSTOP: no I/O, no progress file) is a
 * stall once stall_s passes without progress: the VM's state and the
 * runner's log are kept beside the results, the guest process is
 * terminated through the guest operations before its disk is removed,
 * and the repetition runs again on a new disk; the run exits 0 and the
 * VM keeps only its own disks.
 */
static void stall_terminated_retried(void)
{
	struct vcsim v;
	struct it_env e;
	char *before, *after, root[600], text[1400], *dirname;
	SCRATCH(prof, "stall.json");
	SCRATCH(state, "state-stall");
	SCRATCH(res, "results-stall");
	SCRATCH(mark, "state-stall/in-command");
	SCRATCH(journal, "state-stall/journal.jsonl");
	json_t *doc, *item;
	unsigned waited;
	pid_t pid;
	int st;

	snprintf(text, sizeof(text),
		 "{\"name\": \"it-stall\", \"backend\": \"vsphere\",\n"
		 " \"vsphere\": {\"vm\": \"DC0_H0_VM0\", \"guest_dir\": "
		 "\"/opt/pb\"},\n"
		 " \"disk_size\": \"8M\", \"modes\": [\"thin\"], \"stall_s\": "
		 "5,\n"
		 " \"workload\": {\"bs\": \"64K\", \"passes\": "
		 "[\"first-write\", "
		 "\"command\"], \"command\": \"test -e %s && exit 0; touch %s; "
		 "sleep 60\"}}\n",
		 mark, mark);
	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root),
					"guest-stall", state, prof, text, NULL,
					NULL),
			      0);
	before = disk_keys(&v);
	pid = it_spawn_run(&e, res, prof);
	for (waited = 0; waited < 60000 && access(mark, F_OK); waited += 20)
		usleep(20000);
	CU_ASSERT_EQUAL_FATAL(it_sh("pkill -STOP -f "
				    "'%s[/]opt/pb/provbench-runner'",
				    root),
			      0);
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CU_ASSERT_FALSE(guest_runner_running(root));
	after = disk_keys(&v);
	CU_ASSERT_STRING_EQUAL(before, after);
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""), 2);
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"destroyed\""), 2);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	item = json_array_get(json_object_get(doc, "results"), 0);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(item, "status")), "ok");
	CU_ASSERT_PTR_NOT_NULL(
		strstr(json_string_value(json_object_get(
			       json_object_get(item, "retried"), "reason")),
		       "the guest process was terminated"));
	json_decref(doc);
	dirname = it_newest_dir(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dirname);
	CU_ASSERT_EQUAL(it_sh("grep -q 'power poweredOn' "
			      "'%s/runner-1.stall/vm.txt'",
			      dirname),
			0);
	free(dirname);
	free(before);
	free(after);
	vcsim_stop(&v);
}

/* A task failing in one mode's create: that mode failed, the rest ran. */
static void failed_mode_others_run(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char *before, *after, root[600];
	SCRATCH(prof, "all.json");
	SCRATCH(state, "state4");
	SCRATCH(res, "results4");
	json_t *doc, *item;
	size_t i;
	unsigned ok = 0, failed = 0;

	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root), "guest4",
					state, prof, PROFILE_ALL, "-fail-mode",
					"eager"),
			      0);
	before = disk_keys(&v);
	/* partial: exit 4; quiet, yet the failure is one line naming mode,
	 * repetition, step and reason, and where run.json is */
	CU_ASSERT_EQUAL(
		it_pbn(&r, &e,
		       (const char *[]){"run", "-q", "-o", res, prof, NULL}),
		4);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "item(s) failed, the rest"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.err, "run: eager, repetition 1: create eager disk: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "/run.json"));
	if (!strstr(r.err, "repetition 1: create eager disk"))
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	json_array_foreach(json_object_get(doc, "results"), i, item)
	{
		const char *m =
			json_string_value(json_object_get(item, "mode"));
		const char *st =
			json_string_value(json_object_get(item, "status"));

		if (!strcmp(m, "eager")) {
			CU_ASSERT_STRING_EQUAL(st, "failed");
			CU_ASSERT_PTR_NOT_NULL(
				strstr(json_string_value(
					       json_object_get(item, "error")),
				       "InsufficientStorageSpace"));
			/* where it stopped, for the report's list */
			CU_ASSERT_STRING_EQUAL(
				json_string_value(
					json_object_get(item, "step")),
				"create");
			failed++;
		} else {
			CU_ASSERT_STRING_EQUAL(st, "ok");
			ok++;
		}
	}
	CU_ASSERT_EQUAL(ok, 4);
	CU_ASSERT_EQUAL(failed, 1);
	/* the root's "latest-attempt" names this run, relative; "latest"
	 * waits for a complete one; the build's commit is recorded */
	CU_ASSERT_EQUAL(
		it_sh("test \"$(readlink '%s/latest-attempt')\" = "
		      "\"%s\" && test -f '%s/latest-attempt/run.json' && "
		      "test ! -e '%s/latest'",
		      res, json_string_value(json_object_get(doc, "run")), res,
		      res),
		0);
	CU_ASSERT_PTR_NOT_NULL(json_object_get(doc, "commit"));
	json_decref(doc);
	after = disk_keys(&v);
	CU_ASSERT_STRING_EQUAL(before, after);
	free(before);
	free(after);
	vcsim_stop(&v);
}

/* guest_sysctl runs `sysctl -w` in the guest before the modes run. */
static void guest_sysctl_applied(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600], log[700];
	char *text;
	SCRATCH(prof, "sysctl.json");
	SCRATCH(state, "state6");
	SCRATCH(res, "results6");

	CU_ASSERT_EQUAL_FATAL(
		start_lab(
			&v, &e, root, sizeof(root), "guest6", state, prof,
			"{\"name\": \"sysctl\", \"backend\": \"vsphere\", "
			"\"vsphere\": {\"vm\": \"DC0_H0_VM0\", \"guest_dir\": "
			"\"/opt/pb\"}, \"disk_size\": \"1M\", \"modes\": "
			"[\"thin\"], \"guest_sysctl\": {\"vm.swappiness\": "
			"\"0\", \"vm.dirty_ratio\": \"10\"}, \"workload\": "
			"{\"bs\": \"64K\"}}",
			NULL, NULL),
		0);
	/* the sandbox's own sysctl records how it was called */
	snprintf(log, sizeof(log), "%s/sysctl.log", root);
	CU_ASSERT_EQUAL_FATAL(
		it_sh("mkdir -p '%s/sbin' && printf '#!/bin/sh\\necho \"$*\" "
		      ">> %s\\n' > '%s/sbin/sysctl' && chmod 755 "
		      "'%s/sbin/sysctl'",
		      root, log, root, root),
		0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	it_result_dispose(&r);
	text = pb_slurp_file(log, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "-w vm.swappiness=0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "-w vm.dirty_ratio=10"));
	free(text);
	vcsim_stop(&v);
}

/*
 * A Windows test VM: the simulator's DC0_H0_VM1 reports guestFamily
 * windowsGuest, its guest operations take C:\ paths and run programs under
 * Wine. The run picks provbench-runner.exe, C:\ProgramData\provbench,
 * icacls for the directory, Windows file attributes, no --by-id-dir but
 * the profile's (the fixture's stand-in for disk identifiers), and yields
 * a report whose environment says Windows.
 */
static void windows_guest_run(void)
{
	static const char *const more[] = {"-windows-vm", "DC0_H0_VM1", NULL};
	const char *exe = it_plain_bin("win/provbench-runner.exe");
	char root[600], prefix[700], path[800];
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	json_t *doc, *res, *runner;
	size_t i;
	pid_t pid;
	int st;
	SCRATCH(prof, "windows.json");
	SCRATCH(bad_prof, "windows-bad.json");
	SCRATCH(state, "state-win");
	SCRATCH(res_dir, "results-win");

	if (access(exe, X_OK))
		PB_SKIP("no win/provbench-runner.exe (make runner-windows)");
	if (it_sh("command -v wine >/dev/null"))
		PB_SKIP("no wine (Debian's wine64)");
	/* the simulator's guests run Wine in the build's own prefix */
	if (!realpath(it_plain_bin("."), path))
		CU_FAIL_FATAL("no build directory");
	snprintf(prefix, sizeof(prefix), "%s/wine-prefix", path);
	setenv("WINEPREFIX", prefix, 1);
	CU_ASSERT_EQUAL_FATAL(
		lab_start(
			&v, &e, root, sizeof(root), "guest-win", state, prof,
			"{\"name\": \"windows\", \"backend\": \"vsphere\", "
			"\"vsphere\": {\"vm\": \"DC0_H0_VM1\", \"by_id_dir\": "
			"\"C:\\\\provbench-disks\"}, \"disk_size\": \"4M\", "
			"\"modes\": [\"thin\", \"eager\"], \"workload\": "
			"{\"bs\": \"64K\", \"qd\": 4, \"passes\": "
			"[\"first-write\", \"rewrite\"]}}",
			true, more),
		0);
	it_env_add(&e, "PROVBENCH_RUNNER_WINDOWS", exe);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Windows (windowsGuest)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "C:\\ProgramData\\provbench"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "an administrator"));
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	/* what only the Linux runner can do is refused before anything is
	 * made: ext4 on a Windows guest, a Linux engine's name */
	{
		static const struct {
			const char *workload, *said;
		} bad[] = {
			{"\"filesystem\": \"ext4\", \"passes\": "
			 "[\"first-write\"]",
			 "workload filesystem ext4: VM DC0_H0_VM1 runs "
			 "Windows"},
			{"\"engine\": \"psync\", \"passes\": "
			 "[\"first-write\"]",
			 "workload engine psync: a Linux engine"},
		};
		char text[1024];

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			snprintf(text, sizeof(text),
				 "{\"name\": \"windows\", \"backend\": "
				 "\"vsphere\", \"vsphere\": {\"vm\": "
				 "\"DC0_H0_VM1\"}, \"disk_size\": \"4M\", "
				 "\"modes\": [\"thin\"], \"workload\": "
				 "{%s}}",
				 bad[i].workload);
			it_write_file(bad_prof, text);
			CU_ASSERT_EQUAL(
				it_pb(&r, &e, "check", bad_prof, NULL, NULL),
				2);
			CU_ASSERT_PTR_NOT_NULL(strstr(r.err, bad[i].said));
			if (!strstr(r.err, bad[i].said))
				fprintf(stderr, "\n%s%s", r.out, r.err);
			it_result_dispose(&r);
		}
	}
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res_dir, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s", r.err);
	it_result_dispose(&r);
	doc = it_load_run_json(res_dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "results")), 2);
	json_array_foreach(json_object_get(doc, "results"), i, res)
	{
		runner = json_object_get(res, "runner");
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(res, "status")),
			"ok");
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(runner, "engine")),
			"iocp");
		CU_ASSERT(!strncmp(
			json_string_value(json_object_get(
				json_object_get(runner, "system"), "kernel")),
			"Windows ", 8));
		CU_ASSERT_EQUAL(
			json_array_size(json_object_get(runner, "passes")), 2);
	}
	json_decref(doc);
	/* the report, from the run's own files */
	snprintf(path, sizeof(path), "%s/latest/summary.txt", res_dir);
	CU_ASSERT(it_count(path, "thin") > 0);
	CU_ASSERT(it_count(path, "eager") > 0);
	/* the page says which guest measured */
	snprintf(path, sizeof(path), "%s/latest/report.html", res_dir);
	CU_ASSERT(it_count(path, "Microsoft Windows Server 2019") > 0);
	CU_ASSERT(it_count(path, "windowsGuest") > 0);
	/* the runner went where a Windows guest keeps it, and only there */
	CU_ASSERT_EQUAL(it_sh("ls '%s'/C/ProgramData/provbench/"
			      "provbench-runner-*.exe >/dev/null",
			      root),
			0);
	CU_ASSERT_NOT_EQUAL(it_sh("test -e '%s/tmp/provbench'", root), 0);
	/* SIGINT mid-pass: Tools would end the .exe outright (the fixture
	 * does), so the runner is asked by its stop file; it drains and its
	 * partial document comes back */
	snprintf(path, sizeof(path), "%s/journal.jsonl", state);
	it_write_file(prof, "{\"name\": \"windows\", \"backend\": "
			    "\"vsphere\", \"vsphere\": {\"vm\": "
			    "\"DC0_H0_VM1\", \"by_id_dir\": "
			    "\"C:\\\\provbench-disks\"}, \"disk_size\": "
			    "\"1G\", \"modes\": [\"thin\"], "
			    "\"workload\": {\"bs\": \"4K\", \"qd\": 1, "
			    "\"pattern\": \"rand\", \"passes\": "
			    "[\"first-write\", \"rewrite\"]}}");
	pid = it_spawn_run(&e, res_dir, prof);
	CU_ASSERT_FATAL(it_wait_created(path, 20000));
	/* the runner into its first pass: its progress file exists (a slow
	 * machine may take many seconds to start Wine), then a second more
	 * so the pass has written something */
	for (i = 0; i < 600 && it_sh("ls '%s'/C/ProgramData/provbench/"
				     "progress-*.json >/dev/null 2>&1",
				     root);
	     i++)
		usleep(100000);
	CU_ASSERT_FATAL(i < 600);
	sleep(1);
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	doc = it_load_run_json(res_dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	res = json_array_get(json_object_get(doc, "results"), 0);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(res, "status")),
		"interrupted");
	runner = json_object_get(res, "runner");
	CU_ASSERT(json_is_true(json_object_get(runner, "interrupted")));
	CU_ASSERT(json_integer_value(json_object_get(
			  json_array_get(json_object_get(runner, "passes"), 0),
			  "bytes")) > 0);
	json_decref(doc);
	/* a Linux setting asked of a Windows guest: one line, exit 2 */
	it_write_file(prof, "{\"name\": \"windows\", \"backend\": "
			    "\"vsphere\", \"vsphere\": {\"vm\": "
			    "\"DC0_H0_VM1\"}, \"disk_size\": \"4M\", "
			    "\"modes\": [\"thin\"], \"guest_sysctl\": "
			    "{\"vm.swappiness\": \"0\"}}");
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res_dir, prof), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "sysctls are Linux settings"));
	it_result_dispose(&r);
	vcsim_stop(&v);
	unsetenv("WINEPREFIX");
}

/* A vSphere run, its report and a cleanup under valgrind: no leak. */
static void run_under_valgrind(void)
{
	struct vcsim v;
	struct it_env e;
	char root[600], env[4096];
	SCRATCH(prof, "vg.json");
	SCRATCH(state, "state8");
	SCRATCH(res, "results8");
	int i;

	IT_SKIP_IF_FAST();
	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root), "guest8",
					state, prof, PROFILE_ALL, NULL, NULL),
			      0);
	env[0] = '\0';
	for (i = 0; i < e.n; i++)
		snprintf(env + strlen(env), sizeof(env) - strlen(env), "'%s' ",
			 e.vars[i]);
	CU_ASSERT_EQUAL(
		it_sh("env -i %s valgrind -q --leak-check=full "
		      "--errors-for-leak-kinds=definite,indirect "
		      "--error-exitcode=9 '%s' run -q -o '%s' '%s' >/dev/null "
		      "&& valgrind -q --leak-check=full "
		      "--errors-for-leak-kinds=definite,indirect "
		      "--error-exitcode=9 '%s' report -q \"$(ls -d '%s'/*/ | "
		      "tail -n 1)\" && env -i %s valgrind -q --leak-check=full "
		      "--errors-for-leak-kinds=definite,indirect "
		      "--error-exitcode=9 '%s' cleanup '%s' >/dev/null",
		      env, it_plain_bin("provbench"), res, prof,
		      it_plain_bin("provbench"), res, env,
		      it_plain_bin("provbench"), prof),
		0);
	vcsim_stop(&v);
}

/*
 * Secrets: the password from a file (readable by others: a warning), a
 * full run with the debug trace on; the password and the guest password
 * appear in nothing the run printed or wrote, and while it runs the
 * process may not dump core.
 */
static void secrets_never_written(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600], limits[64], *text, *line;
	SCRATCH(prof, "pw-run.json");
	SCRATCH(state, "state9");
	SCRATCH(res, "results9");
	SCRATCH(trace, "trace9");
	SCRATCH(pwfile, "pw9");
	SCRATCH(journal, "state9/journal.jsonl");
	pid_t pid;
	int i, st;

	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root), "guest9",
					state, prof, PROFILE_ALL, NULL, NULL),
			      0);
	it_write_file(pwfile, "secret\n");
	CU_ASSERT_EQUAL(chmod(pwfile, 0644), 0);
	for (i = 0; i < e.n; i++)
		if (!strcmp(e.vars[i], "PROVBENCH_PASSWORD=secret"))
			snprintf(e.buf[i], sizeof(e.buf[i]),
				 "PROVBENCH_PASSWORD_FILE=%s", pwfile);
	it_env_add(&e, "PROVBENCH_DEBUG_DIR", trace);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "readable by everyone"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "secret"));
	CU_ASSERT_PTR_NULL(strstr(r.err, "secret"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "guestpw"));
	it_result_dispose(&r);
	/* the trace was written, and holds neither password */
	CU_ASSERT_EQUAL(it_sh("ls '%s' | grep -q Login", trace), 0);
	CU_ASSERT_EQUAL(it_sh("grep -rlE 'secret|guestpw' '%s' '%s' '%s'", res,
			      state, trace),
			1);

	/* no core dump while the password is in memory */
	CU_ASSERT_EQUAL(chmod(pwfile, 0600), 0);
	it_write_file(prof, PROFILE_SLOW);
	pid = it_spawn_run(&e, res, prof);
	CU_ASSERT_FATAL(it_wait_created(journal, 20000));
	snprintf(limits, sizeof(limits), "/proc/%d/limits", (int)pid);
	text = pb_slurp_file(limits, NULL);
	line = text ? strstr(text, "Max core file size") : NULL;
	CU_ASSERT_PTR_NOT_NULL(line);
	if (line)
		CU_ASSERT_EQUAL(
			strtol(line + strlen("Max core file size"), NULL, 10),
			0);
	free(text);
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	vcsim_stop(&v);
}

/*
 * Faults a lab's vCenter shows, aimed at one SOAP method each: a retry
 * that succeeds, or one clear error; then cleanup leaves the VM with
 * exactly its own disks. code -1: 0 or 1 both fine (the fault may land
 * on a call whose failure only fails one mode). Each run's profile has
 * task_timeout_s 30, or the row's timeout_s where the timeout is what
 * it tests: a task of 1 s must end inside its timeout however loaded
 * the machine (with 2 s, a dropped wait's task once was not, in a
 * clean clone's make test).
 */
static const struct {
	const char *name;
	const char *flags[9];
	int code;
	const char *msg;
	unsigned timeout_s; /* task_timeout_s; 0: 30 */
} faults[] = {
	{"dropped-in-task-wait",
	 {"-task-delay", "1s", "-fault-op", "WaitForUpdatesEx", "-fault",
	  "drop", NULL},
	 0,
	 NULL,
	 0},
	{"task-never-ends",
	 {"-task-delay", "1h", NULL},
	 1,
	 "not done after 2 s",
	 2},
	{"http-503-on-reconfigure",
	 {"-fault-op", "ReconfigVM_Task", "-fault", "503", NULL},
	 4, /* one mode failed, the rest measured */
	 "HTTP 503",
	 0},
	{"http-500-without-fault",
	 {"-fault-op", "ReconfigVM_Task", "-fault", "500", NULL},
	 4, /* one mode failed, the rest measured */
	 "HTTP 500 without a SOAP fault",
	 0},
	{"reply-cut-mid-xml",
	 {"-fault-op", "ReconfigVM_Task", "-fault", "cut", NULL},
	 4, /* one mode failed, the rest measured */
	 "not XML",
	 0},
	{"session-expires-in-guest-run",
	 {"-fault-op", "ListProcessesInGuest", "-fault", "expire", NULL},
	 0,
	 NULL,
	 0},
	{"upload-url-refused",
	 {"-fault-op", "InitiateFileTransferToGuest", "-fault", "refuse-url",
	  NULL},
	 3,
	 "https://DC0_H0:1/guestFile: Failed to connect to 127.0.0.1 port 1",
	 0},
};

#define NFAULTS (sizeof(faults) / sizeof(faults[0]))

/* A fault's run: its own fixture, guest, state and results (name_*). */
struct fault_run {
	struct vcsim v;
	struct it_env e;
	struct it_child c;
	char *before;
	bool up;
};

static void fault_run_start(struct fault_run *f, size_t i, const char *prof)
{
	const char *flags[14];
	char root[600], state[600], res[600];
	size_t k;

	snprintf(root, sizeof(root), "%s/guest10-%zu", it_dir(), i);
	snprintf(state, sizeof(state), "%s/state10-%zu", it_dir(), i);
	snprintf(res, sizeof(res), "%s/results10-%zu", it_dir(), i);
	flags[0] = "-guest-root";
	flags[1] = root;
	flags[2] = "-enable-uuid";
	for (k = 0; faults[i].flags[k]; k++)
		flags[3 + k] = faults[i].flags[k];
	flags[3 + k] = NULL;
	/* a fresh guest: the runner is uploaded every time */
	f->up = !it_sh("rm -rf '%s' && mkdir -p '%s' '%s'", root, root,
		       state) &&
		!vcsim_start(&f->v, flags);
	if (!f->up) {
		CU_FAIL(faults[i].name);
		return;
	}
	it_vcsim_env(&f->e, &f->v, state);
	f->before = disk_keys(&f->v);
	{
		char *argv[] = {(char *)it_bin("provbench"),
				(char *)"run",
				(char *)"-o",
				res,
				(char *)prof,
				NULL};

		it_child_start(&f->c, argv, f->e.vars);
	}
}

/* The run's end as the fault wants it, then cleanup: the VM's own disks
 * only. */
static void fault_run_check(struct fault_run *f, size_t i, const char *prof)
{
	struct it_result r;
	char *after;

	it_child_finish(&r, &f->c);
	/* the message: the run's own line, or the failed mode's */
	if ((faults[i].code >= 0 && r.status != faults[i].code) ||
	    (faults[i].msg && !strstr(r.err, faults[i].msg) &&
	     !strstr(r.out, faults[i].msg)) ||
	    (r.status && !strstr(r.err, "provbench: "))) {
		fprintf(stderr, "\n  %s: exit %d: %s%s", faults[i].name,
			r.status, r.out, r.err);
		CU_FAIL(faults[i].name);
	}
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &f->e, "cleanup", prof, NULL, NULL), 0);
	it_result_dispose(&r);
	after = disk_keys(&f->v);
	if (strcmp(f->before, after)) {
		fprintf(stderr, "\n  %s: disks %s -> %s", faults[i].name,
			f->before, after);
		CU_FAIL(faults[i].name);
	}
	free(f->before);
	free(after);
	vcsim_stop(&f->v);
}

/* The faults' runs go at once, each against its own fixture: they wait
 * on task delays and timeouts, one after another 38 s of the suite. */
static void faults_survived(void)
{
	struct fault_run *f = calloc(NFAULTS, sizeof(*f));
	char text[2048], prof[NFAULTS][600];
	const char *all = PROFILE_ALL, *at = strstr(all, "\"guest_dir\"");
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	/* PROFILE_ALL with the fault's task timeout */
	for (i = 0; i < NFAULTS; i++) {
		snprintf(prof[i], sizeof(prof[i]), "%s/fault-%zu.json",
			 it_dir(), i);
		snprintf(text, sizeof(text), "%.*s\"task_timeout_s\": %u, %s",
			 (int)(at - all), all,
			 faults[i].timeout_s ? faults[i].timeout_s : 30, at);
		it_write_file(prof[i], text);
	}
	for (i = 0; i < NFAULTS; i++)
		fault_run_start(&f[i], i, prof[i]);
	for (i = 0; i < NFAULTS; i++)
		if (f[i].up)
			fault_run_check(&f[i], i, prof[i]);
	free(f);
}

/* A command pass through vSphere: the text goes up as a file (never as
 * words of the argument string), runs, and is gone from the guest after. */
static void command_pass_uploaded(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600];
	SCRATCH(prof, "command.json");
	SCRATCH(state, "state7");
	SCRATCH(res, "results7");
	json_t *doc, *pass;

	CU_ASSERT_EQUAL_FATAL(
		start_lab(&v, &e, root, sizeof(root), "guest7", state, prof,
			  "{\"name\": \"cmd\", \"backend\": \"vsphere\", "
			  "\"vsphere\": {\"vm\": \"DC0_H0_VM0\", "
			  "\"guest_dir\": \"/opt/pb\"}, \"disk_size\": "
			  "\"1M\", \"modes\": [\"thin\"], \"workload\": "
			  "{\"bs\": \"64K\", \"passes\": [\"first-write\", "
			  "\"command\"], \"command\": \"echo 'two  spaces', "
			  "and \\\"quotes\\\"\"}}",
			  NULL, NULL),
		0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	pass = json_array_get(
		json_object_get(
			json_object_get(
				json_array_get(json_object_get(doc, "results"),
					       0),
				"runner"),
			"passes"),
		1);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(pass, "command")),
		"echo 'two  spaces', and \"quotes\"");
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(pass, "output_tail")),
		"two  spaces, and quotes\n");
	CU_ASSERT_EQUAL(
		json_integer_value(json_object_get(pass, "exit_status")), 0);
	json_decref(doc);
	CU_ASSERT_EQUAL(it_sh("ls '%s/opt/pb' | grep -q command-", root), 1);
	vcsim_stop(&v);
}

#define PROFILE_COUNTERS                                                       \
	"{\"name\": \"ctr\", \"backend\": \"vsphere\", \"vsphere\": "          \
	"{\"vm\": \"DC0_H0_VM0\", \"guest_dir\": \"/opt/pb\"}, "               \
	"\"disk_size\": \"1M\", \"modes\": [\"thin\"], \"workload\": "         \
	"{\"bs\": \"64K\", \"passes\": [\"first-write\", \"command\"], "       \
	"\"command\": \"sleep 4\"}}"

/*
 * The server's counters around each pass (PerformanceManager, real-time
 * samples, appearing 1.25 intervals after theirs ends as on real servers,
 * 25 s after 20 s): the command pass of two intervals holds whole samples
 * of its own, the VM's CPU among them, and the disk's instance and the
 * LUN under LocalDS_0 are named; the write passes, a fraction of a
 * second, say they are too short and what they would need. check says
 * what the server keeps. The fixture's clock is given a 2 s interval
 * (its refreshRate says so, and provbench takes every figure of time
 * from it): the same shape as a real server's 20 s in a tenth of the
 * time; counters_permission_named sees the real 20 s.
 */
static void server_counters_per_pass(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600];
	SCRATCH(prof, "counters.json");
	SCRATCH(state, "state-ctr");
	SCRATCH(res, "results-ctr");
	json_t *doc, *passes, *c, *p0, *clock;
	const char *const fast[] = {"-perf-interval", "2", "-perf-lag", "2.5s",
				    NULL};

	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root), "guest-ctr",
					state, prof, PROFILE_COUNTERS, true,
					fast),
			      0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "counters: 11 of 11 kept "
					     "(real-time, 2 s samples: a pass "
					     "needs 4 s to have its own)"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	clock = json_object_get(
		json_object_get(
			json_array_get(json_object_get(doc, "results"), 0),
			"runner"),
		"server_clock");
	/* the wait for the server's newest sample, when there was one, is
	 * said; its allowance is the server's lag at real servers'
	 * proportion (35 s at 20 s) */
	CU_ASSERT_DOUBLE_EQUAL(
		json_number_value(json_object_get(clock, "lag_s")), 3.5, 1e-9);
	if (json_number_value(json_object_get(clock, "lag_waited_s")) > 0)
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "for the server's "
						     "counters of the last "
						     "pass"));
	it_result_dispose(&r);
	passes = json_object_get(
		json_object_get(
			json_array_get(json_object_get(doc, "results"), 0),
			"runner"),
		"passes");
	/* the first write: too short, and how long it would need */
	p0 = json_object_get(json_array_get(passes, 0), "server_counters");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p0);
	CU_ASSERT(json_is_true(json_object_get(p0, "too_short")));
	CU_ASSERT_DOUBLE_EQUAL(
		json_number_value(json_object_get(p0, "needs_s")), 4, 1e-9);
	/* the command pass: whole samples of its own, 2 s apart */
	c = json_object_get(json_array_get(passes, 1), "server_counters");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NULL(json_object_get(c, "too_short"));
	CU_ASSERT_PTR_NULL(json_object_get(c, "unavailable"));
	CU_ASSERT(json_integer_value(json_object_get(c, "samples")) >= 1);
	CU_ASSERT(json_integer_value(json_object_get(c, "samples")) <= 2);
	CU_ASSERT_PTR_NOT_NULL(json_object_get(c, "from"));
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(
			json_object_get(c, "virtual_disk"), "instance")),
		"scsi0:2"); /* unit 1 is the VM's CD-ROM */
	CU_ASSERT(json_number_value(json_object_get(
			  json_object_get(c, "virtual_disk"), "writes_per_s")) >
		  0);
	CU_ASSERT(json_is_number(
		json_object_get(json_object_get(c, "cpu"), "used_ms")));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
				       json_object_get(c, "lun"), "instance")),
			       "naa.6000c290000000000000000000000005");
	CU_ASSERT(json_is_number(
		json_object_get(json_object_get(c, "lun"), "device_write_ms")));
	/* LocalDS_0's own counters on the host, by its VMFS uuid */
	CU_ASSERT_EQUAL(
		strncmp(json_string_value(json_object_get(
				json_object_get(c, "datastore"), "instance")),
			"5f1e2d3c-", 9),
		0);
	CU_ASSERT(json_is_number(json_object_get(
		json_object_get(c, "datastore"), "write_latency_ms")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(c, "missing")), 0);
	/* the wait for the server's lag is recorded */
	CU_ASSERT(json_is_number(json_object_get(clock, "lag_waited_s")));
	json_decref(doc);
	vcsim_stop(&v);
}

/*
 * A user without System.Read on the VM's host (vCenter answers QueryPerf
 * with NoPermission naming the privilege): check says so, names the
 * fault, and says what the passes will lack; the VM's own counters are
 * still read. Without it on the VM, none.
 */
static void counters_permission_named(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600];
	SCRATCH(prof, "ctr-perm.json");
	SCRATCH(state, "state-ctrp");
	const char *const host[] = {
		"-fault-op",   "QueryPerf", "-fault", "no-permission",
		"-fault-skip", "1",	    NULL};
	const char *const vm[] = {"-fault-op", "QueryPerf", "-fault",
				  "no-permission", NULL};

	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root),
					"guest-ctrp", state, prof,
					PROFILE_COUNTERS, true, host),
			      0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "the host's counters cannot be read "
			      "(NoPermission: Permission to perform this "
			      "operation was denied.; QueryPerf needs "
			      "System.Read on the host): passes will carry "
			      "no LUN latencies"));
	/* a real server's interval: 20 s */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "counters: 11 of 11 kept "
					     "(real-time, 20 s samples: a pass "
					     "needs 40 s to have its own)"));
	it_result_dispose(&r);
	vcsim_stop(&v);
	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root),
					"guest-ctrp", state, prof,
					PROFILE_COUNTERS, true, vm),
			      0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(
		r.out, "the VM's counters cannot be read (NoPermission"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "counters: 11 of 11 kept"));
	it_result_dispose(&r);
	vcsim_stop(&v);
}

#define PROFILE_SMALL                                                          \
	"{\"name\": \"it-small\", \"backend\": \"vsphere\",\n"                 \
	" \"vsphere\": {\"vm\": \"DC0_H0_VM0\", \"guest_dir\": "               \
	"\"/opt/pb\"%s},\n"                                                    \
	" \"disk_size\": \"4M\", \"modes\": [\"thin\", \"eager\"],\n"          \
	" \"workload\": {\"bs\": \"64K\", \"passes\": [\"first-write\", "      \
	"\"rewrite\"]}}\n"

/*
 * disk.EnableUUID takes effect at power-on. A VM without it live: check
 * names the key and the power cycle, run stops before any disk exists;
 * with vsphere.power_cycle the run power-cycles the VM, measures, and says
 * so in run.json.
 */
static void enable_uuid_power_cycle(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600], text[1024];
	SCRATCH(prof, "uuid.json");
	SCRATCH(state, "state11");
	SCRATCH(res, "results11");
	SCRATCH(journal, "state11/journal.jsonl");
	json_t *doc, *vm, *item;
	size_t i;

	snprintf(text, sizeof(text), PROFILE_SMALL, "");
	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root), "guest11",
					state, prof, text, false, NULL),
			      0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "disk.EnableUUID is unset"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "vsphere.power_cycle"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "power"));
	it_result_dispose(&r);
	/* nothing was made, not even a journal intent */
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""), 0);

	snprintf(text, sizeof(text), PROFILE_SMALL, ", \"power_cycle\": true");
	write_profile(prof, text);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "power-cycles the VM"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "power-cycling VM"));
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	vm = json_object_get(json_object_get(doc, "environment"), "vm");
	CU_ASSERT(json_is_true(json_object_get(vm, "power_cycled")));
	CU_ASSERT_PTR_NOT_NULL(strstr(
		json_string_value(json_object_get(
			json_array_get(json_object_get(vm, "settings"), 0),
			"live")),
		"power cycle"));
	json_array_foreach(json_object_get(doc, "results"), i, item)
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(item, "status")),
			"ok");
	json_decref(doc);
	/* the next run finds it live and needs no power cycle */
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	CU_ASSERT_PTR_NULL(strstr(r.err, "power-cycling"));
	it_result_dispose(&r);
	vcsim_stop(&v);
}

/*
 * A runner that fails in the guest: the mode's error is the runner's own
 * message (from its log in the guest), not the FileNotFound of the output
 * download that follows.
 */
static void runner_error_is_runners(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600], text[1024];
	SCRATCH(prof, "runerr.json");
	SCRATCH(state, "state12");
	SCRATCH(res, "results12");
	json_t *doc, *item;

	/* the runner looks for disks where there are none */
	snprintf(text, sizeof(text), PROFILE_SMALL,
		 ", \"by_id_dir\": \"/opt/nothing\"");
	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root), "guest12",
					state, prof, text, NULL, NULL),
			      0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 1);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	item = json_array_get(json_object_get(doc, "results"), 0);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(item, "status")), "failed");
	CU_ASSERT_PTR_NOT_NULL(
		strstr(json_string_value(json_object_get(item, "error")),
		       "no disk with UUID"));
	CU_ASSERT_PTR_NULL(
		strstr(json_string_value(json_object_get(item, "error")),
		       "FileNotFound"));
	json_decref(doc);
	vcsim_stop(&v);
}

/*
 * Guest polls are sparse (each is a guest login), and a runner Tools
 * have already forgotten (they keep an exited process for minutes) is
 * judged by the output it left.
 */
static void guest_polls_sparse(void)
{
	static const char *const ttl[] = {"-proc-ttl", "0s", NULL};
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600];
	SCRATCH(prof, "sleep.json");
	SCRATCH(state, "state13");
	SCRATCH(res, "results13");
	long before, polls;
	json_t *doc;

	/* a command pass of a known length: about 6 s in the guest */
	CU_ASSERT_EQUAL_FATAL(
		start_lab(
			&v, &e, root, sizeof(root), "guest13", state, prof,
			"{\"name\": \"sleep\", \"backend\": \"vsphere\", "
			"\"vsphere\": {\"vm\": \"DC0_H0_VM0\", \"guest_dir\": "
			"\"/opt/pb\"}, \"disk_size\": \"1M\", \"modes\": "
			"[\"thin\"], \"workload\": {\"bs\": \"64K\", "
			"\"passes\": [\"command\"], \"command\": \"sleep 6\"}}",
			NULL, NULL),
		0);
	before = it_soap_calls(&v, "ListProcessesInGuest");
	{
		char *argv[] = {(char *)it_bin("provbench"),
				"run",
				"-q",
				"-o",
				res,
				prof,
				NULL};

		CU_ASSERT_EQUAL(it_run_env(&r, argv, e.vars, 0, 0), 0);
		it_result_dispose(&r);
	}
	polls = it_soap_calls(&v, "ListProcessesInGuest") - before;
	/* from 0.25 s doubling: 6 polls in 6 s, not a dozen */
	CU_ASSERT(polls >= 2 && polls <= 8);
	if (polls > 8)
		fprintf(stderr, "\n  %ld polls in 6 s", polls);
	vcsim_stop(&v);

	/* Tools forget the process the moment it exits */
	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root), "guest13",
					state, prof,
					"{\"name\": \"aged\", \"backend\": "
					"\"vsphere\", \"vsphere\": {\"vm\": "
					"\"DC0_H0_VM0\", \"guest_dir\": "
					"\"/opt/pb\"}, \"disk_size\": \"1M\", "
					"\"modes\": [\"thin\"], \"workload\": "
					"{\"bs\": \"64K\"}}",
					true, ttl),
			      0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(
			json_array_get(json_object_get(doc, "results"), 0),
			"status")),
		"ok");
	json_decref(doc);
	vcsim_stop(&v);
}

/* The free ESXi licence: check and run say so and stop (exit 3), having
 * created nothing; a VM with snapshots is warned about. */
static void license_and_snapshots(void)
{
	static const char *const free_lic[] = {"-license", "free", NULL};
	static const char *const snap[] = {"-snapshot", NULL};
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600], text[1024];
	SCRATCH(prof, "lic.json");
	SCRATCH(state, "state14");
	SCRATCH(res, "results14");
	SCRATCH(journal, "state14/journal.jsonl");

	lab_esx = true;
	snprintf(text, sizeof(text), PROFILE_SMALL, "");
	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root), "guest14",
					state, prof, text, true, free_lic),
			      0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "VMware vSphere 7 Hypervisor"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "read-only"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 3);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""), 0);
	vcsim_stop(&v);
	lab_esx = false;

	CU_ASSERT_EQUAL_FATAL(lab_start(&v, &e, root, sizeof(root), "guest14",
					state, prof, text, true, snap),
			      0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "warning: VM DC0_H0_VM0 has "
					     "snapshots"));
	it_result_dispose(&r);
	vcsim_stop(&v);
}

/*
 * A journal entry of a VM deleted since (its moref: ManagedObjectNotFound)
 * is marked gone by the next cleanup on that server; one of another VM
 * that exists is left alone.
 */
static void cleanup_of_deleted_vm(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600], text[2048];
	SCRATCH(prof, "gone.json");
	SCRATCH(state, "state15");
	SCRATCH(journal, "state15/journal.jsonl");

	struct vs_config c = VS_CONFIG_INIT;
	struct vs_session *s = NULL;
	struct vs_vm_info other;
	char tp[80], err[PB_ERRBUF_SIZE] = "";

	snprintf(text, sizeof(text), PROFILE_SMALL, "");
	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root), "guest15",
					state, prof, text, NULL, NULL),
			      0);
	c.url = v.url;
	c.username = (char *)"user";
	c.password = (char *)"secret";
	vs_thumbprint_normalize(tp, sizeof(tp), v.thumbprint, err);
	c.thumbprint = tp;
	CU_ASSERT_EQUAL_FATAL(vs_session_open(&s, &c, NULL, NULL, err), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &other, "DC0_H0_VM1"), PB_OK);
	vs_session_free(s);
	snprintf(text, sizeof(text),
		 "{\"op\":\"intent\",\"id\":\"dead-1\",\"target\":"
		 "\"vsphere %s vm-99999\",\"vm\":\"vm-99999\",\"file\":"
		 "\"[LocalDS_0] provbench-dead-1.vmdk\",\"run\":\"dead\","
		 "\"backend\":\"vsphere\"}\n"
		 "{\"op\":\"intent\",\"id\":\"live-1\",\"target\":"
		 "\"vsphere %s %s\",\"vm\":\"%s\",\"file\":"
		 "\"[LocalDS_0] provbench-live-1.vmdk\",\"run\":\"live\","
		 "\"backend\":\"vsphere\"}\n",
		 v.url, v.url, other.ref.value, other.ref.value);
	it_write_file(journal, text);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "vm-99999 no longer exists"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_count(journal, "\"id\":\"dead-1\""), 2);
	CU_ASSERT_EQUAL(it_count(journal, "\"id\":\"live-1\""), 1);
	vcsim_stop(&v);
}

static const struct {
	const char *name;
	const char *text;
	const char *msg;
} bad_profiles[] = {
	{"syntax", "{\"name\": \"x\",\n \"modes\": [\"thin\"\n}\n", ":3:1:"},
	{"unknown-key",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"thin\"], \"vsphere\": {\"vm\": \"a\"}, \"colour\": 1}",
	 "colour: unknown key"},
	{"nested-unknown-key",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"thin\"], \"vsphere\": {\"vm\": \"a\", \"vnm\": 1}}",
	 "vsphere.vnm: unknown key"},
	{"wrong-type",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"thin\"], \"vsphere\": {\"vm\": \"a\"}, "
	 "\"repetitions\": \"three\"}",
	 "repetitions: 'three' is not a whole number"},
	{"negative-size",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"-8G\", "
	 "\"modes\": [\"thin\"], \"vsphere\": {\"vm\": \"a\"}}",
	 "disk_size:"},
	{"unknown-mode",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"thick\"], \"vsphere\": {\"vm\": \"a\"}}",
	 "modes[0]: unknown mode 'thick'"},
	{"rdm-without-lun",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"rdm\"], \"vsphere\": {\"vm\": \"a\"}}",
	 "vsphere.lun: required"},
	{"no-vm",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"thin\"], \"vsphere\": {}}",
	 "vsphere.vm: required"},
	/* the runner refuses it in the guest after provisioning: the
	 * profile must refuse it first */
	{"interval-runner-refuses",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"thin\"], \"vsphere\": {\"vm\": \"a\"}, \"workload\": "
	 "{\"interval_ms\": 5000000}}",
	 "workload.interval_ms: 5000000 is out of range (10 to 3600000)"},
	{"bad-pass",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"thin\"], \"vsphere\": {\"vm\": \"a\"}, \"workload\": "
	 "{\"passes\": [\"write\"]}}",
	 "workload.passes"},
	{"env-unset",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"thin\"], \"vsphere\": {\"vm\": \"env:PB_NO_SUCH\"}}",
	 "vsphere.vm (PB_NO_SUCH): environment variable not set"},
	{"missing-vm",
	 "{\"name\": \"x\", \"backend\": \"vsphere\", \"disk_size\": \"1G\", "
	 "\"modes\": [\"thin\"], \"vsphere\": {\"vm\": \"no-such-vm\"}}",
	 "no-such-vm"},
};

/* provbench's own command line: each mistake one line and exit 2. */
static const struct {
	const char *args[8];
	const char *msg;
} bad_args[] = {
	{{"bogus"}, "provbench: bogus: unknown command"},
	{{"run"}, "usage: provbench run"},
	{{"run", "-x", "p.json"}, "'-x': unknown option; usage: provbench run"},
	{{"run", "-o"}, "needs a value"},
	{{"run", "/nonexistent/p.json"}, "/nonexistent/p.json: cannot read"},
	{{"report"}, "usage: provbench report"},
	{{"report", "--max-regression", "abc", "/tmp"}, "--max-regression"},
	{{"report", "/nonexistent"}, "/nonexistent/run.json"},
	{{"cleanup", "a", "b"}, "usage: provbench cleanup"},
	{{"check"}, "usage: provbench check"},
	{{"check", "/nonexistent.json"}, "/nonexistent.json"},
	{{"vsphere", "frobnicate"}, "frobnicate"},
	{{"run", "p.json", "--dry-run", "-z"}, "'-z': unknown option"},
	{{"check", "a.json", "b.json"}, "'b.json': unexpected argument"},
	{{"report", "--baseline", "thick", "/tmp"}, "'thick': not a mode"},
	{{"vsphere", "disk", "add", "--mode", "thick", "vm"}, "'thick'"},
	{{"vsphere", "ls", "vapps"}, "'vapps': give one of"},
	{{"vsphere", "guest", "run", "--timeout", "x", "vm", "/bin/true"},
	 "'x': a number of seconds"},
	/* git's "did you mean", for a command, a topic, a profile key */
	{{"rn", "p.json"}, "rn: unknown command (did you mean run?"},
	{{"help", "profil"},
	 "'profil': no such command or topic (did you "
	 "mean profile?"},
	{{"help", "profile", "dsik_size"}, "(did you mean disk_size?"},
	{{"help", "profile", "workload.bz"}, "(did you mean workload.bs?"},
	/* -o said before anything runs: a plain file, a place not there */
	{{"run", "-o", "/etc/hostname", "profiles/demo.json"},
	 "run: -o /etc/hostname: not a directory"},
	{{"run", "-n", "-o", "/nonexistent/r", "profiles/demo.json"},
	 "-o /nonexistent/r: cannot be made: /nonexistent: No such file"},
	{{"check", "-o", "/etc/hostname", "profiles/demo.json"},
	 "check: -o /etc/hostname: not a directory"},
};

static void bad_arguments_exit_2(void)
{
	struct it_result r;
	char *envp[] = {"PATH=/usr/bin:/bin", NULL};
	size_t i, k;

	for (i = 0; i < sizeof(bad_args) / sizeof(bad_args[0]); i++) {
		char *argv[10] = {(char *)it_bin("provbench")};

		for (k = 0; k < 8 && bad_args[i].args[k]; k++)
			argv[k + 1] = (char *)bad_args[i].args[k];
		argv[k + 1] = NULL;
		CU_ASSERT_EQUAL(it_run_env(&r, argv, envp, 0, 0), 2);
		if (!strstr(r.err, bad_args[i].msg) ||
		    strchr(r.err, '\n') != r.err + strlen(r.err) - 1) {
			fprintf(stderr, "\n  %s: %s", bad_args[i].args[0],
				r.err);
			CU_FAIL(bad_args[i].msg);
		}
		it_result_dispose(&r);
	}
}

/* Help for every command and vsphere subcommand: offline (no server, no
 * environment), exit 0, the usage first, as -h, --help and help CMD. */
static void help_offline(void)
{
	static const char *const cmds[][3] = {
		{"run"},
		{"check"},
		{"report"},
		{"cleanup"},
		{"help"},
		{"vsphere"},
		{"vsphere", "about"},
		{"vsphere", "thumbprint"},
		{"vsphere", "ls"},
		{"vsphere", "luns"},
		{"vsphere", "disk", "ls"},
		{"vsphere", "disk", "add"},
		{"vsphere", "disk", "rm"},
		{"vsphere", "guest", "put"},
		{"vsphere", "guest", "get"},
		{"vsphere", "guest", "run"},
	};
	static const char *const flags[] = {"-h", "--help"};
	struct it_result r;
	char *envp[] = {"PATH=/usr/bin:/bin", NULL}, want[64];
	size_t i, k, f;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		for (f = 0; f < 2; f++) {
			char *argv[6] = {(char *)it_bin("provbench")};

			for (k = 0; k < 3 && cmds[i][k]; k++)
				argv[k + 1] = (char *)cmds[i][k];
			argv[k + 1] = (char *)flags[f];
			snprintf(want, sizeof(want),
				 "usage: provbench %s%s%s%s%s", cmds[i][0],
				 cmds[i][1] ? " " : "",
				 cmds[i][1] ? cmds[i][1] : "",
				 cmds[i][2] ? " " : "",
				 cmds[i][2] ? cmds[i][2] : "");
			if (it_run_env(&r, argv, envp, 0, 0) != 0 ||
			    strncmp(r.out, want, strlen(want))) {
				fprintf(stderr, "\n  %s %s: %s%s", want,
					flags[f], r.out, r.err);
				CU_FAIL(want);
			}
			it_result_dispose(&r);
		}
	}
	/* help CMD is the command's own help; help profile lists every
	 * key, the backends' included */
	{
		char *argv[] = {(char *)it_bin("provbench"), "help", "run",
				NULL};

		CU_ASSERT_EQUAL(it_run_env(&r, argv, envp, 0, 0), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "usage: provbench run"));
		it_result_dispose(&r);
		argv[2] = "profile";
		CU_ASSERT_EQUAL(it_run_env(&r, argv, envp, 0, 0), 0);
		static const char *const keys[] = {"name",
						   "description",
						   "disk_size",
						   "modes",
						   "repetitions",
						   "seed",
						   "cooldown_s",
						   "timeout_s",
						   "interval_ms",
						   "vsphere.controller",
						   "vsphere.by_id_dir",
						   "qemu.accel",
						   "qemu.cpus"};
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strstr(r.out, keys[k]))
				CU_FAIL(keys[k]);
		it_result_dispose(&r);
		/* a key's help names its values: the backends */
		{
			char *a[] = {(char *)it_bin("provbench"), "help",
				     "profile", "backend", NULL};

			CU_ASSERT_EQUAL(it_run_env(&r, a, envp, 0, 0), 0);
			CU_ASSERT_PTR_NOT_NULL(
				strstr(r.out, "qemu, vsphere, host or null"));
			it_result_dispose(&r);
		}
	}
}

static void bad_profiles_exit_2(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	size_t i;
	char path[700];
	SCRATCH(state, "state5");
	SCRATCH(results, "results5");

	CU_ASSERT_EQUAL_FATAL(vcsim_start(&v, NULL), 0);
	it_vcsim_env(&e, &v, state);
	for (i = 0; i < sizeof(bad_profiles) / sizeof(bad_profiles[0]); i++) {
		snprintf(path, sizeof(path), "%s/bad-%s.json", it_dir(),
			 bad_profiles[i].name);
		it_write_file(path, bad_profiles[i].text);
		CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", results, path), 2);
		if (!strstr(r.err, bad_profiles[i].msg)) {
			fprintf(stderr, "\n  %s: %s", bad_profiles[i].name,
				r.err);
			CU_FAIL(bad_profiles[i].name);
		}
		/* one line, naming the file (after the plan's line where
		 * the server is what refuses: the plan is said first) */
		if (!strstr(r.err, path))
			fprintf(stderr, "\n  no path: %s", r.err);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, path));
		CU_ASSERT_EQUAL(strchr(strstr(r.err, "provbench: "), '\n')[1],
				'\0');
		CU_ASSERT_PTR_NULL(strstr(strstr(r.err, "provbench: ") + 1,
					  "provbench: "));
		it_result_dispose(&r);
		/* check --json: the same verdict, as data */
		CU_ASSERT_EQUAL(it_pb(&r, &e, "check", "--json", path, NULL),
				2);
		{
			json_t *j = json_loads(r.out, 0, NULL);
			const char *why =
				json_string_value(json_object_get(j, "error"));

			CU_ASSERT_STRING_EQUAL(
				json_string_value(
					json_object_get(j, "verdict")),
				"failed");
			CU_ASSERT(why && strstr(why, bad_profiles[i].msg));
			json_decref(j);
		}
		it_result_dispose(&r);
	}
	/* nothing was created for any of them */
	CU_ASSERT_EQUAL(it_sh("test -e '%s'", results), 1);
	/* a runner that is not there: check says so, before hours pass */
	for (i = 0; i < (size_t)e.n; i++)
		if (!strncmp(e.vars[i], "PROVBENCH_RUNNER=", 17))
			snprintf(e.buf[i], sizeof(e.buf[i]),
				 "PROVBENCH_RUNNER=%s/no-such-runner",
				 it_dir());
	snprintf(path, sizeof(path), "%s/good.json", it_dir());
	{
		char text[1024];

		snprintf(text, sizeof(text), PROFILE_SMALL, "");
		write_profile(path, text);
	}
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", path, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no-such-runner: No such file"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "make runner-static"));
	it_result_dispose(&r);
	vcsim_stop(&v);
}

/*
 * README's cron line, exactly as written there, run as cron runs it: sh -c
 * with cron's bare environment (HOME, LOGNAME, SHELL, PATH=/usr/bin:/bin).
 * Only its paths are pointed into the scratch directory; the env file is
 * what a lab writes, plain NAME=value lines, not exported.
 */
static void cron_line_works(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char root[600], line[2048], bin[4096], text[1024], *readme, *p, *q;
	struct pb_buf cmd = PB_BUF_INIT(1 << 16), envf = PB_BUF_INIT(1 << 16);
	SCRATCH(prof, "nightly.json");
	SCRATCH(envfile, "nightly.env");
	SCRATCH(state, "state-cron");
	SCRATCH(res, "results-cron");
	SCRATCH(home, "home-cron");
	char h[700];
	char *envp[] = {h, "LOGNAME=root", "SHELL=/bin/sh",
			"PATH=/usr/bin:/bin", NULL};
	char *argv[] = {"/bin/sh", "-c", NULL, NULL};
	int i;

	readme = pb_slurp_file("README.md", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(readme);
	p = strstr(readme, "\n30 2 * * * ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p += strlen("\n30 2 * * * ");
	q = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s", (int)(q - p), p);
	free(readme);
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(it_bin("provbench"), bin));
	{
		/* README's paths, and where they point here */
		const char *const subst[][2] = {
			{"/etc/provbench/nightly.env", envfile},
			{"/usr/local/bin/provbench", bin},
			{"/var/lib/provbench/results", res},
			{"/etc/provbench/nightly.json", prof},
		};
		const char *s = line;

		while (*s) {
			for (i = 0; i < 4; i++)
				if (!strncmp(s, subst[i][0],
					     strlen(subst[i][0])))
					break;
			if (i < 4) {
				pb_buf_addstr(&cmd, subst[i][1]);
				s += strlen(subst[i][0]);
			} else {
				pb_buf_add(&cmd, s++, 1);
			}
		}
	}
	/* every path of the line was one of README's */
	CU_ASSERT_PTR_NULL(strstr(cmd.data, "/etc/provbench"));
	CU_ASSERT_PTR_NULL(strstr(cmd.data, "/usr/local"));
	snprintf(text, sizeof(text), PROFILE_SMALL, "");
	CU_ASSERT_EQUAL_FATAL(start_lab(&v, &e, root, sizeof(root),
					"guest-cron", state, prof, text, NULL,
					NULL),
			      0);
	for (i = 0; i < e.n; i++)
		if (strncmp(e.vars[i], "PATH=", 5))
			pb_buf_printf(&envf, "%s\n", e.vars[i]);
	it_write_file(envfile, envf.data);
	it_sh("mkdir -p '%s'", home);
	snprintf(h, sizeof(h), "HOME=%s", home);
	argv[2] = cmd.data;
	CU_ASSERT_EQUAL(it_run_env(&r, argv, envp, 0, 0), 0);
	if (r.status)
		fprintf(stderr, "\n  %s\n%s%s", cmd.data, r.out, r.err);
	/* --quiet: a mail only when something failed */
	CU_ASSERT_STRING_EQUAL(r.err, "");
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("ls '%s'/*/run.json >/dev/null", res), 0);
	/* the report of the line's second half compared with nothing (the
	 * first night), quietly, through the root's "latest" */
	CU_ASSERT_PTR_NOT_NULL(strstr(cmd.data, "--compare previous"));
	CU_ASSERT_EQUAL(it_sh("test -L '%s/latest'", res), 0);
	pb_buf_dispose(&cmd);
	pb_buf_dispose(&envf);
	vcsim_stop(&v);
}

static const struct pb_case cases[] = {
	PB_CASE(run_all_modes_vcenter),
	PB_CASE(confirm_large_plans),
	PB_CASE(run_all_modes_esx),
	PB_CASE(kill9_then_cleanup_vcenter),
	PB_CASE(targets_on_two_datastores),
	PB_CASE(targets_at_once),
	PB_CASE(shared_login_renewed),
	PB_CASE(matrix_datastores_and_sizes),
	PB_CASE(kill9_then_cleanup_esx),
	PB_CASE(signals_clean_up),
	PB_CASE(stall_terminated_retried),
	PB_CASE(failed_mode_others_run),
	PB_CASE(guest_sysctl_applied),
	PB_CASE(windows_guest_run),
	PB_CASE(command_pass_uploaded),
	PB_CASE(server_counters_per_pass),
	PB_CASE(counters_permission_named),
	PB_CASE(faults_survived),
	PB_CASE(secrets_never_written),
	PB_CASE(run_under_valgrind),
	PB_CASE(enable_uuid_power_cycle),
	PB_CASE(runner_error_is_runners),
	PB_CASE(guest_polls_sparse),
	PB_CASE(license_and_snapshots),
	PB_CASE(cleanup_of_deleted_vm),
	PB_CASE(bad_profiles_exit_2),
	PB_CASE(no_lun_without_rdm),
	PB_CASE(bad_arguments_exit_2),
	PB_CASE(help_offline),
	PB_CASE(cron_line_works),
	PB_CASES_END,
};

const struct pb_suite suite_harness_it = {"harness", NULL, NULL, cases};
