/*
 * fuzz_soap.c - libFuzzer target: a vSphere SOAP reply, as hostile as it
 * comes, through the reply parser (envelope, faults) and every reader the
 * client runs on a reply: property-collector objects, a VM's devices and
 * disks and their free units, task info from RetrievePropertiesEx and
 * WaitForUpdatesEx, guest process lists, a ConfigTarget's RDM candidates,
 * the version list, and the generic node readers on every element.
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "vs_int.h"

static void walk(xmlNodePtr n, unsigned depth)
{
	char buf[256];
	struct vs_moref ref;

	for (; n && depth < 64; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		vs_xsi_type(buf, sizeof(buf), n);
		vs_node_text(buf, sizeof(buf), n);
		vs_moref_read(&ref, n);
		(void)vs_u64(n, "key");
		(void)vs_bool(n, "thinProvisioned");
		walk(n->children, depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vs_session s;
	static struct vs_perf_samples *perf;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret = NULL, rv;
	char fault[64], err[PB_ERRBUF_SIZE], state[32];
	struct vs_disk *disks = NULL;
	struct vs_lun luns[2];
	size_t n = 0;
	int progress, code, ctl, unit;

	memset(&s, 0, sizeof(s));
	memset(luns, 0, sizeof(luns));
	if (!perf) /* once: 26 KB, kept for every input */
		perf = malloc(sizeof(*perf));
	/* the same bytes as a vimServiceVersions.xml */
	vs_versions_pick(state, sizeof(state), (const char *)data, size);
	if (vs_reply_parse(&doc, &ret, (const char *)data, size, fault,
			   sizeof(fault), err) == PB_OK) {
		rv = vs_child(ret, "returnval");
		vs_disks_read(&s, rv, &disks, &n);
		free(disks);
		vs_task_read(&s, rv, false, state, sizeof(state), &progress);
		vs_task_read(&s, rv, true, state, sizeof(state), &progress);
		(void)vs_process_read(ret, &code);
		vs_devices_free_unit(&s, rv, -1, &ctl, &unit);
		snprintf(luns[0].canonical_name, sizeof(luns[0].canonical_name),
			 "naa.6000c29");
		vs_luns_mark_offered(luns, 2, rv);
		/* a QueryPerf reply: every series asked for, by any key */
		if (perf) {
			struct vs_perf_counters pc;
			const char *inst[VS_PC__COUNT];

			for (unsigned k = 0; k < VS_PC__COUNT; k++) {
				pc.key[k] = (int)k + 1;
				inst[k] = k % 2 ? "" : "scsi0:1";
			}
			vs_perf_read(&s, ret, &pc, inst, perf);
		}
		walk(ret, 0);
	}
	xmlFreeDoc(doc);
	return 0;
}
