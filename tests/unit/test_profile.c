/*
 * test_profile.c - profiles and plans: every shipped profile loads, the
 * matrix expands, a shuffled plan is complete per repetition and
 * replayable from its seed, the runner's arguments follow the workload,
 * targets (and the matrix's backend keys) become one plan, and help
 * profile lists exactly the keys the parser reads.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"
#include "host_options.h"
#include "qemu_options.h"
#include "unit.h"
#include "vsphere_options.h"

/* a profile's backend section, as its backend's option table filled it */
#define QO(p)  ((const struct qemu_opts *)(p)->bopts)
#define VSO(p) ((const struct vsphere_opts *)(p)->bopts)

static void set_lab_env(void)
{
	setenv("PROVBENCH_VM", "/DC0/vm/bench-01", 1);
	setenv("PROVBENCH_LUN", "naa.6000c290000000000000000000000001", 1);
	setenv("PROVBENCH_DATASTORE", "LocalDS_0", 1);
	setenv("PROVBENCH_NFS_DATASTORE", "nfs-01", 1);
	setenv("PROVBENCH_RUNNER", "/usr/lib/provbench/runner", 1);
	setenv("PROVBENCH_VM2", "/DC0/vm/bench-02", 1);
	setenv("PROVBENCH_DIR_A", "/var/tmp", 1);
	setenv("PROVBENCH_DIR_B", "/tmp", 1);
}

static void shipped_profiles_load(void)
{
	DIR *d = opendir("profiles");
	struct dirent *de;
	struct pb_profile p;
	char path[512], err[PB_ERRBUF_SIZE];
	unsigned n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	set_lab_env();
	while ((de = readdir(d))) {
		if (!strstr(de->d_name, ".json"))
			continue;
		snprintf(path, sizeof(path), "profiles/%s", de->d_name);
		err[0] = '\0';
		if (pb_profile_load(&p, path, err) != PB_OK) {
			fprintf(stderr, "\n  %s", err);
			CU_FAIL(de->d_name);
		}
		/* the name matches the file: results directories say which */
		CU_ASSERT(p.name &&
			  !strncmp(de->d_name, p.name, strlen(p.name)));
		CU_ASSERT(p.nmodes >= 3);
		pb_profile_dispose(&p);
		n++;
	}
	closedir(d);
	CU_ASSERT(n >= 7);
}

static void seed_profiles_say_what_they_measure(void)
{
	struct pb_profile p;
	char err[PB_ERRBUF_SIZE] = "";

	set_lab_env();
	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(&p, "profiles/seed-001-rdm-vs-vmdk-8g.json",
				err),
		PB_OK);
	/* as its author ran it: a physical RDM the baseline, the 8 GB file
	 * deleted and written again, MB/s; then deleted with a reclaim and
	 * written again (issue 40) */
	CU_ASSERT_EQUAL(p.disk_size, 10ull << 30);
	CU_ASSERT_EQUAL(p.modes[0], PB_MODE_RDMP);
	CU_ASSERT_EQUAL(p.points[0].filesystem, RUNNER_FS_EXT4);
	CU_ASSERT_EQUAL(p.points[0].size, 8ull << 30);
	CU_ASSERT_EQUAL(p.points[0].npasses, 8);
	CU_ASSERT_EQUAL(p.points[0].passes[1], RUNNER_PASS_RECREATE);
	CU_ASSERT_EQUAL(p.points[0].passes[3], RUNNER_PASS_RECREATE);
	CU_ASSERT_EQUAL(p.points[0].passes[4], RUNNER_PASS_READ);
	CU_ASSERT_EQUAL(p.points[0].passes[5], RUNNER_PASS_RECLAIM);
	CU_ASSERT_EQUAL(p.points[0].passes[6], RUNNER_PASS_FIRST_WRITE);
	CU_ASSERT_STRING_EQUAL(VSO(&p)->lun,
			       "naa.6000c290000000000000000000000001");
	pb_profile_dispose(&p);

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(&p, "profiles/seed-003-dd-8k-sync.json", err),
		PB_OK);
	CU_ASSERT_EQUAL(p.points[0].bs, 8192);
	CU_ASSERT_TRUE(p.points[0].buffered);
	CU_ASSERT_EQUAL(p.points[0].size, 4096000000ull);
	CU_ASSERT_EQUAL(p.points[0].passes[2], RUNNER_PASS_COMMAND);
	CU_ASSERT_PTR_NOT_NULL(p.command && strstr(p.command, "bs=8k"));
	pb_profile_dispose(&p);
	/* the raw forms stay */
	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(&p, "profiles/seed-003-dd-8k-sync-raw.json",
				err),
		PB_OK);
	CU_ASSERT_EQUAL(p.disk_size, 4096000000ull);
	CU_ASSERT_EQUAL(p.points[0].filesystem, RUNNER_FS_NONE);
	pb_profile_dispose(&p);
	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(&p, "profiles/seed-001-rdm-vs-vmdk-8g-raw.json",
				err),
		PB_OK);
	CU_ASSERT_EQUAL(p.disk_size, 8ull << 30);
	pb_profile_dispose(&p);

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(
			&p, "profiles/seed-000-hdparm-reads-sysctl.json", err),
		PB_OK);
	/* both arms in one run, each its own VM */
	CU_ASSERT_EQUAL_FATAL(p.ntargets, 2);
	CU_ASSERT_EQUAL(pb_target_sysctl(&p, 0)->n, 0);
	CU_ASSERT_EQUAL(pb_target_sysctl(&p, 1)->n, 3);
	CU_ASSERT_STRING_EQUAL(
		((const struct vsphere_opts *)p.targets[1].bopts)->vm,
		"/DC0/vm/bench-02");
	pb_profile_dispose(&p);

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(&p, "profiles/seed-002-hdparm-reads-vmx.json",
				err),
		PB_OK);
	CU_ASSERT_EQUAL_FATAL(p.ntargets, 2);
	{
		const struct vsphere_opts *a = p.targets[0].bopts,
					  *b = p.targets[1].bopts;

		CU_ASSERT_EQUAL_FATAL(b->extra_config.n, 1);
		CU_ASSERT_STRING_EQUAL(b->extra_config.key[0],
				       "mainMem.useNamedFile");
		CU_ASSERT_STRING_EQUAL(b->extra_config.val[0], "FALSE");
		CU_ASSERT_STRING_EQUAL(a->extra_config.val[0], "TRUE");
	}
	pb_profile_dispose(&p);

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(&p, "profiles/seed-004-fsync-nfs.json", err),
		PB_OK);
	CU_ASSERT_EQUAL(p.points[0].passes[1], RUNNER_PASS_FSYNC_WRITE);
	CU_ASSERT_STRING_EQUAL(VSO(&p)->datastore, "nfs-01");
	pb_profile_dispose(&p);
}

/* The last profile write_tmp wrote: removed when the next is written
 * (each is loaded before the next, the path being one buffer) and by
 * the suite's cleanup, so a run leaves none in /tmp. */
#define TMP_TEMPLATE "/tmp/pb-profile-XXXXXX.json" /* mkstemps' */
static char tmp_path[] = TMP_TEMPLATE;
static bool tmp_made; /* tmp_path names a file mkstemps made */

static int tmp_remove(void)
{
	if (tmp_made)
		unlink(tmp_path);
	tmp_made = false;
	return 0;
}

static const char *write_tmp(const char *text)
{
	FILE *fp;
	int fd;

	tmp_remove();
	strcpy(tmp_path, TMP_TEMPLATE);
	fd = mkstemps(tmp_path, 5);
	tmp_made = fd >= 0;
	fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
	return tmp_path;
}

/* A profile as run and check take it: loaded, then its unset settings
 * settled (what a run refuses after saying its plan). */
static enum pb_error load_settled(struct pb_profile *p, const char *path,
				  char *err)
{
	enum pb_error e = pb_profile_load(p, path, err);

	return e ? e : pb_profile_settle(p, err);
}

static void matrix_expands(void)
{
	const char *path = write_tmp(
		"{\"name\": \"m\", \"backend\": \"vsphere\", \"vsphere\": "
		"{\"vm\": \"v\"}, \"disk_size\": \"64M\", \"modes\": "
		"[\"thin\", \"lazy\"], \"workload\": {\"qd\": 4}, \"matrix\": "
		"{\"bs\": [\"64K\", \"1M\"], \"pattern\": [\"seq\", "
		"\"rand\"]}}");
	struct pb_profile p;
	struct pb_plan plan = {0};
	char err[PB_ERRBUF_SIZE] = "";
	unsigned i, rand = 0;

	CU_ASSERT_EQUAL_FATAL(pb_profile_load(&p, path, err), PB_OK);
	CU_ASSERT_EQUAL(p.npoints, 4);
	for (i = 0; i < p.npoints; i++) {
		CU_ASSERT_EQUAL(p.points[i].qd, 4); /* the base carries over */
		rand += p.points[i].pattern == RUNNER_PATTERN_RAND;
	}
	CU_ASSERT_EQUAL(rand, 2);
	CU_ASSERT_STRING_EQUAL(pb_point_desc(&p, 0), "bs=64K pattern=seq");
	CU_ASSERT_STRING_EQUAL(pb_point_desc(&p, 3), "bs=1M pattern=rand");
	CU_ASSERT_EQUAL(pb_plan_build(&plan, &p, err), PB_OK);
	CU_ASSERT_EQUAL(plan.n, 8);
	pb_plan_dispose(&plan);
	pb_profile_dispose(&p);
	remove(path);
}

static void shuffle_complete_and_replayable(void)
{
	const char *path = write_tmp(
		"{\"name\": \"s\", \"backend\": \"vsphere\", \"vsphere\": "
		"{\"vm\": \"v\", \"lun\": \"l\"}, \"disk_size\": \"64M\", "
		"\"modes\": [\"thin\", \"lazy\", \"eager\", \"rdm\", "
		"\"rdmp\"], \"repetitions\": 20, \"order\": \"shuffle\", "
		"\"seed\": 99}");
	struct pb_profile p;
	struct pb_plan a = {0}, b = {0};
	char err[PB_ERRBUF_SIZE] = "";
	unsigned r, k, seen, differs = 0, first_thin = 0;

	CU_ASSERT_EQUAL_FATAL(pb_profile_load(&p, path, err), PB_OK);
	CU_ASSERT_EQUAL_FATAL(pb_plan_build(&a, &p, err), PB_OK);
	CU_ASSERT_EQUAL_FATAL(pb_plan_build(&b, &p, err), PB_OK);
	CU_ASSERT_EQUAL(a.seed, 99);
	CU_ASSERT_EQUAL(a.n, 100);
	for (r = 0; r < 20; r++) {
		/* every mode exactly once in each repetition */
		for (seen = 0, k = 0; k < 5; k++) {
			CU_ASSERT_EQUAL(a.items[r * 5 + k].rep, r + 1);
			seen |= 1u << a.items[r * 5 + k].mode;
		}
		CU_ASSERT_EQUAL(seen, 0x1f);
		first_thin += a.items[r * 5].mode == PB_MODE_THIN;
	}
	for (k = 0; k < a.n; k++) {
		CU_ASSERT_EQUAL(a.items[k].mode, b.items[k].mode);
		differs += a.items[k].mode != p.modes[k % 5];
	}
	CU_ASSERT(differs > 20); /* shuffled, not the profile's order */
	CU_ASSERT(first_thin < 20);
	pb_plan_dispose(&a);
	pb_plan_dispose(&b);
	pb_profile_dispose(&p);
	remove(path);
}

/*
 * A matrix over passes (and long values): every point its full name, no
 * two alike (the report groups by them), however long.
 */
static void matrix_points_named_in_full(void)
{
	const char *path = write_tmp(
		"{\"name\": \"m\", \"disk_size\": \"64M\", \"modes\": "
		"[\"thin\"], \"matrix\": {\"passes\": [[\"first-write\", "
		"\"rewrite\"], [\"first-write\", \"rewrite\", \"rewrite\", "
		"\"rewrite\", \"rewrite\", \"read\"]], \"interval_ms\": "
		"[100, 250], \"direct\": [true, false]}}");
	struct pb_profile p;
	char err[PB_ERRBUF_SIZE] = "";
	unsigned i, k;

	CU_ASSERT_EQUAL_FATAL(pb_profile_load(&p, path, err), PB_OK);
	CU_ASSERT_EQUAL(p.npoints, 8);
	CU_ASSERT_STRING_EQUAL(
		pb_point_desc(&p, 7),
		"passes=first-write,rewrite,rewrite,rewrite,rewrite,read "
		"interval_ms=250 direct=false");
	for (i = 0; i < p.npoints; i++)
		for (k = i + 1; k < p.npoints; k++)
			CU_ASSERT_STRING_NOT_EQUAL(pb_point_desc(&p, i),
						   pb_point_desc(&p, k));
	CU_ASSERT_EQUAL(p.points[7].npasses, 6);
	CU_ASSERT_TRUE(p.points[7].buffered);
	pb_profile_dispose(&p);
	remove(path);
}

static void runner_args_follow_workload(void)
{
	struct runner_opts w;
	struct pb_buf b = PB_BUF_INIT(4096);

	runner_opts_init(&w);
	w.size = 1 << 20;
	w.bs = 8192;
	w.buffered = true;
	w.verify = true;
	w.pattern = RUNNER_PATTERN_RAND;
	w.passes[1] = RUNNER_PASS_FSYNC_WRITE;
	CU_ASSERT_EQUAL(pb_workload_args(&b, &w, 5), PB_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(b.data, "--size 1048576"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.data, "--bs 8192"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.data, "--pattern rand"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.data, "--buffered"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.data, "--verify"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.data, "--seed 5"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(b.data, "--passes first-write,fsync-write"));
	pb_buf_dispose(&b);
}

#define QHEAD "{\"name\": \"q\", \"disk_size\": \"64M\", "

/* Filesystem, command and qemu keys: each mistake named by its key. */
static const struct {
	const char *text, *msg;
} bad_fs[] = {
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"passes\": "
	       "[\"first-write\", \"command\"]}}",
	 "workload.passes: a command pass needs workload.command"},
	/* what the runner refuses, the profile refuses: before a disk */
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"interval_ms\": "
	       "5000000}}",
	 "workload.interval_ms: 5000000 is out of range (10 to 3600000)"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"qd\": 4096}}",
	 "workload.qd: 4096 is out of range (1 to 1024)"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"passes\": "
	       "[\"first-write\", \"rewite\"]}}",
	 "workload.passes[1]: unknown pass 'rewite' (did you mean rewrite? "
	 "one of first-write, rewrite, read, fsync-write, command, recreate, "
	 "reclaim)"},
	{QHEAD "\"modes\": [\"thin\", \"eagr\"]}",
	 "modes[1]: unknown mode 'eagr' (did you mean eager? one of thin, "
	 "lazy, eager, rdm, rdmp)"},
	{QHEAD "\"modes\": [\"thin\", \"thick\"]}",
	 "modes[1]: unknown mode 'thick' (one of thin, lazy, eager, rdm, "
	 "rdmp)"},
	{QHEAD "\"modes\": [\"thin\", \"thin\"]}",
	 "modes[1]: 'thin' is listed twice"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"pattern\": "
	       "\"rnd\"}}",
	 "workload.pattern: unknown value 'rnd' (did you mean rand? one of "
	 "seq, rand)"},
	{"{\"name\": \"q\", \"disk_size\": \"1.3K\", \"modes\": "
	 "[\"thin\"]}",
	 "disk_size: '1.3K': not whole bytes"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"command\": "
	       "\"true\"}}",
	 "workload.command: no command pass"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"command\": \"\"}}",
	 "workload.command: must be a command line"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"file_size\": "
	       "\"8M\"}}",
	 "workload.file_size: only with workload.filesystem"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"filesystem\": "
	       "\"ext4\", \"file_size\": \"63M\"}}",
	 "workload.file_size: 63 MiB (66060288 bytes) is more than 90% of "
	 "disk_size 64 MiB"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"filesystem\": "
	       "\"ext4\", \"file_size\": \"512K\", \"bs\": \"1M\"}}",
	 "workload.file_size: 512 KiB is less than one workload.bs block "
	 "(1 MiB)"},
	/* a raw target has no file to delete and write anew */
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"passes\": "
	       "[\"first-write\", \"recreate\"]}}",
	 "workload.passes: recreate deletes the file and writes a new one, so "
	 "it needs workload.filesystem (on a raw target, use rewrite)"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"filesystem\": "
	       "\"ext4\", \"fstrim\": true}}",
	 "workload.fstrim: trims after a recreate pass's delete, and "
	 "workload.passes has none"},
	{"{\"name\": \"q\", \"backend\": \"host\", \"disk_size\": \"64M\", "
	 "\"modes\": [\"thin\"], \"host_baseline\": true}",
	 "host_baseline: backend host has no host beside it to measure"},
	{QHEAD "\"modes\": [\"thin\"], \"host_baseline\": true, "
	       "\"concurrency\": 2, \"targets\": [{\"dir\": \"/tmp\"}, "
	       "{\"dir\": \"/var/tmp\"}]}",
	 "host_baseline: with concurrency 1 only"},
	{QHEAD "\"modes\": [\"thin\"], \"host_baseline\": \"yes\"}",
	 "host_baseline: must be true or false"},
	{QHEAD "\"modes\": [\"thin\"], \"baseline\": \"rdm\"}",
	 "baseline: must be one of modes"},
	{QHEAD "\"modes\": [\"thin\"], \"units\": \"GB\"}",
	 "units: unknown value 'GB' (did you mean MB? one of MiB, MB)"},
	{QHEAD "\"modes\": [\"thin\"], \"order\": \"random\"}",
	 "order: unknown value 'random' (one of fixed, shuffle)"},
	{QHEAD "\"modes\": [\"thin\"], \"seed\": -1}",
	 "seed: '-1' is not a whole number, 0 or more"},
	{QHEAD "\"modes\": [\"thin\"], \"repetitions\": 0}",
	 "repetitions: 0 is out of range (1 to 10000)"},
	/* the precision form's keys (issue 54) */
	{QHEAD "\"modes\": [\"thin\"], \"min_repetitions\": 4}",
	 "min_repetitions: needs precision_pct or threshold_pct, the question "
	 "that stops a mode early"},
	{QHEAD "\"modes\": [\"thin\"], \"repetitions\": 2, "
	       "\"threshold_pct\": 5}",
	 "repetitions: 2 is under min_repetitions (3): with precision_pct or "
	 "threshold_pct it is the most a mode runs"},
	{QHEAD "\"modes\": [\"thin\"], \"repetitions\": 200, "
	       "\"precision_pct\": 5}",
	 "repetitions: 200: at most 99 more than min_repetitions (3) with "
	 "precision_pct or threshold_pct"},
	{QHEAD "\"modes\": [\"thin\"], \"min_repetitions\": 2, "
	       "\"threshold_pct\": 5}",
	 "min_repetitions: 2 is out of range (3 to 10000)"},
	{QHEAD "\"modes\": [\"thin\"], \"precision_pct\": \"5%\"}",
	 "precision_pct: '5%' is not a number"},
	{QHEAD "\"modes\": [\"thin\"], \"threshold_pct\": 2000}",
	 "threshold_pct: 2000 is out of range (0 to 1000)"},
	{QHEAD "\"modes\": [\"thin\"], \"precision_pct\": true}",
	 "precision_pct: must be a number"},
	{QHEAD "\"modes\": [\"thin\"], \"gate_pct\": 10}",
	 "gate_pct: needs precision_pct or threshold_pct: the gate's question "
	 "goes with a mode's own"},
	{QHEAD "\"modes\": [\"thin\"], \"stall_s\": 3}",
	 "stall_s: must be 0 (never) or 5 seconds or more"},
	{QHEAD "\"modes\": [\"thin\"], \"timeout_s\": 30, "
	       "\"stall_s\": 30}",
	 "stall_s: must be under timeout_s"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"filesystem\": "
	       "\"btrfs\"}}",
	 "workload.filesystem: unknown value 'btrfs' (one of none, ext4, xfs, "
	 "ntfs)"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"filesystem\": "
	       "\"xfs\"}}",
	 "disk_size: xfs needs a disk of at least 300M"},
	{QHEAD "\"modes\": [\"thin\"], \"matrix\": {\"command\": "
	       "[\"a\", \"b\"]}}",
	 "matrix.command: cannot vary in a matrix"},
	{QHEAD "\"modes\": [\"rdmp\"]}",
	 "modes: rdmp: backend qemu cannot make it (it makes thin, lazy, "
	 "eager, rdm)"},
	{QHEAD "\"modes\": [\"thin\"], \"qemu\": {\"accel\": \"hvf\"}}",
	 "qemu.accel: unknown value 'hvf' (one of auto, kvm, tcg)"},
	{"{\"name\": \"q\", \"backend\": \"host\", \"disk_size\": \"64M\", "
	 "\"modes\": [\"thin\"], \"guest_sysctl\": {\"vm.swappiness\": "
	 "\"1\"}}",
	 "guest_sysctl: backend host cannot apply it"},
	{"{\"name\": \"q\", \"backend\": \"host\", \"disk_size\": \"64M\", "
	 "\"modes\": [\"thin\"], \"matrix\": {\"guest_sysctl\": "
	 "[{\"vm.swappiness\": \"1\"}]}}",
	 "guest_sysctl: backend host cannot apply it"},
	{QHEAD "\"modes\": [\"thin\"], \"qemu\": {\"cpus\": true}}",
	 "qemu.cpus: must be a whole number"},
	{QHEAD "\"modes\": [\"thin\"], \"qemu\": {\"cpu\": 2}}",
	 "qemu.cpu: unknown key (did you mean cpus?)"},
	/* a typo is named with what it most likely meant, as a pass is */
	{QHEAD "\"modes\": [\"thin\"], \"repetitons\": 2}",
	 "repetitons: unknown key (did you mean repetitions?)"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"patern\": "
	       "\"seq\"}}",
	 "workload.patern: unknown key (did you mean pattern?)"},
	{QHEAD "\"modes\": [\"thin\"], \"colour\": 2}", "colour: unknown key"},
	/* every unset "env:" variable at once, not one a try */
	{"{\"name\": \"q\", \"backend\": \"host\", \"disk_size\": \"64M\", "
	 "\"modes\": [\"thin\", \"rdm\"], \"host\": {\"dir\": "
	 "\"env:PB_UNSET_DIR\", \"device\": \"env:PB_UNSET_DEVICE\"}}",
	 ": host.dir (PB_UNSET_DIR): environment variable not set; mode rdm "
	 "needs host.device (PB_UNSET_DEVICE) too (--modes without it does "
	 "not)"},
	/* rdm's settings are not asked for by a plan without rdm */
	{"{\"name\": \"q\", \"backend\": \"host\", \"disk_size\": \"64M\", "
	 "\"modes\": [\"thin\"], \"host\": {\"dir\": \"env:PB_UNSET_DIR\", "
	 "\"device\": \"env:PB_UNSET_DEVICE\"}}",
	 ": host.dir (PB_UNSET_DIR): environment variable not set"},
	{QHEAD "\"modes\": [\"thin\"], \"backend\": \"hyperv\"}",
	 "backend: hyperv: unknown backend (qemu, vsphere, host or null)"},
	{QHEAD "\"modes\": [\"thin\"], \"qemu\": {\"memory_mib\": 8}}",
	 "qemu.memory_mib"},
	{QHEAD "\"modes\": [\"thin\"], \"backend\": \"vsphere\", "
	       "\"vsphere\": {\"vm\": \"a\"}, \"qemu\": {}}",
	 "qemu: only for backend qemu"},
	/* targets: each mistake named by its place in the list */
	{QHEAD "\"modes\": [\"thin\"], \"targets\": []}",
	 "targets: must be a non-empty list of objects"},
	{QHEAD "\"modes\": [\"thin\"], \"targets\": [{\"dir\": \"/a\"}, "
	       "{\"vm\": \"x\"}]}",
	 "targets[1].vm: unknown key"},
	{QHEAD "\"modes\": [\"thin\"], \"targets\": [{\"name\": 7}]}",
	 "targets[0].name: must be a string of 1 to 64 characters"},
	{QHEAD "\"modes\": [\"thin\"], \"targets\": [{\"name\": \"x\", "
	       "\"dir\": \"/a\"}, {\"name\": \"x\", \"dir\": \"/b\"}]}",
	 "targets: two targets are both named 'x'"},
	{QHEAD "\"modes\": [\"thin\"], \"targets\": [{\"cpus\": 0}]}",
	 "targets[0].cpus: 0 is out of range"},
	{QHEAD "\"modes\": [\"thin\"], \"matrix\": {\"dir\": []}}",
	 "matrix.dir: must be a non-empty list"},
	/* the backend's rules hold per target: each names its own VM */
	{"{\"name\": \"v\", \"disk_size\": \"64M\", \"modes\": "
	 "[\"thin\"], \"backend\": \"vsphere\", \"vsphere\": {}, "
	 "\"targets\": [{\"vm\": \"a\"}, {\"datastore\": \"d\"}]}",
	 "targets[1]: vsphere.vm: required"},
	{QHEAD "\"modes\": [\"thin\"], \"matrix\": {\"disk_size\": "
	       "[\"64M\", \"0\"]}}",
	 "matrix.disk_size[1]: must be more than 0"},
	{QHEAD "\"modes\": [\"thin\"], \"workload\": {\"bs\": \"1M\"}, "
	       "\"matrix\": {\"disk_size\": [\"1536K\"]}}",
	 "disk_size: 1.5 MiB (1572864 bytes) is not a whole number of "
	 "workload.bs blocks (1 MiB)"},
	{QHEAD "\"modes\": [\"thin\"], \"concurrency\": 0}",
	 "concurrency: 0 is out of range"},
	{QHEAD "\"modes\": [\"thin\"], \"concurrency\": 65}",
	 "concurrency: 65 is out of range"},
	{QHEAD "\"modes\": [\"thin\"], \"concurrency\": 2.5}",
	 "concurrency: must be a whole number"},
};

/*
 * One size rule: the field note's "an 8 GB file" on a 10 GB disk is 8 GiB
 * on 10 GiB, as vSphere makes the disk, and fits; a file that is not whole
 * blocks is rounded down, with a note, not refused.
 */
static void sizes_one_rule(void)
{
	struct pb_profile p;
	char err[PB_ERRBUF_SIZE] = "";

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(
			&p,
			write_tmp("{\"name\": \"s\", \"disk_size\": \"10GB\", "
				  "\"modes\": [\"thin\"], \"workload\": "
				  "{\"filesystem\": \"ext4\", \"file_size\": "
				  "\"8GB\", \"bs\": \"1MB\"}}"),
			err),
		PB_OK);
	CU_ASSERT_EQUAL(p.disk_size, 10ull << 30);
	CU_ASSERT_EQUAL(p.points[0].size, 8ull << 30);
	CU_ASSERT_EQUAL(p.points[0].bs, 1u << 20);
	CU_ASSERT(p.disk_size_si);
	CU_ASSERT_STRING_EQUAL(p.notes, "");
	pb_profile_dispose(&p);

	/* dd's count= of whole blocks: 10000001 bytes at 1M is 9 MiB */
	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(
			&p,
			write_tmp("{\"name\": \"s\", \"disk_size\": \"64M\", "
				  "\"modes\": [\"thin\"], \"workload\": "
				  "{\"filesystem\": \"ext4\", \"file_size\": "
				  "10000001, \"bs\": \"1M\"}}"),
			err),
		PB_OK);
	CU_ASSERT_EQUAL(p.points[0].size, 9ull << 20);
	CU_ASSERT_STRING_EQUAL(p.notes,
			       "workload.file_size 9.5 MiB (10000001 bytes) "
			       "rounded down to 9 MiB (9437184 bytes), whole "
			       "workload.bs blocks of 1 MiB\n");
	CU_ASSERT_FALSE(p.disk_size_si);
	pb_profile_dispose(&p);
}

/*
 * host_baseline: each target gets a host twin on the same directory (and
 * device), and the plan puts each twin's item just before its guest's,
 * shuffled or not; --targets keeps a guest and its twin together.
 */
static void host_baseline_twins(void)
{
	struct pb_profile p;
	struct pb_plan plan;
	char err[PB_ERRBUF_SIZE] = "";
	const struct host_opts *ho;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(
			&p,
			write_tmp("{\"name\": \"h\", \"disk_size\": \"64M\", "
				  "\"modes\": [\"rdm\", \"thin\"], "
				  "\"repetitions\": 3, \"order\": \"shuffle\", "
				  "\"seed\": 7, \"host_baseline\": true, "
				  "\"qemu\": {\"dir\": \"/var/tmp\", "
				  "\"rdm_device\": \"/dev/loop7\"}}"),
			err),
		PB_OK);
	CU_ASSERT_EQUAL_FATAL(p.ntargets, 2);
	CU_ASSERT_EQUAL(p.ntwins, 1);
	CU_ASSERT(p.host_baseline);
	CU_ASSERT_STRING_EQUAL(p.targets[0].name, "guest");
	CU_ASSERT_STRING_EQUAL(p.targets[1].name, "host");
	CU_ASSERT_PTR_NULL(p.targets[0].backend);
	CU_ASSERT_FALSE(p.targets[0].twin);
	CU_ASSERT_PTR_EQUAL(p.targets[1].backend, pb_backend_find("host"));
	CU_ASSERT(p.targets[1].twin && p.targets[1].twin_of == 0);
	ho = p.targets[1].bopts;
	CU_ASSERT_STRING_EQUAL(ho->dir, "/var/tmp");
	CU_ASSERT_STRING_EQUAL(ho->device, "/dev/loop7");
	CU_ASSERT_EQUAL_FATAL(pb_plan_build(&plan, &p, err), PB_OK);
	CU_ASSERT_EQUAL_FATAL(plan.n, 12);
	for (i = 0; i < plan.n; i += 2) {
		CU_ASSERT_EQUAL(plan.items[i].target, 1);
		CU_ASSERT_EQUAL(plan.items[i + 1].target, 0);
		CU_ASSERT_EQUAL(plan.items[i].rep, plan.items[i + 1].rep);
		CU_ASSERT_EQUAL(plan.items[i].mode, plan.items[i + 1].mode);
		CU_ASSERT_EQUAL(plan.items[i].point, plan.items[i + 1].point);
		CU_ASSERT_EQUAL(plan.items[i].wave, i + 1);
	}
	pb_plan_dispose(&plan);
	pb_profile_dispose(&p);
}

/*
 * A settings A/B as one experiment: the matrix's guest_sysctl and a
 * backend setting (qemu.mem_file) make a target per combination, each
 * named by what it sets and applying its own settings; without one, the
 * profile's.
 */
static void settings_arms(void)
{
	struct pb_profile p;
	char err[PB_ERRBUF_SIZE] = "";
	const struct pb_kv *kv;

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(
			&p,
			write_tmp("{\"name\": \"ab\", \"disk_size\": \"64M\", "
				  "\"modes\": [\"thin\"], \"guest_sysctl\": "
				  "{\"vm.swappiness\": \"60\"}, \"matrix\": "
				  "{\"mem_file\": [false, true], "
				  "\"guest_sysctl\": [{\"vm.dirty_ratio\": "
				  "\"20\"}, {\"vm.dirty_ratio\": \"5\"}]}}"),
			err),
		PB_OK);
	CU_ASSERT_EQUAL_FATAL(p.ntargets, 4);
	CU_ASSERT_STRING_EQUAL(p.targets[0].name,
			       "mem_file=false vm.dirty_ratio=20");
	CU_ASSERT_STRING_EQUAL(p.targets[3].name,
			       "mem_file=true vm.dirty_ratio=5");
	CU_ASSERT(((const struct qemu_opts *)p.targets[3].bopts)->mem_file);
	CU_ASSERT_FALSE(
		((const struct qemu_opts *)p.targets[0].bopts)->mem_file);
	kv = pb_target_sysctl(&p, 1);
	CU_ASSERT_EQUAL_FATAL(kv->n, 1);
	CU_ASSERT_STRING_EQUAL(kv->key[0], "vm.dirty_ratio");
	CU_ASSERT_STRING_EQUAL(kv->val[0], "5");
	/* the arms' own settings replace the profile's */
	CU_ASSERT_STRING_EQUAL(pb_target_sysctl(&p, 0)->val[0], "20");
	pb_profile_dispose(&p);

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(
			&p,
			write_tmp("{\"name\": \"one\", \"disk_size\": \"64M\", "
				  "\"modes\": [\"thin\"], \"guest_sysctl\": "
				  "{\"vm.swappiness\": \"60\"}}"),
			err),
		PB_OK);
	CU_ASSERT_STRING_EQUAL(pb_target_sysctl(&p, 0)->key[0],
			       "vm.swappiness");
	pb_profile_dispose(&p);
}

/* A profile's unset "env:" settings and the connection's unset ones, said
 * in one line (issue 38: VM, then URL, then USERNAME, one a try) */
static void unset_settings_with_connection(void)
{
	static const char *const conn[] = {
		"PROVBENCH_URL",
		"GOVC_URL",
		"PROVBENCH_USERNAME",
		"GOVC_USERNAME",
		"PROVBENCH_PASSWORD",
		"GOVC_PASSWORD",
		"PROVBENCH_PASSWORD_FILE",
		"PROVBENCH_GUEST_USERNAME",
		"PROVBENCH_GUEST_PASSWORD",
		"PROVBENCH_GUEST_PASSWORD_FILE",
		"GOVC_GUEST_LOGIN",
		"PROVBENCH_THUMBPRINT",
		"PROVBENCH_CA_FILE",
		"GOVC_TLS_CA_CERTS",
		"PROVBENCH_INSECURE",
		"GOVC_INSECURE",
	};
	const char *text = "{\"name\": \"v\", \"disk_size\": \"64M\", "
			   "\"modes\": [\"thin\"], \"backend\": \"vsphere\", "
			   "\"vsphere\": {\"vm\": \"env:PB_UNSET_VM\"}}";
	struct pb_profile p;
	char err[PB_ERRBUF_SIZE] = "";
	size_t i;

	for (i = 0; i < sizeof(conn) / sizeof(conn[0]); i++)
		unsetenv(conn[i]);
	/* loaded, the unset ones kept for later: the plan can be said */
	CU_ASSERT_EQUAL(pb_profile_load(&p, write_tmp(text), err), PB_OK);
	CU_ASSERT_STRING_EQUAL(err, "");
	pb_profile_dispose(&p);
	CU_ASSERT_EQUAL(load_settled(&p, write_tmp(text), err), PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err,
				      ": vsphere.vm (PB_UNSET_VM): "
				      "environment variable not set; nor "
				      "the vSphere settings: PROVBENCH_URL, "
				      "PROVBENCH_USERNAME, "
				      "PROVBENCH_PASSWORD, "
				      "PROVBENCH_GUEST_USERNAME, "
				      "PROVBENCH_GUEST_PASSWORD, "
				      "PROVBENCH_THUMBPRINT or "
				      "PROVBENCH_CA_FILE"));
	pb_profile_dispose(&p);
	/* govc's user:password@host is a login */
	setenv("GOVC_URL", "https://u:pw@vc/sdk", 1);
	err[0] = '\0';
	CU_ASSERT_EQUAL(load_settled(&p, write_tmp(text), err), PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "environment variable not set"));
	CU_ASSERT_PTR_NULL(strstr(err, "PROVBENCH_URL"));
	CU_ASSERT_PTR_NULL(strstr(err, "PROVBENCH_PASSWORD,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "PROVBENCH_GUEST_USERNAME"));
	pb_profile_dispose(&p);
	/* and govc's guest login and opt-out are the rest */
	setenv("GOVC_GUEST_LOGIN", "root:pw", 1);
	setenv("GOVC_INSECURE", "1", 1);
	err[0] = '\0';
	CU_ASSERT_EQUAL(load_settled(&p, write_tmp(text), err), PB_ERR_INPUT);
	CU_ASSERT_PTR_NULL(strstr(err, "vSphere settings"));
	pb_profile_dispose(&p);
	unsetenv("GOVC_GUEST_LOGIN");
	unsetenv("GOVC_INSECURE");
	unsetenv("GOVC_URL");
}

static void filesystem_and_command_keys(void)
{
	struct pb_profile p;
	struct pb_buf args = PB_BUF_INIT(4096);
	char err[PB_ERRBUF_SIZE];
	size_t i;

	for (i = 0; i < sizeof(bad_fs) / sizeof(bad_fs[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(
			load_settled(&p, write_tmp(bad_fs[i].text), err),
			PB_ERR_INPUT);
		if (!strstr(err, bad_fs[i].msg)) {
			fprintf(stderr, "\n  want '%s', got '%s'",
				bad_fs[i].msg, err);
			CU_FAIL(bad_fs[i].msg);
		}
		pb_profile_dispose(&p);
	}
	/* the file leaves a quarter of the disk to the filesystem, and the
	 * runner is told the file's size, not the disk's */
	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(
			&p,
			write_tmp(QHEAD
				  "\"modes\": [\"thin\", \"eager\"], "
				  "\"workload\": {\"filesystem\": \"ext4\", "
				  "\"passes\": [\"first-write\", \"command\"], "
				  "\"command\": \"tar xf /src.tar, sync\"}, "
				  "\"matrix\": {\"filesystem\": [\"ext4\", "
				  "\"none\"]}}"),
			err),
		PB_OK);
	CU_ASSERT_STRING_EQUAL(p.backend->name, "qemu");
	CU_ASSERT_STRING_EQUAL(QO(&p)->accel, "auto");
	CU_ASSERT_EQUAL(QO(&p)->memory_mib, 256);
	CU_ASSERT_EQUAL(QO(&p)->cpus, 1);
	CU_ASSERT_STRING_EQUAL(QO(&p)->binary, "qemu-system-x86_64");
	CU_ASSERT_STRING_EQUAL(p.command, "tar xf /src.tar, sync");
	CU_ASSERT_EQUAL(p.npoints, 2);
	CU_ASSERT_EQUAL(p.points[0].size, 48u << 20);
	CU_ASSERT_TRUE(pb_workload_has_command(&p.points[0]));
	CU_ASSERT_EQUAL(pb_workload_args(&args, &p.points[0], 1), PB_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(args.data, "--filesystem ext4 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(args.data, "--size 50331648 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(args.data, "first-write,command"));
	/* the command itself never goes into the argument string */
	CU_ASSERT_PTR_NULL(strstr(args.data, "tar"));
	pb_buf_dispose(&args);
	CU_ASSERT_EQUAL(p.points[1].filesystem, RUNNER_FS_NONE);
	CU_ASSERT_EQUAL(pb_workload_args(&args, &p.points[1], 1), PB_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(args.data, "--filesystem none"));
	CU_ASSERT_PTR_NOT_NULL(strstr(args.data, "--size 67108864 "));
	pb_buf_dispose(&args);
	pb_profile_dispose(&p);
}

/*
 * concurrency 3 over four targets: each repetition is four waves (two
 * modes x two chunks of targets, three and one), each one mode on its
 * chunk, every target x mode once per repetition; the same seed, the
 * same plan.
 */
static void plan_waves(void)
{
	struct pb_profile p;
	struct pb_plan plan = {0}, again = {0};
	char err[PB_ERRBUF_SIZE] = "";
	unsigned seen[2][4][2] = {{{0}}};
	size_t i, j;

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(&p,
				write_tmp(QHEAD
					  "\"modes\": [\"thin\", \"eager\"], "
					  "\"repetitions\": 2, \"order\": "
					  "\"shuffle\", \"seed\": 7, "
					  "\"concurrency\": 3, \"matrix\": "
					  "{\"dir\": [\"/a\", \"/b\", \"/c\", "
					  "\"/d\"]}}"),
				err),
		PB_OK);
	CU_ASSERT_EQUAL(p.concurrency, 3);
	CU_ASSERT_EQUAL_FATAL(p.ntargets, 4);
	CU_ASSERT_EQUAL_FATAL(pb_plan_build(&plan, &p, err), PB_OK);
	CU_ASSERT_EQUAL_FATAL(plan.n, 16);
	for (i = 0; i < plan.n; i = j) {
		const struct pb_plan_item *a = &plan.items[i];

		for (j = i; j < plan.n && plan.items[j].wave == a->wave; j++) {
			const struct pb_plan_item *b = &plan.items[j];

			CU_ASSERT_EQUAL(b->mode, a->mode);
			CU_ASSERT_EQUAL(b->rep, a->rep);
			/* a chunk: the first three targets, or the fourth */
			CU_ASSERT_EQUAL(b->target / 3, a->target / 3);
			seen[b->rep - 1][b->target][b->mode == PB_MODE_EAGER]++;
		}
		CU_ASSERT_EQUAL(j - i, a->target < 3 ? 3u : 1u);
		/* waves are numbered in order, from 1 */
		CU_ASSERT(i == 0 || a->wave == plan.items[i - 1].wave + 1);
	}
	CU_ASSERT_EQUAL(plan.items[0].wave, 1);
	for (i = 0; i < 16; i++)
		CU_ASSERT_EQUAL(seen[i / 8][i / 2 % 4][i % 2], 1);
	CU_ASSERT_EQUAL_FATAL(pb_plan_build(&again, &p, err), PB_OK);
	CU_ASSERT_EQUAL(
		memcmp(plan.items, again.items, plan.n * sizeof(*plan.items)),
		0);
	pb_plan_dispose(&again);
	pb_plan_dispose(&plan);
	/* one at a time (the default): a wave per item */
	p.concurrency = 1;
	CU_ASSERT_EQUAL_FATAL(pb_plan_build(&plan, &p, err), PB_OK);
	for (i = 0; i < plan.n; i++)
		CU_ASSERT_EQUAL(plan.items[i].wave, i + 1);
	pb_plan_dispose(&plan);
	pb_profile_dispose(&p);
}

/* disk_size in the matrix: each point its own disk, named by it, the
 * runner told to cover it; the top-level one may go, the largest is the
 * profile's (what the space checks need). */
static void matrix_disk_size(void)
{
	struct pb_profile p;
	struct pb_buf args = PB_BUF_INIT(4096);
	char err[PB_ERRBUF_SIZE] = "";

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(&p,
				write_tmp("{\"name\": \"q\", \"modes\": "
					  "[\"thin\"], \"matrix\": "
					  "{\"disk_size\": [\"64M\", \"1G\"], "
					  "\"qd\": [1, 8]}}"),
				err),
		PB_OK);
	CU_ASSERT_EQUAL_FATAL(p.npoints, 4);
	CU_ASSERT_EQUAL(p.disk_size, 1ull << 30);
	CU_ASSERT_EQUAL(p.point_disk[0], 64u << 20);
	CU_ASSERT_EQUAL(p.point_disk[1], 1ull << 30);
	CU_ASSERT_EQUAL(p.point_disk[2], 64u << 20);
	CU_ASSERT_STRING_EQUAL(p.point_desc[1], "disk_size=1G qd=1");
	CU_ASSERT_STRING_EQUAL(p.point_desc[2], "disk_size=64M qd=8");
	CU_ASSERT_EQUAL(p.points[1].size, 1ull << 30);
	CU_ASSERT_EQUAL(pb_workload_args(&args, &p.points[2], 1), PB_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(args.data, "--size 67108864 "));
	pb_buf_dispose(&args);
	pb_profile_dispose(&p);
	/* without a matrix, every point has the profile's */
	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(&p, write_tmp(QHEAD "\"modes\": [\"thin\"]}"),
				err),
		PB_OK);
	CU_ASSERT_EQUAL(p.point_disk[0], p.disk_size);
	pb_profile_dispose(&p);
}

/* The precision form as loaded: asked by either key, the question's
 * values as written (a fraction of a percent too), min_repetitions its
 * default; a fixed count is not adaptive and its least is its most. */
static void precision_form_keys(void)
{
	static const struct {
		const char *keys;
		bool adaptive, threshold_set;
		unsigned min;
		double precision, threshold;
	} cases[] = {
		{"\"repetitions\": 8", false, false, 8, 0, 0},
		{"\"repetitions\": 8, \"precision_pct\": 2.5", true, false, 3,
		 2.5, 0},
		{"\"repetitions\": 8, \"threshold_pct\": 0", true, true, 3, 0,
		 0},
		{"\"repetitions\": 12, \"min_repetitions\": 5, "
		 "\"threshold_pct\": \"5\", \"precision_pct\": 10",
		 true, true, 5, 10, 5},
	};
	char text[512], err[PB_ERRBUF_SIZE];
	struct pb_profile p;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), QHEAD "\"modes\": [\"thin\"], %s}",
			 cases[i].keys);
		err[0] = '\0';
		CU_ASSERT_EQUAL_FATAL(pb_profile_load(&p, write_tmp(text), err),
				      PB_OK);
		CU_ASSERT_EQUAL(p.adaptive, cases[i].adaptive);
		CU_ASSERT_EQUAL(p.threshold_set, cases[i].threshold_set);
		CU_ASSERT_EQUAL(p.min_repetitions, cases[i].min);
		CU_ASSERT_DOUBLE_EQUAL(p.precision_pct, cases[i].precision, 0);
		CU_ASSERT_DOUBLE_EQUAL(p.threshold_pct, cases[i].threshold, 0);
		pb_profile_dispose(&p);
	}
}

/* Targets over the section, the matrix's backend keys over the targets:
 * names, options and the plan. */
static void targets_expand(void)
{
	struct pb_profile p;
	struct pb_plan plan = {0};
	char err[PB_ERRBUF_SIZE] = "";
	unsigned i, per[4] = {0};
	const struct vsphere_opts *t0, *t1;

	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(
			&p,
			write_tmp("{\"name\": \"t\", \"backend\": "
				  "\"vsphere\", \"vsphere\": {\"vm\": \"v\", "
				  "\"guest_dir\": \"/g\"}, \"disk_size\": "
				  "\"64M\", \"modes\": [\"thin\", \"eager\"], "
				  "\"repetitions\": 3, \"order\": "
				  "\"shuffle\", \"targets\": [{\"name\": "
				  "\"nfs\", \"datastore\": \"nfs01\"}, "
				  "{\"datastore\": \"local\", \"vm\": "
				  "\"v2\"}]}"),
			err),
		PB_OK);
	CU_ASSERT_EQUAL_FATAL(p.ntargets, 2);
	CU_ASSERT_STRING_EQUAL(p.targets[0].name, "nfs");
	CU_ASSERT_STRING_EQUAL(p.targets[1].name, "datastore=local vm=v2");
	t0 = p.targets[0].bopts;
	t1 = p.targets[1].bopts;
	/* the section's keys carry over; the target's own win */
	CU_ASSERT_STRING_EQUAL(t0->vm, "v");
	CU_ASSERT_STRING_EQUAL(t0->datastore, "nfs01");
	CU_ASSERT_STRING_EQUAL(t0->guest_dir, "/g");
	CU_ASSERT_STRING_EQUAL(t1->vm, "v2");
	CU_ASSERT_STRING_EQUAL(t1->datastore, "local");
	CU_ASSERT_STRING_EQUAL(t1->guest_dir, "/g");
	/* every repetition holds every target x mode once */
	CU_ASSERT_EQUAL_FATAL(pb_plan_build(&plan, &p, err), PB_OK);
	CU_ASSERT_EQUAL_FATAL(plan.n, 12);
	for (i = 0; i < 4; i++) {
		const struct pb_plan_item *it = &plan.items[i];

		CU_ASSERT_EQUAL(it->rep, 1);
		per[it->target * 2 + (it->mode == PB_MODE_EAGER)]++;
	}
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(per[i], 1);
	pb_plan_dispose(&plan);
	pb_profile_dispose(&p);

	/* a matrix over a backend key varies the targets, not the points;
	 * a named target keeps its name with the value added */
	CU_ASSERT_EQUAL_FATAL(
		pb_profile_load(
			&p,
			write_tmp("{\"name\": \"t\", \"backend\": "
				  "\"vsphere\", \"vsphere\": {\"vm\": \"v\"}, "
				  "\"disk_size\": \"64M\", \"modes\": "
				  "[\"thin\"], \"targets\": [{\"name\": "
				  "\"h1\", \"host\": \"esx1\"}, {\"host\": "
				  "\"esx2\"}], \"matrix\": {\"datastore\": "
				  "[\"a\", \"b\"], \"bs\": [\"64K\", "
				  "\"1M\"]}}"),
			err),
		PB_OK);
	CU_ASSERT_EQUAL(p.npoints, 2);
	CU_ASSERT_STRING_EQUAL(pb_point_desc(&p, 0), "bs=64K");
	CU_ASSERT_EQUAL_FATAL(p.ntargets, 4);
	CU_ASSERT_STRING_EQUAL(p.targets[0].name, "h1 datastore=a");
	CU_ASSERT_STRING_EQUAL(p.targets[1].name, "h1 datastore=b");
	CU_ASSERT_STRING_EQUAL(p.targets[2].name, "host=esx2 datastore=a");
	CU_ASSERT_STRING_EQUAL(
		((const struct vsphere_opts *)p.targets[3].bopts)->datastore,
		"b");
	CU_ASSERT_STRING_EQUAL(
		((const struct vsphere_opts *)p.targets[3].bopts)->host,
		"esx2");
	CU_ASSERT_EQUAL(pb_plan_build(&plan, &p, err), PB_OK);
	CU_ASSERT_EQUAL(plan.n, 8);
	pb_plan_dispose(&plan);
	pb_profile_dispose(&p);

	/* without targets: one, unnamed, the section itself */
	CU_ASSERT_EQUAL_FATAL(pb_profile_load(&p, "profiles/demo.json", err),
			      PB_OK);
	CU_ASSERT_EQUAL(p.ntargets, 1);
	CU_ASSERT_STRING_EQUAL(p.targets[0].name, "");
	pb_profile_dispose(&p);
}

/*
 * help profile against the parser, on every key it lists (issue 39):
 * each key given a value no key takes (a list of a list) is refused by
 * its own path, never as unknown; the same key with a letter more is
 * refused as unknown. So the help lists every key the parser reads, and
 * the parser reads every key the help lists.
 */
struct listed {
	char section[32], key[64];
};

static int list_key(const struct pb_profile_key *k, void *data)
{
	struct pb_buf *b = data;
	struct listed one = {{0}, {0}};
	const char *s = k->text;
	size_t n;

	snprintf(one.section, sizeof(one.section), "%s", k->section);
	if (strcmp(k->section, "matrix")) {
		snprintf(one.key, sizeof(one.key), "%s", k->key);
		return pb_buf_add(b, &one, sizeof(one)) != PB_OK;
	}
	/* the matrix's one entry lists the keys it may vary */
	for (; *s; s += n + strspn(s + n, ", ")) {
		n = strcspn(s, ", ");
		snprintf(one.key, sizeof(one.key), "%.*s", (int)n, s);
		if (pb_buf_add(b, &one, sizeof(one)) != PB_OK)
			return 1;
	}
	return 0;
}

/* the error a profile gives with section.key (or key) set to value */
static void key_error(char *err, const struct listed *k, const char *key,
		      const char *value)
{
	const char *top = k->section[0] ? "" : key;
	json_error_t jerr;
	struct pb_profile p;
	char text[512];
	json_t *root;

	if (!k->section[0])
		snprintf(text, sizeof(text),
			 "{\"name\": \"k\", \"disk_size\": \"64M\", "
			 "\"modes\": [\"thin\"], \"%s\": %s}",
			 top, value);
	else if (!strcmp(k->section, "workload") ||
		 !strcmp(k->section, "matrix"))
		snprintf(text, sizeof(text),
			 "{\"name\": \"k\", \"disk_size\": \"64M\", "
			 "\"modes\": [\"thin\"], \"%s\": {\"%s\": %s}}",
			 k->section, key, value);
	else /* a backend's section */
		snprintf(text, sizeof(text),
			 "{\"name\": \"k\", \"disk_size\": \"64M\", "
			 "\"modes\": [\"thin\"], \"backend\": \"%s\", "
			 "\"%s\": {\"%s\": %s}}",
			 k->section, k->section, key, value);
	root = json_loads(text, 0, &jerr);
	err[0] = '\0';
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	if (pb_profile_load_json(&p, "p.json", root, err) == PB_OK)
		snprintf(err, PB_ERRBUF_SIZE, "(loaded)");
	/* loaded or not, what it holds is the caller's to free */
	pb_profile_dispose(&p);
	json_decref(root);
}

static void help_keys_are_the_parsers(void)
{
	struct pb_buf b = PB_BUF_INIT(1 << 20);
	const struct listed *k;
	char err[PB_ERRBUF_SIZE], path[128], more[80];
	size_t i, n;

	set_lab_env();
	CU_ASSERT_EQUAL_FATAL(pb_profile_keys_foreach(list_key, &b), PB_OK);
	n = b.len / sizeof(*k);
	CU_ASSERT(n >= 60);
	for (i = 0; i < n; i++) {
		k = (const struct listed *)b.data + i;
		/* "p.json: qemu.cpus: ...", "p.json: modes[0]: ..." */
		snprintf(path, sizeof(path), "p.json: %s%s%s", k->section,
			 k->section[0] ? "." : "", k->key);
		key_error(err, k, k->key, "[[\"x\"]]");
		if (strncmp(err, path, strlen(path)) ||
		    !strchr(":[", err[strlen(path)]) ||
		    strstr(err, "unknown key")) {
			fprintf(stderr, "\n  %s: %s", path + 8, err);
			CU_FAIL("a listed key the parser does not read");
		}
		snprintf(more, sizeof(more), "%sz", k->key);
		key_error(err, k, more, "1");
		if (!strstr(err, "unknown key")) {
			fprintf(stderr, "\n  %sz: %s", path + 8, err);
			CU_FAIL("a key the help does not list, read");
		}
	}
	pb_buf_dispose(&b);
}

static const struct pb_case cases[] = {
	PB_CASE(help_keys_are_the_parsers),
	PB_CASE(shipped_profiles_load),
	PB_CASE(seed_profiles_say_what_they_measure),
	PB_CASE(matrix_expands),
	PB_CASE(matrix_points_named_in_full),
	PB_CASE(filesystem_and_command_keys),
	PB_CASE(unset_settings_with_connection),
	PB_CASE(sizes_one_rule),
	PB_CASE(host_baseline_twins),
	PB_CASE(settings_arms),
	PB_CASE(shuffle_complete_and_replayable),
	PB_CASE(runner_args_follow_workload),
	PB_CASE(targets_expand),
	PB_CASE(plan_waves),
	PB_CASE(matrix_disk_size),
	PB_CASE(precision_form_keys),
	PB_CASES_END,
};

const struct pb_suite suite_profile = {"profile", NULL, tmp_remove, cases};
