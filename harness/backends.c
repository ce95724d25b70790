/*
 * backends.c - the registry: every backend provbench has, and the one
 * place that names them. A new backend is a folder under harness/backends/
 * and a line here (CONTRIBUTING.md, "Adding a backend").
 */
#include <string.h>

#include "backend.h"

extern const struct pb_backend_ops qemu_backend;
extern const struct pb_backend_ops vsphere_backend;

/* the first is the default of a profile that names none */
static const struct pb_backend_ops *const backends[] = {
	&qemu_backend,
	&vsphere_backend,
	NULL,
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
