#!/bin/sh
# coverage.sh - line coverage (gcov) of provbench's product code under the
# unit and integration suites: what issue 30 asked be measured before and
# after tests moved tier, so a move that stops reaching code shows.
#
#   scripts/coverage.sh BUILD_DIR      (make coverage)
#
# BUILD_DIR/cov holds the instrumented build (make coverage builds it).
# The counters are zeroed, every suite runs against it, and each product
# source file's lines executed are totalled: one line per folder, then
# "coverage: E of N lines (P%)". A failing suite is reported, and the
# figure still printed: it is what ran.
set -u
B=${1:-build}
C=$B/cov
cd "$(dirname "$0")/.."
find "$C" -name '*.gcda' -delete
# the install cases run `make B=$C install`: its links then take the
# coverage runtime too
export CFLAGS="-O0 -g --coverage"
"$C/unit-tests" >"$C/unit.log" 2>&1 || echo "coverage: unit tests failed (see $C/unit.log)"
"$C/integration-tests" "$C" >"$C/integration.log" 2>&1 ||
	echo "coverage: integration tests failed (see $C/integration.log)"
tail -n 1 "$C/integration.log"
# product code: what ships in provbench and provbench-runner on Linux
srcs=$(git ls-files 'common/*.c' 'runner/*.c' 'vsphere/*.c' 'runjson/*.c' \
	'reports/*.c' 'harness/*.c' | grep -v '^runner/win/')
for s in $srcs; do
	o=$C/$(dirname "$s")
	[ -f "$o/$(basename "$s" .c).gcno" ] || continue
	# gcov -n: no .gcov files, only the summary; the source's own entry
	gcov -n -o "$o" "$s" 2>/dev/null | awk -v f="$s" '
		/^File / { cur = $2; gsub(/\047/, "", cur) }
		/^Lines executed:/ && cur == f {
			split($2, a, ":"); pct = a[2]; sub(/%/, "", pct)
			n = $4; printf "%s %d %d\n", f, int(pct * n / 100 + 0.5), n
			exit }'
done >"$C/coverage.txt"
awk '{ d = $1; sub(/\/[^\/]*$/, "", d); e[d] += $2; n[d] += $3; E += $2; N += $3 }
	END { for (d in e) printf "  %-28s %6d of %6d lines (%.1f%%)\n", d, e[d], n[d], 100 * e[d] / n[d]
	      printf "coverage: %d of %d lines (%.1f%%)\n", E, N, 100 * E / N }' \
	"$C/coverage.txt" | sort
