/*
 * watch.c - every request to a server is bounded by what it waits for:
 * libcurl's connect bound covers the TCP and TLS handshakes; this watch,
 * curl's progress callback, covers the rest. A reply must start within
 * the reply bound (PROVBENCH_REPLY_TIMEOUT, plus a long poll's own wait:
 * WaitForUpdatesEx's maxWaitSeconds), and once bytes move, at least
 * VS_WATCH_MIN_BYTES must move in every such span (a reply that stalls
 * mid-way, or trickles). After VS_WATCH_SAY_S of silence it says once
 * what it waits for, so a slow server is never a silent provbench.
 *
 * curl's own CURLOPT_LOW_SPEED_* would cover the trickle but counts the
 * wait for the first byte as slow too, and names neither: a silent
 * server and a trickling one get different words here (issue 56).
 */
#include <stdio.h>
#include <string.h>

#include "vs_int.h"

/* bytes that must move in each reply span once a reply has started: a
 * SOAP reply comes in one burst, a transfer at MB/s */
#define VS_WATCH_MIN_BYTES 1024
#define VS_WATCH_SAY_S	   5

static const char *host_of(const char *url, char *out, size_t len)
{
	const char *p = strstr(url, "://");
	size_t n;

	p = p ? p + 3 : url;
	n = strcspn(p, "/?");
	snprintf(out, len, "%.*s", (int)n, p);
	return out;
}

void vs_watch_start(struct vs_watch *w, CURL *h, const char *url,
		    const char *op, long reply_ms, long extra_s)
{
	memset(w, 0, sizeof(*w));
	w->h = h;
	w->op = op;
	w->reply_ns = (uint64_t)reply_ms * 1000000u;
	w->extra_ns = (uint64_t)extra_s * 1000000000u;
	w->t0 = w->mark = pb_now_ns();
	host_of(url, w->host, sizeof(w->host));
}

/* Did at least VS_WATCH_MIN_BYTES move in the span that ends now? A new
 * span starts when one has lasted the reply bound. */
static int span_stalled(struct vs_watch *w, curl_off_t moved, uint64_t now,
			const char *what)
{
	if (now - w->mark < w->reply_ns)
		return 0;
	if (moved - w->mark_bytes < VS_WATCH_MIN_BYTES) {
		snprintf(w->why, sizeof(w->why),
			 "%s: %s %s stalled: %lld bytes in %.0f s "
			 "(PROVBENCH_REPLY_TIMEOUT)",
			 w->op, w->host, what,
			 (long long)(moved - w->mark_bytes),
			 (double)(now - w->mark) / 1e9);
		return 1;
	}
	w->mark = now;
	w->mark_bytes = moved;
	return 0;
}

/* No reply yet: a status line is its first sign. The wait is counted
 * from the request's last byte sent. */
static int no_reply_yet(struct vs_watch *w, uint64_t now)
{
	uint64_t bound = w->reply_ns + w->extra_ns;

	if (!w->said &&
	    now - w->t0 > w->extra_ns + VS_WATCH_SAY_S * 1000000000ull) {
		w->said = true;
		fprintf(stderr,
			"provbench: waiting for %s to answer %s (%u s so far; "
			"given up at %.0f s, PROVBENCH_REPLY_TIMEOUT)\n",
			w->host, w->op, (unsigned)((now - w->t0) / 1000000000u),
			(double)bound / 1e9);
	}
	if (now - w->t0 <= bound)
		return 0;
	snprintf(w->why, sizeof(w->why),
		 "%s: no reply from %s in %.0f s (PROVBENCH_REPLY_TIMEOUT)",
		 w->op, w->host, (double)bound / 1e9);
	return 1;
}

int vs_watch_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow,
		      curl_off_t ultotal, curl_off_t ulnow)
{
	struct vs_watch *w = arg;
	uint64_t now = pb_now_ns();
	curl_off_t pre = 0;
	long code = 0;

	(void)dltotal;
	if (!w->reply_ns)
		return 0;
	/* still connecting: CURLOPT_CONNECTTIMEOUT's to bound */
	curl_easy_getinfo(w->h, CURLINFO_PRETRANSFER_TIME_T, &pre);
	if (!pre) {
		w->t0 = w->mark = now;
		return 0;
	}
	curl_easy_getinfo(w->h, CURLINFO_RESPONSE_CODE, &code);
	if (code || dlnow) {
		if (!w->replied) {
			w->replied = true;
			w->mark = now;
			w->mark_bytes = dlnow + ulnow;
		}
		return span_stalled(w, dlnow + ulnow, now, "reply");
	}
	if (ultotal > 0 && ulnow < ultotal) {
		/* an upload under way (a guest file): it must move */
		w->t0 = now;
		return span_stalled(w, ulnow, now, "upload");
	}
	return no_reply_yet(w, now);
}
