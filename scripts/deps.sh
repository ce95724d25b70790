#!/bin/sh
# deps.sh - install the Debian 12 packages provbench needs to build and
# test, and nothing else. Idempotent, and quick when all are present (one
# dpkg-query). Without root it prints the exact apt-get line and stops.
set -eu

# build: compilers and libraries; test: CUnit, Go and govmomi (the vCenter
# simulator fixture), xmllint, util-linux (losetup),
# e2fsprogs (mkfs for the signature tests), valgrind, file, chromium (the
# report renders in a real browser); bench: fio,
# time, python3 and python3-pyvmomi (the peers the benchmarks measure);
# qemu backend: qemu-system-x86, qemu-utils, busybox-static, binutils and
# lz4 (the guest image: its kernel unpacked), and the kernel .deb,
# fetched (not installed) into $B/guest/debs by guest-image.sh --fetch;
# fuzzing: clang and its libFuzzer, ASan and UBSan runtimes
# (libclang-rt-14-dev); export:
# promtool (Debian's prometheus) checks and backfills the OpenMetrics;
# schedulers: slurm-wlm (a single-node cluster runs a shard array),
# ansible-core and python3-yaml (the playbook, the Job's shape);
# reference device: libfuse3-dev and fuse3 (bench/refdev's zerofs).
#
#   scripts/deps.sh           everything make test needs (~450 MiB)
#   scripts/deps.sh --demo    only what make demo needs (~100 MiB): the
#                             compiler and libraries, qemu, busybox, the
#                             mkfs tools, and the kernel .deb
#   ... --list                print the packages, install nothing
DEMO_PKGS="gcc make pkg-config libc6-dev
libcurl4-openssl-dev libxml2-dev libjansson-dev liburing-dev libblkid-dev
libssl-dev util-linux e2fsprogs xfsprogs file qemu-system-x86 qemu-utils
busybox-static binutils lz4"
TEST_PKGS="clang-format libcunit1-dev libuuid1 golang-go
golang-github-vmware-govmomi-dev libxml2-utils valgrind chromium fio time
python3 python3-pyvmomi clang libclang-rt-14-dev openssl
gcc-mingw-w64-x86-64 wine wine64 ntfs-3g prometheus slurm-wlm ansible-core
python3-yaml libfuse3-dev fuse3"
PKGS="$DEMO_PKGS $TEST_PKGS"
list=false
for a in "$@"; do
	case $a in
	--demo) PKGS=$DEMO_PKGS ;;
	--list) list=true ;;
	*) echo "provbench: deps: '$a': unknown option (--demo, --list)" >&2
	   exit 2 ;;
	esac
done
if $list; then
	echo $PKGS | tr ' ' '\n'
	exit 0
fi

# one dpkg-query for all: the common case (everything there) stays fast
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $PKGS \
	2>/dev/null | awk '$2 == "installed" { print $1 }')
missing=""
for p in $PKGS; do
	echo "$installed" | grep -qx "$p" || missing="$missing $p"
done
fetch_kernel() {
	"$(dirname "$0")/guest-image.sh" --fetch "${B:-build}/guest"
	# as root in someone's clone (sudo make deps-demo): what was made
	# there is the clone owner's, or their next make fails on a
	# root-owned build/
	if [ "$(id -u)" = 0 ]; then
		owner=$(stat -c %u:%g "$(dirname "$0")/..")
		[ "$owner" = 0:0 ] || chown -R "$owner" "${B:-build}"
	fi
}
if [ -z "$missing" ]; then
	fetch_kernel
	exit 0
fi

line="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
	echo "provbench: deps: missing packages; run as root:" >&2
	echo "  apt-get update && $line" >&2
	exit 1
fi
echo "provbench: deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# the package lists may be stale or absent on a fresh machine
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
fetch_kernel
