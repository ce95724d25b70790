#!/bin/sh
# guest-image.sh - build the qemu backend's guest: a Debian kernel and an
# initramfs holding busybox-static, the static provbench-runner, the
# virtio and xfs modules the kernel needs, mkfs.ext4 and mkfs.xfs with their
# libraries, and guest/init.
#
#   scripts/guest-image.sh OUT_DIR RUNNER_STATIC
#   scripts/guest-image.sh --fetch OUT_DIR   (make deps: only the .deb)
#
# Everything comes from Debian's archive without installing anything on
# the host: the kernel .deb is fetched with `apt-get download` and unpacked
# with `dpkg-deb -x`. The .deb is kept in OUT_DIR/debs, so a rebuild needs
# no network. PROVBENCH_GUEST_KERNEL names another kernel package
# (default linux-image-cloud-amd64: it probes fewer devices, which counts
# under TCG).
set -eu

fetch_only=false
if [ "${1:-}" = --fetch ]; then
	fetch_only=true
	shift
fi
out=${1:?usage: guest-image.sh [--fetch] OUT_DIR RUNNER_STATIC}
runner=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
meta=${PROVBENCH_GUEST_KERNEL:-linux-image-cloud-amd64}
busybox=/bin/busybox
# loaded in this order; dependencies are added in front by need()
want="virtio_pci virtio_blk qemu_fw_cfg xfs"
# filesystem passes: Debian's own mkfs tools (e2fsprogs, xfsprogs), with
# the libraries they link, at their host paths
tools="/sbin/mke2fs /sbin/mkfs.xfs"

die() { echo "provbench: guest image: $*" >&2; exit 2; }

mkdir -p "$out/debs"

# the versioned package the meta package points at
pkg=$(apt-cache depends "$meta" 2>/dev/null |
	awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
[ -n "$pkg" ] || pkg=$meta
deb=$(ls "$out"/debs/"${pkg}"_*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
	(cd "$out/debs" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
		die "apt-get download $pkg failed (no access to Debian's archive?)"
	deb=$(ls "$out"/debs/"${pkg}"_*.deb | head -n 1)
fi
$fetch_only && exit 0
[ -x "$runner" ] || die "${runner:-RUNNER_STATIC}: no static runner (make runner-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	die "$busybox is not busybox-static (make deps)"

work=$(mktemp -d "$out/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/k"
kver=$(ls "$work/k/lib/modules" 2>/dev/null | head -n 1)
[ -n "$kver" ] && [ -r "$work/k/boot/vmlinuz-$kver" ] ||
	die "$(basename "$deb") holds no kernel"
mods="$work/k/lib/modules/$kver/kernel"

# modules in dependency order, each once
order=""
need() {
	local ko deps d
	case " $order " in *" $1 "*) return 0 ;; esac
	ko=$(find "$mods" -name "$1.ko" | head -n 1)
	[ -n "$ko" ] || die "$pkg has no module $1"
	deps=$(strings -a "$ko" | sed -n 's/^depends=//p' | tr ',' ' ')
	for d in $deps; do need "$d"; done
	order="$order $1"
	cp "$ko" "$work/root/lib/modules/"
}

root=$work/root
mkdir -p "$root/bin" "$root/lib/modules" "$root/etc" "$root/proc" \
	"$root/sys" "$root/dev" "$root/run" "$root/mnt"
for m in $want; do need "$m"; done
echo $order | tr ' ' '\n' >"$root/etc/modules.order"
# a binary and every library it links, at the same paths
copy_bin() {
	[ -x "$1" ] || die "$1 missing (make deps installs e2fsprogs, xfsprogs)"
	for f in "$1" $(ldd "$1" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	done
}
for t in $tools; do copy_bin "$t"; done
mkdir -p "$root/sbin" "$root/tmp"
ln -s mke2fs "$root/sbin/mkfs.ext4"
[ -r /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$root/etc/"
cp "$busybox" "$root/bin/busybox"
cp "$runner" "$root/bin/provbench-runner"
strip "$root/bin/provbench-runner" 2>/dev/null || true
cp "$top/guest/init" "$root/init"
chmod 0755 "$root/init" "$root/bin/busybox" "$root/bin/provbench-runner"
echo "$kver" >"$root/etc/kernel-release"

(cd "$root" && find . | LC_ALL=C sort |
	"$busybox" cpio -o -H newc -R 0:0 2>/dev/null) |
	gzip -6n >"$work/initrd.gz"
# The kernel qemu boots. Debian ships a bzImage; when the kernel in it
# has a PVH entry (CONFIG_PVH, as Debian's amd64 kernels do), that ELF is
# unpacked and booted instead: qemu enters it directly, with no real-mode
# setup and no decompression in the guest, which under TCG is a fifth of
# the boot (PB-BOOT 1.75 s from qemu's start against 2.2 s, three boots
# each, 2026-12-04). The file keeps the name the backend boots, vmlinuz,
# whichever form it holds (manifest.json's kernel_form says). A bzImage
# is the setup sectors, then the payload at the header's payload_offset
# (0x248, its length at 0x24c), compressed as its magic says and ended by
# the unpacked size (the kernel's build appends it, and lz4 calls it
# trailing garbage: so the size is checked, not the tool's exit).
u8() { od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '; }
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
unpack_elf() {
	local at len magic tool
	at=$((($(u8 "$1" $((0x1f1))) + 1) * 512 + $(u32 "$1" $((0x248)))))
	len=$(u32 "$1" $((0x24c)))
	magic=$(tail -c +$((at + 1)) "$1" | od -An -tx1 -N4 | tr -d ' ')
	case $magic in
	02214c18) tool="lz4 -dc" ;;
	28b52ffd) tool="zstd -dc" ;;
	fd377a58) tool="xz -dc" ;;
	1f8b08*) tool="gzip -dc" ;;
	*) return 1 ;;
	esac
	command -v ${tool%% *} >/dev/null || return 1
	tail -c +$((at + 1)) "$1" | head -c "$len" | $tool >"$2" 2>/dev/null ||
		true
	[ "$(stat -c %s "$2")" = "$(u32 "$1" $((at + len - 4)))" ] &&
		readelf -n "$2" 2>/dev/null | grep -q '(0x00000012)'
}
form=bzImage
if unpack_elf "$work/k/boot/vmlinuz-$kver" "$work/vmlinux"; then
	mv "$work/vmlinux" "$work/vmlinuz"
	form="ELF, PVH entry"
else
	cp "$work/k/boot/vmlinuz-$kver" "$work/vmlinuz"
fi

sha() { sha256sum "$1" | cut -d' ' -f1; }
bbver=$("$busybox" 2>&1 | head -n 1 | sed 's/ multi-call binary.*//')
cat >"$work/manifest.json" <<EOF
{
  "kernel_package": "$(basename "$deb")",
  "kernel_release": "$kver",
  "kernel_form": "$form",
  "busybox": "$bbver",
  "modules": "$(echo $order)",
  "vmlinuz_bytes": $(stat -c %s "$work/vmlinuz"),
  "initrd_bytes": $(stat -c %s "$work/initrd.gz"),
  "vmlinuz_sha256": "$(sha "$work/vmlinuz")",
  "initrd_sha256": "$(sha "$work/initrd.gz")",
  "runner_sha256": "$(sha "$runner")"
}
EOF
# the three files change together: readers never see a mixed image
for f in vmlinuz initrd.gz manifest.json; do mv "$work/$f" "$out/$f.new"; done
for f in vmlinuz initrd.gz manifest.json; do mv "$out/$f.new" "$out/$f"; done
total=$(($(stat -c %s "$out/vmlinuz") + $(stat -c %s "$out/initrd.gz")))
echo "guest image: $out (kernel $kver, $((total / 1048576)) MiB)"
