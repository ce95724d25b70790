#!/bin/sh
# run-all.sh - every test suite: unit, unit again under ASan + UBSan,
# integration, integration against ASan + UBSan binaries and inside
# valgrind, and a bounded run of every fuzz target. Each prints CUnit's run summary; the last line totals them
# as "N passed, N failed" for CI.
set -u
B=${1:-build}
log=$(mktemp)
passed=0 failed=0 rc=0

status=$(mktemp)
trap 'rm -f "$log" "$status"' EXIT

run() {
	name=$1
	shift
	echo "== $name: $*"
	# pipefail is not POSIX: the runner's status goes through a file
	{
		"$@"
		echo $? >"$status"
	} 2>&1 | tee "$log"
	# "tests  N  N  P  F  0" and "suites  N  N  n/a  F  0" from CUnit
	set -- $(awk '$1 == "tests" { print $4, $5 }' "$log")
	p=${1:-0} f=${2:-0}
	# a suite whose setup failed ran none of its tests: each such suite
	# counts as a failure, and so does a runner that failed or died
	sf=$(awk '$1 == "suites" { print $5 }' "$log")
	f=$((f + ${sf:-0}))
	if ! grep -q 'Run Summary' "$log" || [ "$(cat "$status")" != 0 ]; then
		[ "$f" -gt 0 ] || f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -eq 0 ] || rc=1
}

run unit "$B/unit-tests"
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

echo "$passed passed, $failed failed"
exit $rc
