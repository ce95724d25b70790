/*
 * reclaim.c - what a thin disk gave back after its guest's reclaim, read
 * from the server while the runner waits (issue 40). VMFS 6 gives a
 * discarded region's space back in the background, at its datastore's
 * rate: nothing says when it is done but the disk file's allocation
 * (layoutEx's uniqueSize after RefreshStorageInfo), read at the server's
 * pace, once a second, until it stops moving. Then the runner is told to
 * go on (its --reclaim-go-file); its reclaim pass gets what was read
 * ("server_allocation"). The "before" the give-back is counted from is
 * read while the runner holds before its discard, and nowhere else: the
 * passes before it cost no call of their own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"

/* a reclaim's read-back, into the watch's done object by pass index */
static void finish(struct vsb_reclaim_watch *w)
{
	json_t *last =
		json_array_get(w->samples, json_array_size(w->samples) - 1);
	char key[24];

	if (w->index < 0 || !w->samples)
		return;
	snprintf(key, sizeof(key), "%ld", w->index);
	json_object_set_new(
		w->done, key,
		json_pack(
			"{s:o,s:o,s:O,s:f,s:s}", "before_bytes",
			isnan(w->before_at)
				? json_null()
				: json_integer((json_int_t)w->before_at),
			"after_bytes",
			last ? json_incref(json_array_get(last, 1))
			     : json_null(),
			"samples", w->samples, "seconds",
			last ? json_number_value(json_array_get(last, 0)) : 0.0,
			"ended", w->told ? "stopped giving back" : "the wait"));
	json_decref(w->samples);
	w->samples = NULL;
	w->index = -1;
}

void vsb_reclaim_watch_init(struct vsb_reclaim_watch *w, const struct vsb *b,
			    const char *file, const char *go)
{
	memset(w, 0, sizeof(*w));
	w->on = pb_profile_has_pass(b->p, RUNNER_PASS_RECLAIM);
	w->file = file;
	w->go = go;
	w->before = w->before_at = NAN;
	w->index = -1;
	w->done = json_object();
}

unsigned vsb_reclaim_watch_poll(struct vsb *b, struct vsb_reclaim_watch *w,
				const json_t *progress)
{
	const char *waiting =
		json_string_value(json_object_get(progress, "waiting"));
	long index =
		(long)json_integer_value(json_object_get(progress, "index"));
	uint64_t bytes;
	json_t *prev;

	if (!w->on || !w->done)
		return 0;
	/* the runner holds before its discard: what the disk holds first,
	 * then go */
	if (waiting && !strcmp(waiting, "before reclaim")) {
		if (w->before_index != index + 1 &&
		    !vs_vm_file_allocated(b->s, &b->vm.ref, w->file, &bytes) &&
		    !vs_guest_upload(b->s, &b->vm, "/dev/null", w->go, 0600,
				     true)) {
			w->before = (double)bytes;
			w->before_index = index + 1;
		}
		return 250;
	}
	if (!waiting || strcmp(waiting, "reclaim")) {
		finish(w); /* the runner went on: its wait ran out */
		return 0;
	}
	if (w->index != index) {
		finish(w);
		w->index = index;
		w->samples = json_array();
		w->t0 = pb_now_ns();
		w->told = false;
		w->before_at = w->before;
	}
	if (w->told || vs_vm_file_allocated(b->s, &b->vm.ref, w->file, &bytes))
		return 0;
	prev = json_array_get(w->samples, json_array_size(w->samples) - 1);
	json_array_append_new(w->samples,
			      json_pack("[f,I]",
					(double)(pb_now_ns() - w->t0) / 1e9,
					(json_int_t)bytes));
	/* two reads alike, a second apart: the server stopped giving back */
	if (prev &&
	    json_integer_value(json_array_get(prev, 1)) == (json_int_t)bytes &&
	    !vs_guest_upload(b->s, &b->vm, "/dev/null", w->go, 0600, true)) {
		w->told = true;
		finish(w);
		return 0;
	}
	return 1000;
}

void vsb_reclaim_annotate(struct vsb_reclaim_watch *w, const char *path)
{
	json_t *doc, *p;
	const char *key;
	json_t *v;

	finish(w);
	if (!w->done || !json_object_size(w->done))
		return;
	doc = json_load_file(path, 0, NULL);
	json_object_foreach(w->done, key, v)
	{
		p = json_array_get(json_object_get(doc, "passes"),
				   (size_t)strtol(key, NULL, 10));
		if (json_object_get(p, "reclaim"))
			json_object_set(p, "server_allocation", v);
	}
	if (doc)
		json_dump_file(doc, path, JSON_COMPACT);
	json_decref(doc);
}

void vsb_reclaim_watch_dispose(struct vsb_reclaim_watch *w)
{
	json_decref(w->samples);
	json_decref(w->done);
	memset(w, 0, sizeof(*w));
}
