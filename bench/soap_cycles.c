/*
 * soap_cycles.c - the provbench side of bench/soap-vs-pyvmomi: log in,
 * find the VM, then N cycles of "add a lazy disk, read it back, remove
 * it" through the vsphere library, as provbench's harness does per mode.
 * Prints one line: cycles, seconds, round trips (client-side count).
 *
 * usage: soap-cycles VM N SIZE   (connection from PROVBENCH_* / GOVC_*)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vsphere.h"

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

int main(int argc, char **argv)
{
	struct vs_config cfg = VS_CONFIG_INIT;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_disk d;
	char err[PB_ERRBUF_SIZE] = "";
	unsigned rt0;
	uint64_t t0;
	long i, n;
	int rc = 1;

	if (argc != 4 || pb_size_parse(&sp.size_bytes, argv[3], err)) {
		fprintf(stderr, "usage: soap-cycles VM N SIZE\n");
		return 2;
	}
	n = atol(argv[2]);
	sp.mode = PB_MODE_LAZY;
	if (vs_config_from_env(&cfg, env_get, NULL, err) ||
	    vs_session_open(&s, &cfg, NULL, NULL, err)) {
		fprintf(stderr, "soap-cycles: %s\n", err);
		goto out;
	}
	if (vs_vm_find(s, &vm, argv[1]))
		goto fail;
	t0 = pb_now_ns();
	rt0 = vs_session_round_trips(s);
	for (i = 0; i < n; i++) {
		/* vs_disk_add reads the new disk back from the server */
		if (vs_disk_add(s, &vm.ref, &sp, &d) ||
		    d.mode != PB_MODE_LAZY ||
		    vs_disk_remove(s, &vm.ref, &d, false))
			goto fail;
	}
	printf("cycles %ld seconds %.6f round_trips %u\n", n,
	       (double)(pb_now_ns() - t0) / 1e9,
	       vs_session_round_trips(s) - rt0);
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "soap-cycles: %s\n", vs_session_error(s));
out:
	vs_session_free(s);
	vs_config_dispose(&cfg);
	return rc;
}
