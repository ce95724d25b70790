/*
 * test_qemu.c - the qemu backend end to end: real qemu (TCG here, or KVM
 * where a probe boot works), the guest image `make guest` built, disks
 * made by qemu-img and a loop device for rdm. After every case nothing of
 * provbench's may remain: no qemu process, no loop device over its files,
 * no disk file.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "it.h"
#include "unit.h"

/* A profile for the qemu backend with its disks in dir. */
static void write_profile(const char *path, const char *name, const char *dir,
			  const char *modes, const char *size,
			  const char *extra, const char *workload)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "{\"name\": \"%s\", \"backend\": \"qemu\",\n"
		 " \"qemu\": {\"dir\": \"%s\"%s},\n"
		 " \"disk_size\": \"%s\", \"modes\": [%s],\n"
		 " \"repetitions\": 1, \"timeout_s\": 100,\n"
		 " \"workload\": %s}\n",
		 name, dir, extra, size, modes, workload);
	it_write_file(path, text);
}

#define WL_SMALL                                                               \
	"{\"bs\": \"64K\", \"qd\": 4, \"pattern\": \"rand\", \"passes\": "     \
	"[\"first-write\", \"rewrite\", \"read\"]}"
/* thin's whole life: written, read, given back, written again */
#define WL_LIFE                                                                \
	"{\"bs\": \"64K\", \"qd\": 4, \"pattern\": \"rand\", \"passes\": "     \
	"[\"first-write\", \"rewrite\", \"read\", \"reclaim\", "               \
	"\"first-write\"]}"
/* long enough under TCG to be interrupted or to outlive a watchdog */
#define WL_SLOW                                                                \
	"{\"bs\": \"4K\", \"qd\": 1, \"pattern\": \"rand\", \"passes\": "      \
	"[\"first-write\", \"rewrite\", \"rewrite\", \"rewrite\"]}"

/* a guest to catch writing: two passes of 16K writes at qd 1, 3.4 s
 * each on a 256M disk under TCG (64K writes at qd 2 took 0.75 s, over
 * before a busy test looked: CI, 2026-12-04) */
#define WL_CATCH                                                               \
	"{\"bs\": \"16K\", \"qd\": 1, \"pattern\": \"rand\", \"passes\": "     \
	"[\"first-write\", \"rewrite\"]}"

static void env_base(struct it_env *e, const char *state)
{
	e->n = 0;
	it_env_add(e, "PROVBENCH_STATE_DIR", state);
	it_env_add(e, "PROVBENCH_GUEST_DIR", it_bin("guest"));
	it_env_add(e, "PATH", "/usr/bin:/bin:/usr/sbin:/sbin");
}

/*
 * The accelerator probe, once for the suite. Each case has a state
 * directory of its own, and a profile with accel "auto" probes KVM where
 * its state directory has no verdict for this host boot: on a machine
 * whose KVM guests hang that is a 10-s boot, spent emulating in the
 * kernel (10 CPU-s here), in each such case. A user has one state
 * directory and pays it once; so does the suite: `provbench check` of an
 * "auto" profile on the suite's own state directory probes for real, and
 * its verdict (kvm-probe.json, keyed by boot id, guest image and qemu
 * binary) is copied into each case's. qemu_kvm_probe_falls_back's qemu
 * is another binary: the copied verdict is not its, and it probes.
 */
static void probe_shared(const char *state)
{
	static bool probed;
	struct it_env e;
	struct it_result r;
	SCRATCH(dir, "q-probe");
	SCRATCH(disks, "q-probe/disks");
	SCRATCH(prof, "q-probe/probe.json");

	if (!probed) {
		probed = true;
		it_sh("mkdir -p '%s'", disks);
		write_profile(prof, "q-probe", disks, "\"thin\"", "16M", "",
			      WL_SMALL);
		env_base(&e, dir);
		/* no verdict (no guest image, a probe that failed): each
		 * case probes, and says why, as before */
		it_pb(&r, &e, "check", prof, NULL, NULL);
		it_result_dispose(&r);
	}
	it_sh("mkdir -p '%s' && cp '%s/kvm-probe.json' '%s/' 2>/dev/null",
	      state, dir, state);
}

/* A case's environment: its own state directory, the suite's probe
 * verdict in it. */
static void env_for(struct it_env *e, const char *state)
{
	probe_shared(state);
	env_base(e, state);
}

/* Is any qemu running whose command line names dir? */
static bool qemu_running(const char *dir)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		char path[300], *text;
		size_t len, i;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		text = pb_slurp_file(path, &len);
		for (i = 0; text && i < len; i++)
			if (!text[i])
				text[i] = ' ';
		if (text && strstr(text, "qemu-system") && strstr(text, dir))
			found = true;
		free(text);
	}
	if (d)
		closedir(d);
	return found;
}

/* Nothing of provbench's left: qemu (found by its disk files, or by its
 * output in the results for a loop device), loop devices, disk files. */
static bool nothing_left(const char *dir, const char *res)
{
	bool ok = true;

	if (qemu_running(dir) || qemu_running(res)) {
		fprintf(stderr, "\n  qemu still running for %s", dir);
		ok = false;
	}
	if (!it_sh("cat /sys/block/loop*/loop/backing_file 2>/dev/null | "
		   "grep -q '%s'",
		   dir)) {
		fprintf(stderr, "\n  a loop device over %s remains", dir);
		ok = false;
	}
	if (!it_sh("ls -A '%s' | grep -q .", dir)) {
		fprintf(stderr, "\n  files remain in %s:", dir);
		it_sh("ls -A '%s' >&2", dir);
		ok = false;
	}
	return ok;
}

/*
 * A reclaim in the guest (issue 40): thin's qcow2 and rdm pass the discard
 * down, thin's file and the file under rdm's loop device read back
 * smaller on the host; eager's and lazy's
 * drives offer the guest no discard, as a thick VMDK offers none.
 */
static void reclaim_checked(const char *mode, json_t *passes)
{
	json_t *p = json_array_get(passes, 3);
	json_t *rc = json_object_get(p, "reclaim");
	json_t *ext = json_object_get(p, "host_extents");
	bool thick = !strcmp(mode, "eager") || !strcmp(mode, "lazy");

	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "name")),
			       "reclaim");
	CU_ASSERT_EQUAL(json_is_true(json_object_get(rc, "done")), !thick);
	if (thick)
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(rc, "why_not")),
			"the device does not discard");
	/* thin's qcow2 and the file under rdm's loop device, read back
	 * smaller */
	if (!thick)
		CU_ASSERT(json_integer_value(
				  json_object_get(json_object_get(ext, "after"),
						  "written_bytes")) <
			  json_integer_value(json_object_get(
				  json_object_get(ext, "before"),
				  "written_bytes")) -
				  (8 << 20));
}

/* Every mode through a real guest; each mode's disk is what it should be. */
static void qemu_all_modes(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-all.json");
	SCRATCH(state, "q-state1");
	SCRATCH(res, "q-results1");
	SCRATCH(disks, "q-disks1");
	SCRATCH(journal, "q-state1/journal.jsonl");
	json_t *doc, *env, *item;
	size_t i;
	const char *accel;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	write_profile(prof, "q-all", disks,
		      "\"rdm\", \"eager\", \"lazy\", "
		      "\"thin\"",
		      "16M", "", WL_LIFE);
	env_for(&e, state);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "nothing was created"));
	it_result_dispose(&r);

	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	env = json_object_get(doc, "environment");
	accel = json_string_value(json_object_get(env, "accelerator"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(accel);
	CU_ASSERT(!strcmp(accel, "tcg") || !strcmp(accel, "kvm"));
	CU_ASSERT_PTR_NOT_NULL(json_object_get(env, "accelerator_note"));
	CU_ASSERT_PTR_NOT_NULL(json_object_get(env, "guest_kernel"));
	/* Linux AIO by default (docs/DESIGN.md: "The test disk's I/O path") */
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(env, "disk_aio")), "native");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "results")), 4);
	json_array_foreach(json_object_get(doc, "results"), i, item)
	{
		const char *mode =
			json_string_value(json_object_get(item, "mode"));
		json_t *rb = json_object_get(json_object_get(item, "disk"),
					     "readback");
		json_t *runner = json_object_get(item, "runner");
		json_t *passes = json_object_get(runner, "passes");
		json_t *guest = json_object_get(runner, "guest");

		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(item, "status")),
			it_is_root() || strcmp(mode, "rdm") ? "ok" : "skipped");
		if (!it_is_root() && !strcmp(mode, "rdm"))
			continue;
		/* what the file really is matches what was asked */
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(rb, "mode")), mode);
		CU_ASSERT_EQUAL_FATAL(json_array_size(passes), 5);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(
					json_array_get(passes, 0), "bytes")),
				16 << 20);
		reclaim_checked(mode, passes);
		CU_ASSERT(json_real_value(json_object_get(
				  json_array_get(passes, 0), "mib_per_s")) > 0);
		/* the runner ran in the guest, on the virtio disk */
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(
				json_object_get(runner, "target"), "path")),
			"/dev/vda");
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
					       guest, "accelerator")),
				       accel);
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(guest, "aio")),
			"native");
		CU_ASSERT(json_real_value(json_object_get(
				  guest, "boot_to_runner_s")) > 0);
	}
	json_decref(doc);
	CU_ASSERT(nothing_left(disks, res));
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""),
			it_count(journal, "\"op\":\"destroyed\""));
	CU_ASSERT_EQUAL(it_sh("test -s '%s'/latest/report.html", res), 0);
	CU_ASSERT_EQUAL(it_sh("grep -q '  thin: a reclaim (blkdiscard) gave "
			      "back [0-9.]* MiB of its disk.s file on the "
			      "host' '%s'/latest/summary.txt",
			      res),
			0);
}

/*
 * qemu.thin raw: thin made as a sparse raw file, not qcow2, read back as
 * thin and raw; a guest's reclaim punches the file (read back on the
 * host), and the report says what that analog's first write pays.
 */
static void qemu_thin_raw(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-thin-raw.json");
	SCRATCH(state, "q-state-raw");
	SCRATCH(res, "q-results-raw");
	SCRATCH(disks, "q-disks-raw");
	json_t *doc, *item, *rb, *p;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	write_profile(prof, "q-thin-raw", disks, "\"thin\"", "16M",
		      ", \"thin\": \"raw\"", WL_LIFE);
	env_for(&e, state);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	item = json_array_get(json_object_get(doc, "results"), 0);
	rb = json_object_get(json_object_get(item, "disk"), "readback");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(rb, "mode")),
			       "thin");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(rb, "format")),
			       "raw");
	p = json_object_get(json_object_get(item, "runner"), "passes");
	CU_ASSERT_EQUAL_FATAL(json_array_size(p), 5);
	reclaim_checked("thin", p);
	json_decref(doc);
	CU_ASSERT_EQUAL(it_sh("grep -q 'thin.s first write pays .* filling a "
			      "sparse disk file.s holes' "
			      "'%s'/latest/summary.txt",
			      res),
			0);
	CU_ASSERT(nothing_left(disks, res));
}

/*
 * Run prof in the background, SIGINT it secs after its disk was created
 * (the guest booted and into the runner's passes): exit 130, nothing left,
 * every journaled disk marked destroyed.
 */
static void sigint_mid_run(const char *state, const char *res, const char *prof,
			   const char *disks, unsigned secs)
{
	struct it_env e;
	char journal[700];
	pid_t pid;
	int st;

	snprintf(journal, sizeof(journal), "%s/journal.jsonl", state);
	env_for(&e, state);
	pid = it_spawn_run(&e, res, prof);
	CU_ASSERT_FATAL(it_wait_created(journal, 30000));
	sleep(secs);
	CU_ASSERT(qemu_running(res));
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	CU_ASSERT(nothing_left(disks, res));
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""),
			it_count(journal, "\"op\":\"destroyed\""));
}

/* Wait (up to ms) until a file in dir holds bytes written: the guest is
 * writing its disk, however slowly this machine runs it. */
static bool wait_disk_written(const char *dir, long long bytes, unsigned ms)
{
	unsigned waited;

	for (waited = 0; waited < ms; waited += 50) {
		if (!it_sh("test \"$(du -k -s '%s' | cut -f1)\" -ge %lld", dir,
			   bytes / 1024))
			return true;
		usleep(50000);
	}
	return false;
}

/*
 * Every signal that stops a run, while the guest writes: the guest
 * stopped, its disk gone, the exit code for that signal, run.json saying
 * which. The four runs go at once (each its own state, results and disk
 * directory): what differs between them is the harness's, not qemu's.
 */
static void qemu_signals(void)
{
	char state[4][600], res[4][600], disks[4][600], prof[4][600];
	struct it_env e;
	pid_t pid[4];
	size_t i, n = it_nstop_signals < 4 ? it_nstop_signals : 4;

	for (i = 0; i < n; i++) {
		snprintf(state[i], sizeof(state[i]), "%s/q-sig-state%zu",
			 it_dir(), i);
		snprintf(res[i], sizeof(res[i]), "%s/q-sig-res%zu", it_dir(),
			 i);
		snprintf(disks[i], sizeof(disks[i]), "%s/q-sig-disks%zu",
			 it_dir(), i);
		snprintf(prof[i], sizeof(prof[i]), "%s/q-sig%zu.json", it_dir(),
			 i);
		CU_ASSERT_EQUAL_FATAL(
			it_sh("mkdir -p '%s' '%s'", state[i], disks[i]), 0);
		write_profile(prof[i], "q-sig", disks[i], "\"thin\"", "256M",
			      ", \"accel\": \"tcg\"", WL_CATCH);
		env_for(&e, state[i]);
		pid[i] = it_spawn_run(&e, res[i], prof[i]);
	}
	for (i = 0; i < n; i++) {
		json_t *doc, *item;
		char journal[700];
		int st;

		snprintf(journal, sizeof(journal), "%s/journal.jsonl",
			 state[i]);
		/* the first write under way: 2 MiB in the disk's file */
		CU_ASSERT(wait_disk_written(disks[i], 2 << 20, 120000));
		CU_ASSERT(qemu_running(disks[i]));
		kill(pid[i], it_stop_signals[i].sig);
		waitpid(pid[i], &st, 0);
		if (!WIFEXITED(st) ||
		    WEXITSTATUS(st) != it_stop_signals[i].rc) {
			fprintf(stderr, "\n  %s: status %#x",
				it_stop_signals[i].name, st);
			CU_FAIL(it_stop_signals[i].name);
		}
		CU_ASSERT(nothing_left(disks[i], res[i]));
		CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""),
				it_count(journal, "\"op\":\"destroyed\""));
		doc = it_load_run_json(res[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
					       doc, "interrupted_by")),
				       it_stop_signals[i].name);
		item = json_array_get(json_object_get(doc, "results"), 0);
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(item, "status")),
			"interrupted");
		json_decref(doc);
	}
}

/*
 * Pause the guest whose qemu names dir, as a hung guest would look: its
 * monitor's socket read from qemu's command line (-qmp unix:PATH,...),
 * "stop" sent. Waits (up to ms) for that qemu; false if none came.
 */
static bool qmp_stop(const char *dir, unsigned ms)
{
	unsigned waited;

	for (waited = 0; waited < ms; waited += 50) {
		if (!it_sh("python3 -c \"\n"
			   "import glob, json, socket, sys\n"
			   "for p in glob.glob('/proc/[0-9]*/cmdline'):\n"
			   "    try: c = open(p, 'rb').read().split(b'\\\\0')\n"
			   "    except OSError: continue\n"
			   "    if b'qemu-system' not in c[0] or not any(b'%s' "
			   "in x for x in c): continue\n"
			   "    s = c[c.index(b'-qmp') + 1].decode()\n"
			   "    k = socket.socket(socket.AF_UNIX)\n"
			   "    k.connect(s[5:].split(',')[0])\n"
			   "    f = k.makefile('rw')\n"
			   "    f.readline()\n"
			   "    for cmd in ('qmp_capabilities', 'stop'):\n"
			   "        f.write(json.dumps({'execute': cmd}) + "
			   "'\\\\n')\n"
			   "        f.flush()\n"
			   "        f.readline()\n"
			   "    sys.exit(0)\n"
			   "sys.exit(1)\" 2>/dev/null",
			   dir))
			return true;
		usleep(50000);
	}
	return false;
}

/*
 * A guest paused through its monitor (QMP "stop": no I/O, no console,
 * what a hung guest looks like from the host) is a stall once stall_s
 * passes: qemu's monitor and the kernel are asked what they see, the
 * console is kept, the guest stopped and the disk destroyed, and the
 * repetition runs again on a new disk; the run exits 0. Seen within
 * stall_s + 10 s of the pause (both scaled by the machine's speed).
 */
static void qemu_stall_retried(void)
{
	struct it_env e;
	SCRATCH(prof, "q-stall.json");
	SCRATCH(state, "q-state-stall");
	SCRATCH(res, "q-results-stall");
	SCRATCH(disks, "q-disks-stall");
	SCRATCH(out, "q-stall.out");
	json_t *doc, *item, *retried;
	char *dirname;
	time_t paused;
	pid_t pid;
	int st, fd;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	write_profile(prof, "q-stall", disks, "\"thin\"", "256M",
		      ", \"accel\": \"tcg\"", WL_CATCH);
	/* 8 s of silence is a stall here; a machine slower than the
	 * reference starves a TCG guest for longer between documents, and
	 * the retry must not stall on a starved boot (slow loop round 4 at
	 * 30167cd: with 5 s the retry stalled too, under a one-core quota
	 * with other jobs on the machine) */
	CU_ASSERT_EQUAL_FATAL(it_sh("sed -i 's/\"timeout_s\": 100/"
				    "\"timeout_s\": 100, \"stall_s\": %u/' "
				    "'%s'",
				    it_scaled(8), prof),
			      0);
	env_for(&e, state);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	pid = it_spawn_run_to(&e, res, prof, fd);
	close(fd);
	/* the guest is writing: then it is paused */
	if (!wait_disk_written(disks, 1 << 20, 120000)) {
		it_sh("cat '%s' >&2", out);
		kill(pid, SIGTERM);
		waitpid(pid, &st, 0);
		CU_FAIL_FATAL("the guest never wrote 1 MiB");
	}
	CU_ASSERT_FATAL(qmp_stop(disks, 10000));
	paused = time(NULL);
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* the stall seen within stall_s + 10 s; the retry's boot and
	 * passes after it take seconds more under TCG */
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	item = json_array_get(json_object_get(doc, "results"), 0);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(item, "status")), "ok");
	retried = json_object_get(item, "retried");
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(retried, "diagnostics")),
		"runner-1.stall");
	json_decref(doc);
	dirname = it_newest_dir(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dirname);
	/* qemu said it was paused, with its queue's state; the kernel's
	 * side of qemu; the console from the boot on */
	CU_ASSERT_EQUAL(it_sh("cd '%s/runner-1.stall' && grep -q "
			      "'\"status\": \"paused\"' qmp.json && grep -q "
			      "'\"inuse\"' qmp.json && grep -q 'qemu, pid' "
			      "host.txt && grep -q '^PB-START' console.log",
			      dirname),
			0);
	/* detected by stall_s + 10 s: the stall's diagnostics were made
	 * that soon after the pause */
	CU_ASSERT_EQUAL(it_sh("test $(( $(stat -c %%Y "
			      "'%s/runner-1.stall/qmp.json') - %lld )) -le %u",
			      dirname, (long long)paused,
			      it_scaled(8) + it_scaled(10)),
			0);
	free(dirname);
	CU_ASSERT(nothing_left(disks, res));
}

/* A guest that does not finish in time is killed; its mode failed. */
static void qemu_watchdog(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-wd.json");
	SCRATCH(state, "q-state3");
	SCRATCH(res, "q-results3");
	SCRATCH(disks, "q-disks3");
	json_t *doc, *item;
	const char *msg;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	write_profile(prof, "q-wd", disks, "\"thin\"", "256M",
		      ", \"accel\": \"tcg\"", WL_SLOW);
	/* the whole profile's timeout: 4 s, well short of the passes */
	CU_ASSERT_EQUAL_FATAL(
		it_sh("sed -i 's/\"timeout_s\": 100/\"timeout_s\": 4/' '%s'",
		      prof),
		0);
	env_for(&e, state);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 1);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	item = json_array_get(json_object_get(doc, "results"), 0);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(item, "status")), "failed");
	msg = json_string_value(json_object_get(item, "error"));
	CU_ASSERT_PTR_NOT_NULL(msg && strstr(msg, "watchdog"));
	json_decref(doc);
	CU_ASSERT(nothing_left(disks, res));
}

/* The harness SIGKILLed mid-run: qemu dies with it, cleanup removes the
 * disk the journal names, and only that. */
static void qemu_kill9_cleanup(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-k9.json");
	SCRATCH(state, "q-state4");
	SCRATCH(res, "q-results4");
	SCRATCH(disks, "q-disks4");
	SCRATCH(journal, "q-state4/journal.jsonl");
	SCRATCH(other, "q-disks4/not-provbench.raw");
	pid_t pid;
	int st;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	write_profile(prof, "q-k9", disks,
		      it_is_root() ? "\"rdm\"" : "\"eager\"", "256M",
		      ", \"accel\": \"tcg\"", WL_SLOW);
	/* a file provbench did not make, beside its own */
	it_write_file(other, "keep me\n");
	env_for(&e, state);
	pid = it_spawn_run_to_kill(&e, res, prof);
	CU_ASSERT_FATAL(it_wait_created(journal, 30000));
	sleep(4);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	usleep(500000); /* the kernel's death signal reaches qemu */
	CU_ASSERT(!qemu_running(disks) && !qemu_running(res));
	CU_ASSERT_EQUAL(it_sh("ls '%s' | grep -q provbench-", disks), 0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "1 disk(s) removed"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("grep -q 'keep me' '%s'", other), 0);
	CU_ASSERT_EQUAL(unlink(other), 0);
	CU_ASSERT(nothing_left(disks, res));
}

/*
 * Two targets, two host directories (as root the second an xfs of its
 * own, so the run compares two host filesystems), two guests at once:
 * every result names its target, each target describes its own
 * filesystem, and the wave's sum is had on the host's clock as the two
 * consoles gave it. Waves, merging and a kill mid-wave are the harness's:
 * host:host_targets_at_once.
 */
static void qemu_two_directories(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-two.json");
	SCRATCH(state, "q-state-two");
	SCRATCH(res, "q-results-two");
	SCRATCH(d1, "q-two-ext");
	SCRATCH(d2, "q-two-second");
	SCRATCH(img, "q-two-xfs.img");
	SCRATCH(journal, "q-state-two/journal.jsonl");
	json_t *doc;
	bool xfs = false;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s' '%s'", state, d1, d2),
			      0);
	if (it_is_root())
		xfs = !it_sh("truncate -s 512M '%s' && mkfs.xfs -q '%s' && "
			     "mount -o loop '%s' '%s'",
			     img, img, img, d2);
	env_for(&e, state);
	doc = it_two_targets(&r, &e,
			     &(struct it_two){.name = "q-two",
					      .backend = "qemu",
					      .prof = prof,
					      .res = res,
					      .d1 = d1,
					      .d2 = d2,
					      .disk_size = "16M",
					      .modes = "\"thin\"",
					      .workload = WL_SMALL,
					      .nmodes = 1,
					      .reps = 1});
	/* the two guests' sum is had on the host's clock as the consoles
	 * gave it */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "the guest's uptime at "
					     "PB-START on the host's clock"));
	it_result_dispose(&r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	if (xfs)
		CU_ASSERT_PTR_NOT_NULL(strstr(
			json_string_value(json_object_get(
				json_object_get(
					json_array_get(
						json_object_get(doc, "targets"),
						1),
					"environment"),
				"datastore_fs")),
			"xfs"));
	json_decref(doc);
	CU_ASSERT(nothing_left(d1, res) && nothing_left(d2, res));
	CU_ASSERT_EQUAL(it_count(journal, "\"op\":\"intent\""),
			it_count(journal, "\"op\":\"destroyed\""));

	if (xfs)
		it_sh("umount '%s'", d2);
	it_sh("rm -f '%s'", img);
}

/*
 * Each boot's monitor socket lives in a /tmp directory of its own, which a
 * run killed with SIGKILL cannot remove (the kill9 cases leave them). The
 * next boot removes those: ten minutes old, and nobody listening. Here,
 * beside a real boot: a dead socket made old (a killed run's: removed), a
 * listening one made old (a long boot's: kept), a dead one just made (a
 * run about to start its qemu: kept), an old one of another name and an
 * old one whose "qmp" is a file, not a socket (neither provbench's: kept).
 */
static void qemu_monitor_dirs_swept(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-mon.json");
	SCRATCH(state, "q-state-mon");
	SCRATCH(res, "q-results-mon");
	SCRATCH(disks, "q-disks-mon");
	SCRATCH(made, "q-mon-dirs");
	static const char *const bind_py =
		"import socket,sys,time\n"
		"s=socket.socket(socket.AF_UNIX)\n"
		"s.bind(sys.argv[1])\n"
		"if len(sys.argv)>2: s.listen(1); time.sleep(120)\n";
	char dead[64] = "", live[64] = "", young[64] = "", other[64] = "",
	     file[64] = "";
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	CU_ASSERT_EQUAL_FATAL(
		it_sh("for k in dead live young file; do mktemp -d "
		      "/tmp/pb-qmp-XXXXXX; done > '%s' && mktemp -d "
		      "/tmp/pb-qmp-other-XXXXXX >> '%s'",
		      made, made),
		0);
	f = fopen(made, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_FATAL(fscanf(f, "%63s %63s %63s %63s %63s", dead, live, young,
			       file, other) == 5);
	fclose(f);
	/* a dead socket in dead and young, one that listens in live (a
	 * listener in the background, killed below), a file in file */
	CU_ASSERT_EQUAL_FATAL(
		it_sh("python3 -c '%s' %s/qmp && python3 -c '%s' %s/qmp && "
		      "(python3 -c '%s' %s/qmp listen & echo $! > %s.pid) && "
		      "for i in $(seq 50); do [ -S %s/qmp ] && break; "
		      "sleep 0.1; done && echo keep > %s/qmp && "
		      "touch -d '-11 minutes' %s %s %s %s",
		      bind_py, dead, bind_py, young, bind_py, live, made, live,
		      file, dead, live, other, file),
		0);
	write_profile(prof, "q-mon", disks, "\"thin\"", "16M",
		      ", \"accel\": \"tcg\"", WL_SMALL);
	env_for(&e, state);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	it_result_dispose(&r);
	CU_ASSERT_NOT_EQUAL(it_sh("test -e %s", dead), 0);
	CU_ASSERT_EQUAL(it_sh("test -S %s/qmp", live), 0);
	CU_ASSERT_EQUAL(it_sh("test -S %s/qmp", young), 0);
	CU_ASSERT_EQUAL(it_sh("test -d %s", other), 0);
	CU_ASSERT_EQUAL(it_sh("grep -q keep %s/qmp", file), 0);
	it_sh("kill $(cat %s.pid); rm -rf %s %s %s %s %s", made, dead, live,
	      young, other, file);
	CU_ASSERT(nothing_left(disks, res));
}

/* A device the profile names goes through the runner's safety checks: one
 * with a filesystem is refused and left exactly as it was. */
static void qemu_named_device_refused(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-dev.json");
	SCRATCH(state, "q-state5");
	SCRATCH(res, "q-results5");
	SCRATCH(disks, "q-disks5");
	SCRATCH(img, "q-dev.img");
	char extra[700], dev[64] = "";

	if (!it_is_root())
		PB_SKIP("loop devices need root");
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s' && truncate -s 32M "
				    "'%s' && mkfs.ext4 -q '%s'",
				    state, disks, img, img),
			      0);
	CU_ASSERT_FATAL(it_losetup(dev, sizeof(dev), img));
	snprintf(extra, sizeof(extra), ", \"rdm_device\": \"%s\"", dev);
	write_profile(prof, "q-dev", disks, "\"rdm\"", "16M", extra, WL_SMALL);
	env_for(&e, state);
	CU_ASSERT_EQUAL(it_sh("sha256sum '%s' > '%s.sum'", img, img), 0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "signature"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "signature"));
	if (!strstr(r.err, "signature"))
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	/* not a byte changed, and the device is still there */
	CU_ASSERT_EQUAL(it_sh("sha256sum -c --quiet '%s.sum'", img), 0);
	CU_ASSERT_EQUAL(it_sh("test -b '%s'", dev), 0);
	it_sh("losetup -d '%s'", dev);
	CU_ASSERT(nothing_left(disks, res));
}

/* ext4 and xfs on fresh disks, with a command in the mount point; mkfs
 * timed, the file's passes complete, nothing left. A disk of each kind
 * the guest is given: a device of the host's (rdm) and an image file
 * (thin). The other modes are image files preallocated otherwise, which
 * mkfs (told not to discard) and the guest cannot tell apart: the image
 * formats are qemu_all_modes' to check, at 2.4 CPU-s a guest's boot. */
static void qemu_filesystems(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-fs.json");
	SCRATCH(state, "q-state6");
	SCRATCH(res, "q-results6");
	SCRATCH(disks, "q-disks6");
	json_t *doc, *item;
	size_t i;
	int seen[2] = {0, 0}, each = it_is_root() ? 2 : 1;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	write_profile(prof, "q-fs", disks, "\"rdm\", \"thin\"", "320M",
		      ", \"accel\": \"tcg\"",
		      "{\"bs\": \"64K\", \"qd\": 4, \"file_size\": \"16M\", "
		      "\"passes\": [\"first-write\", \"rewrite\", \"read\", "
		      "\"command\"], \"command\": \"ls provbench.dat && "
		      "df -k . | tail -n 1\"},\n"
		      " \"matrix\": {\"filesystem\": [\"ext4\", \"xfs\"]}");
	env_for(&e, state);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	/* the terminal report shows the command and mkfs per mode */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "command: ls provbench.dat"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "lazy init off"));
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "results")), 4);
	json_array_foreach(json_object_get(doc, "results"), i, item)
	{
		json_t *runner = json_object_get(item, "runner");
		json_t *fs = json_object_get(runner, "filesystem");
		json_t *passes = json_object_get(runner, "passes");
		const char *type =
			json_string_value(json_object_get(fs, "type"));

		if (!it_is_root() &&
		    !strcmp(json_string_value(json_object_get(item, "mode")),
			    "rdm"))
			continue;
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(item, "status")),
			"ok");
		CU_ASSERT_PTR_NOT_NULL_FATAL(type);
		seen[!strcmp(type, "xfs")]++;
		CU_ASSERT(json_real_value(json_object_get(fs, "mkfs_seconds")) >
			  0);
		CU_ASSERT_EQUAL_FATAL(json_array_size(passes), 4);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(
					json_array_get(passes, 0), "bytes")),
				16 << 20);
		CU_ASSERT(json_is_true(json_object_get(
			json_array_get(passes, 3), "complete")));
		CU_ASSERT_PTR_NOT_NULL(strstr(
			json_string_value(json_object_get(
				json_array_get(passes, 3), "output_tail")),
			"provbench.dat"));
	}
	CU_ASSERT(seen[0] == each && seen[1] == each);
	json_decref(doc);
	CU_ASSERT(nothing_left(disks, res));
}

/* A failing command: the mode failed with the command's words, the disk
 * gone all the same. */
static void qemu_command_fails(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-cmd.json");
	SCRATCH(state, "q-state7");
	SCRATCH(res, "q-results7");
	SCRATCH(disks, "q-disks7");
	json_t *doc, *item, *pass;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	write_profile(prof, "q-cmd", disks, "\"thin\"", "64M",
		      ", \"accel\": \"tcg\"",
		      "{\"bs\": \"64K\", \"filesystem\": \"ext4\", "
		      "\"passes\": [\"first-write\", \"command\"], "
		      "\"command\": \"echo checking, then; echo no-space-left "
		      ">&2; exit 3\"}");
	env_for(&e, state);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 1);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	item = json_array_get(json_object_get(doc, "results"), 0);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(item, "status")), "failed");
	CU_ASSERT_PTR_NOT_NULL(
		strstr(json_string_value(json_object_get(item, "error")),
		       "command exited 3: no-space-left"));
	pass = json_array_get(
		json_object_get(json_object_get(item, "runner"), "passes"), 1);
	CU_ASSERT_EQUAL(
		json_integer_value(json_object_get(pass, "exit_status")), 3);
	/* commas survive fw_cfg's option syntax */
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(pass, "output_tail")),
		"checking, then\nno-space-left\n");
	json_decref(doc);
	CU_ASSERT(nothing_left(disks, res));
}

/* Interrupted in a filesystem pass: 130, the guest stopped, nothing
 * attached or left. */
static void qemu_filesystem_sigint(void)
{
	SCRATCH(prof, "q-fsint.json");
	SCRATCH(state, "q-state8");
	SCRATCH(res, "q-results8");
	SCRATCH(disks, "q-disks8");

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	write_profile(prof, "q-fsint", disks,
		      it_is_root() ? "\"rdm\"" : "\"lazy\"", "256M",
		      ", \"accel\": \"tcg\"",
		      "{\"bs\": \"4K\", \"qd\": 1, \"pattern\": \"rand\", "
		      "\"filesystem\": \"ext4\", \"passes\": [\"first-write\", "
		      "\"rewrite\", \"rewrite\"]}");
	sigint_mid_run(state, res, prof, disks, 7);
}

/*
 * The accelerator probe: a node that opens is not proof. A qemu whose KVM
 * guest never reaches init (a wrapper standing in for a nested machine
 * whose KVM hangs in the firmware) costs one probe deadline, then TCG; the
 * verdict is kept for the host boot; a KVM qemu that fails at once falls
 * back at once, with qemu's words in the note.
 */
static void qemu_kvm_probe_falls_back(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-kvm.json");
	SCRATCH(state, "q-state9");
	SCRATCH(state2, "q-state9b");
	SCRATCH(res, "q-results9");
	SCRATCH(disks, "q-disks9");
	SCRATCH(hang, "qemu-kvm-hangs");
	SCRATCH(fail, "qemu-kvm-fails");
	char extra[1400];
	json_t *doc;
	uint64_t t0, first_ns;
	const char *note;

	CU_ASSERT_EQUAL_FATAL(
		it_sh("mkdir -p '%s' '%s' '%s' && printf '#!/bin/sh\\ncase "
		      "\"$*\" in *accel=kvm*) exec sleep 600;; esac\\nexec "
		      "qemu-system-x86_64 \"$@\"\\n' > '%s' && printf "
		      "'#!/bin/sh\\ncase \"$*\" in *accel=kvm*) echo Could "
		      "not access KVM kernel module >&2; exit 1;; "
		      "esac\\nexec qemu-system-x86_64 \"$@\"\\n' > '%s' && "
		      "chmod 755 '%s' '%s'",
		      state, state2, disks, hang, fail, hang, fail),
		0);
	snprintf(extra, sizeof(extra), ", \"binary\": \"%s\"", hang);
	write_profile(prof, "q-kvm", disks, "\"thin\"", "16M", extra, WL_SMALL);
	env_for(&e, state);
	it_env_add(&e, "PROVBENCH_KVM_DEVICE", "/dev/null");

	/* check tells the accelerator the run will really use: it probes
	 * as the run would, saying so before the wait */
	t0 = pb_now_ns();
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	first_ns = pb_now_ns() - t0;
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "probing KVM (a guest boot, up "
					     "to 10 s)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "accelerator: TCG: a KVM probe "
					     "boot did not reach init within "
					     "10 s"));
	if (!strstr(r.out, "accelerator: TCG"))
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	CU_ASSERT(first_ns >= 10ull * 1000000000ull);
	/* no probe guest left running */
	CU_ASSERT_EQUAL(it_sh("pgrep -f 'sleep 60[0]' >/dev/null"), 1);

	/* the same host boot: the verdict is remembered, no second wait
	 * (a check against a check: the same work but the probe) */
	t0 = pb_now_ns();
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT(pb_now_ns() - t0 < first_ns - 5ull * 1000000000ull);
	CU_ASSERT_PTR_NULL(strstr(r.err, "probing KVM"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "probed earlier"));
	it_result_dispose(&r);
	/* and the run uses it */
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	CU_ASSERT_PTR_NULL(strstr(r.err, "probing KVM"));
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	note = json_string_value(json_object_get(
		json_object_get(doc, "environment"), "accelerator_note"));
	CU_ASSERT_PTR_NOT_NULL(note && strstr(note, "probed earlier"));
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(
			json_object_get(doc, "environment"), "accelerator")),
		"tcg");
	json_decref(doc);

	/* qemu refusing KVM outright: TCG at once, with its reason */
	snprintf(extra, sizeof(extra), ", \"binary\": \"%s\"", fail);
	write_profile(prof, "q-kvm", disks, "\"thin\"", "16M", extra, WL_SMALL);
	env_for(&e, state2);
	it_env_add(&e, "PROVBENCH_KVM_DEVICE", "/dev/null");
	sleep(1);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	note = json_string_value(json_object_get(
		json_object_get(doc, "environment"), "accelerator_note"));
	CU_ASSERT_PTR_NOT_NULL(
		note && strstr(note, "failed: Could not access KVM kernel"));
	json_decref(doc);
	CU_ASSERT(nothing_left(disks, res));
}

/* The whole harness under valgrind: a run (qemu backend, a filesystem and
 * a command), its report and a cleanup leak nothing. */
static void qemu_harness_under_valgrind(void)
{
	SCRATCH(prof, "q-vg.json");
	SCRATCH(state, "q-state10");
	SCRATCH(res, "q-results10");
	SCRATCH(disks, "q-disks10");
	static const char vg[] = "valgrind -q --leak-check=full "
				 "--errors-for-leak-kinds=definite,indirect "
				 "--error-exitcode=9";

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	write_profile(prof, "q-vg", disks,
		      it_is_root() ? "\"rdm\", \"thin\"" : "\"thin\"", "16M",
		      ", \"accel\": \"tcg\"",
		      "{\"bs\": \"64K\", \"filesystem\": \"ext4\", "
		      "\"file_size\": \"8M\", \"passes\": [\"first-write\", "
		      "\"rewrite\", \"command\"], \"command\": \"sync\"}");
	CU_ASSERT_EQUAL(
		it_sh("env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin "
		      "PROVBENCH_STATE_DIR='%s' PROVBENCH_GUEST_DIR='%s' %s "
		      "'%s' run -q -o '%s' '%s' >/dev/null 2>&1",
		      state, it_plain_bin("guest"), vg,
		      it_plain_bin("provbench"), res, prof),
		0);
	CU_ASSERT_EQUAL(it_sh("%s '%s' report -q \"$(ls -d '%s'/*/ | tail -n "
			      "1)\" >/dev/null 2>&1",
			      vg, it_plain_bin("provbench"), res),
			0);
	CU_ASSERT_EQUAL(
		it_sh("env -i PATH=/usr/bin:/bin PROVBENCH_STATE_DIR='%s' %s "
		      "'%s' cleanup '%s' >/dev/null 2>&1",
		      state, vg, it_plain_bin("provbench"), prof),
		0);
	CU_ASSERT(nothing_left(disks, res));
}

/*
 * The harness killed (SIGKILL) where the qemu backend holds something
 * of its own, then `provbench cleanup`: with the disk attached (rdm: a
 * loop device) and with the guest running. Nothing of the run is left
 * (qemu, loop device, disk file), and a file beside the disks that
 * provbench did not make is untouched. Every other step is the harness's
 * alone: host:host_kill9_at_every_step.
 */
static void qemu_kill9_at_every_step(void)
{
	static const char *const steps[] = {"attached", "running"};
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-steps.json");
	SCRATCH(state, "q-state11");
	SCRATCH(res, "q-results11");
	SCRATCH(disks, "q-disks11");
	SCRATCH(other, "q-disks11/keep.raw");
	size_t i;
	pid_t pid;
	int st;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	/* long enough for a progress report, short enough for two runs */
	write_profile(prof, "q-steps", disks,
		      it_is_root() ? "\"rdm\"" : "\"lazy\"", "64M",
		      ", \"accel\": \"tcg\"",
		      "{\"bs\": \"4K\", \"qd\": 1, \"pattern\": \"rand\", "
		      "\"passes\": [\"first-write\"]}");
	it_write_file(other, "not provbench's\n");
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		env_for(&e, state);
		it_env_add(&e, "PROVBENCH_STOP_AT", steps[i]);
		pid = it_spawn_run_to_kill(&e, res, prof);
		/* the later steps follow a whole TCG guest run, slower on a
		 * loaded machine: a generous wait costs nothing when fast */
		if (!it_wait_stopped(pid, 180000)) {
			fprintf(stderr, "\n  never stopped at %s", steps[i]);
			CU_FAIL(steps[i]);
		}
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		usleep(300000); /* qemu's parent-death signal, autoclear */
		env_for(&e, state);
		CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", prof, NULL, NULL), 0);
		if (r.status)
			fprintf(stderr, "\n  %s: %s", steps[i], r.err);
		it_result_dispose(&r);
		CU_ASSERT_EQUAL(it_sh("test \"$(ls '%s')\" = keep.raw", disks),
				0);
		if (it_sh("test \"$(ls '%s')\" = keep.raw", disks))
			fprintf(stderr, "\n  after %s: %s", steps[i], disks);
		CU_ASSERT(!qemu_running(disks) && !qemu_running(res));
		CU_ASSERT_EQUAL(it_sh("cat /sys/block/loop*/loop/backing_file "
				      "2>/dev/null | grep -q '%s'",
				      disks),
				1);
	}
	CU_ASSERT_EQUAL(it_sh("grep -qx \"not provbench's\" '%s'", other), 0);
}

/*
 * A full disk: results on a filesystem that fills during the run give a
 * clear error and leave the run.json written so far whole; a journal that
 * cannot be written stops the run before any disk is made.
 */
static void qemu_disk_full(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-full.json");
	SCRATCH(state, "q-state12");
	SCRATCH(full, "q-full");
	SCRATCH(disks, "q-disks12");
	json_t *doc;

	if (!it_is_root())
		PB_SKIP("a small tmpfs needs root");
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s' '%s' && mount -t "
				    "tmpfs -o size=12k pbfull '%s'",
				    state, full, disks, full),
			      0);
	write_profile(prof, "q-full", disks, "\"thin\", \"lazy\"", "16M",
		      ", \"accel\": \"tcg\"", WL_SMALL);
	env_for(&e, state);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", full, prof), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "No space left on device"));
	it_result_dispose(&r);
	/* what was saved before the disk filled is whole JSON */
	doc = it_load_run_json(full);
	CU_ASSERT_PTR_NOT_NULL(doc);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(doc, "tool")),
			       "provbench");
	json_decref(doc);
	CU_ASSERT_EQUAL(it_sh("ls -a '%s'/* | grep -q tmp", full), 1);
	CU_ASSERT(nothing_left(disks, full));
	it_sh("umount '%s'", full);

	/* the journal's filesystem full: no disk is made unjournaled */
	CU_ASSERT_EQUAL_FATAL(it_sh("rm -rf '%s' && mkdir -p '%s' && mount -t "
				    "tmpfs -o size=16k pbfull '%s' && dd "
				    "if=/dev/zero of='%s/fill' bs=4k count=16 "
				    "2>/dev/null; true",
				    state, state, state, state),
			      0);
	env_for(&e, state);
	CU_ASSERT_NOT_EQUAL(it_pb(&r, &e, "run", "-o", disks, prof), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "No space left on device"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("ls '%s' | grep -q provbench-", disks), 1);
	it_sh("umount '%s'", state);
	it_sh("rm -rf '%s'/*-q-full '%s/latest' '%s/latest-attempt'", disks,
	      disks, disks);
	CU_ASSERT(nothing_left(disks, full));
}

/*
 * The host filesystem under a thin disk fills mid-pass: qemu reports the
 * write error to the guest (werror=report) instead of pausing it until
 * the watchdog, and the run says the disk's filesystem is full; the
 * guest console's last lines are kept beside the results.
 */
static void qemu_host_fs_full(void)
{
	struct it_env e;
	struct it_result r;
	SCRATCH(prof, "q-hostfull.json");
	SCRATCH(state, "q-state13");
	SCRATCH(res, "q-results13");
	SCRATCH(disks, "q-disks13");
	SCRATCH(img, "q-hostfull.img");
	uint64_t t0;

	if (!it_is_root())
		PB_SKIP("a small loop-mounted filesystem needs root");
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s' && truncate -s 24M "
				    "'%s' && mkfs.ext4 -q -F '%s' && mount -o "
				    "loop '%s' '%s' && rmdir '%s/lost+found'",
				    state, disks, img, img, img, disks, disks),
			      0);
	write_profile(prof, "q-hostfull", disks, "\"thin\"", "64M",
		      ", \"accel\": \"tcg\"",
		      "{\"bs\": \"64K\", \"qd\": 4, \"pattern\": \"seq\", "
		      "\"passes\": [\"first-write\"]}");
	env_for(&e, state);
	t0 = pb_now_ns();
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 1);
	/* an answer, not the watchdog's 100 s */
	CU_ASSERT(pb_now_ns() - t0 < 90ull * 1000000000ull);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "host filesystem is full"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "console's last lines"));
	CU_ASSERT_PTR_NULL(strstr(r.err, "watchdog"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "Input/output error"));
	/* check said so first, and let it run: thin overcommits */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "may fill mid-pass"));
	if (!strstr(r.err, "host filesystem is full"))
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("ls '%s'/*/runner-1.console.log >/dev/null", res),
			0);
	CU_ASSERT(nothing_left(disks, res));
	/* a preallocated disk that cannot fit is refused before anything */
	write_profile(prof, "q-hostfull", disks, "\"lazy\"", "64M",
		      ", \"accel\": \"tcg\"", WL_SMALL);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "a preallocated disk needs 64"));
	it_result_dispose(&r);
	CU_ASSERT(nothing_left(disks, res));
	it_sh("umount '%s'; rm -f '%s'", disks, img);
}

/* The profile text written to prof and run (exit rc, else what it
 * said on stderr); its run.json, or NULL. */
static json_t *run_text(const char *prof, const char *text, const char *state,
			const char *res, int rc)
{
	struct it_env e;
	struct it_result r;

	it_write_file(prof, text);
	env_for(&e, state);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), rc);
	if (r.status != rc)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	return it_load_run_json(res);
}

/*
 * host_baseline: each item's twin on the host (the runner against a disk
 * made the same way in the same directory) just before the guest's; the
 * run records both targets, the report sets the guest against the host
 * per mode, and nothing is left of either.
 */
static void qemu_host_baseline(void)
{
	SCRATCH(prof, "q-hb.json");
	SCRATCH(state, "q-state14");
	SCRATCH(res, "q-results14");
	SCRATCH(disks, "q-disks14");
	char text[1024], *sum, *dir;
	json_t *doc, *tg, *items, *it;
	bool dev_counts;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	snprintf(text, sizeof(text),
		 "{\"name\": \"q-hb\", \"backend\": \"qemu\",\n"
		 " \"qemu\": {\"dir\": \"%s\", \"accel\": \"tcg\"},\n"
		 " \"disk_size\": \"32M\", \"modes\": [\"eager\", \"thin\"],\n"
		 " \"host_baseline\": true, \"timeout_s\": 100,\n"
		 " \"workload\": %s}\n",
		 disks, WL_SMALL);
	doc = run_text(prof, text, state, res, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	tg = json_object_get(doc, "targets");
	CU_ASSERT_EQUAL_FATAL(json_array_size(tg), 2);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
				       json_array_get(tg, 0), "name")),
			       "guest");
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(
			json_object_get(json_array_get(tg, 1), "environment"),
			"backend")),
		"host");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(
				json_array_get(tg, 1), "host_baseline_of")),
			0);
	items = json_object_get(doc, "results");
	CU_ASSERT_EQUAL_FATAL(json_array_size(items), 4);
	/* the disks' filesystem on a block device (not tmpfs): its counts */
	dev_counts = !it_sh("test -e /sys/dev/block/$(stat -c '%%Hd:%%Ld' "
			    "'%s')",
			    disks);
	json_array_foreach(items, i, it)
	{
		/* host first, then its guest, mode by mode */
		CU_ASSERT_EQUAL(
			json_integer_value(json_object_get(it, "target")),
			i % 2 ? 0 : 1);
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(it, "status")), "ok");
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(it, "mode")),
			json_string_value(json_object_get(
				json_array_get(items, i - i % 2), "mode")));
		/* a guest's first write, seen from both sides: its virtio
		 * disk in the guest, the host's device under the disk file
		 * and qemu's CPU, sampled on the host */
		if (i % 2 && dev_counts) {
			json_t *p = json_array_get(
				json_object_get(json_object_get(it, "runner"),
						"passes"),
				0);
			json_t *hd = json_object_get(p, "host_device");

			CU_ASSERT_PTR_NOT_NULL(json_object_get(p, "device"));
			CU_ASSERT_PTR_NOT_NULL_FATAL(hd);
			CU_ASSERT_EQUAL(json_integer_value(json_object_get(
						hd, "resolution_ms")),
					20);
			CU_ASSERT(json_number_value(
					  json_object_get(hd, "window_s")) > 0);
			CU_ASSERT(json_integer_value(json_object_get(
					  hd, "qemu_cpu_ms")) > 0);
			/* every byte the guest wrote reached the host's
			 * device (the sampled window may hold a little
			 * more) */
			CU_ASSERT(json_integer_value(
					  json_object_get(hd, "write_bytes")) >=
				  json_integer_value(
					  json_object_get(p, "bytes")) /
					  2);
			/* the disk's file on the host: thin's qcow2 grew
			 * by its clusters in the first write, eager's was
			 * written in full before it */
			json_t *he = json_object_get(p, "host_extents");
			json_int_t grew;

			CU_ASSERT_PTR_NOT_NULL_FATAL(he);
			grew = json_integer_value(json_object_get(
				       json_object_get(he, "after"),
				       "written_bytes")) -
			       json_integer_value(json_object_get(
				       json_object_get(he, "before"),
				       "written_bytes"));
			if (!strcmp(json_string_value(
					    json_object_get(it, "mode")),
				    "thin")) {
				CU_ASSERT(grew >= 16 << 20);
			} else {
				CU_ASSERT_EQUAL(grew, 0);
			}
		}
	}
	json_decref(doc);
	dir = it_newest_dir(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(text, sizeof(text), "%s/summary.txt", dir);
	sum = pb_slurp_file(text, NULL);
	CU_ASSERT_PTR_NOT_NULL(sum);
	CU_ASSERT_PTR_NOT_NULL(sum ? strstr(sum, "thin in the guest: ") : NULL);
	CU_ASSERT_PTR_NOT_NULL(sum ? strstr(sum, "x the host's first write")
				   : NULL);
	free(sum);
	free(dir);
	CU_ASSERT(nothing_left(disks, res));
}

/*
 * A settings A/B: each arm boots its own guests with its own settings,
 * applied by the guest's init and read back into run.json; a setting the
 * guest cannot make fails that arm's item, never measured as if made.
 */
static void qemu_settings_ab(void)
{
	SCRATCH(prof, "q-ab.json");
	SCRATCH(state, "q-state15");
	SCRATCH(res, "q-results15");
	SCRATCH(disks, "q-disks15");
	char text[1024];
	json_t *doc, *items, *g;

	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' '%s'", state, disks), 0);
	snprintf(text, sizeof(text),
		 "{\"name\": \"q-ab\", \"backend\": \"qemu\",\n"
		 " \"qemu\": {\"dir\": \"%s\", \"accel\": \"tcg\"},\n"
		 " \"disk_size\": \"32M\", \"modes\": [\"thin\"],\n"
		 " \"timeout_s\": 100, \"targets\": [\n"
		 "  {\"name\": \"a\", \"mem_file\": true, \"guest_sysctl\": "
		 "{\"vm.dirty_ratio\": \"7\"}},\n"
		 "  {\"name\": \"b\", \"guest_sysctl\": "
		 "{\"vm.no_such_setting\": \"1\"}}],\n"
		 " \"workload\": %s}\n",
		 disks, WL_SMALL);
	/* one arm measured, one failed: a partial run */
	doc = run_text(prof, text, state, res, 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	items = json_object_get(doc, "results");
	CU_ASSERT_EQUAL_FATAL(json_array_size(items), 2);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
				       json_array_get(items, 0), "status")),
			       "ok");
	g = json_object_get(json_object_get(json_array_get(items, 0), "runner"),
			    "guest");
	CU_ASSERT(json_is_true(json_object_get(g, "mem_file")));
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(json_object_get(g, "sysctl"),
						  "vm.dirty_ratio")),
		"7");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
				       json_array_get(items, 1), "status")),
			       "failed");
	CU_ASSERT_PTR_NOT_NULL(strstr(
		json_string_value(
			json_object_get(json_array_get(items, 1), "error")),
		"guest_sysctl: vm.no_such_setting: the guest could not set "
		"it"));
	json_decref(doc);
	CU_ASSERT(nothing_left(disks, res));
}

static const struct pb_case cases[] = {
	PB_CASE(qemu_all_modes),
	PB_CASE(qemu_thin_raw),
	PB_CASE(qemu_two_directories),
	PB_CASE(qemu_signals),
	PB_CASE(qemu_stall_retried),
	PB_CASE(qemu_watchdog),
	PB_CASE(qemu_kill9_cleanup),
	PB_CASE(qemu_monitor_dirs_swept),
	PB_CASE(qemu_named_device_refused),
	PB_CASE(qemu_filesystems),
	PB_CASE(qemu_command_fails),
	PB_CASE(qemu_filesystem_sigint),
	PB_CASE(qemu_kvm_probe_falls_back),
	PB_CASE(qemu_host_fs_full),
	PB_CASE(qemu_host_baseline),
	PB_CASE(qemu_settings_ab),
	PB_CASE(qemu_harness_under_valgrind),
	PB_CASE(qemu_kill9_at_every_step),
	PB_CASE(qemu_disk_full),
	PB_CASES_END,
};

const struct pb_suite suite_qemu_it = {"qemu", NULL, NULL, cases};
