#!/bin/bash
# Builds gpio-sim.ko for one installed Debian kernel, out of tree, from Debian's own kernel sources.
#
#   Tests/HIL/kmod/build.sh KVER OUT_DIR
#
# Needs linux-headers-KVER (the kbuild tree at /lib/modules/KVER/build) and linux-source-6.1 of the
# same Debian version as linux-image-KVER: gpio-sim.c includes the private header gpiolib.h, whose
# structures must match the running kernel exactly, so the sources are taken from the same upload
# as the image instead of being vendored.
#
# The one change to the kernel sources: irq_sim.c calls handle_simple_irq(irq_to_desc(irq)), and
# irq_to_desc is not exported to modules; generic_handle_irq(irq) is exported and ends in the same
# handler. Writes OUT_DIR/gpio-sim.ko and OUT_DIR/stamp (what it was built from).
set -euo pipefail
KVER=${1:?usage: build.sh KVER OUT_DIR}
OUT=${2:?usage: build.sh KVER OUT_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
TARBALL=/usr/src/linux-source-6.1.tar.xz
KBUILD=/lib/modules/$KVER/build

die() { echo "hil: gpio-sim build: $*" >&2; exit 1; }
[ -f "$TARBALL" ] || die "$TARBALL is missing; install it with: apt-get install linux-source-6.1"
[ -f "$KBUILD/Makefile" ] || die "no kernel headers at $KBUILD; install them with: apt-get install linux-headers-$KVER"
img_ver=$(dpkg-query -W -f='${Version}' "linux-image-$KVER" 2>/dev/null || true)
src_ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || true)
[ -n "$img_ver" ] || die "linux-image-$KVER is not installed as a Debian package (dpkg-query found nothing)"
[ "$img_ver" = "$src_ver" ] || die "linux-source-6.1 is version '$src_ver' but linux-image-$KVER is '$img_ver'; gpio-sim uses private kernel structures, so they must match: apt-get install linux-source-6.1=$img_ver (or install the kernel that matches the source)"

rm -rf "$OUT/src"
mkdir -p "$OUT/src"
# Only 3 members are needed, but xz must still decompress the whole 139 MB stream (~8-12 s).
tar -xJf "$TARBALL" -C "$OUT/src" --strip-components=3 \
    linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h \
    linux-source-6.1/kernel/irq/irq_sim.c
mv "$OUT/src/gpio-sim.c" "$OUT/src/gpio-sim-core.c"
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$OUT/src/irq_sim.c"
grep -q 'generic_handle_irq(irqnum);' "$OUT/src/irq_sim.c" && ! grep -q 'irq_to_desc' "$OUT/src/irq_sim.c" ||
    die "the irq_sim.c patch did not apply (the source changed: look for irq_to_desc in $OUT/src/irq_sim.c and adapt $0)"
cp "$HERE/Kbuild" "$OUT/src/Kbuild"
make -s -C "$KBUILD" M="$OUT/src" modules >"$OUT/build.log" 2>&1 ||
    { cat "$OUT/build.log" >&2; die "kernel module build failed (log above, also in $OUT/build.log)"; }
cp "$OUT/src/gpio-sim.ko" "$OUT/gpio-sim.ko"
echo "$KVER $img_ver" >"$OUT/stamp"
