/*
 * settings.c - the VM settings a run needs live: disk.EnableUUID (the
 * guest finds disks by uuid only with it; not for physical RDMs, which it
 * finds by the LUN's own identity) and the profile's extra_config.
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
	/* the guest finds disks by uuid only with disk.EnableUUID; a
	 * physical RDM passes the LUN's own INQUIRY through, so a profile
	 * of rdmp alone needs neither the setting nor a power cycle */
	for (i = 0; i < b->p->nmodes; i++)
		if (b->p->modes[i] != PB_MODE_RDMP) {
			b->set[b->nset].key = "disk.EnableUUID";
			b->set[b->nset++].want = "TRUE";
			break;
		}
	for (i = 0; i < o->extra_config.n; i++) {
		if (!strcmp(o->extra_config.key[i], "disk.EnableUUID"))
			continue;
		b->set[b->nset].key = o->extra_config.key[i];
		b->set[b->nset++].want = o->extra_config.val[i];
	}
	if (!b->nset)
		return PB_OK;
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

static void at_off(void *arg)
{
	const struct pb_prep_ctx *c = arg;

	if (c && c->step)
		c->step("powered-off");
}

/*
 * Make the settings live: set them with the VM off, power on, wait for
 * Tools; then the VM is read again (DRS may place it on another host).
 * The cycle is journaled before the guest is shut down: a run killed while
 * the VM is off leaves an entry `provbench cleanup` (or the next run)
 * powers it on from. Whatever fails once the VM is off, it is powered on
 * again, and said (vs_vm_power_cycle).
 */
enum pb_error vsb_settings_apply(struct vsb *b, const struct pb_prep_ctx *c,
				 char *errbuf)
{
	const char *keys[PB_MAX_KV + 1], *vals[PB_MAX_KV + 1];
	struct vs_power_cycle pc = {.name = b->vm.name,
				    .timeout_s = b->o->task_timeout_s,
				    .off = at_off,
				    .arg = (void *)c};
	char id[80], ref[200];
	json_t *fields;
	unsigned i, n = 0;
	enum pb_error err, jerr;

	for (i = 0; i < b->nset; i++)
		if (b->set[i].change) {
			keys[n] = b->set[i].key;
			vals[n++] = b->set[i].want;
		}
	if (!n)
		return PB_OK;
	snprintf(id, sizeof(id), "power-%s", b->run_id);
	fields = json_pack("{s:s,s:s,s:s}", "change", "power", "vm",
			   b->vm.ref.value, "vm_name", b->vm.name);
	if (!fields)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	/* no record, no power cycle */
	err = c && c->begin ? c->begin(c, id, fields, errbuf) : PB_OK;
	json_decref(fields);
	if (err)
		return err;
	fprintf(stderr,
		"provbench: power-cycling VM %s to make %u setting(s) live "
		"(vsphere.power_cycle)\n",
		b->vm.name, n);
	err = vsb_sess_err(
		b, vs_vm_power_cycle(b->s, &b->vm.ref, keys, vals, n, &pc),
		errbuf);
	/* the record stays open only while the VM may be left off */
	if (c && c->end && (!pc.went_off || pc.on_again)) {
		jerr = c->end(c, id, err ? NULL : errbuf);
		if (!err)
			err = jerr;
	}
	if (err)
		return err;
	b->power_cycled = true;
	pb_utc_iso(b->power_cycled_at, sizeof(b->power_cycled_at));
	snprintf(ref, sizeof(ref), "moref:%s", b->vm.ref.value);
	return vsb_sess_err(b, vs_vm_find(b->s, &b->vm, ref), errbuf);
}

/*
 * A journaled power cycle a run did not finish (killed with the VM off):
 * the VM is powered on again unless it is on. errbuf says what was done.
 */
enum pb_error vsb_power_restore(struct vsb *b, const char *moref,
				const char *name, char *errbuf)
{
	struct vs_vm_state st;
	struct vs_moref vm;
	enum pb_error err;

	snprintf(vm.type, sizeof(vm.type), "VirtualMachine");
	snprintf(vm.value, sizeof(vm.value), "%s", moref);
	err = vs_vm_state_get(b->s, &vm, &st);
	if (!err && !strcmp(st.power_state, "poweredOn")) {
		snprintf(errbuf, PB_ERRBUF_SIZE,
			 "VM %s: on already (a run's power cycle was cut "
			 "short, but the VM is on)",
			 name);
		return PB_OK;
	}
	if (!err)
		err = vs_vm_power_on(b->s, &vm, b->o->task_timeout_s);
	if (err)
		return vsb_sess_err(b, err, errbuf);
	snprintf(errbuf, PB_ERRBUF_SIZE,
		 "VM %s powered on again: a run was stopped inside its power "
		 "cycle",
		 name);
	return PB_OK;
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
