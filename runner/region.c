/*
 * region.c - the part of a target the passes cover (--size, or the whole
 * target in whole blocks), checked against the target and --bs: the same
 * rules on Linux and on Windows.
 */
#include "runner_int.h"

enum pb_error runner_target_region(struct runner_target *t,
				   const struct runner_opts *o, char *errbuf)
{
	if (o->size) {
		if (t->kind == RUNNER_TARGET_BLOCK && o->size > t->dev_size)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "--size: %llu bytes is larger than %s "
				       "(%llu bytes)",
				       (unsigned long long)o->size, t->path,
				       (unsigned long long)t->dev_size);
		if (t->kind == RUNNER_TARGET_FILE && !t->writes &&
		    o->size > t->dev_size)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "--size: %llu bytes is larger than %s "
				       "(%llu bytes) and nothing writes it",
				       (unsigned long long)o->size, t->path,
				       (unsigned long long)t->dev_size);
		t->size = o->size;
	} else {
		/* the whole target, in whole blocks */
		t->size = t->dev_size - t->dev_size % o->bs;
	}
	if (t->size < o->bs)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "%s: %llu bytes is smaller than one block "
			       "(--bs %u)",
			       t->path, (unsigned long long)t->size, o->bs);
	if (!o->buffered && o->bs % t->lbs)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "--bs: %u is not a multiple of %s's logical "
			       "block size %u (needed for O_DIRECT)",
			       o->bs, t->path, t->lbs);
	/* the stripes are counted in the region the device gave */
	if (o->pair_stripe)
		return runner_pair_check(o, t->size, false, errbuf);
	return PB_OK;
}
