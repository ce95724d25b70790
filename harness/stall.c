/*
 * stall.c - when a runner has stopped making progress: the rule, once,
 * for every backend. The harness hands the watch each progress document
 * the backend relays (pb_stall_seen); a backend adds what it hears of
 * the guest itself (a boot's markers: pb_stall_alive) and asks at each
 * poll whether the run has stalled (pb_stall_check).
 *
 * Progress is I/O completed: by the runner ("done" in its document, or
 * the pass's bytes where an older runner says nothing else), or by the
 * device under it while the runner waits on mkfs or a command
 * ("device_done"). A runner that waits on something at rest (a command
 * that sleeps, nothing in flight on its device) is not stalled: its own
 * heartbeat ("beat", new each document) then counts. Nothing of that
 * for stall_s seconds is a stall: a guest paused or hung, a device or a
 * hypervisor path that stopped completing requests, a runner blocked in
 * a syscall. Before the runner has begun (a guest booting, a runner
 * uploaded and started: until its start is heard or its first document
 * seen) the watch waits PB_STALL_START_S at least: a boot is not a
 * pass, and a loaded machine's TCG guest said nothing for over 5 s as
 * it booted (CI, 2026-12-04).
 */
#include <stdio.h>
#include <string.h>

#include "harness_int.h"

static long long num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_integer(v)  ? (long long)json_integer_value(v)
	       : json_is_number(v) ? (long long)json_number_value(v)
				   : -1;
}

void pb_stall_start(struct pb_stall *s, double limit_s)
{
	json_decref(s->last);
	memset(s, 0, sizeof(*s));
	s->limit_s = limit_s;
	s->last_ns = pb_now_ns();
	s->beat = s->done = s->dev_done = s->bytes = -1;
	snprintf(s->what, sizeof(s->what), "the start");
}

void pb_stall_alive(struct pb_stall *s, const char *what)
{
	if (!s)
		return;
	s->last_ns = pb_now_ns();
	snprintf(s->what, sizeof(s->what), "%s", what);
}

void pb_stall_begun(struct pb_stall *s, const char *what)
{
	if (!s)
		return;
	s->runner = true;
	pb_stall_alive(s, what);
}

void pb_stall_seen(struct pb_stall *s, json_t *p)
{
	long long beat = num(p, "beat"), done = num(p, "done");
	long long dev = num(p, "device_done"), bytes = num(p, "bytes");
	long long index = num(p, "index");
	const char *waiting = json_string_value(json_object_get(p, "waiting"));
	const char *pass = json_string_value(json_object_get(p, "pass"));
	bool moved, at_rest;
	char d[32], t[32];

	if (!s)
		return;
	/* the runner has begun: from now on stall_s alone */
	if (!s->runner) {
		s->runner = true;
		s->last_ns = pb_now_ns();
	}
	/* an older runner's document has neither beat nor done: its
	 * pass's bytes are its progress */
	moved = (done >= 0 && done != s->done) ||
		(dev >= 0 && dev != s->dev_done) ||
		(done < 0 && (bytes != s->bytes || index != s->index));
	at_rest = waiting && beat >= 0 && beat != s->beat &&
		  num(p, "device_in_flight") == 0;
	s->beat = beat;
	s->done = done;
	s->dev_done = dev;
	s->bytes = bytes;
	s->index = index;
	json_decref(s->last);
	s->last = json_incref(p);
	if (!moved && !at_rest)
		return;
	s->last_ns = pb_now_ns();
	pb_size_format(d, sizeof(d), bytes > 0 ? (uint64_t)bytes : 0);
	pb_size_format(t, sizeof(t),
		       num(p, "total") > 0 ? (uint64_t)num(p, "total") : 0);
	if (waiting)
		snprintf(s->what, sizeof(s->what), "%s pass, waiting on %s",
			 pass ? pass : "?", waiting);
	else
		snprintf(s->what, sizeof(s->what), "%s: %s of %s",
			 pass ? pass : "?", d, t);
}

bool pb_stall_check(const struct pb_stall *s, char *why, size_t len)
{
	double idle, limit;

	if (!s || !(s->limit_s > 0))
		return false;
	idle = (double)(pb_now_ns() - s->last_ns) / 1e9;
	limit = s->runner || s->limit_s > PB_STALL_START_S ? s->limit_s
							   : PB_STALL_START_S;
	if (idle < limit)
		return false;
	if (s->runner)
		snprintf(why, len,
			 "no progress for %.0f s (stall_s %.0f) after %s", idle,
			 s->limit_s, s->what);
	else
		snprintf(why, len,
			 "no word from the runner for %.0f s after %s (a "
			 "start is given %.0f s)",
			 idle, s->what, limit);
	return true;
}

void pb_stall_dispose(struct pb_stall *s)
{
	if (!s)
		return;
	json_decref(s->last);
	s->last = NULL;
}
