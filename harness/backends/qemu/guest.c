/*
 * guest.c - one boot of the qemu backend's guest (Debian kernel, busybox,
 * the static runner: scripts/guest-image.sh and guest/init) with the disk
 * as virtio-blk. The job goes in through fw_cfg; the guest's console
 * (ttyS0) comes back on a pipe, line by line (markers, progress, the
 * runner's last words); the runner's JSON comes out alone on ttyS1, a
 * file. qemu runs in its own process group with PR_SET_PDEATHSIG, so it
 * never outlives the harness.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "qb.h"

#define LINE_MAX_LEN 8192

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

static enum pb_error guest_argv(struct pb_buf *store, char **argv, size_t max,
				const struct qb *b, const struct qb_job *j)
{
	const struct qemu_opts *q = b->o;
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
	/* qemu.mem_file: guest RAM in a file of the disks' directory (qemu
	 * unlinks it at once), written back like any file: VMware's
	 * mainMem.useNamedFile = "TRUE" (seed 002) */
	if (j->mem_dir && j->args) {
		ARGF("q35,accel=%s,memory-backend=pbmem", j->accel);
		ARG("-object");
		NEXT();
		if (!err)
			err = pb_buf_printf(store,
					    "memory-backend-file,id=pbmem,"
					    "size=%uM,share=on,",
					    q->memory_mib);
		if (!err)
			err = opt_escape(store, "mem-path=", j->mem_dir, true);
	} else {
		ARGF("q35,accel=%s", j->accel);
	}
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
	/* cryptomgr.notests: the crypto self-tests are a tenth of a boot
	 * under TCG (initcall_debug: crypto_algapi_init 166 ms), for
	 * algorithms the guest never uses */
	ARG("console=ttyS0 quiet loglevel=3 panic=-1 cryptomgr.notests");
	ARG("-serial");
	ARG("stdio");
	if (j->qmp) {
		ARG("-qmp");
		NEXT();
		if (!err)
			err = opt_escape(store, "unix:", j->qmp, false);
		if (!err)
			err = pb_buf_addstr(store, ",server=on,wait=off");
		if (!err)
			err = pb_buf_add(store, "", 1);
	}
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
		if (j->stall_s) {
			ARG("-fw_cfg");
			ARGF("name=opt/provbench/stall_s,string=%u",
			     j->stall_s);
		}
		if (j->sysctl) {
			ARG("-fw_cfg");
			NEXT();
			if (!err)
				err = opt_escape(store,
						 "name=opt/provbench/sysctl,"
						 "string=",
						 j->sysctl, true);
		}
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
					    "cache=none,aio=%s,werror=report,"
					    "rerror=report,discard=%s",
					    j->format, j->aio,
					    j->discard ? "unmap" : "ignore");
		}
		if (!err)
			err = pb_buf_add(store, "", 1);
		ARG("-device");
		ARGF("virtio-blk-pci,drive=pbdisk,serial=%s,discard=%s",
		     j->serial, j->discard ? "on" : "off");
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

static void console_line(struct qb_boot *g, char *line, double t,
			 const struct pb_run_ctx *ctx)
{
	/* every line into the tail but the progress stream; and from a
	 * job's boot, the whole console, for a stall's diagnostics */
	if (strncmp(line, "PB-PROGRESS ", 12) && ctx) {
		pb_buf_addstr(&g->console, line);
		pb_buf_add(&g->console, "\n", 1);
	}
	if (strncmp(line, "PB-PROGRESS ", 12)) {
		snprintf(g->tail[g->tail_next], sizeof(g->tail[0]), "%s", line);
		g->tail_next = (g->tail_next + 1) % QB_TAIL_LINES;
		if (g->ntail < QB_TAIL_LINES)
			g->ntail++;
	}
	if (!strncmp(line, "PB-BOOT", 7)) {
		g->t_boot = t;
		pb_stall_alive(ctx ? ctx->stall : NULL, "the guest's boot");
	} else if (!strcmp(line, "PB-PROBE-OK")) {
		g->probe_ok = true;
	} else if (!strncmp(line, "PB-START", 8)) {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		g->t_start = t;
		pb_stall_begun(ctx ? ctx->stall : NULL, "the runner's start");
		g->start_uptime_ns = (int64_t)(strtod(line + 8, NULL) * 1e9);
		g->start_host_unix_ns =
			(int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	} else if (!strncmp(line, "PB-SYSCTL ", 10)) {
		size_t n = strlen(g->sysctl);

		snprintf(g->sysctl + n, sizeof(g->sysctl) - n, "%s\n",
			 line + 10);
	} else if (!strncmp(line, "PB-SYSCTL-FAIL ", 15)) {
		if (!g->sysctl_fail[0])
			snprintf(g->sysctl_fail, sizeof(g->sysctl_fail), "%s",
				 line + 15);
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

void qb_boot_dispose(struct qb_boot *g)
{
	pb_buf_dispose(&g->console);
	free(g->samples);
	g->samples = NULL;
	g->nsamples = g->asamples = 0;
}

/* qemu's user and system CPU so far, ms (0 if unreadable) */
static unsigned long long proc_cpu_ms(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fp = fopen(path, "re");
	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	/* after the command's ")": state is field 3, utime 14, stime 15 */
	p = strrchr(buf, ')');
	if (!p ||
	    sscanf(p + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
		   "%llu %llu",
		   &ut, &st) != 2 ||
	    hz <= 0)
		return 0;
	return (ut + st) * 1000ull / (unsigned long long)hz;
}

/* One sample of the host's side, when the device has counts. */
static void sample(struct qb_boot *g, const struct qb_job *j, pid_t pid)
{
	struct qb_sample s;
	struct timespec now;

	if (j->sample_fd < 0 || !runner_devstat_get(&s.ds, j->sample_fd))
		return;
	if (g->nsamples == g->asamples &&
	    (g->asamples >= 1u << 20 ||
	     pb_array_grow(&g->samples, &g->asamples, g->nsamples,
			   sizeof(*g->samples))))
		return; /* samples stop; the passes after say none */
	clock_gettime(CLOCK_REALTIME, &now);
	s.host_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	s.cpu_ms = proc_cpu_ms(pid);
	s.has_ext = runner_extents_get(&s.ext, j->ext_fd >= 0 ? j->ext_fd
							      : j->sample_fd);
	g->samples[g->nsamples++] = s;
}

/* a stalled guest's host side, into diag (made here): best effort, the
 * stall is said whatever could be kept */
static void stall_diagnostics(const struct qb_job *j, pid_t pid,
			      const char *diag)
{
	char path[PATH_MAX], scratch[PB_ERRBUF_SIZE] = "";

	if (!diag || (mkdir(diag, 0755) && errno != EEXIST))
		return;
	if (j->qmp) {
		snprintf(path, sizeof(path), "%s/qmp.json", diag);
		qb_qmp_dump(j->qmp, path, scratch);
	}
	snprintf(path, sizeof(path), "%s/host.txt", diag);
	pb_local_proc_dump(pid, "qemu", path, scratch);
}

enum pb_error qb_guest_boot(struct qb *b, struct qb_boot *g,
			    const struct qb_job *j, double deadline_s,
			    const struct pb_run_ctx *ctx, char *errbuf)
{
	struct pb_buf store = PB_BUF_INIT(65536);
	char *argv[48], line[LINE_MAX_LEN], chunk[4096];
	struct pb_child_spec sp = {.argv = argv, .flags = QB_CHILD};
	struct pb_child c = {.pid = -1, .out = -1, .err = -1};
	size_t llen = 0;
	uint64_t t0 = pb_now_ns(), heard = t0, warned = t0;
	enum pb_error err;
	ssize_t n;

	qb_boot_dispose(g); /* an earlier boot's samples */
	memset(g, 0, sizeof(*g));
	g->console = (struct pb_buf)PB_BUF_INIT(1u << 20);
	err = guest_argv(&store, argv, 48, b, j);
	if (err)
		pb_fail(errbuf, err, "qemu's command line: %s",
			pb_strerror(err));
	else
		err = pb_child_start(&c, &sp, errbuf);
	if (err)
		goto out;
	while (pb_child_open(&c)) {
		/* a job's guest is sampled every QB_SAMPLE_MS: a pass's
		 * window on the host is known to that */
		n = pb_child_read(
			&c, j->args && j->sample_fd >= 0 ? QB_SAMPLE_MS : 200,
			chunk, sizeof(chunk));
		if (j->args)
			sample(g, j, c.pid);
		if (ctx && ctx->stop && *ctx->stop) {
			g->interrupted = true;
			break;
		}
		if (deadline_s > 0 && qb_since(t0) > deadline_s) {
			g->killed_timeout = true;
			break;
		}
		if (n > 0)
			heard = pb_now_ns();
		/* a guest that says nothing for 30 s is said to, once per
		 * 30 s, so a slow TCG run is not mistaken for a hang (or the
		 * other way round) before the watchdog decides */
		if (j->args && pb_now_ns() - heard > 30000000000ull &&
		    pb_now_ns() - warned > 30000000000ull) {
			warned = pb_now_ns();
			pb_progress("  warning: no word from the guest for "
				    "%.0f s (the watchdog, timeout_s, stops it "
				    "%.0f s in)",
				    (double)(warned - heard) / 1e9, deadline_s);
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
			console_line(g, line, qb_since(t0), ctx);
			llen = 0;
		}
		/* a probe has its answer once init speaks */
		if (!j->args && g->probe_ok)
			break;
		/* no progress for stall_s: what qemu and the kernel say of
		 * it is kept while it still runs, then it is stopped */
		if (j->args && ctx &&
		    pb_stall_check(ctx->stall, g->stall_why,
				   sizeof(g->stall_why))) {
			g->stalled = true;
			stall_diagnostics(j, c.pid, ctx->diag_dir);
			break;
		}
	}
	pb_child_kill(&c); /* qemu still running here is killed */
	pb_child_finish(&c);
	snprintf(g->qemu_err, sizeof(g->qemu_err), "%s",
		 pb_child_last_line(&c));
out:
	pb_buf_dispose(&store);
	return err;
}
