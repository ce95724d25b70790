#!/bin/sh
# run-all.sh - every test suite: unit, unit again under ASan + UBSan, and
# integration. Each prints CUnit's run summary; the last line totals them
# as "N passed, N failed" for CI.
set -u
B=${1:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0 failed=0 rc=0

run() {
	name=$1
	shift
	echo "== $name: $*"
	"$@" 2>&1 | tee "$log"
	st=$?
	# "tests  N  N  P  F  0" from CUnit's summary
	set -- $(awk '$1 == "tests" { print $4, $5 }' "$log")
	p=${1:-0} f=${2:-1}
	# a runner that died before its summary counts as a failure
	if ! grep -q 'Run Summary' "$log"; then f=$((f + 1)); fi
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -eq 0 ] || rc=1
}

# pipefail is not POSIX: take the runner's status from a file instead
run unit "$B/unit-tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	run unit-asan "$B/asan/unit-tests"
run integration "$B/integration-tests" "$B"

echo "$passed passed, $failed failed"
exit $rc
