/*
 * waves.c - the plan, wave by wave: one worker thread per VM of a wave
 * (one per target's key), started together at a gate once their disks are
 * made, the next wave when all are done.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_int.h"

/* A worker: its items in order, until one stops the run. */
static void *worker_main(void *arg)
{
	struct run_worker *w = arg;
	unsigned k;

	for (k = 0; !w->err && k < w->n && !run_stop; k++)
		w->err = run_item(w, w->items[k]);
	run_say_target = NULL; /* the main thread's lines are the run's */
	return NULL;
}

/*
 * The plan, wave by wave: a wave's items at once, one worker thread per VM
 * in it (two targets on one VM run one after the other: their disks are
 * the one VM's), the next wave when all are done, so what runs together is
 * always one mode on one workload. A single worker runs in this thread.
 * The first error of a worker is the run's.
 */
enum pb_error run_waves(struct run_state *r)
{
	struct run_worker *w = calloc(PB_MAX_TARGETS, sizeof(*w));
	struct run_gate gate;
	enum pb_error err = PB_OK;
	size_t i = 0, j, x;
	unsigned nw, k;
	sigset_t block, old;

	if (!w)
		return pb_fail(r->errbuf, PB_ERR_NOMEM, "out of memory");
	pthread_mutex_init(&gate.mu, NULL);
	pthread_cond_init(&gate.cv, NULL);
	run_signals_set(&block);
	while (!err && i < r->plan.n && !run_stop) {
		/* a round done: the precision form looks at it */
		if (i && r->plan.items[i].rep != r->plan.items[i - 1].rep &&
		    (err = run_adaptive_look(r, r->plan.items[i - 1].rep)))
			break;
		for (j = i; j < r->plan.n &&
			    r->plan.items[j].wave == r->plan.items[i].wave;
		     j++)
			;
		for (x = i, nw = 0; x < j && x - i < PB_MAX_TARGETS; x++) {
			unsigned key = run_same_key(r, r->plan.items[x].target);

			if (run_adaptive_skips(r, &r->plan.items[x])) {
				r->skipped++;
				continue;
			}

			for (k = 0; k < nw && w[k].key != key; k++)
				;
			if (k == nw) {
				memset(&w[k], 0, sizeof(w[k]));
				w[k].r = r;
				w[k].key = key;
				nw++;
			}
			w[k].items[w[k].n++] = x;
		}
		if (!nw) {
			i = j; /* every item of the wave stopped */
			continue;
		} else if (nw == 1) {
			worker_main(&w[0]);
		} else {
			bool started[PB_MAX_TARGETS] = {false};

			gate.expected = nw;
			gate.arrived = 0;
			for (k = 0; k < nw; k++)
				w[k].gate = &gate;

			/* the workers block the signals: the main thread
			 * takes them and sets the flag they poll */
			pthread_sigmask(SIG_BLOCK, &block, &old);
			for (k = 0; k < nw; k++)
				started[k] = !pthread_create(
					&w[k].th, NULL, worker_main, &w[k]);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			/* a worker without a thread runs after the others:
			 * they do not wait for it at the start line */
			pthread_mutex_lock(&gate.mu);
			for (k = 0; k < nw; k++)
				if (!started[k]) {
					gate.expected--;
					w[k].gate = NULL;
				}
			pthread_cond_broadcast(&gate.cv);
			pthread_mutex_unlock(&gate.mu);
			for (k = 0; k < nw; k++) {
				if (started[k])
					pthread_join(w[k].th, NULL);
				else /* no thread: its turn comes after */
					worker_main(&w[k]);
			}
		}
		for (k = 0; k < nw && !err; k++)
			if ((err = w[k].err))
				snprintf(r->errbuf, sizeof(r->errbuf), "%s",
					 w[k].errbuf);
		i = j;
		if (!err && r->p->cooldown_s && i < r->plan.n && !run_stop)
			sleep(r->p->cooldown_s);
	}
	/* the last round's look: what it answered, and what ran to the
	 * most still open */
	if (!err && !run_stop && r->plan.n)
		err = run_adaptive_look(r, r->plan.items[r->plan.n - 1].rep);
	pthread_cond_destroy(&gate.cv);
	pthread_mutex_destroy(&gate.mu);
	free(w);
	return err;
}
