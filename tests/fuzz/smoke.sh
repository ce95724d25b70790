#!/bin/sh
# smoke.sh - every libFuzzer target over its seed corpora (real simulator
# replies, the shipped profiles, run.json files, runner command lines,
# and what longer fuzzing found, minimised: tests/fuzz/corpus/<target>/),
# then a fixed number of new inputs from a fixed seed, after replaying
# every input that once crashed (tests/fuzz/regressions/<target>/): the
# same work on any machine, so no run differs from the one before but by
# the code. Each target must reach at least the coverage below (about
# 95% of what it reached when last measured): a fuzz target whose harness
# broke says so here. Prints CUnit's summary format, so tests/run-all.sh
# counts it like the other suites.
#
#   tests/fuzz/smoke.sh BUILD_DIR [SECONDS_PER_TARGET]
#
# With SECONDS, each target fuzzes that long from a random seed instead
# (make fuzz-smoke: longer hunts; what it finds is worth merging into the
# corpus: libFuzzer's -merge=1).
set -u
B=${1:-build}
secs=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# what a target writes (fuzz-runjson's run.json) goes here, and with it
export TMPDIR="$work"
passed=0 failed=0

# target, new inputs, least coverage (edges). Measured 2026-12-04 with
# the corpus as committed then, seed 1: soap 268 in 4 s, profile 809 in
# 1 s, runjson 2228 in 26 s (each input a whole report), args 199 in
# 0.5 s; 30 s of each from a random seed had reached 262, 768, 2216, 196.
while read -r t runs least; do
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
	if [ -n "$secs" ]; then
		bound="-max_total_time=$secs"
	else
		bound="-runs=$runs -seed=1"
	fi
	mkdir -p "$work/$t"
	# the first corpus directory is the scratch one libFuzzer adds to
	# shellcheck disable=SC2086
	"$bin" $bound -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$B/fuzz/crash-$t-" \
		"$work/$t" tests/fuzz/corpus/$t $extra >"$work/$t.log" 2>&1 || {
		echo "fuzz-$t: crashed; the input is in $B/fuzz/crash-$t-*:"
		grep -A 20 'ERROR\|runtime error' "$work/$t.log" | head -n 40
		ok=false
	}
	n=$(awk '/stat::number_of_executed_units/ { print $2 }' \
		"$work/$t.log")
	cov=$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -n 1 | cut -d' ' -f2)
	if [ "${cov:-0}" -lt "$least" ]; then
		echo "fuzz-$t: coverage ${cov:-0} edges, under the $least it" \
			"reached when last measured: is its harness broken?"
		ok=false
	fi
	echo "fuzz-$t: ${n:-0} inputs${secs:+ in $secs s}, cov: ${cov:-0}" \
		"(at least $least), $($ok && echo ok || echo FAILED)"
	if $ok; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done <<TARGETS
soap 20000 255
profile 20000 770
runjson 5000 2115
args 20000 189
TARGETS
echo "Run Summary:    Type  Total    Ran Passed Failed Inactive"
echo "               tests  $((passed + failed))  $((passed + failed))  $passed  $failed  0"
echo "provbench-tests: $passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
