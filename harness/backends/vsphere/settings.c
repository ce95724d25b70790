/*
 * settings.c - the VM settings a run needs live: disk.EnableUUID (the
 * guest finds disks by uuid only with it) and the profile's extra_config.
 * They take effect when the VM powers on, so they are read first; a change
 * is refused unless the profile allows a power cycle (shutdown through
 * Tools, set with the VM off, power on, wait for Tools), and run.json says
 * which were found set and which provbench made live.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vsb.h"

/* VMX booleans are TRUE/true/1; other values compare exactly */
static bool same_value(const char *a, const char *b)
{
	static const char *const yes[] = {"true", "1", "yes"};
	bool ya = false, yb = false;
	size_t i;

	if (!strcasecmp(a, b))
		return true;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		ya |= !strcasecmp(a, yes[i]);
		yb |= !strcasecmp(b, yes[i]);
	}
	return ya && yb;
}

/* disk.EnableUUID and the profile's extraConfig, against what the VM has */
enum pb_error vsb_settings_read(struct vsb *b, char *errbuf)
{
	const struct vsphere_opts *o = b->o;
	const char *keys[PB_MAX_KV + 1];
	char(*vals)[256];
	enum pb_error err;
	unsigned i;

	b->nset = 0;
	/* the guest finds disks by uuid only with disk.EnableUUID */
	b->set[b->nset].key = "disk.EnableUUID";
	b->set[b->nset++].want = "TRUE";
	for (i = 0; i < o->extra_config.n; i++) {
		if (!strcmp(o->extra_config.key[i], "disk.EnableUUID"))
			continue;
		b->set[b->nset].key = o->extra_config.key[i];
		b->set[b->nset++].want = o->extra_config.val[i];
	}
	vals = calloc(b->nset, sizeof(*vals));
	if (!vals)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	for (i = 0; i < b->nset; i++)
		keys[i] = b->set[i].key;
	err = vsb_sess_err(
		b,
		vs_vm_extra_config_get(b->s, &b->vm.ref, keys, vals, b->nset),
		errbuf);
	for (i = 0; !err && i < b->nset; i++) {
		snprintf(b->set[i].had, sizeof(b->set[i].had), "%s", vals[i]);
		b->set[i].change = !same_value(vals[i], b->set[i].want);
	}
	free(vals);
	return err;
}

unsigned vsb_settings_to_change(const struct vsb *b, char *out, size_t len)
{
	unsigned i, n = 0;
	size_t k = 0;

	out[0] = '\0';
	for (i = 0; i < b->nset; i++) {
		if (!b->set[i].change)
			continue;
		k += (size_t)snprintf(
			out + k, k < len ? len - k : 0,
			"%s%s is %s%s%s, needs %s", n ? "; " : "",
			b->set[i].key, b->set[i].had[0] ? "'" : "",
			b->set[i].had[0] ? b->set[i].had : "unset",
			b->set[i].had[0] ? "'" : "", b->set[i].want);
		n++;
	}
	return n;
}

enum pb_error vsb_settings_refuse(const struct vsb *b, const char *what,
				  char *errbuf)
{
	return pb_fail(errbuf, PB_ERR_INPUT,
		       "VM %s: %s; these take effect only when the VM powers "
		       "on: set vsphere.power_cycle: true to let provbench "
		       "shut the guest down and power it on again, or set "
		       "them and power-cycle the VM yourself",
		       b->vm.name, what);
}

/* Make the settings live: set them with the VM off, power on, wait for
 * Tools; then the VM is read again (DRS may place it on another host). */
enum pb_error vsb_settings_apply(struct vsb *b, char *errbuf)
{
	const char *keys[PB_MAX_KV + 1], *vals[PB_MAX_KV + 1];
	unsigned i, n = 0;
	enum pb_error err;
	char ref[200];

	for (i = 0; i < b->nset; i++)
		if (b->set[i].change) {
			keys[n] = b->set[i].key;
			vals[n++] = b->set[i].want;
		}
	if (!n)
		return PB_OK;
	fprintf(stderr,
		"provbench: power-cycling VM %s to make %u setting(s) live "
		"(vsphere.power_cycle)\n",
		b->vm.name, n);
	err = vsb_sess_err(b,
			   vs_vm_power_cycle(b->s, &b->vm.ref, keys, vals, n,
					     b->o->task_timeout_s),
			   errbuf);
	if (err)
		return err;
	b->power_cycled = true;
	pb_utc_iso(b->power_cycled_at, sizeof(b->power_cycled_at));
	snprintf(ref, sizeof(ref), "moref:%s", b->vm.ref.value);
	return vsb_sess_err(b, vs_vm_find(b->s, &b->vm, ref), errbuf);
}

json_t *vsb_settings_json(const struct vsb *b)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; i < b->nset; i++)
		json_array_append_new(
			a, json_pack("{s:s,s:s,s:s}", "key", b->set[i].key,
				     "value", b->set[i].want, "live",
				     b->set[i].change
					     ? "set by provbench, live since "
					       "its power cycle"
					     : "as found: set before the run, "
					       "live since the VM's "
					       "power-on"));
	return a;
}
