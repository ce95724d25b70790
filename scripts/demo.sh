#!/bin/sh
# demo.sh - `make demo`: the whole experiment on this machine through the
# qemu backend (profiles/demo.json), then where its report is.
#
#   scripts/demo.sh BUILD_DIR
#
# Results go to results/ (or $PROVBENCH_DEMO_RESULTS). Without root the
# rdm mode is skipped (a loop device needs root) and the report says so.
set -eu
B=${1:-build}
out=${PROVBENCH_DEMO_RESULTS:-results}
start=$(date +%s)
rc=0
"$B/provbench" run -o "$out" profiles/demo.json || rc=$?
dir=$(ls -1d "$out"/*-demo 2>/dev/null | tail -n 1)
echo
echo "demo: $(($(date +%s) - start)) s wall time, exit $rc"
if [ -n "$dir" ]; then
	echo "demo: open $dir/report.html"
	echo "demo: table $dir/report.csv (one row per pass), $dir/summary.csv"
fi
exit $rc
