/*
 * cmd.c - short commands of the qemu backend's (qemu-img, qemu --version)
 * run to their end, and the clock its parts share.
 */
#include "qb.h"

/* Run a short command to the end; its stdout into out (capped). */
enum pb_error qb_run_cmd(struct qb *b, char *const argv[], struct pb_buf *out,
			 char *errbuf)
{
	struct pb_child_spec sp = {.argv = argv, .flags = QB_CHILD};
	char msg[PB_ERRBUF_SIZE];
	int rc = pb_child_run(&sp, out, msg, sizeof(msg), errbuf);

	(void)b;
	if (rc < 0)
		return PB_ERR_CHILD;
	if (rc)
		return pb_fail(errbuf, PB_ERR_CHILD, "%s failed (exit %d): %s",
			       argv[0], rc, msg[0] ? msg : "no message");
	return PB_OK;
}

double qb_since(uint64_t t0)
{
	return (double)(pb_now_ns() - t0) / 1e9;
}
