/*
 * profile_keys.c - the profile's vocabulary: its own keys, a table of
 * option rows the loader (profile.c) applies, and the walk of every key
 * of every table (these, the runner's workload keys, each backend's
 * section) that prints help profile, the manual's PROFILE KEYS and
 * docs/profile.md.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "harness_int.h"

void pb_opt_describe(const struct pb_option *d, char *out, size_t len)
{
	size_t n;
	char names[256];

	n = (size_t)snprintf(out, len, "%s", d->help);
	if (d->type == PB_OPT_UINT || d->type == PB_OPT_INT ||
	    d->type == PB_OPT_U64 || d->type == PB_OPT_PCT)
		n += (size_t)snprintf(out + n, n < len ? len - n : 0,
				      "; %lld to %llu", d->min,
				      (unsigned long long)d->max);
	if (d->type == PB_OPT_CHOICE)
		n += (size_t)snprintf(
			out + n, n < len ? len - n : 0, " (%s)",
			pb_choices_join(names, sizeof(names), d->choices));
	if (d->flags & PB_OPT_F_REQUIRED)
		n += (size_t)snprintf(out + n, n < len ? len - n : 0,
				      "; required");
	if (d->def)
		snprintf(out + n, n < len ? len - n : 0, "; default %s",
			 d->def);
}

/* ---- the profile's own keys ---- */

static bool name_check(const void *opts, bool given, char *why, size_t len)
{
	const char *name = ((const struct pb_profile *)opts)->name;

	(void)given;
	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
			 "WXYZ0123456789-_.") == strlen(name) &&
	    name[0] != '.')
		return true;
	snprintf(why, len,
		 "letters, digits, '-', '_' and '.' only (it names "
		 "the results directory)");
	return false;
}

static bool stall_check(const void *opts, bool given, char *why, size_t len)
{
	const struct pb_profile *p = opts;

	if (p->stall_s && p->stall_s < 5)
		snprintf(why, len,
			 "must be 0 (never) or 5 seconds or more: a guest may "
			 "say nothing for a few seconds as it boots");
	else if (p->stall_s && given && p->stall_s >= p->timeout_s)
		snprintf(why, len,
			 "must be under timeout_s: the watchdog "
			 "would stop the runner first");
	else
		return true;
	return false;
}

#define PROF(f) offsetof(struct pb_profile, f)

static const char *const order_choices[] = {"fixed", "shuffle", NULL};
static const char *const units_choices[] = {"MiB", "MB", NULL};

/*
 * The profile's own keys: what load() reads (the rows it can apply
 * itself, the CUSTOM ones by their own code) and what `provbench help
 * profile`, the manual and docs/profile.md say. A backend's section is
 * its own table (pb_backend_ops.options), the workload the runner's.
 */
const struct pb_option pb_profile_options[] = {
	{.name = "name",
	 .type = PB_OPT_STR,
	 .off = PROF(name),
	 .flags = PB_OPT_F_REQUIRED,
	 .check = name_check,
	 .help = "names the results directory: letters, digits, '-', '_', "
		 "'.'"},
	{.name = "description",
	 .type = PB_OPT_STR,
	 .off = PROF(description),
	 .help = "a sentence for the report"},
	{.name = "backend",
	 .type = PB_OPT_CUSTOM,
	 .help = "what makes the disks and writes them (each backend's keys "
		 "are its section below), the first by default:"},
	{.name = "disk_size",
	 .type = PB_OPT_CUSTOM,
	 .help = "each disk's size: \"10G\" or bytes (required, unless the "
		 "matrix varies it). Every size (disk_size, file_size, bs, "
		 "pair_stripe) is read by one rule: K, KB and KiB are all "
		 "1024, M, MB and MiB 1024^2, and so on, as vSphere and govc "
		 "size a disk (\"10GB\" is 10 GiB) and as fio reads sizes; "
		 "case and spaces around the number do not matter; decimals "
		 "when the bytes come out whole (\"1.5G\")"},
	{.name = "modes",
	 .type = PB_OPT_CUSTOM,
	 .flags = PB_OPT_F_REQUIRED,
	 .help = "a list of: thin (allocated and zeroed on first write), "
		 "lazy (allocated in full, zeroed on first write), eager "
		 "(allocated and zeroed in full when made), rdm (a LUN mapped "
		 "in virtual compatibility: the hypervisor's SCSI layer in "
		 "between, snapshots possible), rdmp (a LUN mapped in "
		 "physical compatibility: commands pass to the LUN, which "
		 "shows its own identity; the field notes' \"physical "
		 "RDM\")"},
	{.name = "baseline",
	 .type = PB_OPT_CUSTOM,
	 .help = "the mode the report compares the others with, one of "
		 "modes (rdmp for a physical RDM, as seed 001's Case 1); rdm "
		 "by default, and eager for a run without it (check, run and "
		 "the report say so); report --baseline overrides it"},
	{.name = "host_baseline",
	 .type = PB_OPT_CUSTOM,
	 .def = "false",
	 .help = "true (qemu): before each item, the same workload on this "
		 "host against a disk made the same way in the same "
		 "directory (the host backend's disk), so the report sets "
		 "host and guest side by side per mode, as the field notes "
		 "set hdparm on the host beside the guest; concurrency 1"},
	{.name = "units",
	 .type = PB_OPT_CHOICE,
	 .off = PROF(units),
	 .choices = units_choices,
	 .def = "MiB",
	 .help = "the rates' unit on the pages: MiB/s, or MB/s, 10^6 bytes "
		 "a second, as dd, hdparm and the field notes print them; "
		 "summary.csv and run.json stay MiB/s, named so"},
	{.name = "repetitions",
	 .type = PB_OPT_UINT,
	 .off = PROF(repetitions),
	 .min = 1,
	 .max = 10000,
	 .def = "1",
	 .help = "how many times each mode x point runs; 3 at least for a "
		 "figure with its interval (fewer: too few to tell); with "
		 "precision_pct or threshold_pct, the most it runs"},
	{.name = "min_repetitions",
	 .type = PB_OPT_UINT,
	 .off = PROF(min_repetitions),
	 .min = 3,
	 .max = 10000,
	 .def = "3",
	 .help = "with precision_pct or threshold_pct, the fewest times "
		 "each mode x point runs before its answer is looked at"},
	{.name = "precision_pct",
	 .type = PB_OPT_PCT,
	 .off = PROF(precision_pct),
	 .min = 0,
	 .max = 1000,
	 .def = "0",
	 .help = "stop repeating a mode once its penalty's interval is "
		 "within this many points either side (0: not asked); its "
		 "intervals are the sequential rule's, honest however early "
		 "it stopped"},
	{.name = "threshold_pct",
	 .type = PB_OPT_PCT,
	 .off = PROF(threshold_pct),
	 .min = 0,
	 .max = 1000,
	 .help = "stop repeating a mode once its penalty's interval is "
		 "wholly above or wholly under this cost (\"is lazy within "
		 "5% of eager?\": baseline eager, 5); unset: not asked"},
	{.name = "gate_pct",
	 .type = PB_OPT_PCT,
	 .off = PROF(gate_pct),
	 .min = 0,
	 .max = 100,
	 .help = "with precision_pct or threshold_pct, the nightly gate's "
		 "question too: against the last finished run of the "
		 "profile, a mode goes on while a change of its cannot be "
		 "told from a fall of this much (report --max-regression); "
		 "unset: not asked"},
	{.name = "p999_target_ms",
	 .type = PB_OPT_PCT,
	 .off = PROF(p999_target_ms),
	 .min = 0,
	 .max = 60000,
	 .help = "with an offered rate (workload.rate_iops, swept by "
		 "matrix.rate_iops), the p99.9 in ms a write must keep: the "
		 "report gives each mode's rate headroom, the highest rate "
		 "swept up to which a first write, and a rewrite, kept it "
		 "(0: not asked)"},
	{.name = "order",
	 .type = PB_OPT_CHOICE,
	 .off = PROF(order),
	 .choices = order_choices,
	 .def = "fixed",
	 .help = "the items within each repetition as planned, or shuffled "
		 "by seed"},
	{.name = "seed",
	 .type = PB_OPT_U64,
	 .off = PROF(seed),
	 .max = INT64_MAX,
	 .help = "the plan's and the runner's seed; unset, from the clock, "
		 "recorded in run.json"},
	{.name = "cooldown_s",
	 .type = PB_OPT_UINT,
	 .off = PROF(cooldown_s),
	 .max = 86400,
	 .def = "0",
	 .help = "a pause between items, in seconds"},
	{.name = "concurrency",
	 .type = PB_OPT_UINT,
	 .off = PROF(concurrency),
	 .min = 1,
	 .max = PB_MAX_TARGETS,
	 .def = "1",
	 .help = "how many targets are measured at once, each on the same "
		 "mode and workload point as the others (a wave); 1: one at "
		 "a time, what a clean mode comparison needs"},
	{.name = "timeout_s",
	 .type = PB_OPT_UINT,
	 .off = PROF(timeout_s),
	 .min = 1,
	 .max = 7 * 86400,
	 .def = "21600",
	 .help = "the watchdog of each runner invocation, in seconds"},
	{.name = "stall_s",
	 .type = PB_OPT_UINT,
	 .off = PROF(stall_s),
	 .max = 86400,
	 .def = "60",
	 .check = stall_check,
	 .help = "a runner invocation that makes no progress (no I/O "
		 "completed, by it or its device, unless it waits on a "
		 "command at rest) this long has stalled: what can be seen "
		 "of it is kept beside the results and the repetition runs "
		 "once more on a new disk; a second stall fails it; before "
		 "the runner has begun (a guest's boot) 60 s at least; 0 "
		 "(never) or 5 and more, under timeout_s"},
	{.name = "workload",
	 .type = PB_OPT_CUSTOM,
	 .help = "the runner's options (below)"},
	{.name = "matrix",
	 .type = PB_OPT_CUSTOM,
	 .help = "workload keys that may vary (below), and disk_size, each a "
		 "list: every combination is a workload point; a backend key "
		 "(datastore, vm, host, dir) varies the targets instead"},
	{.name = "guest_sysctl",
	 .type = PB_OPT_KV,
	 .off = PROF(sysctl),
	 .help = "sysctl -w in the guest before the run, {\"key\": "
		 "\"value\"}; a backend without a guest (host) refuses it"},
	{.name = "confirm_above",
	 .type = PB_OPT_SIZE,
	 .off = PROF(confirm_above),
	 .def = "100G",
	 .help = "a run whose plan writes more than this (its passes and "
		 "eager's zeros) to storage others share (a vSphere "
		 "datastore) asks before it starts, or, with no terminal to "
		 "ask on, needs run --yes; 0: never asks"},
	{.name = "exclusive",
	 .type = PB_OPT_BOOL,
	 .off = PROF(exclusive),
	 .def = "false",
	 .help = "true: refuse to run while another provbench run on this "
		 "machine uses one of the datastores, LUNs or host "
		 "filesystems (false: warned, and said in run.json and the "
		 "report)"},
	{.name = "targets",
	 .type = PB_OPT_CUSTOM,
	 .help = "where disks live and which guest writes them: a list of "
		 "objects of the backend's keys (vm, datastore, ...; dir for "
		 "qemu) over its section, each with an optional \"name\"; "
		 "default one, the section itself"},
	{0},
};

#undef PROF

enum pb_error pb_profile_keys_foreach(pb_profile_key_cb cb, void *data)
{
	const struct pb_backend_ops *const *be;
	const struct pb_option *d;
	const struct pb_option *o;
	struct pb_profile_key k;
	char text[2048], names[1024];
	size_t n = 0;
	int rc = 0;

	k = (struct pb_profile_key){
		.section = "",
		.section_help = "A profile is a JSON object. Any string value "
				"may be \"env:NAME\", read from the "
				"environment.",
		.text = text};
	for (d = pb_profile_options; !rc && d->name; d++) {
		k.key = d->name;
		pb_opt_describe(d, text, sizeof(text));
		/* a key's help names its values: the backends from their
		 * registry (a backend added there is said here) */
		if (!strcmp(d->name, "backend"))
			for (be = pb_backend_list(), n = 0; *be; be++, n++)
				snprintf(text + strlen(text),
					 sizeof(text) - strlen(text), "%s %s",
					 n ? (be[1] ? "," : " or") : "",
					 (*be)->name);
		rc = cb(&k, data);
		k.section_help = NULL;
	}
	k = (struct pb_profile_key){.section = "workload",
				    .section_help = "the runner's own options",
				    .text = text};
	for (o = runner_options; !rc && o->name; o++) {
		if (!(o->flags & PB_OPT_F_WORKLOAD))
			continue;
		k.key = runner_option_key(o);
		runner_option_describe(o, true, text, sizeof(text));
		rc = cb(&k, data);
		k.section_help = NULL;
	}
	names[0] = '\0';
	n = 0;
	for (o = runner_options; o->name; o++)
		if (o->flags & PB_OPT_F_MATRIX)
			n += (size_t)snprintf(
				names + n,
				n < sizeof(names) ? sizeof(names) - n : 0,
				"%s%s", n ? ", " : "", runner_option_key(o));
	k = (struct pb_profile_key){
		.section = "matrix",
		.section_help = "workload keys that may vary, each a list",
		.key = "keys",
		.text = names};
	if (!rc)
		rc = cb(&k, data);
	for (be = pb_backend_list(); !rc && *be; be++) {
		k = (struct pb_profile_key){.section = (*be)->name,
					    .section_help = (*be)->help,
					    .text = text};
		for (d = (*be)->options; !rc && d && d->name; d++) {
			k.key = d->name;
			pb_opt_describe(d, text, sizeof(text));
			rc = cb(&k, data);
			k.section_help = NULL;
		}
	}
	return rc ? PB_ERR_NOMEM : PB_OK;
}
