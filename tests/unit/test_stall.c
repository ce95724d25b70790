/*
 * test_stall.c - the stall watch's rule (harness/stall.c) on progress
 * documents as the runner writes them: what is progress, what is a
 * runner at rest, what is a copy resent, and when it is a stall. Time
 * passing is the watch's last progress moved back, not a sleep.
 */
#include <jansson.h>
#include <string.h>

#include "backend.h"
#include "unit.h"

/* a document of the runner's, as in its progress file */
static json_t *doc(const char *text)
{
	json_t *j = json_loads(text, 0, NULL);

	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	return j;
}

/* feed it, then let s seconds pass: stalled? */
static bool after(struct pb_stall *w, const char *text, double s)
{
	char why[320];
	json_t *j = doc(text);

	pb_stall_seen(w, j);
	json_decref(j);
	w->last_ns -= (uint64_t)(s * 1e9);
	return pb_stall_check(w, why, sizeof(why));
}

static const struct {
	const char *name;
	const char *first, *then; /* then comes 59 s after first */
	bool stalled;		  /* 61 s after first, once then was seen */
} cases[] = {
	{"I/O completed", "{\"pass\":\"rewrite\",\"beat\":4,\"done\":10}",
	 "{\"pass\":\"rewrite\",\"beat\":5,\"done\":12}", false},
	{"the same document resent (the guest's console relays it)",
	 "{\"pass\":\"rewrite\",\"beat\":4,\"done\":10,\"bytes\":2}",
	 "{\"pass\":\"rewrite\",\"beat\":4,\"done\":10,\"bytes\":2}", true},
	{"a command at rest: new beats, nothing in flight",
	 "{\"pass\":\"command\",\"beat\":4,\"done\":10,\"waiting\":"
	 "\"command\",\"device_done\":7,\"device_in_flight\":0}",
	 "{\"pass\":\"command\",\"beat\":5,\"done\":10,\"waiting\":"
	 "\"command\",\"device_done\":7,\"device_in_flight\":0}",
	 false},
	{"a command on a stuck device: beats, requests in flight, none done",
	 "{\"pass\":\"command\",\"beat\":4,\"done\":10,\"waiting\":"
	 "\"command\",\"device_done\":7,\"device_in_flight\":3}",
	 "{\"pass\":\"command\",\"beat\":5,\"done\":10,\"waiting\":"
	 "\"command\",\"device_done\":7,\"device_in_flight\":3}",
	 true},
	{"mkfs writing: its device completes requests",
	 "{\"pass\":\"first-write\",\"beat\":1,\"done\":0,\"waiting\":"
	 "\"mkfs\",\"device_done\":70,\"device_in_flight\":9}",
	 "{\"pass\":\"first-write\",\"beat\":2,\"done\":0,\"waiting\":"
	 "\"mkfs\",\"device_done\":90,\"device_in_flight\":9}",
	 false},
	{"an older runner's document: its bytes move",
	 "{\"pass\":\"rewrite\",\"index\":1,\"bytes\":10}",
	 "{\"pass\":\"rewrite\",\"index\":1,\"bytes\":20}", false},
	{"an older runner's document: nothing moves",
	 "{\"pass\":\"rewrite\",\"index\":1,\"bytes\":10}",
	 "{\"pass\":\"rewrite\",\"index\":1,\"bytes\":10}", true},
};

static void stall_rule_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pb_stall w = {0};
		bool got;

		pb_stall_start(&w, 60);
		CU_ASSERT_FALSE(after(&w, cases[i].first, 59));
		got = after(&w, cases[i].then, 2);
		if (got != cases[i].stalled) {
			fprintf(stderr, "\n  %s: stalled %d", cases[i].name,
				got);
			CU_FAIL(cases[i].name);
		}
		pb_stall_dispose(&w);
	}
}

/* The why names the wait and what came last; without a limit, never. */
static void stall_says_what_and_never_without_limit(void)
{
	struct pb_stall w = {0};
	char why[320] = "";
	json_t *j = doc("{\"pass\":\"rewrite\",\"beat\":3,\"done\":2,"
			"\"bytes\":2097152,\"total\":1073741824}");

	pb_stall_start(&w, 60);
	pb_stall_seen(&w, j);
	w.last_ns -= 61000000000ull;
	CU_ASSERT(pb_stall_check(&w, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "no progress for 61 s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "after rewrite: 2 MiB of 1 GiB"));
	/* a boot's marker is a sign of life */
	pb_stall_alive(&w, "the guest's boot");
	CU_ASSERT_FALSE(pb_stall_check(&w, why, sizeof(why)));
	pb_stall_dispose(&w);
	pb_stall_start(&w, 0);
	w.last_ns -= 86400000000000ull;
	CU_ASSERT_FALSE(pb_stall_check(&w, why, sizeof(why)));
	CU_ASSERT_FALSE(pb_stall_check(NULL, why, sizeof(why)));
	json_decref(j);
	pb_stall_dispose(&w);
}

/*
 * Before the runner has begun a short stall_s is not applied: a boot
 * that says nothing for 10 s is not a stall at stall_s 5 (CI saw one on
 * a loaded machine); it is after PB_STALL_START_S. Once the runner's
 * start is heard or its document seen, stall_s alone.
 */
static void stall_start_is_given_a_minute(void)
{
	struct pb_stall w = {0};
	char why[320] = "";

	pb_stall_start(&w, 5);
	w.last_ns -= 10000000000ull;
	CU_ASSERT_FALSE(pb_stall_check(&w, why, sizeof(why)));
	pb_stall_alive(&w, "the guest's boot");
	w.last_ns -= 61000000000ull;
	CU_ASSERT(pb_stall_check(&w, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "no word from the runner for 61 "
					   "s after the guest's boot"));
	/* the runner's start heard: stall_s from there */
	pb_stall_begun(&w, "the runner's start");
	w.last_ns -= 6000000000ull;
	CU_ASSERT(pb_stall_check(&w, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "no progress for 6 s (stall_s 5) "
					   "after the runner's start"));
	CU_ASSERT_FALSE(after(&w,
			      "{\"pass\":\"rewrite\",\"beat\":1,"
			      "\"done\":1}",
			      4));
	CU_ASSERT(after(&w, "{\"pass\":\"rewrite\",\"beat\":1,\"done\":1}", 2));
	pb_stall_dispose(&w);
}

static const struct pb_case cases_stall[] = {
	PB_CASE(stall_rule_table),
	PB_CASE(stall_says_what_and_never_without_limit),
	PB_CASE(stall_start_is_given_a_minute),
	PB_CASES_END,
};

const struct pb_suite suite_stall = {"stall", NULL, NULL, cases_stall};
