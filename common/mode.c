/*
 * mode.c - the provisioning modes (docs/DESIGN.md): one enum and one name
 * table for the harness, the vSphere client and the reports.
 */
#include <string.h>

#include "common.h"

static const char *const names[] = {
	[PB_MODE_THIN] = "thin",   [PB_MODE_LAZY] = "lazy",
	[PB_MODE_EAGER] = "eager", [PB_MODE_RDM] = "rdm",
	[PB_MODE_RDMP] = "rdmp",   [PB_MODE_UNKNOWN] = "unknown",
};

/* the modes a user may name, for messages */
static const char *const choosable[] = {"thin", "lazy", "eager",
					"rdm",	"rdmp", NULL};

const char *const *pb_mode_names(void)
{
	return choosable;
}

const char *pb_mode_name(enum pb_mode m)
{
	return (unsigned)m <= PB_MODE_UNKNOWN ? names[m] : "unknown";
}

bool pb_mode_parse(enum pb_mode *out, const char *s)
{
	int m;

	for (m = 0; m < PB_MODE__COUNT; m++)
		if (!strcmp(s, names[m])) {
			*out = (enum pb_mode)m;
			return true;
		}
	return false;
}

bool pb_mode_is_raw_mapping(enum pb_mode m)
{
	return m == PB_MODE_RDM || m == PB_MODE_RDMP;
}
