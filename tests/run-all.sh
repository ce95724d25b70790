#!/bin/sh
# run-all.sh - every test suite: unit, unit again under ASan + UBSan,
# integration, integration against ASan + UBSan binaries and inside
# valgrind, and a bounded run of every fuzz target. Each prints CUnit's
# run summary and a "provbench-tests: N passed, N failed, N skipped" line;
# the last line totals them as "N passed, N failed, N skipped" for CI. A
# skipped case (no root, no schema) is named where it is reported and
# counted as skipped, never as passed.
#
#   tests/run-all.sh [--fast] BUILD_DIR
#
# --fast (make check): the unit tests and the integration suites that need
# neither qemu nor valgrind, their valgrind cases skipped.
set -u
fast=false
if [ "${1:-}" = --fast ]; then
	fast=true
	shift
fi
B=${1:-build}
log=$(mktemp)
passed=0 failed=0 skipped=0 rc=0 times=

status=$(mktemp)
skips=$(mktemp)
fails=$(mktemp)
trap 'rm -f "$log" "$status" "$skips" "$fails"' EXIT

run() {
	name=$1
	shift
	echo "== $name: $*"
	t0=$(date +%s)
	# pipefail is not POSIX: the runner's status goes through a file
	{
		"$@"
		echo $? >"$status"
	} 2>&1 | tee "$log"
	grep '^SKIPPED ' "$log" >>"$skips"
	# a failed case by name and its first failed assertion, kept for the
	# end: a CI log's tail is often all there is to read
	awk -v s="$name" '
		function say(a) { print "FAILED " s ":" c ": " a; want = 0 }
		/^ *Test: / { c = $0; sub(/^ *Test: /, "", c);
			sub(/ \.\.\..*/, "", c); first = ""; want = 0 }
		/^ +[0-9]+\. / { a = $0; sub(/^ +/, "", a);
			if (want) say(a); else if (first == "") first = a }
		/FAILED/ && c != "" { if (first != "") say(first); else want = 1 }
		' "$log" >>"$fails"
	# "provbench-tests: P passed, F failed, S skipped"; a suite whose
	# setup failed counts as a failure there, and so does a runner that
	# failed or died before it could say
	set -- $(awk '$1 == "provbench-tests:" { print $2, $4, $6 }' "$log")
	p=${1:-0} f=${2:-0} s=${3:-0}
	if ! grep -q '^provbench-tests:' "$log" ||
		[ "$(cat "$status")" != 0 ]; then
		[ "$f" -gt 0 ] || f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	[ "$f" -eq 0 ] || rc=1
	# where the time went, suite by suite, in any CI log
	times="$times${times:+, }$name $(($(date +%s) - t0)) s"
}

# the skipped cases by name, each suite's wall time, then the totals
finish() {
	grep -h '^SKIPPED ' "$skips" 2>/dev/null | sort -u
	cat "$fails"
	echo "time: $times"
	echo "$passed passed, $failed failed, $skipped skipped"
	exit $rc
}

run unit "$B/unit-tests"
# the shared core's suites built for Windows (make unit-windows), under
# Wine, in the build's own Wine prefix (made by the first run, ~12 s)
if [ -x "$B/win/unit-tests.exe" ] && command -v wine >/dev/null; then
	run unit-windows env WINEPREFIX="$(realpath -m "$B/wine-prefix")" \
		WINEDEBUG=-all wine "$B/win/unit-tests.exe"
else
	echo "SKIPPED unit-windows: no $B/win/unit-tests.exe or no wine" \
		"(make deps, make unit-windows)" >>"$skips"
	skipped=$((skipped + 1))
fi
if $fast; then
	for suite in runner report vsphere harness install; do
		run "integration-$suite" env PROVBENCH_IT_FAST=1 \
			"$B/integration-tests" "$B" "$suite"
	done
	finish
fi
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	run unit-asan "$B/asan/unit-tests"
run integration "$B/integration-tests" "$B"
# again, with provbench and the runner built with ASan + UBSan
run integration-asan "$B/integration-tests" "$B/asan"
# again, with every provbench and runner process inside valgrind memcheck
# (a leak or memory error exits 99); the qemu suite, whose time is the
# guests', has its own valgrind case
for suite in runner vsphere harness report; do
	run "integration-valgrind-$suite" env PROVBENCH_IT_VALGRIND=1 \
		"$B/integration-tests" "$B" "$suite"
done
# each libFuzzer target for a bounded time, after its crash regressions
run fuzz-smoke tests/fuzz/smoke.sh "$B" "${PROVBENCH_FUZZ_SECONDS:-30}"

finish
