/*
 * test_labs.c - the storage and VMs real labs have, end to end against the
 * fixture (tests/vcsim: storage.go, pbm.go, lab.go): NFS without VAAI,
 * vSAN with its policies and namespace folders, a datastore cluster, VMs
 * with no SCSI unit to spare or no Tools, a host entering maintenance
 * mode, a power cycle that fails or is killed half way, sessions lost at
 * every call of a run, HTTP 503 on reads, replies lost after a write, and
 * tasks slower than their timeout. Each case says what the server does
 * and what provbench must make of it; nothing is changed on the lab when
 * check finds a problem.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness_int.h"
#include "it.h"
#include "unit.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#define VM "DC0_H0_VM0"

/* The fixture with a guest sandbox (VMs powered on with
 * disk.EnableUUID=TRUE unless flags say -no-uuid), more flags after. */
static int lab(struct vcsim *v, struct it_env *e, const char *name,
	       const char *const *flags)
{
	char root[600], state[600];
	const char *f[24] = {"-guest-root", root};
	int n = 2;
	bool uuid = true;

	snprintf(root, sizeof(root), "%s/%s-guest", it_dir(), name);
	snprintf(state, sizeof(state), "%s/%s-state", it_dir(), name);
	if (it_sh("rm -rf '%s' '%s' && mkdir -p '%s' '%s'", root, state, root,
		  state))
		return -1;
	for (; flags && *flags && n < 22; flags++) {
		if (!strcmp(*flags, "-no-uuid"))
			uuid = false;
		else
			f[n++] = *flags;
	}
	if (uuid)
		f[n++] = "-enable-uuid";
	f[n] = NULL;
	if (vcsim_start(v, f))
		return -1;
	it_vcsim_env(e, v, state);
	return 0;
}

/* A profile: modes (a JSON list's inside), the vsphere section's extra
 * keys (", ..."), written to the scratch file name; its path in out. */
static void profile(char *out, size_t len, const char *name, const char *modes,
		    const char *extra)
{
	char text[2048];

	snprintf(out, len, "%s/%s.json", it_dir(), name);
	snprintf(text, sizeof(text),
		 "{\"name\": \"%s\", \"backend\": \"vsphere\", \"vsphere\": "
		 "{\"vm\": \"" VM "\", \"guest_dir\": \"/opt/pb\"%s}, "
		 "\"disk_size\": \"1M\", \"modes\": [%s], \"workload\": "
		 "{\"bs\": \"64K\", \"passes\": [\"first-write\", "
		 "\"rewrite\"]}}",
		 name, extra, modes);
	it_write_file(out, text);
}

/* The journal of a lab's state directory. */
static void journal(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s-state/journal.jsonl", it_dir(), name);
}

/* The lines of text that start with prefix. */
static int lines(const char *text, const char *prefix)
{
	const char *p = text;
	int n = 0;

	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return n;
}

/*
 * Refused before anything changes: check exits 2 with one "problem:" line
 * per problem (and the count in its last line), a run exits 2 with the
 * first as its one line, and neither makes a disk, journals one or talks
 * to the VM's power.
 */
static void refused(struct vcsim *v, struct it_env *e, const char *name,
		    const char *prof, const char *want, int problems)
{
	struct it_result r;
	char j[700], res[700], *before = it_vm_disk_keys(v, VM), *after;

	journal(j, sizeof(j), name);
	snprintf(res, sizeof(res), "%s/%s-results", it_dir(), name);
	CU_ASSERT_EQUAL(it_pb(&r, e, "check", prof, NULL, NULL), 2);
	if (!strstr(r.err, want) || lines(r.out, "problem: ") != problems) {
		fprintf(stderr, "\n  %s: check said:\n%s%s", name, r.out,
			r.err);
		CU_FAIL(name);
	}
	CU_ASSERT_EQUAL(lines(r.err, "provbench: "), 1);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, e, "run", "-o", res, prof), 2);
	if (!strstr(r.err, want)) {
		fprintf(stderr, "\n  %s: run said:\n%s", name, r.err);
		CU_FAIL(name);
	}
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_count(j, "\"op\":\"intent\""), 0);
	CU_ASSERT_EQUAL(it_soap_calls(v, "ShutdownGuest"), 0);
	CU_ASSERT_EQUAL(it_soap_calls(v, "PowerOnVM_Task"), 0);
	after = it_vm_disk_keys(v, VM);
	CU_ASSERT_STRING_EQUAL(before, after);
	free(before);
	free(after);
}

/* The first result of mode m in the newest run.json under res. */
static json_t *result_of(json_t *doc, const char *m)
{
	json_t *it;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, it)
	{
		if (!strcmp(json_string_value(json_object_get(it, "mode")), m))
			return it;
	}
	return NULL;
}

static const char *rb(json_t *item, const char *key)
{
	return json_string_value(json_object_get(
		json_object_get(json_object_get(item, "disk"), "readback"),
		key));
}

/*
 * NFS without the VAAI-NAS plugin makes thin disks whatever is asked
 * (vSphere Storage: "only thin format is available"), and cannot hold an
 * RDM's mapping file: check names all three problems and a run refuses;
 * with vsphere.unapplied "measure" the run measures lazy and eager as
 * thin, says so as it creates them, records why with each disk, and the
 * report names them by what they became; with "skip" a fleet over VMFS
 * and NFS measures lazy on VMFS alone. With the plugin, as asked.
 */
static void nfs_without_vaai(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], res[700];
	json_t *doc;

	CU_ASSERT_EQUAL_FATAL(lab(&v, &e, "nfs",
				  (const char *[]){"-datastores", "2", "-nfs",
						   "LocalDS_1", NULL}),
			      0);
	profile(prof, sizeof(prof), "nfs",
		"\"thin\", \"lazy\", \"eager\", \"rdm\"",
		", \"datastore\": \"LocalDS_1\", \"lun\": "
		"\"naa.6000c290000000000000000000000001\"");
	refused(&v, &e, "nfs", prof, "NFS", 3);
	/* measured as what they become */
	profile(prof, sizeof(prof), "nfs-measure",
		"\"thin\", \"lazy\", \"eager\"",
		", \"datastore\": \"LocalDS_1\", \"unapplied\": \"measure\"");
	snprintf(res, sizeof(res), "%s/nfs-results", it_dir());
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.err, "creating eager disk (the datastore makes it "
			      "thin"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "eager (applied as thin)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "lazy (applied as thin)"));
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_STRING_EQUAL(rb(result_of(doc, "lazy"), "mode"), "thin");
	CU_ASSERT_PTR_NOT_NULL(strstr(rb(result_of(doc, "eager"), "why"),
				      "without the VAAI-NAS plugin"));
	CU_ASSERT_PTR_NULL(rb(result_of(doc, "thin"), "why"));
	json_decref(doc);
	/* a fleet over both datastores: lazy skipped on NFS alone */
	{
		char text[1024];
		json_t *it;
		size_t i;
		int skipped = 0, ok = 0;

		snprintf(prof, sizeof(prof), "%s/nfs-skip.json", it_dir());
		snprintf(text, sizeof(text),
			 "{\"name\": \"nfs-skip\", \"backend\": \"vsphere\", "
			 "\"vsphere\": {\"vm\": \"" VM "\", \"guest_dir\": "
			 "\"/opt/pb\", \"unapplied\": \"skip\"}, "
			 "\"disk_size\": \"1M\", \"modes\": [\"lazy\"], "
			 "\"workload\": {\"bs\": \"64K\", \"passes\": "
			 "[\"first-write\", \"rewrite\"]}, \"matrix\": "
			 "{\"datastore\": [\"LocalDS_0\", \"LocalDS_1\"]}}");
		it_write_file(prof, text);
		snprintf(res, sizeof(res), "%s/nfs-skip-results", it_dir());
		CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(the datastore makes it "
						     "thin: skipped)"));
		it_result_dispose(&r);
		doc = it_load_run_json(res);
		json_array_foreach(json_object_get(doc, "results"), i, it)
		{
			const char *st = json_string_value(
				json_object_get(it, "status"));

			skipped += !strcmp(st, "skipped");
			ok += !strcmp(st, "ok");
		}
		CU_ASSERT_EQUAL(skipped, 1);
		CU_ASSERT_EQUAL(ok, 1);
		json_decref(doc);
	}
	vcsim_stop(&v);
	/* the plugin: lazy and eager as asked */
	CU_ASSERT_EQUAL_FATAL(
		lab(&v, &e, "nfs-vaai",
		    (const char *[]){"-datastores", "2", "-nfs", "LocalDS_1",
				     "-nfs-vaai", NULL}),
		0);
	profile(prof, sizeof(prof), "nfs-vaai", "\"lazy\", \"eager\"",
		", \"datastore\": \"LocalDS_1\"");
	snprintf(res, sizeof(res), "%s/nfs-vaai-results", it_dir());
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_STRING_EQUAL(rb(result_of(doc, "eager"), "mode"), "eager");
	json_decref(doc);
	vcsim_stop(&v);
}

/* A profile of thin's whole life on datastore ds (passes with a reclaim,
 * or without one) */
static void life_profile(char *out, size_t len, const char *name,
			 const char *ds, bool reclaim)
{
	char text[2048];

	snprintf(out, len, "%s/%s.json", it_dir(), name);
	snprintf(text, sizeof(text),
		 "{\"name\": \"%s\", \"backend\": \"vsphere\", \"vsphere\": "
		 "{\"vm\": \"" VM "\", \"guest_dir\": \"/opt/pb\", "
		 "\"datastore\": \"%s\"}, \"disk_size\": \"1M\", \"modes\": "
		 "[\"thin\"], \"workload\": {\"bs\": \"64K\", \"passes\": "
		 "[\"first-write\", \"rewrite\"%s]%s}}",
		 name, ds, reclaim ? ", \"reclaim\", \"first-write\"" : "",
		 reclaim ? ", \"reclaim_wait_ms\": 60000" : "");
	it_write_file(out, text);
}

/* A run of thin's whole life on ds, its results in res: its run.json */
static json_t *life_run(struct it_env *e, char *res, size_t len,
			const char *name, const char *ds)
{
	char prof[700];
	struct it_result r;

	life_profile(prof, sizeof(prof), name, ds, true);
	snprintf(res, len, "%s/%s-results", it_dir(), name);
	CU_ASSERT_EQUAL(it_pb(&r, e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s", r.err);
	it_result_dispose(&r);
	return it_load_run_json(res);
}

/* The reclaim pass of a run's one item: read back from the server, told
 * to go on once the give-back stopped; given back all its 1 MiB, or
 * nothing */
static void reclaim_read_back(json_t *doc, bool gives_back)
{
	json_t *item = json_array_get(json_object_get(doc, "results"), 0);
	json_t *p = json_array_get(
		json_object_get(json_object_get(item, "runner"), "passes"), 2);
	json_t *sa = json_object_get(p, "server_allocation");
	json_int_t before =
		json_integer_value(json_object_get(sa, "before_bytes"));
	json_int_t after =
		json_integer_value(json_object_get(sa, "after_bytes"));

	const char *told = json_string_value(
		json_object_get(json_object_get(p, "reclaim"), "wait_ended"));
	const char *ended = json_string_value(json_object_get(sa, "ended"));

	CU_ASSERT_PTR_NOT_NULL_FATAL(sa);
	CU_ASSERT(told && !strcmp(told, "told"));
	CU_ASSERT(ended && !strcmp(ended, "stopped giving back"));
	CU_ASSERT(json_array_size(json_object_get(sa, "samples")) >= 2);
	if (gives_back) {
		CU_ASSERT_EQUAL(before - after, 1 << 20);
	} else {
		CU_ASSERT_EQUAL(after, before);
		CU_ASSERT(before > 0);
	}
}

/*
 * What a guest's reclaim can do on the datastore, said by check before a
 * reclaim cycle runs and recorded in run.json (issue 40): VMFS 6's
 * automatic reclamation settings as the server reports them (the
 * fixture's are a real host's defaults: priority low, 1 MB granularity)
 * and that only thin disks pass a guest's discard; NFS, none. A profile
 * without a reclaim pass hears nothing of it.
 */
static void reclaim_settings_said(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], res[700];
	json_t *doc, *rc;

	CU_ASSERT_EQUAL_FATAL(lab(&v, &e, "reclaim",
				  (const char *[]){"-datastores", "2", "-nfs",
						   "LocalDS_1", NULL}),
			      0);
	life_profile(prof, sizeof(prof), "life-vmfs", "LocalDS_0", true);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "reclaim: LocalDS_0: VMFS 6 automatic space "
			      "reclamation, priority low, granularity 1 MiB "));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "a reclaim cycle shows on thin only"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "warning: reclaim_wait_ms"));
	it_result_dispose(&r);
	/* the runner's default wait is too short for a server's give-back */
	CU_ASSERT_EQUAL(
		it_sh("sed -i 's/, \"reclaim_wait_ms\": 60000//' '%s'", prof),
		0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "warning: reclaim_wait_ms 250: "));
	it_result_dispose(&r);
	life_profile(prof, sizeof(prof), "life-nfs", "LocalDS_1", true);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "reclaim: LocalDS_1: NFS: a guest's discard "
			      "does not reach a disk on NFS"));
	it_result_dispose(&r);
	life_profile(prof, sizeof(prof), "life-none", "LocalDS_0", false);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NULL(strstr(r.out, "reclaim:"));
	it_result_dispose(&r);
	/* and run.json keeps them with the datastore */
	doc = life_run(&e, res, sizeof(res), "life-run", "LocalDS_0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	rc = json_object_get(
		json_object_get(json_object_get(doc, "environment"),
				"datastore"),
		"reclaim");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(rc, "vmfs_major")),
			6);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(rc, "unmap_priority")),
		"low");
	CU_ASSERT_EQUAL(
		json_integer_value(json_object_get(rc, "unmap_granularity_kb")),
		1024);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(rc, "guest_discard_reaches")),
		"thin disks");
	/* the harness read the give-back from the server until it stopped
	 * (the fixture gives it back at VMFS's rate, from the first
	 * refresh that sees it), then told the runner to go on */
	reclaim_read_back(doc, true);
	json_decref(doc);
	CU_ASSERT_EQUAL(it_sh("grep -q '  thin: a reclaim (punch-hole) gave "
			      "back 1 MiB of its disk.s file on the datastore "
			      "in .*read back from the server' "
			      "'%s'/latest/summary.txt",
			      res),
			0);
	/* NFS gives nothing back */
	doc = life_run(&e, res, sizeof(res), "life-nfs-run", "LocalDS_1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	reclaim_read_back(doc, false);
	json_decref(doc);
	vcsim_stop(&v);
}

/*
 * vSAN: the storage policy sets provisioning, not the disk's flags; the
 * default reserves nothing (thin), "Thick 100%" reserves all (lazy), and
 * nothing zeroes ahead (never eager). Without policies check refuses lazy
 * and eager; with one for lazy, measured, each disk's policy is read back
 * through SPBM. Disks go in a namespace folder: a file at vSAN's top
 * level fails its task in the fixture, as on vSAN.
 */
static void vsan_policies(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], res[700];
	json_t *doc, *it;

	CU_ASSERT_EQUAL_FATAL(lab(&v, &e, "vsan",
				  (const char *[]){"-datastores", "2", "-vsan",
						   "LocalDS_1", NULL}),
			      0);
	profile(prof, sizeof(prof), "vsan", "\"thin\", \"lazy\", \"eager\"",
		", \"datastore\": \"LocalDS_1\"");
	refused(&v, &e, "vsan", prof, "vSAN", 2);
	profile(prof, sizeof(prof), "vsan-policy",
		"\"thin\", \"lazy\", \"eager\"",
		", \"datastore\": \"LocalDS_1\", \"unapplied\": \"measure\", "
		"\"storage_policy\": {\"lazy\": \"Thick 100%\"}");
	snprintf(res, sizeof(res), "%s/vsan-results", it_dir());
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s", r.err);
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	it = result_of(doc, "lazy");
	CU_ASSERT_STRING_EQUAL(rb(it, "mode"), "lazy");
	CU_ASSERT_STRING_EQUAL(rb(it, "storage_policy"), "Thick 100%");
	CU_ASSERT_PTR_NOT_NULL(
		strstr(json_string_value(json_object_get(
			       json_object_get(it, "disk"), "file")),
		       "[LocalDS_1] provbench/provbench-"));
	it = result_of(doc, "thin");
	CU_ASSERT_STRING_EQUAL(rb(it, "storage_policy"),
			       "vSAN Default Storage Policy");
	/* the flags say eager; the policy made it thin */
	it = result_of(doc, "eager");
	CU_ASSERT_STRING_EQUAL(rb(it, "flags_mode"), "eager");
	CU_ASSERT_STRING_EQUAL(rb(it, "mode"), "thin");
	CU_ASSERT_PTR_NOT_NULL(strstr(rb(it, "why"), "never zeroes"));
	json_decref(doc);
	vcsim_stop(&v);
}

/*
 * What check names before anything changes: a datastore cluster named as
 * the datastore (with its members), a VM whose disks are all on NVMe, a
 * VM whose SCSI controller is full, a guest without Tools, every problem
 * of a VM at once.
 */
static void lab_problems_checked(void)
{
	static const struct {
		const char *name, *flags[8], *modes, *extra, *want;
		int problems;
	} cases[] = {
		{"pod",
		 {"-pod", "-datastores", "3", NULL},
		 "\"thin\"",
		 ", \"datastore\": \"DC0_POD0\"",
		 "DC0_POD0 is a datastore cluster (Storage DRS), where vSphere "
		 "places each disk itself: name one of its datastores",
		 1},
		{"nvme",
		 {"-nvme-only", VM, NULL},
		 "\"thin\"",
		 "",
		 "has no SCSI controller (its disks are on NVMe or SATA)",
		 1},
		{"full",
		 {"-full-scsi", VM, NULL},
		 "\"thin\"",
		 "",
		 "no free unit on",
		 1},
		{"no-tools",
		 {"-no-tools", VM, NULL},
		 "\"thin\"",
		 "",
		 "VMware Tools are not installed",
		 1},
		/* all at once: a full controller, thick on NFS, no Tools */
		{"all",
		 {"-no-tools", VM, "-full-scsi", VM, "-nfs", "LocalDS_0", NULL},
		 "\"lazy\"",
		 "",
		 "(and 2 more problems",
		 3},
	};
	struct vcsim v;
	struct it_env e;
	char prof[700];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(
			lab(&v, &e, cases[i].name, cases[i].flags), 0);
		profile(prof, sizeof(prof), cases[i].name, cases[i].modes,
			cases[i].extra);
		refused(&v, &e, cases[i].name, prof, cases[i].want,
			cases[i].problems);
		vcsim_stop(&v);
	}
}

/*
 * A settings A/B on vSphere: extra_config applies to the whole VM at
 * power-on and the run sets it once, so two arms on one VM would measure
 * one setting twice; refused before anything (each arm needs its own VM).
 * Arms on two VMs, or two datastores of one VM, are fine.
 */
static void arms_on_one_vm(void)
{
	static const char *const flags[] = {"-datastores", "2", NULL};
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], text[2048];

	CU_ASSERT_EQUAL_FATAL(lab(&v, &e, "arms", flags), 0);
	snprintf(prof, sizeof(prof), "%s/arms.json", it_dir());
	snprintf(text, sizeof(text),
		 "{\"name\": \"arms\", \"backend\": \"vsphere\", "
		 "\"vsphere\": {\"vm\": \"" VM "\", \"guest_dir\": "
		 "\"/opt/pb\"}, \"disk_size\": \"1M\", \"modes\": "
		 "[\"thin\"], \"matrix\": {\"extra_config\": "
		 "[{\"mainMem.useNamedFile\": \"TRUE\"}, "
		 "{\"mainMem.useNamedFile\": \"FALSE\"}]}, \"workload\": "
		 "{\"bs\": \"64K\", \"passes\": [\"first-write\"]}}");
	it_write_file(prof, text);
	refused(&v, &e, "arms", prof,
		"targets 'mainMem.useNamedFile=TRUE' and "
		"'mainMem.useNamedFile=FALSE' are one vsphere place with a "
		"different extra_config",
		0);
	/* one VM, two datastores: places, not settings */
	snprintf(text, sizeof(text),
		 "{\"name\": \"arms\", \"backend\": \"vsphere\", "
		 "\"vsphere\": {\"vm\": \"" VM "\", \"guest_dir\": "
		 "\"/opt/pb\"}, \"disk_size\": \"1M\", \"modes\": "
		 "[\"thin\"], \"matrix\": {\"datastore\": [\"LocalDS_0\", "
		 "\"LocalDS_1\"]}, \"workload\": "
		 "{\"bs\": \"64K\", \"passes\": [\"first-write\"]}}");
	it_write_file(prof, text);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	vcsim_stop(&v);
}

/*
 * A host entering maintenance mode powers no VM on once its VMs are off:
 * a run that needs a power cycle is refused before the guest is shut
 * down (ShutdownGuest never called); without a power cycle it is said.
 */
static void maintenance_before_power_cycle(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], power[24], tools[32];

	CU_ASSERT_EQUAL_FATAL(
		lab(&v, &e, "mm",
		    (const char *[]){"-no-uuid", "-maintenance", VM, NULL}),
		0);
	profile(prof, sizeof(prof), "mm", "\"thin\"",
		", \"power_cycle\": true");
	refused(&v, &e, "mm", prof,
		"is entering maintenance mode: a VM shut down there for the "
		"power cycle could not be powered on again",
		1);
	it_vm_power(&v, VM, power, tools);
	CU_ASSERT_STRING_EQUAL(power, "poweredOn");
	/* physical RDMs alone need no power cycle: measured, said */
	profile(prof, sizeof(prof), "mm-rdmp", "\"rdmp\"",
		", \"lun\": \"naa.6000c290000000000000000000000001\"");
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "warning: host DC0_H0 of VM " VM
					     " is entering maintenance"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "disk.EnableUUID"));
	it_result_dispose(&r);
	vcsim_stop(&v);
}

/*
 * A physical RDM shows the LUN's own identity to the guest: a profile of
 * rdmp alone runs on a VM without disk.EnableUUID, power_cycle off,
 * without a power cycle.
 */
static void rdmp_needs_no_enable_uuid(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], res[700];

	CU_ASSERT_EQUAL_FATAL(
		lab(&v, &e, "rdmp", (const char *[]){"-no-uuid", NULL}), 0);
	profile(prof, sizeof(prof), "rdmp", "\"rdmp\"",
		", \"lun\": \"naa.6000c290000000000000000000000001\"");
	snprintf(res, sizeof(res), "%s/rdmp-results", it_dir());
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s", r.err);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_soap_calls(&v, "ShutdownGuest"), 0);
	vcsim_stop(&v);
}

/*
 * A power cycle that fails once the VM is off (an HTTP 503 on the
 * reconfiguration) powers it on again and says so; killed with the VM
 * off, the journal lets cleanup power it on.
 */
static void power_cycle_ends_on(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], res[700], j[700], power[24], tools[32];
	pid_t pid;
	int st;

	CU_ASSERT_EQUAL_FATAL(
		lab(&v, &e, "cycle",
		    (const char *[]){"-no-uuid", "-fault-op", "ReconfigVM_Task",
				     "-fault", "503", NULL}),
		0);
	profile(prof, sizeof(prof), "cycle", "\"thin\"",
		", \"power_cycle\": true");
	snprintf(res, sizeof(res), "%s/cycle-results", it_dir());
	journal(j, sizeof(j), "cycle");
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 1);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.err, "VM " VM " powered on again after"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "HTTP 503"));
	it_result_dispose(&r);
	it_vm_power(&v, VM, power, tools);
	CU_ASSERT_STRING_EQUAL(power, "poweredOn");
	CU_ASSERT_STRING_EQUAL(tools, "guestToolsRunning");
	CU_ASSERT_EQUAL(it_count(j, "\"change\":\"power\""), 1);
	CU_ASSERT_EQUAL(it_count(j, "\"op\":\"done\""), 1);
	vcsim_stop(&v);

	/* killed with the VM off: cleanup powers it on */
	CU_ASSERT_EQUAL_FATAL(
		lab(&v, &e, "cycle9", (const char *[]){"-no-uuid", NULL}), 0);
	profile(prof, sizeof(prof), "cycle9", "\"thin\"",
		", \"power_cycle\": true");
	snprintf(res, sizeof(res), "%s/cycle9-results", it_dir());
	journal(j, sizeof(j), "cycle9");
	it_env_add(&e, "PROVBENCH_STOP_AT", "powered-off");
	pid = it_spawn_run_to_kill(&e, res, prof);
	CU_ASSERT_FATAL(it_wait_stopped(pid, 20000));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	e.vars[--e.n] = NULL; /* no stop for cleanup */
	it_vm_power(&v, VM, power, tools);
	CU_ASSERT_STRING_EQUAL(power, "poweredOff");
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", "--dry-run", prof, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "would undo power"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "VM " VM " powered on again: a "
					     "run was stopped inside its "
					     "power cycle"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "1 change(s) to a target undone"));
	it_result_dispose(&r);
	it_vm_power(&v, VM, power, tools);
	CU_ASSERT_STRING_EQUAL(power, "poweredOn");
	CU_ASSERT_STRING_EQUAL(tools, "guestToolsRunning");
	vcsim_stop(&v);

	/* ^C with the VM off: the cycle is finished (the VM on again, the
	 * journal's change closed), then the run stops, 130, no disk made */
	CU_ASSERT_EQUAL_FATAL(
		lab(&v, &e, "cycleint", (const char *[]){"-no-uuid", NULL}), 0);
	profile(prof, sizeof(prof), "cycleint", "\"thin\"",
		", \"power_cycle\": true");
	snprintf(res, sizeof(res), "%s/cycleint-results", it_dir());
	journal(j, sizeof(j), "cycleint");
	it_env_add(&e, "PROVBENCH_STOP_AT", "powered-off");
	pid = it_spawn_run(&e, res, prof);
	CU_ASSERT_FATAL(it_wait_stopped(pid, 20000));
	kill(pid, SIGINT);
	kill(pid, SIGCONT);
	CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	it_vm_power(&v, VM, power, tools);
	CU_ASSERT_STRING_EQUAL(power, "poweredOn");
	CU_ASSERT_STRING_EQUAL(tools, "guestToolsRunning");
	CU_ASSERT_EQUAL(it_count(j, "\"change\":\"power\""), 1);
	CU_ASSERT_EQUAL(it_count(j, "\"op\":\"done\""), 1);
	/* the power change's record only: no disk's */
	CU_ASSERT_EQUAL(it_count(j, "\"op\":\"intent\""), 1);
	CU_ASSERT_EQUAL(it_count(j, "\"mode\":"), 0);
	vcsim_stop(&v);
}

/* session_lost_at_every_call's processes, each its own fixture */
#define EXPIRE_PARTS 4
/* a run in a part's process has the deadline a run's process had: past
 * it the part says which and ends with EXPIRE_HUNG */
#define EXPIRE_RUN_S 120
#define EXPIRE_HUNG  101

/* the call number of the run under way in this part, and the part's
 * stderr (a run's own goes to its capture file) */
static volatile sig_atomic_t expire_at;
static int expire_err = 2;

static void expire_hung(int sig)
{
	char msg[96];
	/* the part ends here: its stdio is not used again */
	int n = snprintf(msg, sizeof(msg),
			 "\n  the run with the session lost at call %ld "
			 "hung: stopped after %d s",
			 (long)expire_at, EXPIRE_RUN_S);

	(void)sig;
	if (n > 0 && write(expire_err, msg, (size_t)n) < 0)
		_exit(EXPIRE_HUNG);
	_exit(EXPIRE_HUNG);
}

/*
 * A part of session_lost_at_every_call: call numbers first, first +
 * EXPIRE_PARTS, ... of the run, each a run of its own against this part's
 * fixture, in this process (a process each started ASan's allocator
 * cold every time: 0.56 CPU-s a run, 0.09 without ASan). Returns how
 * many runs failed; *tried: the call numbers tried.
 */
static int expire_part(long first, long *tried)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char name[32], prof[700], res[700], path[64], *before, *after;
	struct pb_run_args a = {.quiet = true};
	long n, last, calls;
	int failed = 0;
	json_t *j;

	*tried = 0;
	snprintf(name, sizeof(name), "expire%ld", first);
	if (lab(&v, &e, name, NULL))
		return 1;
	profile(prof, sizeof(prof), name, "\"thin\", \"rdm\"",
		", \"lun\": \"naa.6000c290000000000000000000000001\"");
	snprintf(res, sizeof(res), "%s/%s-results", it_dir(), name);
	a.profile = prof;
	a.out_dir = res;
	before = it_vm_disk_keys(&v, VM);
	for (n = first; n <= 400; n += EXPIRE_PARTS) {
		snprintf(path, sizeof(path), "/provbench-expire?after=%ld", n);
		j = it_vcsim_get(&v, path);
		json_decref(j);
		last = it_soap_calls(&v, NULL);
		if (j) {
			expire_at = n;
			alarm(EXPIRE_RUN_S);
			it_inproc(&r, e.vars, it_inproc_run, &a);
			alarm(0);
		}
		if (!j || r.status) {
			fprintf(stderr, "\n  session lost at call %ld: %s", n,
				j ? r.err : "no fixture");
			failed++;
		}
		if (j)
			it_result_dispose(&r);
		(*tried)++;
		calls = it_soap_calls(&v, NULL) - last;
		/* the run made fewer calls than n: every one was tried */
		if (calls < n)
			break;
	}
	after = it_vm_disk_keys(&v, VM);
	if (strcmp(before, after)) {
		fprintf(stderr, "\n  %s: disks %s -> %s", name, before, after);
		failed++;
	}
	free(before);
	free(after);
	vcsim_stop(&v);
	return failed;
}

/* A forked part's end: its runs' leaks are its own to find (a process
 * that _exits is not checked at exit), a leak counted as a failed run. */
static int expire_part_leaks(void)
{
#ifdef __SANITIZE_ADDRESS__
	return __lsan_do_recoverable_leak_check() ? 1 : 0;
#else
	return 0;
#endif
}

/*
 * The session lost at every SOAP call of a whole run (two modes, a
 * virtual disk and an RDM), one run per call number against a fixture
 * re-armed between runs, the numbers dealt to EXPIRE_PARTS processes at
 * once (each run mostly waits on the guest's process: they overlap):
 * each run ends well and leaves the VM's disks as they were. Views,
 * filters and collectors die with their session; provbench makes them
 * again. The parts are processes of their own, the suite's only waits:
 * a run that crashes fails this case, not the suite.
 */
static void session_lost_at_every_call(void)
{
	long tried[EXPIRE_PARTS] = {0}, all = 0;
	int st, fd[EXPIRE_PARTS][2];
	pid_t pid[EXPIRE_PARTS];
	long k;

	for (k = 0; k < EXPIRE_PARTS; k++) {
		CU_ASSERT_EQUAL_FATAL(pipe(fd[k]), 0);
		pid[k] = fork();
		CU_ASSERT_FATAL(pid[k] >= 0);
		if (pid[k] == 0) {
			long t;
			int f;
			ssize_t w;

			expire_err = dup(2);
			signal(SIGALRM, expire_hung);
			f = expire_part(k + 1, &t);
			f += expire_part_leaks();
			w = write(fd[k][1], &t, sizeof(t));
			_exit(w == (ssize_t)sizeof(t) && f < 100 ? f : 100);
		}
		close(fd[k][1]);
	}
	for (k = 0; k < EXPIRE_PARTS; k++) {
		if (read(fd[k][0], &tried[k], sizeof(tried[k])) !=
		    sizeof(tried[k]))
			tried[k] = 0;
		close(fd[k][0]);
		waitpid(pid[k], &st, 0);
		if (!WIFEXITED(st))
			fprintf(stderr, "\n  part %ld: killed by signal %d",
				k + 1, WTERMSIG(st));
		else if (WEXITSTATUS(st) == EXPIRE_HUNG)
			fprintf(stderr, "\n  part %ld: a run hung", k + 1);
		else if (WEXITSTATUS(st))
			fprintf(stderr,
				"\n  part %ld: runs failed or leaked: %d",
				k + 1, WEXITSTATUS(st));
		CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	/* a whole run: every one of its calls, some 90 */
	for (k = 0; k < EXPIRE_PARTS; k++)
		all += tried[k];
	CU_ASSERT(all > 60);
}

/*
 * Transient failures: an HTTP 503 on a read is tried again (three tries,
 * said), a third is the run's error; a write whose reply was lost is
 * looked for on the VM before anything is sent again (lost after it was
 * done: found; dropped before: sent once more), never made twice.
 */
static void transient_failures(void)
{
	static const struct {
		const char *name, *flags[10];
		int code;
		const char *want;
		int disks_made;
	} cases[] = {
		/* the test's own look at the VM's disks makes the first two
		 * RetrievePropertiesEx */
		{"503-twice",
		 {"-fault-op", "RetrievePropertiesEx", "-fault", "503",
		  "-fault-skip", "7", "-fault-count", "2", NULL},
		 0,
		 "(try 3 of 3)",
		 1},
		/* the VM's own lookup: nothing to go on without it */
		{"503-thrice",
		 {"-fault-op", "RetrievePropertiesEx", "-fault", "503",
		  "-fault-skip", "2", "-fault-count", "3", NULL},
		 1,
		 "RetrievePropertiesEx: HTTP 503",
		 0},
		{"write-reply-lost",
		 {"-fault-op", "ReconfigVM_Task", "-fault", "lost", NULL},
		 0,
		 "the reply was lost (",
		 1},
		{"write-dropped",
		 {"-fault-op", "ReconfigVM_Task", "-fault", "drop", NULL},
		 0,
		 "sending it once more",
		 1},
	};
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], res[700], *before, *after;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(
			lab(&v, &e, cases[i].name, cases[i].flags), 0);
		profile(prof, sizeof(prof), cases[i].name, "\"thin\"", "");
		snprintf(res, sizeof(res), "%s/%s-results", it_dir(),
			 cases[i].name);
		before = it_vm_disk_keys(&v, VM);
		it_pbn(&r, &e,
		       (const char *[]){"run", "-q", "-o", res, prof, NULL});
		if (r.status != cases[i].code ||
		    !strstr(r.err, cases[i].want)) {
			fprintf(stderr, "\n  %s: exit %d: %s", cases[i].name,
				r.status, r.err);
			CU_FAIL(cases[i].name);
		}
		it_result_dispose(&r);
		/* one add and one remove when a disk was made: never two */
		CU_ASSERT_EQUAL(it_soap_calls(&v, "ReconfigVM_Task"),
				cases[i].disks_made ? 2 : 0);
		after = it_vm_disk_keys(&v, VM);
		CU_ASSERT_STRING_EQUAL(before, after);
		free(before);
		free(after);
		vcsim_stop(&v);
	}
}

/*
 * A disk task slower than vsphere.task_timeout_s is cancelled
 * (RequestCanceled: no disk appears); one the server cannot cancel says
 * the disk may still appear, and cleanup removes it by its journaled name
 * once it has.
 */
static void slow_task_cancelled(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], res[700], *before, *after;

	CU_ASSERT_EQUAL_FATAL(lab(&v, &e, "slow",
				  (const char *[]){"-task-delay", "3s", NULL}),
			      0);
	profile(prof, sizeof(prof), "slow", "\"thin\"",
		", \"task_timeout_s\": 1");
	snprintf(res, sizeof(res), "%s/slow-results", it_dir());
	before = it_vm_disk_keys(&v, VM);
	CU_ASSERT_EQUAL(
		it_pbn(&r, &e,
		       (const char *[]){"run", "-q", "-o", res, prof, NULL}),
		1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cancelled, RequestCanceled; "
					     "nothing it was making remains"));
	it_result_dispose(&r);
	sleep(3);
	after = it_vm_disk_keys(&v, VM);
	CU_ASSERT_STRING_EQUAL(before, after);
	free(after);
	vcsim_stop(&v);

	CU_ASSERT_EQUAL_FATAL(lab(&v, &e, "slow2",
				  (const char *[]){"-task-delay", "3s",
						   "-task-uncancelable", NULL}),
			      0);
	profile(prof, sizeof(prof), "slow2", "\"thin\"",
		", \"task_timeout_s\": 1");
	snprintf(res, sizeof(res), "%s/slow2-results", it_dir());
	CU_ASSERT_EQUAL(
		it_pbn(&r, &e,
		       (const char *[]){"run", "-q", "-o", res, prof, NULL}),
		1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cannot cancel it (NotSupported)"
					     ": what it is making may still "
					     "appear"));
	it_result_dispose(&r);
	sleep(3);
	after = it_vm_disk_keys(&v, VM);
	CU_ASSERT_STRING_NOT_EQUAL(before, after); /* it appeared */
	free(after);
	/* removing takes the fixture's 3 s too: a profile that waits */
	profile(prof, sizeof(prof), "slow2", "\"thin\"",
		", \"task_timeout_s\": 20");
	CU_ASSERT_EQUAL(it_pb(&r, &e, "cleanup", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "1 disk(s) removed"));
	it_result_dispose(&r);
	after = it_vm_disk_keys(&v, VM);
	CU_ASSERT_STRING_EQUAL(before, after);
	free(before);
	free(after);
	vcsim_stop(&v);
}

/* vSphere 8 lists a disk vSAN claimed without vsanDiskInfo: vSAN's own
 * answer (QueryDisksForVsan "inUse") names it, not "a local disk". */
static void vsan_disks_on_vsphere8(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;

	CU_ASSERT_EQUAL_FATAL(
		lab(&v, &e, "esx8", (const char *[]){"-esx8", NULL}), 0);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "vsphere", "luns", "DC0_H0", "--json"),
			0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "\"canonical_name\": "
			      "\"naa.6000c290000000000000000000000004\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"claimed by vSAN\""));
	it_result_dispose(&r);
	vcsim_stop(&v);
}

/*
 * The precision form against the fixture (issue 54): thin and eager
 * (the baseline) from 3 to 6 repetitions, "is thin under 1000%?". check
 * says both ends (6 to 12 disks, the bytes at the least and the most);
 * the run makes a disk only for a mode still open, so the journal's
 * disks are run.json's items, each mode's items its rounds to its stop,
 * and the page says each mode's rule.
 */
static void precision_form_on_vsphere(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], res[700], text[2048], j[700], page[800];
	unsigned after[PB_MODE__COUNT] = {0}, made[PB_MODE__COUNT] = {0};
	json_t *doc, *it;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(lab(&v, &e, "pf", NULL), 0);
	snprintf(prof, sizeof(prof), "%s/pf.json", it_dir());
	snprintf(text, sizeof(text),
		 "{\"name\": \"pf\", \"backend\": \"vsphere\", "
		 "\"vsphere\": {\"vm\": \"" VM "\", \"guest_dir\": "
		 "\"/opt/pb\"}, \"disk_size\": \"1M\", \"modes\": "
		 "[\"eager\", \"thin\"], \"baseline\": \"eager\", "
		 "\"repetitions\": 6, \"threshold_pct\": 1000, "
		 "\"workload\": {\"bs\": \"64K\", \"passes\": "
		 "[\"first-write\", \"rewrite\", \"rewrite\"]}}");
	it_write_file(prof, text);
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "= 6 to 12 disks"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "at the least"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "at the most"));
	it_result_dispose(&r);
	snprintf(res, sizeof(res), "%s/pf-results", it_dir());
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s", r.err);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "stops: thin: "));
	it_result_dispose(&r);
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	json_array_foreach(json_object_get(doc, "stops"), i, it)
	{
		enum pb_mode m;

		CU_ASSERT_FATAL(pb_mode_parse(
			&m, json_string_value(json_object_get(it, "mode"))));
		after[m] = (unsigned)json_integer_value(
			json_object_get(it, "after"));
	}
	json_array_foreach(json_object_get(doc, "results"), i, it)
	{
		enum pb_mode m;

		CU_ASSERT_FATAL(pb_mode_parse(
			&m, json_string_value(json_object_get(it, "mode"))));
		made[m]++;
	}
	CU_ASSERT(after[PB_MODE_THIN] >= 3 && after[PB_MODE_THIN] <= 6);
	CU_ASSERT_EQUAL(made[PB_MODE_THIN], after[PB_MODE_THIN]);
	CU_ASSERT_EQUAL(made[PB_MODE_EAGER], after[PB_MODE_THIN]);
	CU_ASSERT_EQUAL(after[PB_MODE_EAGER], after[PB_MODE_THIN]);
	/* a disk made for each item run, and no other */
	journal(j, sizeof(j), "pf");
	CU_ASSERT_EQUAL(it_count(j, "\"op\":\"intent\""),
			(int)json_array_size(json_object_get(doc, "results")));
	json_decref(doc);
	snprintf(page, sizeof(page), "%s/latest/summary.txt", res);
	CU_ASSERT_EQUAL(it_count(page, "3 to 6 repetitions, each mode until "
				       "its penalty is wholly above or under "
				       "1000%"),
			1);
	CU_ASSERT(it_count(page, "baseline, ") == 1);
	vcsim_stop(&v);
}

/* name=val in e, in place of name's value or of another setting's
 * (from): the environment a lab changes between steps */
static void env_swap(struct it_env *e, const char *from, const char *name,
		     const char *val)
{
	size_t n = strlen(from);
	int i;

	for (i = 0; i < e->n; i++)
		if (!strncmp(e->vars[i], from, n) && e->vars[i][n] == '=') {
			snprintf(e->buf[i], sizeof(e->buf[i]), "%s=%s", name,
				 val);
			return;
		}
	it_env_add(e, name, val);
}

/*
 * README's five steps for a lab without a spare LUN (issue 56), against
 * the fixture with PROVBENCH_LUN unset, as written: the shipped profile
 * checked as step 4 says refuses, naming the LUN and -m; with -m
 * eager,lazy,thin check, run -n and cleanup all take it; every missing
 * setting is named at once (the guest's login and the trust too); the
 * guest's password read from a file; step 5's first run (disk_size
 * lowered, the matrix dropped, as README advises; one repetition and no
 * cooldown to keep the case short) measures the three modes against
 * eager.
 */
static void no_lun_lab_follows_readme(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], first[700], res[700], pw[700], state[700];
	const char *no_lun[] = {"check", "-m", "eager,lazy,thin", prof, NULL};
	json_t *doc;

	CU_ASSERT_EQUAL_FATAL(lab(&v, &e, "nl", NULL), 0);
	it_env_add(&e, "PROVBENCH_VM", VM);
	it_env_add(&e, "PROVBENCH_DATASTORE", "LocalDS_0");
	snprintf(prof, sizeof(prof), "%s/nl-lab.json", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		it_sh("cp profiles/vsphere-example.json '%s'", prof), 0);
	/* step 4 as written: refused, with the way out named */
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "PROVBENCH_LUN"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--modes"));
	it_result_dispose(&r);
	/* with a LUN named, rdm's writes are counted on it, not on the
	 * datastore (the fixture has no such LUN: check then refuses) */
	it_env_add(&e, "PROVBENCH_LUN", "naa.600a0b80001234");
	CU_ASSERT_EQUAL(it_pb(&r, &e, "check", prof, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "per place: datastore LocalDS_0 "
					     "1.2 TiB, lun naa.600a0b80001234 "
					     "384 GiB\n"));
	it_result_dispose(&r);
	env_swap(&e, "PROVBENCH_LUN", "PB_NO_LUN", "");
	/* the guest's password from a file, as the server's may be */
	snprintf(pw, sizeof(pw), "%s/nl-guest-password", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		it_sh("umask 077 && printf 'guestpw\\n' > '%s'", pw), 0);
	env_swap(&e, "PROVBENCH_GUEST_PASSWORD",
		 "PROVBENCH_GUEST_PASSWORD_FILE", pw);
	CU_ASSERT_EQUAL(it_pbn(&r, &e, no_lun), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "check: ok"));
	CU_ASSERT_PTR_NULL(strstr(r.out, ", rdm, "));
	it_result_dispose(&r);
	/* cleanup takes the same selection */
	{
		const char *c[] = {"cleanup", "-m", "eager,lazy,thin", prof,
				   NULL};

		CU_ASSERT_EQUAL(it_pbn(&r, &e, c), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "cleanup: 0 disk(s)"));
		it_result_dispose(&r);
	}
	/* step 5, the first run */
	snprintf(first, sizeof(first), "%s/nl-first.json", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		it_sh("python3 -c 'import json, sys; p = "
		      "json.load(open(sys.argv[1]));"
		      " p.pop(\"matrix\"); p.update(disk_size=\"1M\", "
		      "repetitions=1, cooldown_s=0); "
		      "json.dump(p, open(sys.argv[2], \"w\"))' '%s' '%s'",
		      prof, first),
		0);
	snprintf(res, sizeof(res), "%s/nl-results", it_dir());
	{
		const char *run[] = {"run", "-m", "eager,lazy,thin", "-o", res,
				     first, NULL};

		CU_ASSERT_EQUAL(it_pbn(&r, &e, run), 0);
		if (r.status)
			fprintf(stderr, "\n%s%s", r.out, r.err);
		it_result_dispose(&r);
	}
	doc = it_load_run_json(res);
	CU_ASSERT_PTR_NOT_NULL(doc);
	if (doc)
		CU_ASSERT_EQUAL(
			json_array_size(json_object_get(doc, "results")), 3);
	json_decref(doc);
	/* a server gone: run says its plan before it tries the server */
	vcsim_stop(&v);
	{
		const char *run[] = {"run", "-y", "-m", "eager,lazy,thin",
				     "-o",  res,  prof, NULL};
		const char *plan, *fail;

		CU_ASSERT_EQUAL(it_pbn(&r, &e, run), 3);
		plan = strstr(r.err, "plan: 18 disks");
		fail = strstr(r.err, "Failed to connect");
		CU_ASSERT(plan && fail && plan < fail);
		it_result_dispose(&r);
	}
	/* nothing set: every setting a run needs in one line */
	snprintf(state, sizeof(state), "%s/nl-state", it_dir());
	e.n = 0;
	e.vars[0] = NULL;
	it_env_add(&e, "PROVBENCH_STATE_DIR", state);
	it_env_add(&e, "PATH", "/usr/bin:/bin");
	CU_ASSERT_EQUAL(it_pbn(&r, &e, no_lun), 2);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.err, "vsphere.vm (PROVBENCH_VM), vsphere.datastore "
			      "(PROVBENCH_DATASTORE): environment variables "
			      "not set; nor the vSphere settings: "
			      "PROVBENCH_URL, PROVBENCH_USERNAME, "
			      "PROVBENCH_PASSWORD, PROVBENCH_GUEST_USERNAME, "
			      "PROVBENCH_GUEST_PASSWORD, PROVBENCH_THUMBPRINT "
			      "or PROVBENCH_CA_FILE"));
	CU_ASSERT_EQUAL(lines(r.err, "provbench: "), 1);
	it_result_dispose(&r);
}

/*
 * A vSphere matrix run's page decides on its first screen (issue 53): two
 * workload points (64K and 1M writes) of thin, lazy and eager against
 * the fixture, 3 repetitions; report.html at 1366x768 has the answer and
 * each mode's penalty chart above 768 px, at most 7 findings unfolded and
 * a text alternative on every chart; its first screen is kept as
 * build/screens/vsphere-matrix-first.png.
 */
static void first_screen_vsphere_matrix(void)
{
	struct vcsim v;
	struct it_env e;
	struct it_result r;
	char prof[700], res[700], text[2048], page[800], shot[700];

	CU_ASSERT_EQUAL_FATAL(lab(&v, &e, "fs-matrix", NULL), 0);
	snprintf(prof, sizeof(prof), "%s/fs-matrix.json", it_dir());
	snprintf(text, sizeof(text),
		 "{\"name\": \"fs-matrix\", \"backend\": \"vsphere\", "
		 "\"vsphere\": {\"vm\": \"" VM "\", \"guest_dir\": "
		 "\"/opt/pb\"}, \"disk_size\": \"2M\", \"modes\": "
		 "[\"thin\", \"lazy\", \"eager\"], \"repetitions\": 3, "
		 "\"workload\": {\"passes\": [\"first-write\", "
		 "\"rewrite\", \"rewrite\"]}, \"matrix\": {\"bs\": "
		 "[\"64K\", \"1M\"]}}");
	it_write_file(prof, text);
	snprintf(res, sizeof(res), "%s/fs-matrix-results", it_dir());
	CU_ASSERT_EQUAL(it_pb(&r, &e, "run", "-o", res, prof), 0);
	if (r.status)
		fprintf(stderr, "\n%s", r.err);
	it_result_dispose(&r);
	vcsim_stop(&v);
	snprintf(page, sizeof(page), "%s/latest/report.html", res);
	snprintf(shot, sizeof(shot), "%s/vsphere-matrix-first.png",
		 it_bin("screens"));
	CU_ASSERT_EQUAL(it_first_screen(page, shot), 0);
	/* a finding said once for groups of both points names each with
	 * its point: never "thin, lazy, eager, thin, lazy and eager" */
	CU_ASSERT_EQUAL(it_sh("! grep -Eq '(thin|lazy|eager), .*, (thin|lazy|"
			      "eager) and (thin|lazy|eager):' "
			      "'%s/latest/summary.txt'",
			      res),
			0);
}

static const struct pb_case cases[] = {
	PB_CASE(nfs_without_vaai),
	PB_CASE(vsan_policies),
	PB_CASE(reclaim_settings_said),
	PB_CASE(lab_problems_checked),
	PB_CASE(arms_on_one_vm),
	PB_CASE(maintenance_before_power_cycle),
	PB_CASE(rdmp_needs_no_enable_uuid),
	PB_CASE(power_cycle_ends_on),
	PB_CASE(session_lost_at_every_call),
	PB_CASE(transient_failures),
	PB_CASE(slow_task_cancelled),
	PB_CASE(vsan_disks_on_vsphere8),
	PB_CASE(precision_form_on_vsphere),
	PB_CASE(no_lun_lab_follows_readme),
	PB_CASE(first_screen_vsphere_matrix),
	PB_CASES_END,
};

const struct pb_suite suite_labs_it = {"labs", NULL, NULL, cases};
