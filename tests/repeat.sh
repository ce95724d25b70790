#!/bin/sh
# repeat.sh - make test-repeat: a job of make test's tier (or all of
# them) N times on a built tree, to find the cases that fail only now and
# then. Each round's failures (the failed case, its first assertion) and
# their logs are kept in BUILD/test-repeat/ROUND/; at the end, each case
# that ever failed with how many rounds it failed in, then the rounds'
# wall times.
#
#   N=20 SUITE=integration-harness CASES='stall*' tests/repeat.sh BUILD_DIR
#
# SUITE: a job name of tests/run-all.sh's table (several, comma-separated);
# empty: the whole tier. CASES: a glob over the cases' names in the CUnit
# jobs, or several (space- or comma-separated); empty: every case.
set -u
B=${1:-build}
n=${N:-10}
out=$B/test-repeat
rm -rf "$out"
mkdir -p "$out"
i=1
while [ "$i" -le "$n" ]; do
	t0=$(date +%s)
	tests/run-all.sh ${SUITE:+--only "$SUITE"} ${CASES:+--cases "$CASES"} \
		"$B" >"$out/round-$i.log" 2>&1
	rc=$?
	dt=$(($(date +%s) - t0))
	mkdir -p "$out/$i"
	cp "$B/test-failures.txt" "$out/$i/failures.txt" 2>/dev/null
	[ -d "$B/test-logs" ] && cp -r "$B/test-logs/." "$out/$i/"
	k=$(grep -c '^FAILED' "$out/$i/failures.txt" 2>/dev/null)
	echo "round $i: exit $rc, $dt s, ${k:-0} failed case(s)"
	echo "$dt" >>"$out/times"
	i=$((i + 1))
done
echo
echo "cases that failed, and in how many of $n rounds (their first" \
	"assertions and logs in $out/ROUND/):"
cat "$out"/*/failures.txt 2>/dev/null |
	sed 's/^FAILED \([^:]*:[^:]*\):.*/\1/' | sort | uniq -c | sort -rn |
	awk -v n="$n" '{ printf "  %s: %d of %d\n", $2, $1, n }
		END { if (!NR) print "  none" }'
sort -n "$out/times" | awk '{ t[NR] = $1 } END {
	printf "rounds: median %d s, min %d s, max %d s\n",
		t[int((NR + 1) / 2)], t[1], t[NR] }'
