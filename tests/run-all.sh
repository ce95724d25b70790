#!/bin/sh
# run-all.sh - a tier of the test suites, its jobs shared by lanes (one a
# core, and two more: a lane whose job waits on real time or on a guest
# leaves its core to the others), each lane taking the next job from one
# queue, longest first by the seconds each took when last measured
# (below): the longest start first and the short ones fill the gaps. A
# job may name make targets it needs that the tier's prerequisites left
# out (what only a few jobs use): its lane makes them before it starts.
# Each job's log is kept and printed whole when the tier ends, a line as
# each job ends; then the skipped cases by name, each job's wall time,
# the tier's against its budget, "N passed, N failed, N skipped", and,
# when anything failed, each failed case with its first failed assertion
# and where its log is (build/test-logs/): the last lines, whatever ran
# before. The exit code is also left in BUILD_DIR/test-rc and the failed
# cases in BUILD_DIR/test-failures.txt, for make's verdict. A skipped case (no root, no schema) is counted as skipped,
# never as passed.
#
#   tests/run-all.sh [--check] [--only JOB[,JOB...]] [--cases GLOB]
#                    BUILD_DIR
#       --check: make check's tier: unit, unit for Windows (Wine), the
#       runner, report and host integration suites (the harness on the
#       host backend), the validation corpus's fixed-seed subset, the
#       format and layers checks (scripts/check-layers on the built
#       tree: its call loops too); valgrind cases skipped. Budget 60 s
#       on a built tree.
#       without: make test's tier: unit under ASan + UBSan, Windows unit,
#       every integration suite once against the ASan + UBSan build (its
#       in-process cases too), the runner and host suites again with the
#       runner and provbench inside valgrind (uninitialised reads, which
#       ASan does not see; valgrind cannot check a static glibc binary),
#       the validation subset, the format and layers checks, the fuzz
#       targets over their corpora and a fixed number of new inputs
#       each. Budget 300 s from a clean clone (the suites' share of it
#       is what this checks).
#       --only: only these jobs (names as in the table); --cases: only
#       the cases matching GLOB in the CUnit jobs (make test-repeat).
#
# A job's output says "provbench-tests: P passed, F failed, S skipped"
# (CUnit suites, fuzz smoke); a job that says nothing else counts as one
# case, passed when it exits 0. A job that outlives three times its
# measured seconds (at least 300) is killed, and the case it was in is
# named as failed.
set -u
check=false only= cases=
while [ $# -gt 1 ]; do
	case $1 in
	--check) check=true ;;
	--only) only=$2; shift ;;
	--cases) cases=$2; shift ;;
	*) break ;;
	esac
	shift
done
B=${1:-build}
logs=$B/test-logs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$logs" "$B/test-rc"
mkdir -p "$logs"
t_start=$(date +%s)

# suite: the integration runner's argument, with --cases
sel() {
	# several globs go to the suite as one comma-separated list
	if [ -n "$cases" ]; then echo "$1:$(echo $cases | tr ' ' ',')"
	else echo "$1"; fi
}

san="env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
IT="$B/asan/integration-tests $B/asan"
# the suites again with the plain provbench and runner in valgrind: the
# suite itself is the ASan build (its in-process cases checked by ASan,
# and make test builds no plain suite)
VG="env PROVBENCH_IT_VALGRIND=1 $B/asan/integration-tests $B"
wine_unit="env WINEPREFIX=$(realpath -m "$B/wine-prefix") WINEDEBUG=-all wine $B/win/unit-tests.exe"
have_wine=false
command -v wine >/dev/null && have_wine=true
# One wineserver for the whole tier, started once the prefix is made
# (build, below) and before any Wine case, killed when the tier ends,
# its exit noticed (a Wine case whose server went away fails by name
# with the server's log). Left to itself, each wine starts one and it
# exits 3 s after its last client, so a client can arrive as a server
# goes away: "wine client error:0: recvmsg: Connection reset by peer"
# (issue 58). Until 2026-12-05 the tier's own server was started with
# -p300 while the one the prefix's wineboot had started still lingered:
# a second server refuses to start (exit 2, unchecked), and the tier ran
# on the lingering one, which came and went all tier long.
wine_server="env WINEPREFIX=$(realpath -m "$B/wine-prefix") wineserver"
if $have_wine; then
	trap 'rm -rf "$work"; $wine_server -k 2>/dev/null' EXIT
	# a tier stopped by a signal takes its server with it too
	trap 'exit 130' INT
	trap 'exit 143' TERM
fi

# The jobs: "name seconds needs command". The seconds are each job's wall
# time as last measured on a 2-core machine (make test on a clean clone,
# the machine quiet: CI of 2026-12-04 at 734abfd, 9:33 in all): the
# queue's order, longest first. Update them when a job's time moves.
# needs: the make targets (comma-separated, - for none) the job's lane
# builds before it starts, one make at a time: what only a few jobs use
# (the simulator, the Windows builds and Wine's prefix, the fuzz
# targets) is built in the tier, beside the first jobs, not before it
# (make test's prerequisites are what the rest need).
win_run=runner-windows,wine-prefix win_unit=unit-windows,wine-prefix
if $check; then
	budget=60 cpu_budget=90
	tier=check
	export PROVBENCH_IT_FAST=1
	cat >"$work/jobs" <<EOF
integration-host 25 - $B/integration-tests $B $(sel host)
integration-report 20 - $B/integration-tests $B $(sel report)
integration-runner 12 $win_run,refdev $B/integration-tests $B $(sel runner)
validate 52 - python3 tests/validate/validate.py --build $B --quick --check
unit 3 - $B/unit-tests
unit-windows 2 $win_unit $wine_unit
format 1 - make -s format-check
layers 1 - scripts/check-layers $B
EOF
else
	budget=300 cpu_budget=560
	tier=test
	cat >"$work/jobs" <<EOF
integration-qemu 219 - $IT $(sel qemu)
integration-harness 182 vcsim,$win_run $IT $(sel harness)
valgrind-host 189 - $VG $(sel host)
integration-labs 106 vcsim $IT $(sel labs)
valgrind-runner 101 $win_run,refdev $VG $(sel runner)
integration-host 109 - $IT $(sel host)
fuzz-smoke 71 fuzz tests/fuzz/smoke.sh $B
integration-report 56 - $IT $(sel report)
integration-vsphere 66 vcsim $IT $(sel vsphere)
integration-sched 40 - $IT $(sel sched)
integration-runner 46 $win_run,refdev $IT $(sel runner)
validate 46 - python3 tests/validate/validate.py --build $B --quick --check
integration-install 20 - $IT $(sel install)
unit-asan 7 - $san $B/asan/unit-tests
unit-windows 3 $win_unit $wine_unit
format 2 - make -s format-check
layers 1 - scripts/check-layers $B
EOF
fi
if ! $have_wine; then
	echo "SKIPPED unit-windows: no wine (make deps)" >"$work/skips.extra"
	sed -i '/^unit-windows /d' "$work/jobs"
fi
if [ -n "$only" ]; then
	for j in $(echo "$only" | tr , ' '); do
		grep "^$j " "$work/jobs" || {
			echo "provbench: run-all: --only: '$j': no such job" >&2
			exit 2
		}
	done >"$work/jobs.only"
	mv "$work/jobs.only" "$work/jobs"
	rm -f "$work/skips.extra"
fi
# a --cases run is of CUnit jobs only
[ -n "$cases" ] && sed -i '/^format \|^layers \|^fuzz-smoke \|^validate \|^unit/d' \
	"$work/jobs"
sort -k2,2nr -o "$work/queue" "$work/jobs"
order=$(awk '{ print $1 }' "$work/jobs")

# the CPU seconds (user + system) the lane's waited-for children took
# between two `times` outputs, BEFORE and AFTER, rounded: what a job (or
# what its lane made for it) took of the cores (`times` runs in the
# lane's own shell: a $(...) is a child, with none)
cpu_between() {
	awk 'FNR == 2 { gsub(/[ms]/, " "); t = $1 * 60 + $2 + $3 * 60 + $4
		if (NR == FNR) a = t; else b = t }
		END { printf "%.0f", b - a }' "$1" "$2"
}

# build NAME TARGETS: make the comma-separated TARGETS a job needs, its
# output into $work/NAME.log; one make at a time (two makes of one
# target would race), a lane that needs what another is making waits
# for it and finds it made. The tier's wineserver starts with the prefix.
# -Otarget: each recipe's output whole, as the failure's line is quoted
# from it (two recipes' stderr interleaved mid-line under load: mkdir
# writes its message in four pieces)
build() {
	(
		flock 9
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout -k 10 600 \
			make -s -Otarget -j"$(nproc)" B="$B" \
			$(echo "$2" | tr , ' ') ||
			exit
		case ,$2, in
		*,wine-prefix,*)
			# under the lock, so no Wine case starts a server of
			# its own meanwhile; the server not holding the lock
			# (fd 9) as it lives on. -w: the server the prefix's
			# wineboot left ends first (3 s); one still there
			# after 10 s is a killed tier's persistent server
			# (issue 58: the next tier waited on it for ever), and
			# is told to go; then the tier's, in the foreground of
			# a job of its own: its pid kept
			if $have_wine && [ ! -e "$work/wineserver" ]; then
				timeout 10 $wine_server -w 9>&- ||
					$wine_server -k 9>&- 2>/dev/null
				$wine_server -w 9>&-
				$wine_server -f -p 9>&- \
					>"$work/wineserver.log" 2>&1 &
				echo $! >"$work/wineserver"
			fi ;;
		esac
	) 9>"$work/build.lock" >"$work/$1.log" 2>&1 </dev/null
}

# job NAME SECONDS NEEDS CMD...: build NEEDS, then run CMD (its whole
# process group killed past 3 x SECONDS, at least 300), its output into
# $work/NAME.log, its figures into $work/NAME.res ("passed failed
# skipped seconds cpu build-seconds build-cpu")
job() {
	name=$1 secs=$2 needs=$3
	shift 3
	bt=0 bcpu=0
	if [ "$needs" != - ]; then
		times >"$work/$name.cpu0"
		t0=$(date +%s)
		build "$name" "$needs"
		rc=$?
		bt=$(($(date +%s) - t0))
		times >"$work/$name.cpu1"
		bcpu=$(cpu_between "$work/$name.cpu0" "$work/$name.cpu1")
		if [ $rc != 0 ]; then
			# the first thing that went wrong: a compiler's error,
			# else what a recipe said before make's own lines
			l=$work/$name.log
			why=$(grep -m 1 ' error: ' "$l" || grep -m 1 -v '^make' \
				"$l" || tail -n 1 "$l")
			echo "FAILED $name: make $needs: exit $rc: $why" \
				>"$work/$name.failed"
			echo "0 1 0 0 0 $bt $bcpu" >"$work/$name.res"
			echo "== $name: make $needs failed ($bt s)"
			return
		fi
	fi
	limit=$(awk -v s="$secs" -v f="$slower" \
		'BEGIN { l = s * 3 > 300 ? s * 3 : 300; printf "%d", l * f }')
	t0=$(date +%s)
	times >"$work/$name.cpu0"
	timeout -k 10 "$limit" "$@" >>"$work/$name.log" 2>&1 </dev/null
	rc=$?
	dt=$(($(date +%s) - t0))
	times >"$work/$name.cpu1"
	cpu=$(cpu_between "$work/$name.cpu0" "$work/$name.cpu1")
	set -- $(awk '$1 == "provbench-tests:" { print $2, $4, $6 }' \
		"$work/$name.log")
	p=${1:-} f=${2:-0} s=${3:-0}
	# the case it was in: the last one begun
	c=$(awk '/^ *Test: / { c = $0 } END { print c }' "$work/$name.log" |
		sed 's/^ *Test: //; s/ \.\.\..*//')
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		echo "FAILED $name${c:+:$c}: killed after $dt s (3 times its" \
			"measured ${secs} s, x$slower for this machine)" \
			>"$work/$name.failed"
		p=${p:-0} f=$((f + 1))
	elif [ -z "$p" ] && [ -n "$c" ]; then
		# a CUnit suite that died (a crash, an abort) in a case: that
		# case by name, how, and the cases before it as they went
		if [ "$rc" -gt 128 ]; then
			how="killed by signal $((rc - 128))"
			how="$how (SIG$(kill -l $((rc - 128)) 2>/dev/null))"
		else
			how="exit $rc"
		fi
		echo "FAILED $name:$c: the suite died in this case, $how;" \
			"the cases after it did not run" >"$work/$name.failed"
		p=$(grep -c '^ *Test: .*passed' "$work/$name.log")
		f=$(($(grep -c '^ *Test: ' "$work/$name.log") - p))
	elif [ -z "$p" ]; then
		# not a CUnit suite: one case, its exit code the verdict
		if [ $rc = 0 ]; then p=1 f=0; else
			p=0 f=1
			echo "FAILED $name: exit $rc: $(tail -n 1 "$work/$name.log")" \
				>"$work/$name.failed"
		fi
	elif [ $rc != 0 ] && [ "$f" -eq 0 ]; then
		f=1 # a runner that failed or died before it could say
		echo "FAILED $name: exit $rc after its last case:" \
			"$(tail -n 1 "$work/$name.log")" >"$work/$name.failed"
	fi
	echo "$p $f $s $dt $cpu $bt $bcpu" >"$work/$name.res"
	# one line as each job ends: a CI log shows progress
	built=
	[ "$needs" = - ] || built="; $needs made first: $bt s"
	echo "== $name: $p passed, $f failed, $s skipped ($dt s$built)"
}

# next job from the queue, or nothing when it is empty (one lane at a
# time: the queue is a file under a lock)
next_job() {
	(
		flock 9
		head -n 1 "$work/queue"
		sed -i 1d "$work/queue"
	) 9>"$work/queue.lock"
}

lane() {
	while line=$(next_job) && [ -n "$line" ]; do
		# shellcheck disable=SC2086 # the command is words
		job $line
	done
}

# The machine's speed against the one the table's seconds were measured
# on: nproc copies at once of a fixed CPU-bound loop, timed. A machine
# half as fast, or one busy with something else (tests/slow.sh's SLOW=
# and LOAD=), takes longer, and the job killer's limits grow by as much:
# a limit is a guard against a hang, never a speed asked of the machine
# (issue 58). speed_ref: the loop's wall time on the reference machine,
# quiet (2 cores, 2026-12-05).
speed_ref=0.50
speed_probe() {
	t0=$(date +%s%N)
	i=0
	while [ $i -lt "$(nproc)" ]; do
		awk 'BEGIN { for (i = 0; i < 2000000; i++) s += i * i % 7 }' &
		i=$((i + 1))
	done
	wait
	echo "$t0 $(date +%s%N)" | awk -v r=$speed_ref '{
		f = ($2 - $1) / 1e9 / r; printf "%.2f", f < 1 ? 1 : f }'
}
slower=$(speed_probe)
echo "speed: the reference loop took ${slower}x its time on the" \
	"reference machine (at least 1): the job killer's limits x$slower"
# and the few bounds a test sets on how soon a guest shows something
# (a stall_s of seconds under TCG: it_scaled)
export PROVBENCH_IT_SLOWER=$slower

# nproc + 2: on 2 cores a fourth lane fills the waits (the harness
# suite's, the kill cases'), make test 4-10 s sooner and make check 3-4
# (issue 41, docs/performance.md); more lanes only share the cores
lanes=${PROVBENCH_TEST_LANES:-$(($(nproc) + 2))}
i=0
while [ $i -lt "$lanes" ]; do
	lane &
	i=$((i + 1))
done
wait

passed=0 failed=0 skipped=0 rc=0 times= cpu=0 made=
for name in $order; do
	[ -f "$work/$name.res" ] || continue
	echo "======== $name"
	cat "$work/$name.log"
	set -- $(cat "$work/$name.res")
	passed=$(($passed + $1))
	failed=$(($failed + $2))
	skipped=$(($skipped + $3))
	[ "$2" -eq 0 ] || rc=1
	times="$times${times:+, }$name $4 s ($5 CPU-s)"
	cpu=$((cpu + $5 + $7))
	[ "$6" = 0 ] && [ "$7" = 0 ] ||
		made="$made${made:+, }$name $6 s, $7 CPU-s"
done
[ -f "$work/skips.extra" ] && skipped=$((skipped + 1))
# the tier's wineserver must have lived through every Wine case: one
# that died is a failure of its own, with its last words
wine_died=
if [ -s "$work/wineserver" ] && ! kill -0 "$(cat "$work/wineserver")" \
	2>/dev/null; then
	wine_died="FAILED wineserver: the tier's wineserver exited before the \
tier ended: $(tail -n 2 "$work/wineserver.log" | tr '\n' ' ')"
	failed=$((failed + 1)) rc=1
fi
# the skipped cases by name
{
	cat "$work/skips.extra" 2>/dev/null
	for name in $order; do
		[ -f "$work/$name.log" ] && grep -h '^SKIPPED ' "$work/$name.log"
	done
} | sort -u
wall=$(($(date +%s) - t_start))
# each job's wall time and what it took of the cores: a job that waits
# (on a guest, on real time) takes less CPU than its wall time, one the
# lanes share cores with more. The CPU-seconds are the work, the same on
# any machine within its speed: the figure budgets keep (another
# machine's minutes are predicted from them, issue 58)
echo "time: $times"
# what lanes made before their jobs (its CPU is in the tier's)
[ -z "$made" ] || echo "made in the tier: $made"
over() { [ "$1" -le "$2" ] && echo "within" || echo "OVER"; }
echo "tier $tier: $wall s, $(over $wall $budget) its budget of $budget s;" \
	"$cpu CPU-s on $(nproc) cores, $(over $cpu $cpu_budget) its budget" \
	"of $cpu_budget CPU-s"
echo "$passed passed, $failed failed, $skipped skipped"
# Each failed case with its first failed assertion and its own log
# (build/test-logs/JOB:CASE.log, what the job printed from the case's
# start to the next's), and a job that failed outside its cases: the
# tier's last lines, and build/test-failures.txt for make's own last
# word.
for name in $order; do
	[ -f "$work/$name.log" ] || continue
	if [ -f "$work/$name.failed" ]; then
		cp "$work/$name.log" "$logs/$name.log"
		sed "s|\$| (log: $logs/$name.log)|" "$work/$name.failed"
	fi
	awk -v s="$name" -v dir="$logs" '
		function say(a) {
			print "FAILED " s ":" c ": " a " (log: " dir "/" s ":" \
				c ".log)"
			want = 0
		}
		function keep() { if (c != "" && bad) printf "%s", text > \
			(dir "/" s ":" c ".log") }
		/^ *Test: / { keep(); c = $0; sub(/^ *Test: /, "", c);
			sub(/ \.\.\..*/, "", c); first = ""; want = 0;
			text = ""; bad = 0 }
		{ if (c != "") text = text $0 "\n" }
		/^ +[0-9]+\. / { a = $0; sub(/^ +/, "", a);
			if (want) say(a); else if (first == "") first = a }
		/FAILED/ && c != "" { bad = 1;
			if (first != "") say(first); else want = 1 }
		/^Run Summary:/ { keep(); c = "" }
		END { keep() }
		' "$work/$name.log"
done >"$B/test-failures.txt"
[ -z "$wine_died" ] || echo "$wine_died" >>"$B/test-failures.txt"
cat "$B/test-failures.txt"
echo $rc >"$B/test-rc"
exit $rc
