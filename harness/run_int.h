/*
 * run_int.h - a run as the harness's files share it (run.c, targets.c,
 * item.c, waves.c, check.c, cleanup.c, lock.c, results.c, say.c): its
 * state, its targets and workers, and the functions each file gives the
 * others.
 */
#ifndef PB_RUN_INT_H
#define PB_RUN_INT_H

#include <pthread.h>
#include <signal.h>

#include "harness_int.h"
#include "runjson.h"

/* A target as a run holds it: its own backend, and its lock (the first
 * target with the same key holds the lock for both: a datastore
 * comparison on one VM is one VM's run). */
struct run_target {
	struct pb_backend *b;
	int lock_fd;
};

#define PB_MAX_PLACES (2 * PB_MAX_TARGETS)

struct run_state {
	struct pb_profile *p;
	const char *results; /* the results directory's parent */
	/* the places shared with other runs, held for the run */
	char place[PB_MAX_PLACES][256];
	int place_fd[PB_MAX_PLACES];
	/* the first target on each, and the place's index among its own */
	unsigned place_t[PB_MAX_PLACES], place_i[PB_MAX_PLACES];
	unsigned nplaces;
	json_t *shared; /* those another run was using at the start */
	struct pb_plan plan;
	unsigned shard, nshards; /* run --shard I/N (nshards 0: none) */
	const struct pb_backend_ops *ops;
	struct run_target t[PB_MAX_TARGETS];
	unsigned nt; /* opened so far */
	struct pb_journal j;
	char state[1024];
	char dir[1024];
	char run_json[1100];
	json_t *doc;			 /* run.json */
	char berr[PB_ERRBUF_SIZE];	 /* the main thread's backend op's */
	char tmsg[PB_ERRBUF_SIZE + 128]; /* run_target_msg's */
	bool quiet;
	bool tty;     /* a live progress line: one item at a time on a tty */
	bool cleanup; /* provbench cleanup, not a run (said in its locks) */
	/* check and a dry run: the plan and its cost printed as soon as it
	 * is built, before any target is opened or server reached */
	bool plan_first;
	/* run's one plan line, said before any server is reached */
	bool say_plan;
	/* the journal, run.json, the counters, while workers run */
	pthread_mutex_t mu;
	bool interrupted;
	unsigned failed;
	unsigned measured;
	/* the precision form (adaptive.c): per target, point and mode the
	 * round it stopped after (0: open); NULL for a fixed count. The
	 * last round looked at, the items not run as their mode stopped */
	unsigned *stopped;
	unsigned looked;
	size_t skipped;
	bool said_stop; /* the look stopped a mode: run.json to save */
	/* the gate's question's older run ("": not asked), and whether why
	 * it was not asked after all is said */
	char gate_against[1100];
	bool gate_said;
	uint64_t t0;	 /* the run's start, for elapsed and ETA */
	bool json_saved; /* run.json as it is now is on disk */
	char errbuf[PB_ERRBUF_SIZE];
};

/*
 * A wave's start line: each worker's first item waits here with its disk
 * made, until every worker of the wave is ready, so the runners start
 * together however long each disk took (eager zeroes, others do not) and
 * the passes overlap (HCIBench prepares every VM before its workload too).
 * A worker whose item failed before it arrives without waiting.
 */
struct run_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned expected, arrived;
};

/*
 * What a worker holds of its own while others run theirs: the items of
 * one VM in a wave (in plan order), the backend op's message, the
 * message of what stops the run, its progress line.
 */
struct run_worker {
	struct run_state *r;
	struct run_gate *gate; /* NULL: one worker, no one to wait for */
	bool at_gate;	       /* its first item passed it */
	pthread_t th;
	unsigned key; /* run_same_key() of its targets */
	size_t items[PB_MAX_TARGETS];
	unsigned n;
	char berr[PB_ERRBUF_SIZE];
	char errbuf[PB_ERRBUF_SIZE];
	/* the stall watch of the item it runs, fed its progress; NULL
	 * between runner invocations */
	struct pb_stall *stall;
	bool progress_shown;
	uint64_t next_log;
	enum pb_error err;
};

/*
 * The error buffer for the next backend op, emptied: reset in this one
 * place, before each op (curl's Curl_reset_fail), so what an op leaves is
 * that op's first failure. Each thread has its own (r->berr, w->berr).
 */
static inline char *run_reset_fail(char *berr)
{
	berr[0] = '\0';
	return berr;
}

/* signals.c: 0, or the number of the signal that asked the run to stop
 * (SIGINT, SIGTERM, SIGHUP, SIGQUIT); every wait polls it */
extern volatile sig_atomic_t run_stop;
/* Catch the signals that stop a run (run_stop cleared); SIGPIPE ignored. */
void run_signals_catch(void);
/* Those signals, as a set (a worker thread blocks them). */
void run_signals_set(sigset_t *set);
/* "SIGHUP" */
const char *run_signal_name(int sig);
/* A backend's message, the target named when there are several. */
const char *run_target_msg(struct run_state *r, unsigned t, const char *msg);
/* The first target before t with target t's key, or t itself. */
unsigned run_same_key(const struct run_state *r, unsigned t);
/* Plan and open the backend of every target of r->p (loaded, or err);
 * modes, targets: --modes, --targets or NULL. An exit code. */
int run_profile_open(struct run_state *r, enum pb_error err, const char *modes,
		     const char *targets);
/* The same, the profile loaded from path first. */
int run_profile_load(struct run_state *r, const char *path, const char *modes,
		     const char *targets);
/* "concurrency" lowered to what this controller can keep (the backend's
 * at_once), said, and the plan made again for it (same seed). */
enum pb_error run_limit_at_once(struct run_state *r);
/* What crashed runs left, on every target (each key once); run_id: only
 * that run's. count: disks, changes undone (pb_journal_recover). */
enum pb_error run_recover_all(struct run_state *r, const char *run_id, bool dry,
			      bool quiet, unsigned count[2]);
void run_dispose(struct run_state *r);

/* say.c: a timestamped progress line on stderr unless quiet; the target
 * a worker thread measures, named on its lines while several run */
void run_say(bool quiet, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void run_say_quiet(bool quiet);
/* two arms of a settings A/B on one place a backend sets up once */
enum pb_error run_arms_check(struct run_state *r);
/* the backend of target t: its own (host_baseline's twins), else the
 * profile's */
static inline const struct pb_backend_ops *
run_target_ops(const struct pb_profile *p, unsigned t)
{
	return p->targets[t].backend ? p->targets[t].backend : p->backend;
}
/* Open target t through its backend's table; the instance then answers
 * through that table (a test's wrapper of a backend included). */
static inline enum pb_error run_target_open(struct run_state *r, unsigned t)
{
	const struct pb_backend_ops *ops = run_target_ops(r->p, t);
	enum pb_error err = ops->open(&r->t[t].b, r->p, t, r->errbuf);

	if (!err)
		r->t[t].b->ops = ops;
	return err;
}
/* the profile's notes (lines), each as "note: ..." on fp */
void pb_notes_print(FILE *fp, const char *notes);
extern _Thread_local const char *run_say_target;

/* lock.c */
/* The state directory, each target's lock (unless only looking), the
 * journal: what run and cleanup both need before touching anything. */
enum pb_error run_state_open(struct run_state *r, bool lock);
enum pb_error run_places_lock(struct run_state *r, char *errbuf);
enum pb_error run_places_foreign(struct run_state *r, char *errbuf);

/* results.c */
/* -o's directory usable (or makeable) by this user: checked first */
enum pb_error run_results_root_check(const char *parent, char *errbuf);
enum pb_error run_results_start(struct run_state *r, const char *parent);
enum pb_error run_results_save(struct run_state *r, char *errbuf);
void run_results_latest(const struct run_state *r);

/* item.c, waves.c */
enum pb_error run_item(struct run_worker *wk, size_t idx);
/* one journal line, under the run's lock */
enum pb_error run_journal_add(struct run_state *r, json_t *e, char *errbuf);
/* PROVBENCH_STOP_AT=step: stop here (SIGSTOP), for the kill tests */
void run_stop_at(const char *step);
enum pb_error run_waves(struct run_state *r);

/* adaptive.c: the precision form's looks. start: its state (nothing
 * for a fixed count); look: after round look, each open mode asked its
 * question of the run read back, those answered stopped (run.json's
 * "stops", a line each); skips: an item whose mode stopped before its
 * round (a wave's cell: every target's) */
enum pb_error run_adaptive_start(struct run_state *r);
enum pb_error run_adaptive_look(struct run_state *r, unsigned look);
bool run_adaptive_skips(const struct run_state *r,
			const struct pb_plan_item *it);

/* plan_out.c: the plan said; results: where earlier runs are, for
 * their rate (NULL: none) */
void run_plan_print(const struct pb_profile *p, const struct pb_plan *plan,
		    const char *results);
/* "data to write: ... by the passes, ... of eager's zeros; about N
 * minutes at 100 MiB/s": what run says first, check in its plan */
void run_plan_cost_line(char *out, size_t len, const struct pb_profile *p,
			const struct pb_plan *plan, const char *results);
/* check.c: every target checked */
enum pb_error run_check_all(struct run_state *r, struct pb_check_out *out,
			    const char **why);

#endif
