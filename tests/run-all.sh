#!/bin/sh
# run-all.sh - a tier of the test suites, in two lanes at once (2 cores),
# each suite's log kept and printed whole when the tier ends, a line as
# each suite ends, then: the skipped cases by name, each failed case with
# its first failed assertion, each suite's wall time, the tier's wall time
# against its budget, and "N passed, N failed, N skipped" for CI. A
# skipped case (no root, no schema) is counted as skipped, never as
# passed.
#
#   tests/run-all.sh --check BUILD_DIR   make check: unit, unit for
#       Windows (Wine), the runner, report and host integration suites
#       (the harness on the host backend), the format check; valgrind
#       cases skipped. Budget 60 s on a built tree.
#   tests/run-all.sh BUILD_DIR           make test: unit under ASan +
#       UBSan, Windows unit, every integration suite once against the
#       ASan + UBSan build (its in-process cases too), the runner suite
#       and the host suite again with the runner and provbench inside
#       valgrind (uninitialised reads, which ASan does not see; the
#       static runner the guests run is the same code, and valgrind
#       cannot check a static glibc binary: it cannot replace its
#       malloc), the format check, 30 s of each fuzz target.
#       Budget 15 minutes from a clean clone: the suites' share is this.
#
# A suite's output says "provbench-tests: P passed, F failed, S skipped"
# (CUnit suites, fuzz smoke); a job that says nothing else counts as one
# case, passed when it exits 0.
set -u
check=false
if [ "${1:-}" = --check ]; then
	check=true
	shift
fi
B=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
t_start=$(date +%s)

# job NAME CMD...: run it, its output into $work/NAME.log, its figures
# into $work/NAME.res ("passed failed skipped seconds")
job() {
	name=$1
	shift
	t0=$(date +%s)
	"$@" >"$work/$name.log" 2>&1
	rc=$?
	set -- $(awk '$1 == "provbench-tests:" { print $2, $4, $6 }' \
		"$work/$name.log")
	p=${1:-} f=${2:-0} s=${3:-0}
	if [ -z "$p" ]; then
		# not a CUnit suite: one case, its exit code the verdict
		if [ $rc = 0 ]; then p=1 f=0; else
			p=0 f=1
			echo "FAILED $name: exit $rc: $(tail -n 1 "$work/$name.log")" \
				>"$work/$name.failed"
		fi
	elif [ $rc != 0 ] && [ "$f" -eq 0 ]; then
		f=1 # a runner that failed or died before it could say
	fi
	dt=$(($(date +%s) - t0))
	echo "$p $f $s $dt" >"$work/$name.res"
	# one line as each suite ends: a CI log shows progress
	echo "== $name: $p passed, $f failed, $s skipped ($dt s)"
}

# lane NAME... : its jobs one after the other (each "name:cmd" from
# the table below), in the background
lane() {
	for j in "$@"; do
		eval "job $j"
	done
}

# every C file as .clang-format says (comments are never reflowed)
format_check() {
	clang-format --dry-run --Werror $(git ls-files '*.c' '*.h') || {
		echo "provbench: format: run make format"
		return 1
	}
}
wine_unit='env WINEPREFIX="$(realpath -m "$B/wine-prefix")" WINEDEBUG=-all wine "$B/win/unit-tests.exe"'
if [ -x "$B/win/unit-tests.exe" ] && command -v wine >/dev/null; then
	win="unit-windows $wine_unit"
else
	echo "SKIPPED unit-windows: no $B/win/unit-tests.exe or no wine" \
		"(make deps, make unit-windows)" >"$work/skips.extra"
	win=
fi

if $check; then
	budget=60
	tier=check
	export PROVBENCH_IT_FAST=1
	lane "unit \"\$B/unit-tests\"" \
		"integration-runner \"\$B/integration-tests\" \"\$B\" runner" \
		"format format_check" &
	lane ${win:+"$win"} \
		"integration-host \"\$B/integration-tests\" \"\$B\" host" \
		"integration-report \"\$B/integration-tests\" \"\$B\" report" &
	wait
	order="unit unit-windows integration-runner integration-host integration-report format"
else
	budget=900
	tier=test
	IT="\"\$B/asan/integration-tests\" \"\$B/asan\""
	san="env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
	# the qemu suite is its guests' time and the fuzzers a core each:
	# one lane; everything else the other
	lane "integration-qemu $IT qemu" \
		"integration-labs $IT labs" \
		"integration-install $IT install" \
		"integration-sched $IT sched" \
		"fuzz-smoke tests/fuzz/smoke.sh \"\$B\" \"\${PROVBENCH_FUZZ_SECONDS:-30}\"" &
	lane "unit-asan $san \"\$B/asan/unit-tests\"" \
		${win:+"$win"} \
		"integration-host $IT host" \
		"integration-runner $IT runner" \
		"integration-report $IT report" \
		"integration-vsphere $IT vsphere" \
		"integration-harness $IT harness" \
		"valgrind-runner env PROVBENCH_IT_VALGRIND=1 \"\$B/integration-tests\" \"\$B\" runner" \
		"valgrind-host env PROVBENCH_IT_VALGRIND=1 \"\$B/integration-tests\" \"\$B\" host" \
		"format format_check" &
	wait
	order="unit-asan unit-windows integration-host integration-runner integration-report integration-vsphere integration-harness integration-labs integration-qemu integration-install integration-sched valgrind-runner valgrind-host format fuzz-smoke"
fi

passed=0 failed=0 skipped=0 rc=0 times=
for name in $order; do
	[ -f "$work/$name.res" ] || continue
	echo "======== $name"
	cat "$work/$name.log"
	set -- $(cat "$work/$name.res")
	passed=$(($passed + $1))
	failed=$(($failed + $2))
	skipped=$(($skipped + $3))
	[ "$2" -eq 0 ] || rc=1
	times="$times${times:+, }$name $4 s"
done
[ -f "$work/skips.extra" ] && skipped=$((skipped + 1))
# the skipped cases by name, then each failed case and its first failed
# assertion (a CI log's tail is often all there is to read)
{
	cat "$work/skips.extra" 2>/dev/null
	for name in $order; do
		[ -f "$work/$name.log" ] && grep -h '^SKIPPED ' "$work/$name.log"
	done
} | sort -u
for name in $order; do
	[ -f "$work/$name.log" ] || continue
	cat "$work/$name.failed" 2>/dev/null
	awk -v s="$name" '
		function say(a) { print "FAILED " s ":" c ": " a; want = 0 }
		/^ *Test: / { c = $0; sub(/^ *Test: /, "", c);
			sub(/ \.\.\..*/, "", c); first = ""; want = 0 }
		/^ +[0-9]+\. / { a = $0; sub(/^ +/, "", a);
			if (want) say(a); else if (first == "") first = a }
		/FAILED/ && c != "" { if (first != "") say(first); else want = 1 }
		' "$work/$name.log"
done
wall=$(($(date +%s) - t_start))
echo "time: $times"
if [ $wall -le $budget ]; then
	echo "tier $tier: $wall s, within its budget of $budget s"
else
	echo "tier $tier: $wall s, OVER its budget of $budget s"
fi
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
