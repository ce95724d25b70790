/*
 * accel.c - the qemu backend's prepare op: the guest image and O_DIRECT
 * where the disks go, then the accelerator. /dev/kvm opening proves
 * little: on some nested machines a KVM guest never leaves the firmware
 * (this machine's is one), so with accel "auto" a short probe boot to init
 * decides, and TCG is used when it does not get there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qb.h"

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

static const char *probe_key(struct qb *b, char *key, size_t len)
{
	char *id = pb_slurp_file("/proc/sys/kernel/random/boot_id", NULL);

	snprintf(key, len, "%.36s:%s:%s", id ? id : "?",
		 json_string_value(
			 json_object_get(b->manifest, "initrd_sha256")),
		 b->o->binary);
	free(id);
	return key;
}

static bool probe_cached(struct qb *b)
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

static void probe_remember(struct qb *b)
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

enum pb_error qb_accel_choose(struct qb *b, char *errbuf)
{
	const char *want = b->o->accel;
	/* another node than /dev/kvm, to diagnose (and to test) the probe */
	const char *kvm = getenv("PROVBENCH_KVM_DEVICE");
	struct qb_job j = {.accel = "kvm", .sample_fd = -1, .ext_fd = -1};
	struct qb_boot g = {0};
	enum pb_error err;
	int fd;

	if (!kvm || !*kvm)
		kvm = "/dev/kvm";
	if (b->accel)
		return PB_OK; /* chosen already (check, then run) */
	if (!strcmp(want, "tcg")) {
		b->accel = "tcg";
		snprintf(b->accel_note, sizeof(b->accel_note),
			 "TCG as the profile asks");
		return PB_OK;
	}
	fd = open(kvm, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		if (!strcmp(want, "kvm"))
			return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
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
			return pb_fail(errbuf, PB_ERR_UNSUPPORTED, "KVM: %s",
				       b->accel_note);
		return PB_OK;
	}
	/* the node opening proves little: on some nested machines a KVM
	 * guest never leaves the firmware. A short boot to init tells. */
	pb_progress("probing KVM (a guest boot, up to %d s)", QB_KVM_PROBE_S);
	err = qb_guest_boot(b, &g, &j, QB_KVM_PROBE_S, NULL, errbuf);
	qb_boot_dispose(&g);
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
				 QB_KVM_PROBE_S);
		else
			snprintf(b->accel_note, sizeof(b->accel_note),
				 "TCG: a KVM probe boot failed: %s",
				 g.qemu_err[0] ? g.qemu_err
					       : "qemu exited before init");
	}
	probe_remember(b);
	if (!strcmp(want, "kvm") && strcmp(b->accel, "kvm"))
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED, "KVM: %s",
			       b->accel_note);
	return PB_OK;
}

enum pb_error qb_prepare(struct pb_backend *be, const struct pb_prep_ctx *c,
			 char *errbuf)
{
	struct qb *b = qb_of(be);
	enum pb_error err = qb_load_manifest(b, errbuf);

	(void)c; /* its guests are its own: nothing to put back */
	if (!err)
		err = pb_local_check_direct(b->loc.dir, "qemu.dir",
					    "the disks' cache=none", errbuf);
	return err ? err : qb_accel_choose(b, errbuf);
}

enum pb_error qb_load_manifest(struct qb *b, char *errbuf)
{
	char path[PATH_MAX + 16];
	json_error_t je;

	if (b->manifest)
		return PB_OK;
	snprintf(path, sizeof(path), "%s/manifest.json", b->guest);
	if (access(b->kernel, R_OK) || access(b->initrd, R_OK))
		return pb_fail(errbuf, PB_ERR_NOTFOUND,
			       "no guest image in %s (%s, or set "
			       "PROVBENCH_GUEST_DIR)",
			       b->guest,
			       pb_in_source_tree()
				       ? "build it with `make guest`"
				       : "reinstall provbench");
	b->manifest = json_load_file(path, 0, &je);
	if (!b->manifest)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: %s", path, je.text);
	return PB_OK;
}
