/*
 * backend_qemu.c - the built-in default backend: the experiment for real
 * on the local machine. Disks of each mode are made the way qemu makes
 * them (qcow2 without preallocation, raw with falloc, raw with full
 * preallocation, a host block device passed through raw), and a small
 * guest (Debian kernel, busybox, the static runner: see
 * scripts/guest-image.sh and guest/init) boots with the disk as virtio-blk,
 * runs the runner and powers off.
 *
 * The job goes in through fw_cfg; the guest's console (ttyS0) comes back
 * on a pipe, line by line (markers, progress, the runner's last words);
 * the runner's JSON comes out alone on ttyS1, a file. qemu runs in its own
 * process group with PR_SET_PDEATHSIG, so it never outlives the harness,
 * and loop devices are set up with LO_FLAGS_AUTOCLEAR, so one never
 * outlives its last opener; the journal covers both anyway.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness_int.h"
#include "runner.h"

#ifndef PB_GUEST_DIR
#define PB_GUEST_DIR "/usr/local/lib/provbench/guest"
#endif

/* a KVM guest reaches init in about a second; one that has not in this
 * long is stuck in the firmware (seen on nested machines) */
#define KVM_PROBE_S  10
#define LINE_MAX_LEN 8192

enum disk_kind { KIND_QCOW2, KIND_RAW, KIND_LOOP, KIND_DEVICE };

static const char *const kind_names[] = {"qcow2", "raw", "loop", "device"};

struct pb_backend {
	const struct pb_profile *p;
	char errbuf[PB_ERRBUF_SIZE];
	char dir[PATH_MAX];
	char guest[PATH_MAX];
	char kernel[PATH_MAX + 16];
	char initrd[PATH_MAX + 16];
	char qemu_img[PATH_MAX];
	char key[PATH_MAX + 300];
	char host[256];
	char run_id[32];
	const char *accel; /* "kvm" | "tcg", once prepared */
	char accel_note[256];
	const char *aio; /* what qemu accepted last */
	json_t *manifest;
	bool root;
	int loop_fd; /* the loop device of the disk in progress */
	char loop_dev[32];
};

static enum pb_error qfail(struct pb_backend *b, enum pb_error err,
			   const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum pb_error qfail(struct pb_backend *b, enum pb_error err,
			   const char *fmt, ...)
{
	va_list ap;

	/* the first error is the one worth reading */
	if (b->errbuf[0])
		return err;
	va_start(ap, fmt);
	vsnprintf(b->errbuf, sizeof(b->errbuf), fmt, ap);
	va_end(ap);
	return err;
}

static enum disk_kind disk_kind(const struct pb_backend *b, enum pb_mode m)
{
	switch (m) {
	case PB_MODE_THIN:
		return KIND_QCOW2;
	case PB_MODE_RDM:
		return b->p->qemu.rdm_device ? KIND_DEVICE : KIND_LOOP;
	default:
		return KIND_RAW;
	}
}

/* ---- child processes ---- */

/* qemu and qemu-img run in their own process group (a terminal's ^C
 * reaches the harness, which stops the guest itself, in order) and die
 * with the harness, even a SIGKILLed one */
#define QEMU_CHILD (PB_CHILD_OWN_GROUP | PB_CHILD_DIE_WITH_US)

/* Run a short command to the end; its stdout into out (capped). */
static enum pb_error run_cmd(struct pb_backend *b, char *const argv[],
			     struct pb_buf *out)
{
	struct pb_child_spec sp = {.argv = argv, .flags = QEMU_CHILD};
	char msg[PB_ERRBUF_SIZE];
	int rc = pb_child_run(&sp, out, msg, sizeof(msg), b->errbuf);

	if (rc < 0)
		return PB_ERR_CHILD;
	if (rc)
		return qfail(b, PB_ERR_CHILD, "%s failed (exit %d): %s",
			     argv[0], rc, msg[0] ? msg : "no message");
	return PB_OK;
}

/* ---- open / close ---- */

static bool readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/* PROVBENCH_GUEST_DIR, the profile, next to the binary (build/guest), or
 * where `make install` put it */
static void find_guest(struct pb_backend *b)
{
	char exe[PATH_MAX], *sl;
	ssize_t n;
	const char *env = getenv("PROVBENCH_GUEST_DIR");

	if (b->p->qemu.guest) {
		snprintf(b->guest, sizeof(b->guest), "%s", b->p->qemu.guest);
		return;
	}
	if (env && *env) {
		snprintf(b->guest, sizeof(b->guest), "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		sl = strrchr(exe, '/');
		if (sl) {
			snprintf(sl, sizeof(exe) - (size_t)(sl - exe),
				 "/guest");
			snprintf(b->kernel, sizeof(b->kernel), "%s/vmlinuz",
				 exe);
			if (readable(b->kernel)) {
				snprintf(b->guest, sizeof(b->guest), "%s", exe);
				return;
			}
		}
	}
	snprintf(b->guest, sizeof(b->guest), "%s", PB_GUEST_DIR);
}

static enum pb_error qb_open(struct pb_backend **out,
			     const struct pb_profile *p, char *errbuf)
{
	struct pb_backend *b = calloc(1, sizeof(*b));
	char state[PATH_MAX], real[PATH_MAX];
	uint8_t rnd[6];
	enum pb_error err = PB_OK;

	*out = NULL;
	if (!b)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	b->p = p;
	b->loop_fd = -1;
	b->root = geteuid() == 0;
	b->aio = "io_uring";
	if (gethostname(b->host, sizeof(b->host) - 1))
		snprintf(b->host, sizeof(b->host), "localhost");
	if (p->qemu.dir) {
		snprintf(b->dir, sizeof(b->dir), "%s", p->qemu.dir);
	} else {
		err = pb_state_dir(state, sizeof(state), errbuf);
		if (err)
			goto out;
		snprintf(b->dir, sizeof(b->dir), "%s/qemu", state);
		if (mkdir(b->dir, 0700) && errno != EEXIST) {
			err = pb_fail(errbuf, PB_ERR_IO, "%s: %s", b->dir,
				      strerror(errno));
			goto out;
		}
	}
	if (!realpath(b->dir, real)) {
		err = pb_fail(errbuf, PB_ERR_INPUT, "qemu.dir %s: %s", b->dir,
			      strerror(errno));
		goto out;
	}
	snprintf(b->dir, sizeof(b->dir), "%s", real);
	snprintf(b->key, sizeof(b->key), "qemu:%s:%s", b->host, b->dir);
	find_guest(b);
	snprintf(b->kernel, sizeof(b->kernel), "%s/vmlinuz", b->guest);
	snprintf(b->initrd, sizeof(b->initrd), "%s/initrd.gz", b->guest);
	snprintf(b->qemu_img, sizeof(b->qemu_img), "qemu-img");
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		memset(rnd, 0, sizeof(rnd));
	snprintf(b->run_id, sizeof(b->run_id), "%02x%02x%02x%02x%02x%02x",
		 rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5]);
out:
	if (err) {
		free(b);
		return err;
	}
	*out = b;
	return PB_OK;
}

static void qb_close(struct pb_backend *b)
{
	if (!b)
		return;
	if (b->loop_fd >= 0)
		close(b->loop_fd);
	json_decref(b->manifest);
	free(b);
}

static const char *qb_error(struct pb_backend *b)
{
	return b->errbuf[0] ? b->errbuf : "unknown error";
}

static const char *qb_target_key(struct pb_backend *b)
{
	return b->key;
}

/* ---- check ---- */

/* cache=none needs O_DIRECT where the disk files live (tmpfs has none) */
static enum pb_error check_direct(struct pb_backend *b)
{
	char path[PATH_MAX + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/.pb-direct-XXXXXX", b->dir);
	fd = mkstemp(path);
	if (fd < 0)
		return qfail(b, PB_ERR_IO, "%s: cannot write: %s", b->dir,
			     strerror(errno));
	close(fd);
	fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	unlink(path);
	if (fd < 0)
		return qfail(b, PB_ERR_UNSUPPORTED,
			     "%s: no O_DIRECT here (%s), which the disks' "
			     "cache=none needs; set qemu.dir to a directory "
			     "on a disk filesystem",
			     b->dir, strerror(errno));
	close(fd);
	return PB_OK;
}

static enum pb_error load_manifest(struct pb_backend *b)
{
	char path[PATH_MAX + 16];
	json_error_t je;

	if (b->manifest)
		return PB_OK;
	snprintf(path, sizeof(path), "%s/manifest.json", b->guest);
	if (!readable(b->kernel) || !readable(b->initrd))
		return qfail(b, PB_ERR_NOTFOUND,
			     "no guest image in %s (build it with `make "
			     "guest`, or set PROVBENCH_GUEST_DIR)",
			     b->guest);
	b->manifest = json_load_file(path, 0, &je);
	if (!b->manifest)
		return qfail(b, PB_ERR_INPUT, "%s: %s", path, je.text);
	return PB_OK;
}

static bool skip_rdm(const struct pb_backend *b)
{
	return !b->p->qemu.rdm_device && !b->root;
}

static enum pb_error qb_check(struct pb_backend *b, const struct pb_plan *plan,
			      FILE *out)
{
	char *ver_argv[] = {(char *)b->p->qemu.binary, "--version", NULL};
	char *img_argv[] = {b->qemu_img, "--version", NULL};
	struct pb_buf ver = PB_BUF_INIT(4096);
	struct statvfs sv;
	enum pb_error err;
	bool rdm = false;
	size_t i;

	b->errbuf[0] = '\0';
	for (i = 0; i < plan->n; i++)
		rdm |= plan->items[i].mode == PB_MODE_RDM;
	err = run_cmd(b, ver_argv, &ver);
	if (!err)
		err = run_cmd(b, img_argv, NULL);
	if (!err)
		err = load_manifest(b);
	if (!err)
		err = check_direct(b);
	if (!err && !statvfs(b->dir, &sv) &&
	    (uint64_t)sv.f_bavail * sv.f_frsize < b->p->disk_size)
		err = qfail(b, PB_ERR_INPUT,
			    "%s: %llu MiB free, a disk needs %llu MiB", b->dir,
			    (unsigned long long)((uint64_t)sv.f_bavail *
							 sv.f_frsize >>
						 20),
			    (unsigned long long)(b->p->disk_size >> 20));
	if (!err && rdm && b->p->qemu.rdm_device) {
		err = runner_device_check(b->p->qemu.rdm_device,
					  b->p->disk_size, b->errbuf);
		if (err)
			err = qfail(b, err, "qemu.rdm_device: %s", b->errbuf);
	}
	if (!err && out) {
		char *nl = ver.data ? strchr(ver.data, '\n') : NULL;

		if (nl)
			*nl = '\0';
		fprintf(out, "qemu: %s\n", ver.data ? ver.data : "?");
		fprintf(out, "guest: %s (kernel %s)\n", b->guest,
			json_string_value(json_object_get(b->manifest,
							  "kernel_release")));
		fprintf(out, "disks: %s\n", b->dir);
		fprintf(out, "accelerator: %s\n",
			!strcmp(b->p->qemu.accel, "auto")
				? "KVM if a probe boot reaches init, else TCG"
				: b->p->qemu.accel);
		if (rdm && skip_rdm(b))
			fprintf(out, "rdm: skipped (a loop device needs root; "
				     "or name a device in qemu.rdm_device)\n");
		else if (rdm)
			fprintf(out, "rdm: %s\n",
				b->p->qemu.rdm_device ? b->p->qemu.rdm_device
						      : "a loop device over a "
							"preallocated file");
	}
	pb_buf_dispose(&ver);
	return err;
}

/* ---- the guest ---- */

/* qemu's option syntax: a comma inside a value is written twice. With
 * end, the string is finished (argv strings live NUL-separated in one
 * buffer). */
static enum pb_error opt_escape(struct pb_buf *o, const char *prefix,
				const char *v, bool end)
{
	enum pb_error err = pb_buf_addstr(o, prefix);

	for (; !err && *v; v++) {
		err = pb_buf_add(o, v, 1);
		if (!err && *v == ',')
			err = pb_buf_add(o, ",", 1);
	}
	if (!err && end)
		err = pb_buf_add(o, "", 1);
	return err;
}

struct guest_job {
	const char *disk;    /* file or device */
	const char *format;  /* qcow2 | raw */
	const char *serial;  /* what the runner finds the disk by */
	const char *args;    /* NULL: a probe boot */
	const char *command; /* a command pass's text, or NULL */
	const char *out;     /* ttyS1 goes here */
	const char *accel;
	const char *aio;
};

/* The events a boot reports, from the console's markers. */
struct guest_run {
	double t_boot, t_start; /* seconds from spawn; 0 = not seen */
	bool probe_ok, exited;
	int status;
	char log[5][256];
	unsigned nlog;
	char qemu_err[512];
	bool killed_timeout;
	bool interrupted;
};

static enum pb_error guest_argv(struct pb_buf *store, char **argv, size_t max,
				const struct pb_backend *b,
				const struct guest_job *j)
{
	const struct pb_qemu_opts *q = &b->p->qemu;
	size_t off[48], n = 0, i;
	enum pb_error err = PB_OK;
	char num[32];

/* the next argument starts here: bounds checked before the write */
#define NEXT()                                                                 \
	do {                                                                   \
		if (n < sizeof(off) / sizeof(off[0]))                          \
			off[n++] = store->len;                                 \
		else if (!err)                                                 \
			err = PB_ERR_INTERNAL;                                 \
	} while (0)
#define ARG(s)                                                                 \
	do {                                                                   \
		NEXT();                                                        \
		if (!err)                                                      \
			err = pb_buf_add(store, s, strlen(s) + 1);             \
	} while (0)
#define ARGF(fmt, ...)                                                         \
	do {                                                                   \
		NEXT();                                                        \
		if (!err)                                                      \
			err = pb_buf_printf(store, fmt, __VA_ARGS__);          \
		if (!err)                                                      \
			err = pb_buf_add(store, "", 1);                        \
	} while (0)

	ARG(q->binary);
	ARG("-machine");
	ARGF("q35,accel=%s", j->accel);
	ARG("-cpu");
	ARG(!strcmp(j->accel, "kvm") ? "host" : "max");
	ARG("-m");
	snprintf(num, sizeof(num), "%u", q->memory_mib);
	ARG(num);
	ARG("-smp");
	snprintf(num, sizeof(num), "%u", q->cpus);
	ARG(num);
	ARG("-nodefaults");
	ARG("-no-user-config");
	ARG("-display");
	ARG("none");
	ARG("-no-reboot");
	ARG("-kernel");
	ARG(b->kernel);
	ARG("-initrd");
	ARG(b->initrd);
	ARG("-append");
	ARG("console=ttyS0 quiet loglevel=3 panic=-1");
	ARG("-serial");
	ARG("stdio");
	ARG("-serial");
	ARGF("file:%s", j->out ? j->out : "/dev/null");
	if (j->args) {
		ARG("-fw_cfg");
		NEXT();
		if (!err)
			err = opt_escape(store,
					 "name=opt/provbench/args,string=",
					 j->args, true);
		ARG("-fw_cfg");
		ARGF("name=opt/provbench/serial,string=%s", j->serial);
		if (j->command) {
			ARG("-fw_cfg");
			NEXT();
			if (!err)
				err = opt_escape(store,
						 "name=opt/provbench/command,"
						 "string=",
						 j->command, true);
		}
		ARG("-drive");
		NEXT();
		if (!err)
			err = opt_escape(store, "file=", j->disk, false);
		if (!err) {
			err = pb_buf_printf(store,
					    ",if=none,id=pbdisk,format=%s,"
					    "cache=none,aio=%s",
					    j->format, j->aio);
		}
		if (!err)
			err = pb_buf_add(store, "", 1);
		ARG("-device");
		ARGF("virtio-blk-pci,drive=pbdisk,serial=%s", j->serial);
	}
#undef ARG
#undef ARGF
#undef NEXT
	if (err || n >= max)
		return err ? err : PB_ERR_INTERNAL;
	for (i = 0; i < n; i++)
		argv[i] = store->data + off[i];
	argv[n] = NULL;
	return PB_OK;
}

static double since(uint64_t t0)
{
	return (double)(pb_now_ns() - t0) / 1e9;
}

static void console_line(struct guest_run *g, char *line, double t,
			 const struct pb_run_ctx *ctx)
{
	if (!strncmp(line, "PB-BOOT", 7)) {
		g->t_boot = t;
	} else if (!strcmp(line, "PB-PROBE-OK")) {
		g->probe_ok = true;
	} else if (!strncmp(line, "PB-START", 8)) {
		g->t_start = t;
	} else if (!strncmp(line, "PB-EXIT ", 8)) {
		g->exited = true;
		g->status = atoi(line + 8);
	} else if (!strncmp(line, "PB-LOG ", 7)) {
		if (g->nlog == 5) {
			memmove(g->log[0], g->log[1], sizeof(g->log[0]) * 4);
			g->nlog = 4;
		}
		snprintf(g->log[g->nlog++], sizeof(g->log[0]), "%s", line + 7);
	} else if (!strncmp(line, "PB-PROGRESS ", 12) && ctx && ctx->progress) {
		json_t *pj = json_loads(line + 12, 0, NULL);

		if (pj)
			ctx->progress(ctx, pj);
		json_decref(pj);
	}
}

/*
 * Boot the guest for one job and follow its console until qemu exits,
 * the deadline passes (then it is killed: the watchdog) or a stop is
 * asked for. deadline_s 0 = none.
 */
static enum pb_error guest_boot(struct pb_backend *b, struct guest_run *g,
				const struct guest_job *j, double deadline_s,
				const struct pb_run_ctx *ctx)
{
	struct pb_buf store = PB_BUF_INIT(65536);
	char *argv[48], line[LINE_MAX_LEN], chunk[4096];
	struct pb_child_spec sp = {.argv = argv, .flags = QEMU_CHILD};
	struct pb_child c = {.pid = -1, .out = -1, .err = -1};
	size_t llen = 0;
	uint64_t t0 = pb_now_ns();
	enum pb_error err;
	ssize_t n;

	memset(g, 0, sizeof(*g));
	err = guest_argv(&store, argv, 48, b, j);
	if (!err)
		err = pb_child_start(&c, &sp, b->errbuf);
	if (err)
		goto out;
	while (pb_child_open(&c)) {
		n = pb_child_read(&c, 200, chunk, sizeof(chunk));
		if (ctx && ctx->stop && *ctx->stop) {
			g->interrupted = true;
			break;
		}
		if (deadline_s > 0 && since(t0) > deadline_s) {
			g->killed_timeout = true;
			break;
		}
		/* the console, line by line */
		for (ssize_t k = 0; k < n; k++) {
			if (chunk[k] == '\r')
				continue;
			if (chunk[k] != '\n') {
				if (llen < sizeof(line) - 1)
					line[llen++] = chunk[k];
				continue;
			}
			line[llen] = '\0';
			console_line(g, line, since(t0), ctx);
			llen = 0;
		}
		/* a probe has its answer once init speaks */
		if (!j->args && g->probe_ok)
			break;
	}
	pb_child_kill(&c); /* qemu still running here is killed */
	pb_child_finish(&c);
	snprintf(g->qemu_err, sizeof(g->qemu_err), "%s",
		 pb_child_last_line(&c));
out:
	pb_buf_dispose(&store);
	return err;
}

/* ---- prepare: the accelerator ---- */

/*
 * The probe's verdict is kept in the state directory for the rest of this
 * host boot (keyed by the kernel's boot id and the guest image), so a
 * machine whose KVM hangs pays the probe's deadline once, not every run.
 */
static void probe_cache_path(char *out, size_t len)
{
	char state[PATH_MAX], err[PB_ERRBUF_SIZE];

	out[0] = '\0';
	if (!pb_state_dir(state, sizeof(state), err))
		snprintf(out, len, "%s/kvm-probe.json", state);
}

static const char *probe_key(struct pb_backend *b, char *key, size_t len)
{
	char *id = pb_slurp_file("/proc/sys/kernel/random/boot_id", NULL);

	snprintf(key, len, "%.36s:%s:%s", id ? id : "?",
		 json_string_value(
			 json_object_get(b->manifest, "initrd_sha256")),
		 b->p->qemu.binary);
	free(id);
	return key;
}

static bool probe_cached(struct pb_backend *b)
{
	char path[PATH_MAX + 32], key[512];
	json_t *c;
	const char *accel;
	bool hit = false;

	probe_cache_path(path, sizeof(path));
	c = path[0] ? json_load_file(path, 0, NULL) : NULL;
	accel = json_string_value(json_object_get(c, "accel"));
	if (accel && !strcmp(json_string_value(json_object_get(c, "key")) ?: "",
			     probe_key(b, key, sizeof(key)))) {
		b->accel = !strcmp(accel, "kvm") ? "kvm" : "tcg";
		snprintf(b->accel_note, sizeof(b->accel_note),
			 "%s (probed earlier in this host boot)",
			 json_string_value(json_object_get(c, "note")) ?: "");
		hit = true;
	}
	json_decref(c);
	return hit;
}

static void probe_remember(struct pb_backend *b)
{
	char path[PATH_MAX + 32], key[512], err[PB_ERRBUF_SIZE];
	json_t *c;
	char *text;

	probe_cache_path(path, sizeof(path));
	if (!path[0])
		return;
	c = json_pack("{s:s,s:s,s:s}", "key", probe_key(b, key, sizeof(key)),
		      "accel", b->accel, "note", b->accel_note);
	text = c ? json_dumps(c, JSON_COMPACT) : NULL;
	if (text) /* best effort: without it the next run probes again */
		pb_write_atomic(path, text, strlen(text), err);
	free(text);
	json_decref(c);
}

static enum pb_error qb_prepare(struct pb_backend *b)
{
	const char *want = b->p->qemu.accel;
	/* another node than /dev/kvm, to diagnose (and to test) the probe */
	const char *kvm = getenv("PROVBENCH_KVM_DEVICE");
	struct guest_job j = {.accel = "kvm"};
	struct guest_run g;
	enum pb_error err;
	int fd;

	b->errbuf[0] = '\0';
	if (!kvm || !*kvm)
		kvm = "/dev/kvm";
	err = load_manifest(b);
	if (!err)
		err = check_direct(b);
	if (err)
		return err;
	if (!strcmp(want, "tcg")) {
		b->accel = "tcg";
		snprintf(b->accel_note, sizeof(b->accel_note),
			 "TCG as the profile asks");
		return PB_OK;
	}
	fd = open(kvm, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		if (!strcmp(want, "kvm"))
			return qfail(b, PB_ERR_UNSUPPORTED,
				     "%s: %s (the profile asks for KVM)", kvm,
				     strerror(errno));
		b->accel = "tcg";
		snprintf(b->accel_note, sizeof(b->accel_note), "TCG: %s: %s",
			 kvm, strerror(errno));
		return PB_OK;
	}
	close(fd);
	if (probe_cached(b)) {
		if (!strcmp(want, "kvm") && strcmp(b->accel, "kvm"))
			return qfail(b, PB_ERR_UNSUPPORTED, "KVM: %s",
				     b->accel_note);
		return PB_OK;
	}
	/* the node opening proves little: on some nested machines a KVM
	 * guest never leaves the firmware. A short boot to init tells. */
	err = guest_boot(b, &g, &j, KVM_PROBE_S, NULL);
	if (err)
		return err;
	if (g.probe_ok) {
		b->accel = "kvm";
		snprintf(b->accel_note, sizeof(b->accel_note),
			 "KVM: a probe boot reached init in %.1f s", g.t_boot);
	} else {
		b->accel = "tcg";
		if (g.killed_timeout)
			snprintf(b->accel_note, sizeof(b->accel_note),
				 "TCG: a KVM probe boot did not reach init "
				 "within %d s",
				 KVM_PROBE_S);
		else
			snprintf(b->accel_note, sizeof(b->accel_note),
				 "TCG: a KVM probe boot failed: %s",
				 g.qemu_err[0] ? g.qemu_err
					       : "qemu exited before init");
	}
	probe_remember(b);
	if (!strcmp(want, "kvm") && strcmp(b->accel, "kvm"))
		return qfail(b, PB_ERR_UNSUPPORTED, "KVM: %s", b->accel_note);
	return PB_OK;
}

/* ---- describe ---- */

static const char *fs_name(long type)
{
	switch ((unsigned long)type) {
	case 0xef53:
		return "ext4";
	case 0x58465342:
		return "xfs";
	case 0x9123683e:
		return "btrfs";
	case 0x01021994:
		return "tmpfs";
	case 0x794c7630:
		return "overlayfs";
	case 0x2fc12fc1:
		return "zfs";
	default:
		return "other";
	}
}

static enum pb_error qb_describe(struct pb_backend *b, json_t *env)
{
	char *ver_argv[] = {(char *)b->p->qemu.binary, "--version", NULL};
	struct pb_buf ver = PB_BUF_INIT(4096);
	struct utsname u;
	struct statfs sf;
	char cpu[256] = "", l[512];
	FILE *f;

	b->errbuf[0] = '\0';
	if (!run_cmd(b, ver_argv, &ver) && ver.data) {
		char *nl = strchr(ver.data, '\n');

		if (nl)
			*nl = '\0';
	}
	b->errbuf[0] = '\0';
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(l, sizeof(l), f))
		if (!strncmp(l, "model name", 10) && strchr(l, ':')) {
			snprintf(cpu, sizeof(cpu), "%s", strchr(l, ':') + 2);
			cpu[strcspn(cpu, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	uname(&u);
	json_object_set_new(env, "backend", json_string("qemu"));
	json_object_set_new(env, "accelerator",
			    json_string(b->accel ? b->accel : "none"));
	json_object_set_new(env, "accelerator_note",
			    json_string(b->accel_note));
	json_object_set_new(env, "qemu",
			    json_string(ver.data ? ver.data : "unknown"));
	json_object_set_new(env, "host", json_string(b->host));
	json_object_set_new(env, "host_kernel", json_string(u.release));
	json_object_set_new(env, "host_cpu", json_string(cpu));
	json_object_set_new(env, "datastore", json_string(b->dir));
	json_object_set_new(env, "datastore_fs",
			    json_string(statfs(b->dir, &sf)
						? "unknown"
						: fs_name(sf.f_type)));
	json_object_set_new(env, "disk_cache", json_string("none"));
	json_object_set_new(env, "disk_aio", json_string(b->aio));
	json_object_set_new(env, "guest_memory_mib",
			    json_integer(b->p->qemu.memory_mib));
	json_object_set_new(env, "guest_cpus", json_integer(b->p->qemu.cpus));
	if (b->manifest) {
		json_object_set_new(env, "guest_kernel",
				    json_copy(json_object_get(
					    b->manifest, "kernel_release")));
		json_object_set_new(env, "guest_image",
				    json_deep_copy(b->manifest));
	}
	if (skip_rdm(b))
		json_object_set_new(env, "rdm_note",
				    json_string("rdm skipped: a loop device "
						"needs root (or name a device "
						"in qemu.rdm_device)"));
	pb_buf_dispose(&ver);
	return PB_OK;
}

/* ---- disks ---- */

static enum pb_error qb_plan_disk(struct pb_backend *b, enum pb_mode mode,
				  unsigned seq, struct pb_disk *d, json_t *j)
{
	enum disk_kind k = disk_kind(b, mode);
	static const char *const ext[] = {"qcow2", "raw", "lun", ""};
	uint8_t rnd[4];

	d->mode = mode;
	snprintf(d->id, sizeof(d->id), "%s-%u", b->run_id, seq);
	if (k == KIND_DEVICE)
		snprintf(d->file, sizeof(d->file), "%s", b->p->qemu.rdm_device);
	else
		snprintf(d->file, sizeof(d->file), "%s/provbench-%s.%s", b->dir,
			 d->id, ext[k]);
	/* virtio-blk serials hold 20 characters; hex, so the runner's
	 * uuid: lookup takes it */
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		memset(rnd, 0, sizeof(rnd));
	snprintf(d->uuid, sizeof(d->uuid), "%.12s%02x%02x%02x%02x", b->run_id,
		 rnd[0], rnd[1], rnd[2], rnd[3]);
	json_object_set_new(j, "target", json_string(b->key));
	json_object_set_new(j, "file", json_string(d->file));
	json_object_set_new(j, "kind", json_string(kind_names[k]));
	json_object_set_new(j, "host", json_string(b->host));
	return PB_OK;
}

/* Written and unwritten (preallocated) bytes of a file, from FIEMAP. */
static bool extents(int fd, uint64_t *written, uint64_t *unwritten)
{
	enum { N = 256 };
	struct fiemap *fm =
		calloc(1, sizeof(*fm) + N * sizeof(fm->fm_extents[0]));
	uint64_t start = 0;
	bool ok = false, last = false;

	*written = *unwritten = 0;
	while (fm && !last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = ~0ull - start;
		fm->fm_extent_count = N;
		if (ioctl(fd, FS_IOC_FIEMAP, fm))
			goto out;
		if (!fm->fm_mapped_extents)
			break;
		for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *e = &fm->fm_extents[i];

			if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
				*unwritten += e->fe_length;
			else
				*written += e->fe_length;
			start = e->fe_logical + e->fe_length;
			last |= e->fe_flags & FIEMAP_EXTENT_LAST;
		}
	}
	ok = true;
out:
	free(fm);
	return ok;
}

/*
 * What the file really is, whatever was asked: a qcow2 is thin; a raw
 * file mostly written is eager, mostly preallocated-unwritten is lazy,
 * mostly unallocated is thin (a filesystem without fallocate).
 */
static json_t *file_readback(const char *path, uint64_t size)
{
	json_t *rb = json_object();
	uint64_t wr = 0, un = 0;
	struct stat st;
	char magic[4] = "";
	const char *mode = "unknown";
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return rb;
	if (pread(fd, magic, 4, 0) == 4 && !memcmp(magic, "QFI\xfb", 4)) {
		json_object_set_new(rb, "format", json_string("qcow2"));
		mode = "thin";
	} else {
		json_object_set_new(rb, "format", json_string("raw"));
		if (extents(fd, &wr, &un)) {
			json_object_set_new(rb, "written_bytes",
					    json_integer((json_int_t)wr));
			json_object_set_new(rb, "unwritten_bytes",
					    json_integer((json_int_t)un));
			if (wr * 10 >= size * 9)
				mode = "eager";
			else if ((wr + un) * 10 >= size * 9)
				mode = "lazy";
			else if ((wr + un) * 10 <= size)
				mode = "thin";
		}
	}
	if (!fstat(fd, &st))
		json_object_set_new(
			rb, "allocated_bytes",
			json_integer((json_int_t)st.st_blocks * 512));
	json_object_set_new(rb, "mode", json_string(mode));
	close(fd);
	return rb;
}

/* Create path exclusively: qemu-img would overwrite whatever is there. */
static enum pb_error claim(struct pb_backend *b, const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return qfail(b, errno == EEXIST ? PB_ERR_UNSAFE : PB_ERR_IO,
			     "%s: %s", path,
			     errno == EEXIST ? "already exists; provbench "
					       "never writes a file it did "
					       "not create"
					     : strerror(errno));
	close(fd);
	return PB_OK;
}

static enum pb_error qemu_img_create(struct pb_backend *b, const char *fmt,
				     const char *prealloc, const char *path,
				     uint64_t size)
{
	char o[64], sz[32];
	char *argv[] = {b->qemu_img, "create", "-q",	     "-f", (char *)fmt,
			"-o",	     o,	       (char *)path, sz,   NULL};

	snprintf(o, sizeof(o), "preallocation=%s", prealloc);
	snprintf(sz, sizeof(sz), "%llu", (unsigned long long)size);
	return run_cmd(b, argv, NULL);
}

/* A LUN stand-in: the file fully written, so the host adds no lazy
 * allocation of its own under the baseline. */
static enum pb_error lun_file(struct pb_backend *b, const char *path,
			      uint64_t size)
{
	return qemu_img_create(b, "raw", "full", path, size);
}

static enum pb_error loop_attach(struct pb_backend *b, const char *file)
{
	struct loop_config cfg;
	int ctl = -1, back = -1, lfd = -1, n = -1, tries;
	enum pb_error err = PB_OK;

	back = open(file, O_RDWR | O_CLOEXEC);
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (back < 0 || ctl < 0) {
		err = qfail(b, PB_ERR_IO, "%s: %s",
			    back < 0 ? file : "/dev/loop-control",
			    strerror(errno));
		goto out;
	}
	for (tries = 0; tries < 8; tries++) {
		n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0)
			break;
		snprintf(b->loop_dev, sizeof(b->loop_dev), "/dev/loop%d", n);
		lfd = open(b->loop_dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0)
			break;
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)back;
		cfg.block_size = 512;
		/* direct I/O: no second page cache under the guest's; and
		 * autoclear: the device goes with its last opener */
		cfg.info.lo_flags = LO_FLAGS_DIRECT_IO | LO_FLAGS_AUTOCLEAR;
		snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s",
			 file);
		if (!ioctl(lfd, LOOP_CONFIGURE, &cfg))
			break;
		if (errno == EBUSY) { /* someone else took it first */
			close(lfd);
			lfd = -1;
			continue;
		}
		err = qfail(b, PB_ERR_IO, "%s: LOOP_CONFIGURE: %s", b->loop_dev,
			    strerror(errno));
		goto out;
	}
	if (n < 0 || lfd < 0) {
		err = qfail(b, PB_ERR_IO, "no free loop device: %s",
			    strerror(errno));
		goto out;
	}
	b->loop_fd = lfd;
	lfd = -1;
out:
	if (lfd >= 0)
		close(lfd);
	if (back >= 0)
		close(back);
	if (ctl >= 0)
		close(ctl);
	return err;
}

/*
 * Wait (up to 5 s) until the kernel has let go of loop device dev. With
 * LO_FLAGS_AUTOCLEAR, LOOP_CLR_FD only marks the device while another
 * opener remains, and the last one can be a killed qemu whose io_uring
 * the kernel tears down in a worker after waitpid() has returned: the
 * device clears a moment later. Returning before then would leave a run
 * that says "nothing left" while /sys still shows the backing file.
 */
static void loop_wait_clear(const char *dev)
{
	char p[64];
	unsigned i;

	snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
		 dev + strlen("/dev/"));
	for (i = 0; i < 100 && access(p, F_OK) == 0; i++)
		usleep(50 * 1000);
}

static void loop_detach(struct pb_backend *b)
{
	if (b->loop_fd < 0)
		return;
	ioctl(b->loop_fd, LOOP_CLR_FD, 0);
	close(b->loop_fd);
	loop_wait_clear(b->loop_dev);
	b->loop_fd = -1;
	b->loop_dev[0] = '\0';
}

static enum pb_error qb_create(struct pb_backend *b, struct pb_disk *d)
{
	enum disk_kind k = disk_kind(b, d->mode);
	uint64_t size = b->p->disk_size, t0;
	enum pb_error err;

	b->errbuf[0] = '\0';
	d->readback = NULL;
	if (k == KIND_LOOP && skip_rdm(b))
		return qfail(b, PB_ERR_UNSUPPORTED,
			     "rdm skipped: a loop device needs root (or name "
			     "a device in qemu.rdm_device)");
	if (k == KIND_DEVICE) {
		err = runner_device_check(d->file, size, b->errbuf);
		if (err)
			return err;
		d->provision_s = 0;
		d->readback = json_pack("{s:s,s:s}", "mode", "rdm", "device",
					d->file);
		return PB_OK;
	}
	err = claim(b, d->file);
	if (err)
		return err;
	if (k == KIND_LOOP) {
		err = lun_file(b, d->file, size);
		t0 = pb_now_ns();
		if (!err)
			err = loop_attach(b, d->file);
		d->provision_s = since(t0);
		if (!err)
			d->readback =
				json_pack("{s:s,s:s,s:s,s:b}", "mode", "rdm",
					  "device", b->loop_dev, "backing",
					  d->file, "direct_io", 1);
		return err;
	}
	t0 = pb_now_ns();
	if (d->mode == PB_MODE_THIN)
		err = qemu_img_create(b, "qcow2", "off", d->file, size);
	else
		err = qemu_img_create(
			b, "raw", d->mode == PB_MODE_EAGER ? "full" : "falloc",
			d->file, size);
	d->provision_s = since(t0);
	d->provision_source = "qemu-img wall";
	if (!err)
		d->readback = file_readback(d->file, size);
	return err;
}

static enum pb_error qb_destroy(struct pb_backend *b, const struct pb_disk *d)
{
	enum disk_kind k = disk_kind(b, d->mode);

	b->errbuf[0] = '\0';
	if (k == KIND_DEVICE)
		return PB_OK; /* the profile's device is never removed */
	if (k == KIND_LOOP)
		loop_detach(b);
	if (unlink(d->file) && errno != ENOENT)
		return qfail(b, PB_ERR_IO, "%s: %s", d->file, strerror(errno));
	return PB_OK;
}

/* Detach every loop device whose backing file is path. */
static unsigned loop_detach_file(const char *path)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *e;
	unsigned n = 0;

	while (dir && (e = readdir(dir))) {
		char p[PATH_MAX], back[PATH_MAX + 2] = "";
		FILE *f;
		int fd;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
			 e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (!fgets(back, sizeof(back), f))
			back[0] = '\0';
		fclose(f);
		back[strcspn(back, "\n")] = '\0';
		/* a deleted backing file shows as "path (deleted)" */
		if (strcmp(back, path) &&
		    (strncmp(back, path, strlen(path)) ||
		     strcmp(back + strlen(path), " (deleted)")))
			continue;
		snprintf(p, sizeof(p), "/dev/%s", e->d_name);
		fd = open(p, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			if (!ioctl(fd, LOOP_CLR_FD, 0))
				n++;
			close(fd);
			loop_wait_clear(p);
		}
	}
	if (dir)
		closedir(dir);
	return n;
}

static enum pb_error qb_cleanup(struct pb_backend *b, json_t *entry)
{
	const char *file = json_string_value(json_object_get(entry, "file"));
	const char *kind = json_string_value(json_object_get(entry, "kind"));
	bool found = false;

	b->errbuf[0] = '\0';
	/* another disk directory's entry is not this run's to touch */
	if (strcmp(json_string_value(json_object_get(entry, "target")) ?: "",
		   b->key))
		return PB_ERR_UNSAFE;
	if (!file || !kind)
		return qfail(b, PB_ERR_INPUT, "journal entry without a file");
	if (!strcmp(kind, "device"))
		return PB_ERR_NOTFOUND; /* never provbench's to remove */
	if (!strcmp(kind, "loop"))
		found = loop_detach_file(file) > 0;
	if (!unlink(file))
		found = true;
	else if (errno != ENOENT)
		return qfail(b, PB_ERR_IO, "%s: %s", file, strerror(errno));
	return found ? PB_OK : PB_ERR_NOTFOUND;
}

/* ---- run ---- */

/* Add what the host saw of the guest to the runner's document. */
static void annotate(const char *path, const struct guest_run *g,
		     const struct pb_backend *b, const char *aio)
{
	json_t *doc = json_load_file(path, 0, NULL);

	if (!doc)
		return;
	json_object_set_new(doc, "guest",
			    json_pack("{s:s,s:s,s:f,s:f}", "accelerator",
				      b->accel, "aio", aio, "boot_to_init_s",
				      g->t_boot, "boot_to_runner_s",
				      g->t_start));
	json_dump_file(doc, path, JSON_COMPACT);
	json_decref(doc);
}

static enum pb_error qb_run(struct pb_backend *b, const struct pb_disk *d,
			    const char *args, long timeout_s,
			    const struct pb_run_ctx *ctx, const char *local_out)
{
	static const char *const aios[] = {"io_uring", "native", "threads"};
	enum disk_kind k = disk_kind(b, d->mode);
	struct guest_job j = {
		.format = k == KIND_QCOW2 ? "qcow2" : "raw",
		.serial = d->uuid,
		.args = args,
		.command = ctx ? ctx->command : NULL,
		.out = local_out,
		.accel = b->accel,
	};
	struct guest_run g;
	enum pb_error err = PB_OK;
	unsigned a;

	b->errbuf[0] = '\0';
	j.disk = k == KIND_LOOP ? b->loop_dev : d->file;
	for (a = 0; a < 3; a++) {
		j.aio = aios[a];
		unlink(local_out);
		err = guest_boot(b, &g, &j, (double)timeout_s, ctx);
		if (err)
			return err;
		/* qemu refusing the aio mode fails before the guest boots;
		 * the next one is tried (io_uring may be disabled) */
		if (g.t_boot > 0 || g.interrupted || g.killed_timeout ||
		    !(strstr(g.qemu_err, "aio") || strstr(g.qemu_err, "uring")))
			break;
	}
	b->aio = j.aio;
	if (g.interrupted)
		return qfail(b, PB_ERR_INTERRUPTED,
			     "interrupted; guest stopped");
	if (g.killed_timeout)
		return qfail(b, PB_ERR_TIMEOUT,
			     "watchdog: the guest did not finish within %ld s "
			     "and was killed",
			     timeout_s);
	if (!g.exited) {
		if (g.t_boot == 0)
			return qfail(b, PB_ERR_IO, "qemu: %s",
				     g.qemu_err[0] ? g.qemu_err
						   : "the guest never booted");
		return qfail(b, PB_ERR_IO,
			     "the guest stopped before the runner finished%s%s",
			     g.nlog ? ": " : "",
			     g.nlog ? g.log[g.nlog - 1] : "");
	}
	annotate(local_out, &g, b, j.aio);
	if (g.status)
		return qfail(b, PB_ERR_CHILD,
			     "runner in the guest exited %d: %s", g.status,
			     g.nlog ? g.log[g.nlog - 1] : "no message");
	return PB_OK;
}

const struct backend_ops qemu_backend = {
	.name = "qemu",
	.flags = PB_BACKEND_F_RDM | PB_BACKEND_F_GUEST_VM,
	.open = qb_open,
	.check = qb_check,
	.describe = qb_describe,
	.prepare = qb_prepare,
	.plan_disk = qb_plan_disk,
	.create_disk = qb_create,
	.run = qb_run,
	.destroy_disk = qb_destroy,
	.cleanup = qb_cleanup,
	.target_key = qb_target_key,
	.error = qb_error,
	.close = qb_close,
};
