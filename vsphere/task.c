/*
 * task.c - waiting for the server: one read of the properties (most
 * reconfigurations are done by the time the call returns), then a property
 * filter and WaitForUpdatesEx until the caller's condition holds or the
 * timeout passes; never a sleep loop. Tasks are one use of it, power
 * states and Tools another.
 *
 * Property filters belong to a session: a session that expired and was
 * logged into again has none, and WaitForUpdatesEx would wait out its
 * maxWaitSeconds, call after call, until the task timeout. So the filter
 * is made anew after a new login and read in full (version "").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vs_int.h"

/* ---- xsd:dateTime ---- */

double vs_datetime(const char *s)
{
	struct tm tm;
	char *end;
	double frac = 0;
	long off = 0;
	time_t t;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return NAN;
	if (*end == '.') {
		frac = strtod(end, &end);
	}
	if (*end == '+' || *end == '-') {
		int hh = 0, mm = 0;

		if (sscanf(end + 1, "%2d:%2d", &hh, &mm) != 2)
			return NAN;
		off = (hh * 3600L + mm * 60L) * (*end == '-' ? -1 : 1);
	} else if (*end != 'Z' && *end) {
		return NAN;
	}
	t = timegm(&tm);
	return (double)t - (double)off + frac;
}

/* ---- a property filter and its updates ---- */

struct watch {
	vs_change_fn fn;
	void *arg;
	bool done;
};

static enum pb_error on_object(struct vs_session *s,
			       const struct vs_objcontent *oc, void *arg)
{
	struct watch *w = arg;
	char name[96];
	xmlNodePtr p;

	(void)s;
	for (p = oc->props; p; p = vs_next(p, "propSet"))
		if (w->fn(vs_text(name, sizeof(name), p, "name"),
			  vs_child(p, "val"), w->arg))
			w->done = true;
	return PB_OK;
}

/* Every change of a WaitForUpdatesEx returnval. */
static void read_updates(struct watch *w, xmlNodePtr rv)
{
	xmlNodePtr fs, os, cs;
	char name[96];

	for (fs = vs_child(rv, "filterSet"); fs; fs = vs_next(fs, "filterSet"))
		for (os = vs_child(fs, "objectSet"); os;
		     os = vs_next(os, "objectSet"))
			for (cs = vs_child(os, "changeSet"); cs;
			     cs = vs_next(cs, "changeSet"))
				if (w->fn(vs_text(name, sizeof(name), cs,
						  "name"),
					  vs_child(cs, "val"), w->arg))
					w->done = true;
}

static enum pb_error create_filter(struct vs_session *s,
				   const struct vs_moref *obj,
				   const char *const *paths,
				   struct vs_moref *filter)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, spec, ps, os;
	const char *const *p;
	enum pb_error err;

	err = vs_req_new(&r, "CreateFilter", &s->collector);
	spec = err ? NULL : vs_add(r.op, "spec", NULL);
	ps = vs_add(spec, "propSet", NULL);
	if (!ps || !vs_add(ps, "type", obj->type))
		err = PB_ERR_NOMEM;
	for (p = paths; !err && *p; p++)
		if (!vs_add(ps, "pathSet", *p))
			err = PB_ERR_NOMEM;
	os = err ? NULL : vs_add(spec, "objectSet", NULL);
	if (!err && (!vs_add_moref(os, "obj", obj) ||
		     !vs_add(r.op, "partialUpdates", "false")))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, false, &doc, &ret);
	else
		pb_fail(s->errbuf, err, "out of memory");
	if (!err)
		vs_moref_read(filter, vs_child(ret, "returnval"));
	xmlFreeDoc(doc);
	vs_req_dispose(&r);
	return err;
}

static void destroy_filter(struct vs_session *s, const struct vs_moref *f)
{
	struct vs_req r;

	if (vs_req_new(&r, "DestroyPropertyFilter", f))
		return;
	vs_call_cleanup(s, &r);
	vs_req_dispose(&r);
}

/* One WaitForUpdatesEx; updates *version and the watch. */
static enum pb_error wait_once(struct vs_session *s, char *version, size_t vlen,
			       long wait_s, struct watch *w)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, rv, opts;
	enum pb_error err;

	err = vs_req_new(&r, "WaitForUpdatesEx", &s->collector);
	r.session_bound = true;
	if (!err && version[0] && !vs_add(r.op, "version", version))
		err = PB_ERR_NOMEM;
	opts = err ? NULL : vs_add(r.op, "options", NULL);
	if (!err && !vs_addf(opts, "maxWaitSeconds", "%ld", wait_s))
		err = PB_ERR_NOMEM;
	/* the server holds this reply up to wait_s by design: the reply
	 * bound starts after it */
	s->wait_extra_s = wait_s;
	if (!err)
		err = vs_call(s, &r, true, &doc, &ret);
	else
		pb_fail(s->errbuf, err, "out of memory");
	s->wait_extra_s = 0;
	vs_req_dispose(&r);
	if (err)
		goto out;
	rv = vs_child(ret, "returnval");
	if (!rv) /* maxWaitSeconds passed with no change */
		goto out;
	vs_text(version, vlen, rv, "version");
	read_updates(w, rv);
out:
	xmlFreeDoc(doc);
	return err;
}

enum pb_error vs_wait_props(struct vs_session *s, const struct vs_moref *obj,
			    const char *const *paths, vs_change_fn fn,
			    void *arg, long timeout_s)
{
	struct watch w = {fn, arg, false};
	struct vs_moref filter = {"", ""};
	char version[64] = "";
	time_t end = time(NULL) + timeout_s, now;
	unsigned logins = 0;
	enum pb_error err;

	err = vs_retrieve_one(s, obj, paths, on_object, &w);
	while (!err && !w.done) {
		if (!filter.value[0] || logins != s->logins) {
			/* no filter yet, or one a lost session took along */
			filter.value[0] = '\0';
			version[0] = '\0';
			logins = s->logins;
			err = create_filter(s, obj, paths, &filter);
			if (err)
				break;
		}
		now = time(NULL);
		if (now >= end) {
			err = PB_ERR_TIMEOUT;
			break;
		}
		err = wait_once(s, version, sizeof(version),
				end - now < 60 ? (long)(end - now) : 60, &w);
	}
	if (filter.value[0] && logins == s->logins)
		destroy_filter(s, &filter);
	return err;
}

/* ---- tasks ---- */

struct task_state {
	char state[16];
	int progress;
	bool have_error;
	char fault[64];
	char message[PB_ERRBUF_SIZE / 2];
	char start[40], complete[40];
	struct vs_session *s;
	const struct vs_moref *task;
	char seen_state[16];
	int seen_progress;
};

/* info.error is a LocalizedMethodFault: fault (xsi:type), message */
static void read_error(struct task_state *t, xmlNodePtr err)
{
	t->have_error = true;
	vs_xsi_type(t->fault, sizeof(t->fault), vs_child(err, "fault"));
	vs_text(t->message, sizeof(t->message), err, "localizedMessage");
	if (!t->fault[0])
		snprintf(t->fault, sizeof(t->fault), "%s", "SystemError");
}

static bool on_task_change(const char *name, xmlNodePtr val, void *arg)
{
	struct task_state *t = arg;
	struct vs_session *s = t->s;
	char b[32];

	if (!strcmp(name, "info.state"))
		vs_node_text(t->state, sizeof(t->state), val);
	else if (!strcmp(name, "info.progress"))
		t->progress = atoi(vs_node_text(b, sizeof(b), val));
	else if (!strcmp(name, "info.error") && val)
		read_error(t, val);
	else if (!strcmp(name, "info.startTime"))
		vs_node_text(t->start, sizeof(t->start), val);
	else if (!strcmp(name, "info.completeTime"))
		vs_node_text(t->complete, sizeof(t->complete), val);
	/* the progress callback, once per change */
	if (s && s->progress &&
	    (t->seen_progress != t->progress ||
	     strcmp(t->seen_state, t->state))) {
		t->seen_progress = t->progress;
		snprintf(t->seen_state, sizeof(t->seen_state), "%s", t->state);
		s->progress(t->task->value, t->state, t->progress,
			    s->progress_arg);
	}
	return !strcmp(t->state, "success") || !strcmp(t->state, "error");
}

static enum pb_error task_result(struct vs_session *s,
				 const struct vs_moref *task,
				 const struct task_state *t)
{
	if (!strcmp(t->state, "success"))
		return PB_OK;
	snprintf(s->fault, sizeof(s->fault), "%s", t->fault);
	if (!strcmp(t->fault, "RestrictedVersion"))
		return pb_fail(s->errbuf, PB_ERR_LICENSE,
			       "task %s: RestrictedVersion: %s (this host's "
			       "licence makes the API read-only)",
			       task->value,
			       t->message[0] ? t->message : "(no message)");
	return pb_fail(s->errbuf, PB_ERR_FAULT, "task %s: %s: %s", task->value,
		       t->fault[0] ? t->fault : "error",
		       t->message[0] ? t->message : "(no message)");
}

static const char *const task_paths[] = {"info.state",	      "info.progress",
					 "info.error",	      "info.startTime",
					 "info.completeTime", NULL};

enum pb_error vs_task_read(struct vs_session *s, xmlNodePtr returnval,
			   bool updates, char *state, size_t slen,
			   int *progress)
{
	static const struct vs_moref task = {"Task", "(reply)"};
	struct task_state t = {.seen_progress = -1, .task = &task};
	struct watch w = {on_task_change, &t, false};
	enum pb_error err = PB_OK;

	if (updates)
		read_updates(&w, returnval);
	else
		err = vs_each_object(s, returnval, on_object, &w);
	snprintf(state, slen, "%s", t.state);
	*progress = t.progress;
	if (!err && !strcmp(t.state, "error"))
		err = task_result(s, &task, &t);
	return err;
}

/*
 * A task past its time is cancelled, not left running: a disk it goes on
 * making would appear on the VM after the run gave up on it (vSphere API
 * reference, Task.CancelTask: asynchronous, the task then ends in error
 * with RequestCanceled; NotSupported when it is not cancelable). The
 * message says whether what it was making may still appear.
 */
static enum pb_error cancel(struct vs_session *s, const struct vs_moref *task,
			    long timeout_s, struct task_state *t)
{
	char was[64];
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	enum pb_error err;

	snprintf(was, sizeof(was), "%s, %d%%", t->state, t->progress);
	err = vs_req_new(&r, "CancelTask", task);
	if (!err)
		err = vs_call(s, &r, false, &doc, &ret);
	vs_req_dispose(&r);
	xmlFreeDoc(doc);
	if (!err) {
		/* a cancel is asynchronous: wait for the task to say so */
		t->s = NULL;
		err = vs_wait_props(s, task, task_paths, on_task_change, t, 60);
	}
	s->errbuf[0] = '\0';
	if (!err && !strcmp(t->state, "success"))
		return PB_OK; /* it finished before the cancel took */
	if (!err && !strcmp(t->state, "error")) {
		snprintf(s->fault, sizeof(s->fault), "%s", t->fault);
		return pb_fail(s->errbuf, PB_ERR_TIMEOUT,
			       "task %s: not done after %ld s (%s): "
			       "cancelled, %s; nothing it was making remains",
			       task->value, timeout_s, was,
			       t->fault[0] ? t->fault : "ended");
	}
	return pb_fail(s->errbuf, PB_ERR_TIMEOUT,
		       "task %s: not done after %ld s (%s) and %s: what it is "
		       "making may still appear (a disk on the VM); "
		       "`provbench cleanup` removes it by its journaled name "
		       "once it does",
		       task->value, timeout_s, was,
		       !strcmp(s->fault, "NotSupported")
			       ? "the server cannot cancel it (NotSupported)"
			       : "its cancel did not finish within 60 s");
}

enum pb_error vs_task_wait(struct vs_session *s, const struct vs_moref *task,
			   long timeout_s)
{
	struct task_state t = {.seen_progress = -1, .s = s, .task = task};
	struct vs_task_times *tt = &s->last_task;
	uint64_t t0 = pb_now_ns();
	enum pb_error err;
	double a, b;

	memset(tt, 0, sizeof(*tt));
	err = vs_wait_props(s, task, task_paths, on_task_change, &t, timeout_s);
	tt->wall_s = (double)(pb_now_ns() - t0) / 1e9;
	snprintf(tt->start, sizeof(tt->start), "%s", t.start);
	snprintf(tt->complete, sizeof(tt->complete), "%s", t.complete);
	a = vs_datetime(t.start);
	b = vs_datetime(t.complete);
	tt->have_server = !isnan(a) && !isnan(b) && b >= a;
	tt->server_s = tt->have_server ? b - a : NAN;
	if (err == PB_ERR_TIMEOUT)
		return cancel(s, task, timeout_s, &t);
	if (err)
		return err;
	return task_result(s, task, &t);
}

enum pb_error vs_call_task(struct vs_session *s, struct vs_req *r)
{
	struct vs_moref task;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	enum pb_error err;

	r->once = true; /* a task is a change: never twice */
	err = vs_call(s, r, false, &doc, &ret);
	if (err)
		return err;
	vs_moref_read(&task, vs_child(ret, "returnval"));
	xmlFreeDoc(doc);
	return vs_task_wait(s, &task, s->task_timeout_s);
}
