/*
 * common.h - what every part of provbench shares: the project's one error
 * enum, the growable buffer with a size cap, size parsing and formatting,
 * and the monotonic clock.
 *
 * Error handling follows curl's CURLcode + failf: functions return an
 * enum pb_error (0 = OK, stable values), and put the detail into a message
 * buffer owned by the caller's handle with pb_fail().
 */
#ifndef PB_COMMON_H
#define PB_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>

#ifdef _WIN32
/* the C runtime's descriptors: not inherited by a child, never text mode
 * (a JSON document's newlines would gain a \r) */
#include <fcntl.h>
#ifndef O_CLOEXEC
#define O_CLOEXEC (O_NOINHERIT | O_BINARY)
#endif
#endif

#define PB_VERSION "0.1.0"

/*
 * Values are stable: they appear in logs and results. Add new ones at the
 * end, never renumber.
 */
enum pb_error {
	PB_OK = 0,
	PB_ERR_USAGE = 1, /* bad command line */
	PB_ERR_INPUT = 2, /* bad profile, size, file content */
	PB_ERR_NOMEM = 3,
	PB_ERR_IO = 4,		/* an I/O syscall failed */
	PB_ERR_UNSAFE = 5,	/* target refused by a safety check */
	PB_ERR_NOTFOUND = 6,	/* target, VM, disk, file not found */
	PB_ERR_INTERRUPTED = 7, /* SIGINT / SIGTERM */
	PB_ERR_TOO_LARGE = 8,	/* a buffer cap was hit */
	PB_ERR_UNSUPPORTED = 9, /* the kernel or server lacks a feature */
	PB_ERR_CONNECT = 10,	/* cannot reach the server */
	PB_ERR_LOGIN = 11,	/* credentials refused */
	PB_ERR_TLS = 12,	/* certificate or thumbprint mismatch */
	PB_ERR_FAULT = 13,	/* the server answered with a fault */
	PB_ERR_PROTOCOL = 14,	/* unexpected or malformed reply */
	PB_ERR_TIMEOUT = 15,
	PB_ERR_INTERNAL = 16,	/* a bug: an invariant did not hold */
	PB_ERR_VERIFY = 17,	/* data read back is not what was written */
	PB_ERR_LICENSE = 18,	/* the server's licence forbids the call */
	PB_ERR_CHILD = 19,	/* a program it ran failed (mkfs, a command) */
	PB_ERR_REGRESSED = 20,	/* a figure regressed past --max-regression */
	PB_ERR_INCOMPLETE = 21, /* some measurements failed (see run.json) */
	PB_ERR_STALLED = 22,	/* a runner made no progress for stall_s */
	PB_ERR__COUNT
};

/*
 * Provisioning modes: thin, lazy-zeroed thick, eager-zeroed thick, and raw
 * device mappings in virtual (rdm) and physical (rdmp) compatibility.
 * PB_MODE_UNKNOWN is what a read-back that matches none says.
 */
enum pb_mode {
	PB_MODE_THIN,
	PB_MODE_LAZY,
	PB_MODE_EAGER,
	PB_MODE_RDM,
	PB_MODE_RDMP,
	PB_MODE__COUNT,
	PB_MODE_UNKNOWN = PB_MODE__COUNT,
};

const char *pb_mode_name(enum pb_mode m);
bool pb_mode_parse(enum pb_mode *out, const char *s);
/* thin, lazy, eager, rdm, rdmp: NULL-terminated, for messages */
const char *const *pb_mode_names(void);
/* rdm or rdmp: a LUN mapped, not a virtual disk on a datastore */
bool pb_mode_is_raw_mapping(enum pb_mode m);

/* Exit codes of every command (docs/DESIGN.md). */
enum pb_exit {
	PB_EXIT_OK = 0,
	PB_EXIT_FAILED = 1,
	PB_EXIT_USAGE = 2,
	PB_EXIT_CONNECT = 3,
	PB_EXIT_PARTIAL = 4, /* a run measured some items, others failed */
	PB_EXIT_INTERRUPTED = 130,
};

const char *pb_strerror(enum pb_error err);
int pb_exit_code(enum pb_error err);
/* What each exit code means, for a person: `provbench help exit-codes`,
 * the manual's EXIT STATUS and README's list are this table; ended by a
 * row whose code is NULL. */
struct pb_exit_row {
	const char *code, *meaning;
};
extern const struct pb_exit_row pb_exit_rows[];

#define PB_ERRBUF_SIZE 512

/*
 * Format a detail message into errbuf (PB_ERRBUF_SIZE bytes). Returns err so
 * that `return pb_fail(buf, PB_ERR_IO, "...")` reads naturally. The first
 * failure wins: a message already present is kept, so a vaguer error raised
 * while unwinding never hides the precise one.
 */
enum pb_error pb_fail(char *errbuf, enum pb_error err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Print "provbench: what: why" (or the given program name) to stderr. */
void pb_error_print(const char *prog, const char *what, const char *why);

/*
 * dynbuf: a growable byte buffer with a hard cap, after curl's dynbuf. Always
 * NUL-terminated so it can be handed to string functions. The cap protects
 * against a server or file that never ends. Errors are sticky: once an
 * addition failed, every later one fails the same way and changes nothing,
 * so a writer may add freely and check pb_buf_error() once at the end.
 */
struct pb_buf {
	char *data;
	size_t len;
	size_t alloc;
	size_t cap;
	enum pb_error err; /* the first failure, or PB_OK */
};

#define PB_BUF_INIT(capacity)                                                  \
	{                                                                      \
		NULL, 0, 0, (capacity), PB_OK                                  \
	}

void pb_buf_init(struct pb_buf *b, size_t cap);
void pb_buf_dispose(struct pb_buf *b);
void pb_buf_reset(struct pb_buf *b);
enum pb_error pb_buf_add(struct pb_buf *b, const void *mem, size_t len);
enum pb_error pb_buf_addstr(struct pb_buf *b, const char *s);
enum pb_error pb_buf_printf(struct pb_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
enum pb_error pb_buf_vprintf(struct pb_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/*
 * Room for element n of an array of elem-byte elements at *(T **)arrp with
 * *cap allocated: doubled (from 8) when n == *cap, the new slots zeroed.
 * PB_ERR_NOMEM leaves the array as it was.
 */
enum pb_error pb_array_grow(void *arrp, size_t *cap, size_t n, size_t elem);
/* Hand the data to the caller (who frees it) and leave b empty. */
char *pb_buf_steal(struct pb_buf *b, size_t *len);
/* The first addition that failed (PB_ERR_TOO_LARGE, _NOMEM), or PB_OK. */
enum pb_error pb_buf_error(const struct pb_buf *b);
/*
 * text wrapped at width columns, words kept whole; the first line starts
 * at column col (what is on the line already), the others are indented
 * by indent. Ends without a newline.
 */
enum pb_error pb_buf_add_wrapped(struct pb_buf *b, const char *text, size_t col,
				 size_t indent, size_t width);

/* memory aligned for unbuffered I/O (posix_memalign; _aligned_malloc on
 * Windows, whose blocks only _aligned_free may free); NULL-safe free */
void *pb_aligned_alloc(size_t align, size_t size);
void pb_aligned_free(void *p);

/*
 * jsonw: a streaming JSON writer over a pb_buf (jsonw.c), laid out as
 * jansson's JSON_INDENT(2) with 10 significant digits. key is the member
 * name inside an object, NULL inside an array or at the top. A NULL
 * string and a NaN or infinite real are written as null. Errors (the
 * buffer's, nesting deeper than PB_JW_MAX_DEPTH, a close without an open)
 * are sticky; pb_jw_finish() adds the closing newline and returns the
 * first.
 */
#define PB_JW_MAX_DEPTH 16

struct pb_jw {
	struct pb_buf *b;
	unsigned depth;
	bool first[PB_JW_MAX_DEPTH]; /* nothing written yet at this level */
	enum pb_error err;
};

void pb_jw_init(struct pb_jw *w, struct pb_buf *b);
void pb_jw_obj_open(struct pb_jw *w, const char *key);
void pb_jw_obj_close(struct pb_jw *w);
void pb_jw_arr_open(struct pb_jw *w, const char *key);
void pb_jw_arr_close(struct pb_jw *w);
void pb_jw_str(struct pb_jw *w, const char *key, const char *s);
void pb_jw_int(struct pb_jw *w, const char *key, int64_t v);
void pb_jw_real(struct pb_jw *w, const char *key, double v);
void pb_jw_bool(struct pb_jw *w, const char *key, bool v);
void pb_jw_null(struct pb_jw *w, const char *key);
enum pb_error pb_jw_finish(struct pb_jw *w);
/* s as a JSON string, quotes included; bytes that are not UTF-8 as U+FFFD */
void pb_jw_quoted(struct pb_buf *b, const char *s);

/*
 * Sizes: plain bytes, or a number with K, M, G, T, P, the same with B
 * (KB, MB, GB...) or with iB (KiB, MiB, GiB...): all powers of 1024, one
 * rule for every size (as vSphere and govc read a disk's size, and fio its
 * sizes by default). Case-insensitive. Decimals ("1.5G") when the bytes
 * come out whole.
 */
enum pb_error pb_size_parse(uint64_t *out, const char *s, char *errbuf);
/* The same; *si_read_binary says s wrote KB, MB, GB... (which some read
 * as powers of 1000), for a note saying how it was read. */
enum pb_error pb_size_parse_noted(uint64_t *out, const char *s,
				  bool *si_read_binary, char *errbuf);
/* "1.5 GiB", "512 KiB", "123 B" into buf. Returns buf. */
char *pb_size_format(char *buf, size_t len, uint64_t bytes);

/* time.c: the monotonic clock, for durations */
uint64_t pb_now_ns(void);

enum pb_time_form {
	PB_TIME_ISO,	 /* 2026-12-01T08:30:00Z: results, logs */
	PB_TIME_COMPACT, /* 20261201T083000Z: directory names */
	PB_TIME_CLOCK,	 /* 08:30:00: progress lines */
};

/* t in UTC into out. Returns out. */
char *pb_utc_format(char *out, size_t len, time_t t, enum pb_time_form form);
/* Now, as PB_TIME_ISO. */
char *pb_utc_iso(char *out, size_t len);

/*
 * Child processes (child.c): spawned with pipes, stdout read by the
 * caller, the tail of stderr kept for its last line, and one convention
 * for how it ended: the exit code, or 128 + the signal that killed it.
 */
#define PB_CHILD_OWN_GROUP   0x1u /* a process group of its own */
#define PB_CHILD_DIE_WITH_US 0x2u /* killed when its parent dies */
#define PB_CHILD_MERGE_ERR   0x4u /* stderr into the stdout pipe */
#define PB_CHILD_NO_STDOUT   0x8u /* stdout to /dev/null */

struct pb_child_spec {
	char *const *argv;	/* argv[0] is looked up in PATH */
	const char *cwd;	/* NULL: the caller's */
	const char *const *env; /* "NAME=value" added, NULL-ended, or NULL */
	unsigned flags;
	/* pb_child_run: called at least once a second while it waits (a
	 * heartbeat for whoever watches the waiter); NULL: none */
	void (*tick)(void *arg);
	void *tick_arg;
	/* pb_child_run: asked as often as tick; true stops the child (its
	 * group, when it has its own) and waits for it to end; NULL: never */
	bool (*stop)(void *arg);
	void *stop_arg;
};

struct pb_child {
	pid_t pid;
	int out, err; /* -1 once at their end */
	bool group;
	char errtail[4096];
	size_t errlen;
};

enum pb_error pb_child_start(struct pb_child *c, const struct pb_child_spec *sp,
			     char *errbuf);
/* Is a pipe still open? */
bool pb_child_open(const struct pb_child *c);
/* Wait up to timeout_ms (-1: for ever) for output: stdout's bytes into
 * chunk (their count; 0 for none this time), stderr's kept as its tail. */
ssize_t pb_child_read(struct pb_child *c, int timeout_ms, char *chunk,
		      size_t len);
/* The last line it wrote to stderr, or "". */
const char *pb_child_last_line(struct pb_child *c);
/* SIGKILL to it (its whole group, when it has its own). */
void pb_child_kill(struct pb_child *c);
/* Any signal, the same way (SIGINT: a runner's gentle stop). */
void pb_child_signal(struct pb_child *c, int sig);
/* Reap it: its exit code, 128 + signal, or -1 when none ran. */
int pb_child_finish(struct pb_child *c);
/* Keep the last cap bytes of what came in tail (the end of a program's
 * output says why it failed). */
void pb_tail_add(char *tail, size_t *tlen, size_t cap, const char *s, size_t n);
/* Run to the end: stdout into out (capped; NULL to drop it), the last
 * line of stderr into msg. Its status, or -1 when it could not start
 * (errbuf says why). */
int pb_child_run(const struct pb_child_spec *sp, struct pb_buf *out, char *msg,
		 size_t msglen, char *errbuf);

/*
 * Choices (words.c): the one a mistyped word most likely meant, or NULL;
 * "a, b or c"; and a message's hint, "did you mean b? one of a, b, c".
 */
const char *pb_closest(const char *word, size_t len,
		       const char *const *choices);
char *pb_choices_join(char *buf, size_t len, const char *const *choices);
/* Append to out as printf: out stays a string, cut at len (words.c). */
void pb_cat(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- seeded numbers (rng.c) ---- */

/* splitmix64's next from the state *s; a uniform in (0, 1); a standard
 * normal deviate (two uniforms) */
uint64_t pb_splitmix64(uint64_t *s);
double pb_uniform01(uint64_t *s);
double pb_normal(uint64_t *s);

/* ---- the environment (env.c) ---- */

/* A PROVBENCH_* variable: every one provbench reads or sets is a row. */
struct pb_env_var {
	const char *name;
	const char *group; /* "connection", "guest", "paths", ... */
	const char *help;
};
/* The rows, ended by one whose name is NULL. */
extern const struct pb_env_var pb_env_vars[];
char *pb_choices_hint(char *buf, size_t len, const char *word, size_t wlen,
		      const char *const *choices);

/* The last part of a path ("runner-3.stall" of ".../runner-3.stall"):
 * what a message names of a file in the results directory. */
static inline const char *pb_path_base(const char *path)
{
	const char *sl = strrchr(path, '/');

	return sl ? sl + 1 : path;
}

/* The whole file, NUL-terminated (len may be NULL); NULL and errno if not
 * readable. */
char *pb_slurp_file(const char *path, size_t *len);
/* Write path whole or not at all: temporary file, fsync, rename. */
enum pb_error pb_write_atomic(const char *path, const void *data, size_t len,
			      char *errbuf);

#endif
