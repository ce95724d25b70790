/*
 * backends.c - the registry: every backend provbench has, and the one
 * place that names them. A new backend is a folder under harness/backends/
 * and a line here (CONTRIBUTING.md, "Adding a backend").
 */
#include <stdbool.h>
#include <string.h>

#include "backend.h"

extern const struct pb_backend_ops qemu_backend;
extern const struct pb_backend_ops vsphere_backend;
extern const struct pb_backend_ops host_backend;
extern const struct pb_backend_ops null_backend;

/* the first is the default of a profile that names none; room after
 * them for backends added at run time (a test's backend with faults
 * injected through its table: tests/integration/test_host.c) */
#define PB_MAX_BACKENDS 8
static const struct pb_backend_ops *backends[PB_MAX_BACKENDS + 1] = {
	&qemu_backend, &vsphere_backend, &host_backend, &null_backend, NULL,
};

const struct pb_backend_ops *const *pb_backend_list(void)
{
	return backends;
}

const struct pb_backend_ops *pb_backend_find(const char *name)
{
	for (unsigned i = 0; backends[i]; i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

bool pb_backend_add(const struct pb_backend_ops *ops)
{
	unsigned i;

	for (i = 0; i < PB_MAX_BACKENDS && backends[i]; i++)
		if (backends[i] == ops || !strcmp(backends[i]->name, ops->name))
			return backends[i] == ops;
	if (i == PB_MAX_BACKENDS)
		return false;
	backends[i] = ops;
	backends[i + 1] = NULL;
	return true;
}
