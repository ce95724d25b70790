/*
 * task.c - wait for a vSphere task: one read of info.state (most
 * reconfigurations are done by the time the call returns), then a property
 * filter on the task and WaitForUpdatesEx until it succeeds, fails or the
 * timeout passes. Never a sleep loop.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vs_int.h"

struct task_state {
	char state[16];
	int progress;
	bool have_error;
	char fault[64];
	char message[PB_ERRBUF_SIZE / 2];
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

static void read_change(struct task_state *t, const char *name, xmlNodePtr val)
{
	char b[32];

	if (!strcmp(name, "info.state"))
		vs_node_text(t->state, sizeof(t->state), val);
	else if (!strcmp(name, "info.progress"))
		t->progress = atoi(vs_node_text(b, sizeof(b), val));
	else if (!strcmp(name, "info.error") && val)
		read_error(t, val);
}

static enum pb_error on_task(struct vs_session *s,
			     const struct vs_objcontent *oc, void *arg)
{
	char name[64];
	xmlNodePtr p;

	(void)s;
	for (p = oc->props; p; p = vs_next(p, "propSet"))
		read_change(arg, vs_text(name, sizeof(name), p, "name"),
			    vs_child(p, "val"));
	return PB_OK;
}

/* Every change of a WaitForUpdatesEx returnval. */
static void read_updates(struct task_state *t, xmlNodePtr rv)
{
	xmlNodePtr fs, os, cs;
	char name[64];

	for (fs = vs_child(rv, "filterSet"); fs; fs = vs_next(fs, "filterSet"))
		for (os = vs_child(fs, "objectSet"); os;
		     os = vs_next(os, "objectSet"))
			for (cs = vs_child(os, "changeSet"); cs;
			     cs = vs_next(cs, "changeSet"))
				read_change(
					t,
					vs_text(name, sizeof(name), cs, "name"),
					vs_child(cs, "val"));
}

static enum pb_error task_result(struct vs_session *s,
				 const struct vs_moref *task,
				 const struct task_state *t)
{
	if (!strcmp(t->state, "success"))
		return PB_OK;
	snprintf(s->fault, sizeof(s->fault), "%s", t->fault);
	return pb_fail(s->errbuf, PB_ERR_FAULT, "task %s: %s: %s", task->value,
		       t->fault[0] ? t->fault : "error",
		       t->message[0] ? t->message : "(no message)");
}

/* Tell the progress callback, once per change. */
static void report(struct vs_session *s, const struct vs_moref *task,
		   const struct task_state *t, struct task_state *seen)
{
	if (!s->progress ||
	    (seen->progress == t->progress && !strcmp(seen->state, t->state)))
		return;
	*seen = *t;
	s->progress(task->value, t->state, t->progress, s->progress_arg);
}

static const char *const task_paths[] = {"info.state", "info.progress",
					 "info.error", NULL};

static enum pb_error create_filter(struct vs_session *s,
				   const struct vs_moref *task,
				   struct vs_moref *filter)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, spec, ps, os;
	const char *const *p;
	enum pb_error err;

	err = vs_req_new(&r, "CreateFilter", &s->sc.property_collector);
	spec = err ? NULL : vs_add(r.op, "spec", NULL);
	ps = vs_add(spec, "propSet", NULL);
	if (!ps || !vs_add(ps, "type", "Task"))
		err = PB_ERR_NOMEM;
	for (p = task_paths; !err && *p; p++)
		if (!vs_add(ps, "pathSet", *p))
			err = PB_ERR_NOMEM;
	os = err ? NULL : vs_add(spec, "objectSet", NULL);
	if (!err && (!vs_add_moref(os, "obj", task) ||
		     !vs_add(r.op, "partialUpdates", "false")))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, false, &doc, &ret);
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

/* One WaitForUpdatesEx; updates *version and the task state. */
static enum pb_error wait_once(struct vs_session *s, char *version, size_t vlen,
			       long wait_s, struct task_state *t)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, rv, opts;
	enum pb_error err;

	err = vs_req_new(&r, "WaitForUpdatesEx", &s->sc.property_collector);
	if (!err && version[0] && !vs_add(r.op, "version", version))
		err = PB_ERR_NOMEM;
	opts = err ? NULL : vs_add(r.op, "options", NULL);
	if (!err && !vs_addf(opts, "maxWaitSeconds", "%ld", wait_s))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	if (err)
		goto out;
	rv = vs_child(ret, "returnval");
	if (!rv) /* maxWaitSeconds passed with no change */
		goto out;
	vs_text(version, vlen, rv, "version");
	read_updates(t, rv);
out:
	xmlFreeDoc(doc);
	return err;
}

enum pb_error vs_task_read(struct vs_session *s, xmlNodePtr returnval,
			   bool updates, char *state, size_t slen,
			   int *progress)
{
	static const struct vs_moref task = {"Task", "(reply)"};
	struct task_state t = {.progress = 0};
	enum pb_error err = PB_OK;

	if (updates)
		read_updates(&t, returnval);
	else
		err = vs_each_object(s, returnval, on_task, &t);
	snprintf(state, slen, "%s", t.state);
	*progress = t.progress;
	if (!err && !strcmp(t.state, "error"))
		err = task_result(s, &task, &t);
	return err;
}

enum pb_error vs_task_wait(struct vs_session *s, const struct vs_moref *task,
			   long timeout_s)
{
	struct task_state t = {.progress = 0}, seen = {.progress = -1};
	struct vs_moref filter = {"", ""};
	char version[64] = "";
	time_t end = time(NULL) + timeout_s, now;
	enum pb_error err;

	err = vs_retrieve_one(s, task, task_paths, on_task, &t);
	if (err)
		return err;
	report(s, task, &t, &seen);
	if (!strcmp(t.state, "success") || !strcmp(t.state, "error"))
		return task_result(s, task, &t);
	err = create_filter(s, task, &filter);
	while (!err) {
		if (!strcmp(t.state, "success") || !strcmp(t.state, "error")) {
			err = task_result(s, task, &t);
			break;
		}
		now = time(NULL);
		if (now >= end) {
			err = pb_fail(s->errbuf, PB_ERR_TIMEOUT,
				      "task %s: not done after %ld s (state "
				      "%s, %d%%)",
				      task->value, timeout_s, t.state,
				      t.progress);
			break;
		}
		err = wait_once(s, version, sizeof(version),
				end - now < 60 ? (long)(end - now) : 60, &t);
		if (!err)
			report(s, task, &t, &seen);
	}
	if (filter.value[0])
		destroy_filter(s, &filter);
	return err;
}
