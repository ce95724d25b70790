#!/bin/sh
# demo-local.sh - the main job on this machine, until the qemu backend
# exists: provbench-runner's first-write and rewrite passes on the local
# analogs of the four provisioning types, and the warm-up each shows.
#
#   thin  -> a sparse file         (blocks allocated on first write)
#   lazy  -> a fallocate()d file   (allocated, unwritten extents zeroed
#                                   on first write)
#   eager -> a zero-filled file    (allocated and written up front)
#   rdm   -> a loop device over a fully written file: a raw block device
#            with nothing left to allocate or zero, the baseline (needs
#            root, skipped otherwise)
#
# These are host-filesystem analogs, not ESXi: they show the method and
# the shape of the effect, not VMware's numbers.
set -eu
RUNNER=${1:-build/provbench-runner}
SIZE=${PROVBENCH_DEMO_SIZE:-256M}
DIR=$(mktemp -d "${TMPDIR:-/var/tmp}/provbench-demo.XXXXXX")
LOOP=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
	rm -rf "$DIR"
}
trap cleanup EXIT INT TERM

truncate -s "$SIZE" "$DIR/thin"
fallocate -l "$SIZE" "$DIR/lazy"
MIB=$(($(numfmt --from=iec "$SIZE") / 1048576))
dd if=/dev/zero of="$DIR/eager" bs=1M count="$MIB" status=none conv=fsync
if [ "$(id -u)" = 0 ] &&
	dd if=/dev/zero of="$DIR/rdm.img" bs=1M count="$MIB" status=none conv=fsync &&
	LOOP=$(losetup -f --show "$DIR/rdm.img" 2>/dev/null); then
	:
else
	echo "provbench: demo: rdm analog skipped (needs root and a loop device)" >&2
fi

echo "provbench demo: $SIZE per target, random 4 KiB writes, QD 16, O_DIRECT"
echo "passes: first-write, then three rewrites; results in $DIR while running"
echo
printf '%-6s %-26s %14s %14s %10s\n' mode target first-write rewrite-3 penalty
for mode in thin lazy eager rdm; do
	case $mode in
	rdm) [ -n "$LOOP" ] || continue; target=$LOOP; force="" ;;
	thin) target=$DIR/thin; force="" ;;
	*) target=$DIR/$mode; force=--force ;;
	esac
	# shellcheck disable=SC2086
	"$RUNNER" --target "$target" --size "$SIZE" --bs 4K --qd 16 \
		--pattern rand --passes first-write,rewrite,rewrite,rewrite \
		$force -q -o "$DIR/$mode.json"
	# first and last pass MiB/s from the runner's JSON (pass objects sit
	# at indent 6; the series points deeper)
	set -- $(sed -n 's/^      "mib_per_s": \([0-9.]*\),$/\1/p' "$DIR/$mode.json" |
		awk '{ v[NR] = $1 } END { print v[1], v[NR] }')
	first=$1 last=$2
	printf '%-6s %-26s %9.1f MiB/s %9.1f MiB/s %9.1f%%\n' "$mode" \
		"$(basename "$target")" "$first" "$last" \
		"$(echo "$first $last" | awk '{ print 100 * (1 - $1 / $2) }')"
done
echo
echo "penalty = 1 - first-write / last rewrite: the first-touch cost."
