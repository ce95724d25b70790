/*
 * storage.c - what the datastore makes of each mode, decided before
 * anything is made, from its type, capabilities, VAAI state and storage
 * policies, and checked again on every disk's read-back:
 *
 *   VMFS         every mode as asked
 *   NFS, NFS41   thin only unless the VAAI-NAS plugin is there
 *                (vStorageSupported): "On NFS datastores that do not
 *                support Hardware Acceleration, only thin format is
 *                available" (vSphere Storage, virtual disk provisioning
 *                policies); an RDM's mapping file needs VMFS
 *   vsan         the storage policy decides, not the disk's flags: its
 *                object space reservation, 0% thin, 100% reserved but not
 *                zeroed (lazy); never eager. Default policy: thin. No
 *                file at the datastore's top level (folders there are
 *                namespace objects: "Error creating disk Function not
 *                implemented", govmomi issue 654)
 *   VVOL         the array provisions as the policy says; vSphere does
 *                not say what it made: thin only is taken as asked
 *
 * A mode that will not apply as asked is refused before anything is made
 * (vsphere.unapplied "refuse"), measured as what it becomes and named so
 * ("measure"), or skipped on that datastore ("skip", a fleet over mixed
 * storage); the reason goes into run.json with the disk or the skip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vsb.h"

static bool is_nfs(const char *type)
{
	return !strcasecmp(type, "NFS") || !strcasecmp(type, "NFS41");
}

static bool is_vsan(const char *type)
{
	return !strcasecmp(type, "vsan");
}

static bool is_vvol(const char *type)
{
	return !strcasecmp(type, "VVOL");
}

static const char *policy_of(const struct vsb *b, enum pb_mode m)
{
	const struct pb_kv *kv = &b->o->storage_policy;
	unsigned i;

	for (i = 0; i < kv->n; i++)
		if (!strcmp(kv->key[i], pb_mode_name(m)))
			return kv->val[i];
	return NULL;
}

/* What a vSAN policy's reservation makes of a request for mode m. */
static void vsan_made(struct vsb_made *x, enum pb_mode m, const char *ds)
{
	const char *pol = x->policy[0] ? x->policy : "the default policy";

	if (x->reserve <= 0)
		x->made = PB_MODE_THIN;
	else if (x->reserve >= 100)
		x->made = PB_MODE_LAZY;
	else
		x->made = PB_MODE_UNKNOWN;
	if (x->made == m)
		return;
	if (x->made == PB_MODE_UNKNOWN)
		snprintf(x->why, sizeof(x->why),
			 "the datastore %s is vSAN, where %s reserves %d%% of "
			 "a disk: neither thin nor thick",
			 ds, pol, x->reserve);
	else if (m == PB_MODE_EAGER)
		snprintf(x->why, sizeof(x->why),
			 "the datastore %s is vSAN, which never zeroes a disk "
			 "ahead of its first write; %s reserves %d%% of it "
			 "(object space reservation)",
			 ds, pol, x->reserve < 0 ? 0 : x->reserve);
	else
		snprintf(x->why, sizeof(x->why),
			 "the datastore %s is vSAN, where the storage policy, "
			 "not the disk's flags, sets provisioning: %s reserves "
			 "%d%% (object space reservation)",
			 ds, pol, x->reserve < 0 ? 0 : x->reserve);
}

/* The policy a mode's disks get on vSAN: the profile's, else the
 * datastore's default; its reservation read through SPBM (vCenter). */
static enum pb_error vsan_policy(struct vsb *b, enum pb_mode m,
				 struct vsb_made *x, char *errbuf)
{
	const char *want = policy_of(b, m);
	struct vs_policy pol;
	enum pb_error err;

	x->reserve = 0;
	if (!vs_session_is_vcenter(b->s)) {
		/* no SPBM on a standalone host: its default reserves 0 */
		if (want)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "vsphere.storage_policy %s: storage "
				       "policies are vCenter's; %s is a "
				       "standalone host",
				       want, b->url);
		return PB_OK;
	}
	err = want ? vs_pbm_policy_find(b->s, want, &pol)
		   : vs_pbm_default_policy(b->s, &b->dsd.ref, &pol);
	if (err)
		return pb_fail(errbuf, err, "%s%s: %s",
			       want ? "vsphere.storage_policy " : "",
			       want ? want : "default storage policy",
			       vs_session_error(b->s));
	snprintf(x->policy, sizeof(x->policy), "%s", pol.name);
	snprintf(x->policy_id, sizeof(x->policy_id), "%s", pol.id);
	x->reserve = pol.reserve;
	return PB_OK;
}

/*
 * Whether a guest's discard reaches a disk on ds (vSphere Storage,
 * "Space Reclamation Requests from Guest Operating Systems"): on VMFS 6
 * from a thin disk, in 1 MB multiples, a thick one offering none; on VMFS
 * 5 only with the host's VMFS3.EnableBlockDelete set, on a thin disk of
 * hardware version 11 or later; not on NFS 3 (until VCF 9's TRIM with
 * the VAAI-NAS plugin); on vSAN as its cluster's guest TRIM/UNMAP says
 * (off by default on the original architecture).
 */
const char *vsb_reclaim_reach(const struct vs_ds_detail *ds)
{
	if (ds->reclaim.vmfs_major >= 6)
		return "thin disks";
	if (ds->reclaim.vmfs_major == 5)
		return "thin disks, with the host's VMFS3.EnableBlockDelete";
	if (!strncasecmp(ds->type, "NFS", 3))
		return "none";
	if (is_vsan(ds->type))
		return "as the vSAN cluster's guest TRIM/UNMAP says";
	return "unknown";
}

/* ds's reclaim settings and what a guest's reclaim can do there, said */
void vsb_reclaim_words(char *out, size_t len, const struct vs_ds_detail *ds)
{
	const struct vs_ds_reclaim *r = &ds->reclaim;
	char bw[64] = "", gr[32] = "";

	if (!strcmp(r->policy, "fixed"))
		snprintf(bw, sizeof(bw), ", fixed at %llu MB/s",
			 (unsigned long long)r->fixed_mbs);
	else if (!strcmp(r->policy, "dynamic"))
		snprintf(bw, sizeof(bw), ", dynamic %llu-%llu MB/s",
			 (unsigned long long)r->min_mbs,
			 (unsigned long long)r->max_mbs);
	if (r->granularity_kb)
		pb_size_format(gr, sizeof(gr),
			       (uint64_t)r->granularity_kb * 1024);
	if (r->vmfs_major >= 6)
		snprintf(out, len,
			 "VMFS %d automatic space reclamation, priority "
			 "%s%s%s%s "
			 "(what the array is told, in the background); a "
			 "guest's discard frees a thin disk's blocks in 1 MB "
			 "multiples, while eager and lazy disks offer the "
			 "guest none: a reclaim cycle shows on thin only",
			 r->vmfs_major,
			 r->priority[0] ? r->priority : "not said",
			 gr[0] ? ", granularity " : "", gr, bw);
	else if (r->vmfs_major == 5)
		snprintf(out, len,
			 "VMFS 5: a guest's discard is passed on only from a "
			 "thin disk of hardware version 11 or later with the "
			 "host's VMFS3.EnableBlockDelete set to 1 (not read "
			 "here): the read-back says whether space came back");
	else if (!strcmp(vsb_reclaim_reach(ds), "none"))
		snprintf(out, len,
			 "%s: a guest's discard does not reach a disk on NFS "
			 "(before VCF 9's TRIM over NFS 3 with the VAAI-NAS "
			 "plugin): the next first write is expected to find "
			 "its blocks",
			 ds->type);
	else if (is_vsan(ds->type))
		snprintf(out, len,
			 "vSAN: a guest's TRIM/UNMAP is the cluster's setting "
			 "(off by default on the original storage "
			 "architecture), not readable through vim25: the "
			 "read-back says whether space came back");
	else
		snprintf(out, len,
			 "%s: whether a guest's discard gives space back is "
			 "not known here",
			 ds->type);
}

/* the same, as run.json records it with the datastore */
json_t *vsb_reclaim_json(const struct vs_ds_detail *ds)
{
	const struct vs_ds_reclaim *r = &ds->reclaim;
	json_t *bw = json_null();

	if (r->policy[0])
		bw = json_pack("{s:s,s:I,s:I,s:I}", "policy", r->policy,
			       "fixed_mb_s", (json_int_t)r->fixed_mbs,
			       "dynamic_min_mb_s", (json_int_t)r->min_mbs,
			       "dynamic_max_mb_s", (json_int_t)r->max_mbs);
	return json_pack("{s:o,s:s?,s:o,s:o,s:s}", "vmfs_major",
			 r->vmfs_major ? json_integer(r->vmfs_major)
				       : json_null(),
			 "unmap_priority", r->priority[0] ? r->priority : NULL,
			 "unmap_granularity_kb",
			 r->granularity_kb ? json_integer(r->granularity_kb)
					   : json_null(),
			 "unmap_bandwidth", bw ? bw : json_null(),
			 "guest_discard_reaches", vsb_reclaim_reach(ds));
}

/* What the datastore makes of mode m, into b->made[m]. */
static enum pb_error decide(struct vsb *b, enum pb_mode m, char *errbuf)
{
	struct vsb_made *x = &b->made[m];
	const struct vs_ds_detail *ds = &b->dsd;
	enum pb_error err = PB_OK;

	memset(x, 0, sizeof(*x));
	x->made = m;
	x->reserve = -1;
	if (pb_mode_is_raw_mapping(m))
		return PB_OK; /* the LUN's: its mapping file is checked */
	if (is_nfs(ds->type) && strcmp(ds->vaai, "vStorageSupported") &&
	    m != PB_MODE_THIN) {
		x->made = PB_MODE_THIN;
		snprintf(x->why, sizeof(x->why),
			 "the datastore %s is %s without the VAAI-NAS plugin "
			 "(%s), which makes thin disks whatever is asked",
			 ds->name, ds->type,
			 ds->vaai[0] ? ds->vaai : "unknown");
	} else if (is_vsan(ds->type)) {
		err = vsan_policy(b, m, x, errbuf);
		if (!err)
			vsan_made(x, m, ds->name);
	} else if (is_vvol(ds->type) && m != PB_MODE_THIN) {
		x->made = PB_MODE_UNKNOWN;
		snprintf(x->policy, sizeof(x->policy), "%s",
			 policy_of(b, m) ? policy_of(b, m) : "");
		snprintf(
			x->why, sizeof(x->why),
			"the datastore %s is vVols, where the array provisions "
			"as the storage policy says and vSphere does not say "
			"what it made",
			ds->name);
	}
	return err;
}

enum pb_error vsb_storage_check(struct vsb *b, const struct pb_plan *plan,
				struct pb_check_out *out)
{
	const struct vs_ds_detail *ds = &b->dsd;
	bool want[PB_MODE__COUNT] = {false}, flat = false, raw = false;
	bool measure = b->o->unapplied && !strcmp(b->o->unapplied, "measure");
	bool skip = b->o->unapplied && !strcmp(b->o->unapplied, "skip");
	char members[1024], fr[32], sz[32];
	enum pb_error err;
	size_t i;
	int m;

	for (i = 0; i < plan->n; i++) {
		want[plan->items[i].mode] = true;
		if (pb_mode_is_raw_mapping(plan->items[i].mode))
			raw = true;
		else
			flat = true;
	}
	b->have_dsd = false;
	err = vs_datastore_detail(b->s, &b->vm.host, b->ds, &b->dsd);
	if (err == PB_ERR_NOTFOUND &&
	    !vs_storage_pod_find(b->s, b->ds, members, sizeof(members)))
		return pb_check_problem(
			out, PB_ERR_INPUT, "datastore",
			"%s is a datastore cluster (Storage DRS), where "
			"vSphere places each disk itself: name one of its "
			"datastores in vsphere.datastore: %s",
			b->ds, members[0] ? members : "(it has none)");
	if (err)
		return pb_check_problem(out, err, "datastore", "%s",
					vs_session_error(b->s));
	b->have_dsd = true;
	b->policy_driven = is_vsan(ds->type) || is_vvol(ds->type);
	pb_check_say(out, "datastore", "%s: %s%s%s, %s free of %s, VAAI %s%s",
		     b->ds, ds->type, ds->vmfs_version[0] ? " " : "",
		     ds->vmfs_version,
		     pb_size_format(fr, sizeof(fr), ds->free_space),
		     pb_size_format(sz, sizeof(sz), ds->capacity),
		     ds->vaai[0] ? ds->vaai : "unknown",
		     flat ? "; disks are created one at a time" : "");
	if (!ds->accessible)
		pb_check_problem(out, PB_ERR_INPUT, "datastore",
				 "datastore %s is not accessible from the "
				 "VM's host",
				 b->ds);
	/* a reclaim cycle shows only where a guest's discard gets there */
	if (pb_profile_has_pass(b->p, RUNNER_PASS_RECLAIM)) {
		char says[512];
		unsigned wait = UINT32_MAX, k;

		vsb_reclaim_words(says, sizeof(says), ds);
		pb_check_say(out, "reclaim", "%s: %s", b->ds, says);
		/* the wait is the most the runner holds; it goes on as soon
		 * as the server's give-back is read. A matrix may vary it:
		 * the shortest is the one that runs out */
		for (k = 0; k < b->p->npoints; k++)
			if (b->p->points[k].reclaim_wait_ms < wait)
				wait = b->p->points[k].reclaim_wait_ms;
		if (wait < 30000)
			pb_check_warn(
				out, "reclaim",
				"reclaim_wait_ms %u: the server is read "
				"once a second until it stops giving the "
				"space back, and VMFS 6 gives it back at "
				"its datastore's rate (25-50 MB/s at low "
				"priority): give the wait room "
				"(\"reclaim_wait_ms\": 600000); the runner "
				"goes on as soon as the read-back is done",
				wait);
	}
	/* one disk at a time, and eager allocates all of it */
	if (flat && ds->free_space < b->p->disk_size)
		pb_check_problem(
			out, PB_ERR_INPUT, "datastore",
			"datastore %s: %s free, a %s disk does not "
			"fit",
			b->ds, fr,
			pb_size_format(sz, sizeof(sz), b->p->disk_size));
	if (raw && !ds->rdm_files)
		pb_check_problem(
			out, PB_ERR_INPUT, "datastore",
			"datastore %s (%s) cannot hold a raw device "
			"mapping's file, which needs VMFS: put the "
			"disks on a VMFS datastore (vsphere.datastore) "
			"or measure rdm and rdmp on another profile",
			b->ds, ds->type);
	for (m = 0; m < PB_MODE__COUNT; m++) {
		struct vsb_made *x = &b->made[m];
		char e[PB_ERRBUF_SIZE] = "";

		if (!want[m])
			continue;
		if (decide(b, (enum pb_mode)m, e)) {
			pb_check_problem(out, PB_ERR_INPUT, "storage policy",
					 "%s", e);
			continue;
		}
		if (x->policy[0])
			pb_check_say(out, "storage policy",
				     "%s: %s (object space reservation %s%d%%)",
				     pb_mode_name(m), x->policy,
				     x->reserve < 0 ? "unknown, " : "",
				     x->reserve < 0 ? 0 : x->reserve);
		if (x->made == (enum pb_mode)m)
			continue;
		if (skip)
			pb_check_warn(
				out, "mode",
				"%s: %s; skipped on %s (vsphere.unapplied: "
				"skip)",
				pb_mode_name(m), x->why, b->ds);
		else if (measure)
			pb_check_warn(out, "mode",
				      "%s: %s; measured as %s and named so "
				      "(vsphere.unapplied: measure)",
				      pb_mode_name(m), x->why,
				      x->made == PB_MODE_UNKNOWN
					      ? "whatever it becomes"
					      : pb_mode_name(x->made));
		else
			pb_check_problem(
				out, PB_ERR_INPUT, "mode",
				"mode %s: %s, so it would be measured as %s: "
				"leave it out of modes, put the disks on VMFS "
				"(vsphere.datastore)%s, or set "
				"vsphere.unapplied: \"measure\" to measure it "
				"as what it becomes",
				pb_mode_name(m), x->why,
				x->made == PB_MODE_UNKNOWN
					? "something vSphere cannot name"
					: pb_mode_name(x->made),
				is_vsan(ds->type) && m == PB_MODE_LAZY
					? ", name a policy reserving 100% in "
					  "vsphere.storage_policy"
					: "");
	}
	/* vSAN and vVols keep no file at their top level */
	if (flat && !ds->top_level_dirs && !b->vm_dir[0])
		pb_check_say(out, "folder",
			     "%s keeps no disk at its top level: disks go in "
			     "its folder provbench (made if missing, and kept)",
			     b->ds);
	return PB_OK;
}

enum pb_error vsb_storage_prepare(struct vsb *b, char *errbuf)
{
	bool made = false;
	enum pb_error err;

	if (!b->have_dsd || b->dsd.top_level_dirs || b->vm_dir[0])
		return PB_OK;
	err = vs_datastore_namespace(b->s, &b->dsd, "provbench", &made);
	if (err)
		return vsb_sess_err(b, err, errbuf);
	snprintf(b->vm_dir, sizeof(b->vm_dir), "provbench");
	snprintf(b->ns_folder, sizeof(b->ns_folder), "%s",
		 made ? "provbench (made by this run)" : "provbench");
	return PB_OK;
}

void vsb_storage_readback(struct vsb *b, struct pb_disk *d, json_t *rb)
{
	const struct vsb_made *x = &b->made[d->mode];
	enum pb_mode flags = b->cur.mode;
	struct vs_policy pol;

	if (pb_mode_is_raw_mapping(d->mode) || !b->have_dsd)
		return;
	if (is_vsan(b->dsd.type)) {
		/* the policy the disk has now, not the flags it carries */
		struct vsb_made now = *x;

		if (vs_session_is_vcenter(b->s) &&
		    !vs_pbm_disk_policy(b->s, &b->vm.ref, b->cur.key, &pol)) {
			snprintf(now.policy, sizeof(now.policy), "%s",
				 pol.name);
			now.reserve = pol.reserve;
			now.why[0] = '\0';
			vsan_made(&now, d->mode, b->dsd.name);
		}
		json_object_set_new(rb, "flags_mode",
				    json_string(pb_mode_name(flags)));
		json_object_set_new(rb, "mode",
				    json_string(pb_mode_name(now.made)));
		if (now.policy[0])
			json_object_set_new(rb, "storage_policy",
					    json_string(now.policy));
		if (now.reserve >= 0)
			json_object_set_new(rb, "space_reservation_pct",
					    json_integer(now.reserve));
		if (now.made != d->mode)
			json_object_set_new(rb, "why", json_string(now.why));
		return;
	}
	if (is_vvol(b->dsd.type) && x->made != d->mode) {
		/* the flags are the request's: what the array made is not
		 * for vSphere to say */
		json_object_set_new(rb, "flags_mode",
				    json_string(pb_mode_name(flags)));
		json_object_set_new(rb, "mode",
				    json_string(pb_mode_name(x->made)));
		json_object_set_new(rb, "why", json_string(x->why));
		return;
	}
	if (flags != d->mode)
		json_object_set_new(rb, "why",
				    json_string(x->why[0]
							? x->why
							: "the server made it "
							  "so"));
}

json_t *vsb_storage_json(const struct vsb *b)
{
	json_t *modes = json_object();
	int m;

	for (m = 0; m < PB_MODE__COUNT; m++) {
		const struct vsb_made *x = &b->made[m];

		if (pb_mode_is_raw_mapping(m) || (!x->why[0] && !x->policy[0]))
			continue;
		json_object_set_new(
			modes, pb_mode_name(m),
			json_pack("{s:s,s:s?,s:s?,s:o}", "made",
				  pb_mode_name(x->made), "why",
				  x->why[0] ? x->why : NULL, "storage_policy",
				  x->policy[0] ? x->policy : NULL,
				  "space_reservation_pct",
				  x->reserve >= 0 ? json_integer(x->reserve)
						  : json_null()));
	}
	return modes;
}

bool vsb_storage_skips(const struct vsb *b, enum pb_mode m, char *errbuf)
{
	if (!b->o->unapplied || strcmp(b->o->unapplied, "skip") ||
	    b->made[m].made == m)
		return false;
	pb_fail(errbuf, PB_ERR_UNSUPPORTED, "%s", b->made[m].why);
	return true;
}
