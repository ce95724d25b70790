#!/bin/sh
# slow.sh - a command on a machine slower or busier than this one (issue
# 58): a test that passes only at the speed it was tuned on is a timing
# test, and a lab's CI or a laptop is the slower machine. The command
# gets half this 2-core machine's CPU, or a CPU-bound job beside it, or
# both:
#
#   SLOW=taskset  the command and its children on one CPU (taskset):
#                 nproc then says 1, so the tier runs fewer lanes
#   SLOW=quota    a cgroup's CPU quota of one core (cgroup v2 cpu.max, or
#                 v1 cpu.cfs_quota_us), every CPU still visible: nproc
#                 says what it says, the lanes share one core's time
#   LOAD=N        N CPU-bound processes beside it for as long as it runs
#                 (LOAD=1: one per CPU), at the command's own priority
#
#   SLOW=quota LOAD=1 tests/slow.sh make test
#   make test SLOW=taskset; make test-repeat SLOW=quota LOAD=1 SUITE=...
#
# The quota needs root and a writable cgroup file system; without them
# it says so and exits 2 (a slow run that silently ran fast would prove
# nothing). Exits with the command's status.
set -u
[ $# -gt 0 ] || { echo "usage: SLOW=taskset|quota LOAD=N tests/slow.sh CMD..." >&2; exit 2; }
slow=${SLOW:-} load=${LOAD:-0}
cg= spin=

cleanup() {
	[ -n "$spin" ] && kill $spin 2>/dev/null
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		# the procs back to the parent, then the group goes
		for p in $(cat "$cg/cgroup.procs" "$cg/tasks" 2>/dev/null); do
			echo "$p" >"$(dirname "$cg")/cgroup.procs" 2>/dev/null ||
				echo "$p" >"$(dirname "$cg")/tasks" 2>/dev/null
		done
		rmdir "$cg" 2>/dev/null
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

case $load in
'' | *[!0-9]*) echo "slow.sh: LOAD '$load': a count" >&2; exit 2 ;;
esac
if [ "$load" -gt 0 ]; then
	n=$(getconf _NPROCESSORS_ONLN)
	[ "$load" -eq 1 ] && load=$n
	i=0
	while [ "$i" -lt "$load" ]; do
		sh -c 'while :; do :; done' &
		spin="$spin $!"
		i=$((i + 1))
	done
	echo "slow.sh: $load CPU-bound process(es) beside it" >&2
fi

case $slow in
'') ;;
taskset)
	cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')
	echo "slow.sh: on CPU $cpu alone (taskset)" >&2
	set -- taskset -c "$cpu" "$@"
	;;
quota)
	if [ -w /sys/fs/cgroup/cgroup.subtree_control ] &&
		grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		cg=/sys/fs/cgroup/pb-slow-$$
		mkdir "$cg" && echo "100000 100000" >"$cg/cpu.max" || exit 2
	elif [ -w /sys/fs/cgroup/cpu ]; then
		cg=/sys/fs/cgroup/cpu/pb-slow-$$
		mkdir "$cg" && echo 100000 >"$cg/cpu.cfs_period_us" &&
			echo 100000 >"$cg/cpu.cfs_quota_us" || exit 2
	else
		echo "slow.sh: SLOW=quota: no writable cgroup cpu controller" \
			"(root, cgroup v2's cpu or v1's cpu hierarchy)" >&2
		exit 2
	fi
	echo $$ >"$cg/cgroup.procs" || exit 2
	echo "slow.sh: under a quota of one core ($cg)" >&2
	;;
*)
	echo "slow.sh: SLOW '$slow': taskset or quota" >&2
	exit 2
	;;
esac
"$@"
