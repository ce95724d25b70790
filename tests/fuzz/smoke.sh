#!/bin/sh
# smoke.sh - every libFuzzer target for a bounded time over its seed
# corpora (real simulator replies, the shipped profiles, run.json files,
# runner command lines), after replaying every input that once crashed
# (tests/fuzz/regressions/<target>/). Prints CUnit's summary format, so
# tests/run-all.sh counts it like the other suites.
#
#   tests/fuzz/smoke.sh BUILD_DIR [SECONDS_PER_TARGET]
set -u
B=${1:-build}
secs=${2:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

for t in soap profile runjson args; do
	bin=$B/fuzz/fuzz-$t
	case $t in
	soap) extra=tests/data/soap ;;
	profile) extra=profiles ;;
	runjson) extra="tests/data/golden tests/data/runjson" ;;
	*) extra= ;;
	esac
	ok=true
	reg=tests/fuzz/regressions/$t
	if [ -d "$reg" ] && [ -n "$(ls -A "$reg")" ]; then
		"$bin" "$reg"/* >"$work/$t-reg.log" 2>&1 || {
			echo "fuzz-$t: a regression input crashes again:"
			tail -n 30 "$work/$t-reg.log"
			ok=false
		}
	fi
	mkdir -p "$work/$t"
	# the first corpus directory is the scratch one libFuzzer adds to
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$B/fuzz/crash-$t-" \
		"$work/$t" tests/fuzz/corpus/$t $extra >"$work/$t.log" 2>&1 || {
		echo "fuzz-$t: crashed; the input is in $B/fuzz/crash-$t-*:"
		grep -A 20 'ERROR\|runtime error' "$work/$t.log" | head -n 40
		ok=false
	}
	runs=$(awk '/stat::number_of_executed_units/ { print $2 }' \
		"$work/$t.log")
	cov=$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -n 1)
	echo "fuzz-$t: ${runs:-0} inputs in ${secs} s, $cov, $($ok && echo ok || echo FAILED)"
	if $ok; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "Run Summary:    Type  Total    Ran Passed Failed Inactive"
echo "               tests  $((passed + failed))  $((passed + failed))  $passed  $failed  0"
echo "provbench-tests: $passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
