#!/bin/bash
# Hardware-in-the-loop rig: boots Debian's own kernel under QEMU (TCG), with the host's root file
# system read-only over 9p, real kernel drivers for GPIO (gpio-sim), I2C (i2c-stub) and a 16550A
# UART (ttyS1) fed by the host-side GPS feeder, runs one command inside and returns its status.
#
#   Tests/HIL/rig.sh [OPTIONS] [--] COMMAND [ARG...]   run COMMAND in the guest (cwd = repo root)
#   Tests/HIL/rig.sh --prepare                         only install and build what the rig needs
#
# Options:
#   --name NAME         run directory .build/hil/run/NAME (default: adhoc); it is emptied first
#   --timeout SECONDS   whole VM run (default: $HIL_TIMEOUT or 240)
#   --gps FILE          NMEA log the feeder serves (default: gpsd's quectel-l76k log)
#   --feeder-arg ARG    extra argument for feeder.py (repeatable; e.g. --feeder-arg=--loop)
#   --no-feeder         no feeder: ttyS1 and ttyS2 go nowhere
#   --prepare           build only, do not boot
# Environment: HIL_TIMEOUT, HIL_PVH=0 (boot the bzImage instead of the extracted vmlinux),
#   HIL_SMP (default 2), HIL_MEM (default 1G), HIL_KVER (kernel to boot; default: newest installed).
#
# Guest serial ports: ttyS0 console (copied to stdout and RUN/console.log), ttyS1 GPS UART,
# ttyS2 control channel to the feeder, ttyS3 unused.
# Exit status: the command's own status (0..123), or 124 timeout, 125 the guest ended without
# reporting a status (kernel panic, init died), 126 rig failure (QEMU or guest set-up failed).
# Everything generated goes to .build/hil/ (git-ignored).
set -euo pipefail

HIL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HIL_DIR/../.." && pwd)
BUILD=$REPO/.build/hil
HIL_PKGS="qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1 busybox-static kmod
    cpio i2c-tools gpiod xz-utils python3 make gcc"
DEFAULT_GPS=$REPO/Tests/Fixtures/nmea/gpsd/quectel-l76k-nmea.nmea

name=adhoc
timeout_s=${HIL_TIMEOUT:-240}
gps=$DEFAULT_GPS
feeder=1
prepare_only=0
feeder_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --name) name=$2; shift 2 ;;
        --name=*) name=${1#*=}; shift ;;
        --timeout) timeout_s=$2; shift 2 ;;
        --timeout=*) timeout_s=${1#*=}; shift ;;
        --gps) gps=$2; shift 2 ;;
        --gps=*) gps=${1#*=}; shift ;;
        --feeder-arg) feeder_args+=("$2"); shift 2 ;;
        --feeder-arg=*) feeder_args+=("${1#*=}"); shift ;;
        --no-feeder) feeder=0; shift ;;
        --prepare) prepare_only=1; shift ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "hil: unknown option $1 (see $0 --help)" >&2; exit 126 ;;
        *) break ;;
    esac
done
if [ "$prepare_only" = 0 ] && [ $# -eq 0 ]; then
    echo "hil: no command to run in the guest; usage: $0 [OPTIONS] [--] COMMAND [ARG...] (see --help)" >&2
    exit 126
fi

die() { echo "hil: $*" >&2; exit 126; }
now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
case "$REPO" in *[[:space:]]*) die "the repository path '$REPO' contains white space; the guest's kernel command line cannot carry it: clone it elsewhere" ;; esac
case "$name" in ''|*[!A-Za-z0-9._-]*) die "--name '$name' must be letters, digits, '.', '_' or '-'" ;; esac
[ -r "$gps" ] || [ "$feeder" = 0 ] || die "GPS log '$gps' is not readable (option --gps)"

t_start=$(now)

# --- 1. Debian packages -------------------------------------------------------------------------
t=$(now)
# shellcheck disable=SC2086
"$REPO/scripts/apt-ensure" $HIL_PKGS || die "could not install the rig's packages ($HIL_PKGS)"
t_apt=$(since "$t")

mkdir -p "$BUILD"
exec {lock_fd}>"$BUILD/prepare.lock"
flock "$lock_fd"   # two rigs at once must not build the same cache files

# --- 2. Kernel --------------------------------------------------------------------------------
if [ -n "${HIL_KVER:-}" ]; then
    KVER=$HIL_KVER
else
    KVER=$(find /lib/modules -mindepth 1 -maxdepth 1 -name '*-amd64' -printf '%f\n' 2>/dev/null | sort -V | tail -n 1)
fi
[ -n "$KVER" ] || die "no kernel in /lib/modules/*-amd64; install one with: apt-get install linux-image-amd64 linux-headers-amd64"
BZIMAGE=/boot/vmlinuz-$KVER
[ -r "$BZIMAGE" ] || die "$BZIMAGE is missing for kernel $KVER; reinstall linux-image-$KVER"
KCACHE=$BUILD/kernel/$KVER
mkdir -p "$KCACHE"

# stamp_ok FILE TEXT: FILE exists and FILE.stamp holds TEXT (what it was built from).
stamp_ok() { [ -f "$1" ] && [ -f "$1.stamp" ] && [ "$(cat "$1.stamp")" = "$2" ]; }

# --- 3. gpio-sim.ko (cached per kernel; rebuilt when the kernel or the build files change) -------
KO=$BUILD/kmod/$KVER/gpio-sim.ko
t=$(now)
ko_stamp="$KVER $(dpkg-query -W -f='${Version}' "linux-image-$KVER" 2>/dev/null) $(cat "$HIL_DIR/kmod/build.sh" "$HIL_DIR/kmod/Kbuild" | sha256sum | cut -c1-16)"
if stamp_ok "$KO" "$ko_stamp"; then
    t_ko="cached"
else
    echo "hil: building gpio-sim.ko for $KVER (about 15 s, once per kernel)"
    "$HIL_DIR/kmod/build.sh" "$KVER" "$BUILD/kmod/$KVER" || die "gpio-sim.ko build failed"
    echo "$ko_stamp" >"$KO.stamp"
    t_ko="$(since "$t") s"
fi

# --- 4. Kernel image: the decompressed ELF vmlinux boots through PVH, ~3 s faster under TCG ------
t=$(now)
if [ "${HIL_PVH:-1}" = 0 ]; then
    KERNEL=$BZIMAGE
    t_vmlinux="bzImage"
else
    KERNEL=$KCACHE/vmlinux
    vm_stamp="$(stat -c '%s %Y' "$BZIMAGE")"
    if stamp_ok "$KERNEL" "$vm_stamp"; then
        t_vmlinux="cached"
    else
        python3 "$HIL_DIR/tools/extract-vmlinux.py" "$BZIMAGE" "$KERNEL" || die "could not extract vmlinux from $BZIMAGE; set HIL_PVH=0 to boot the bzImage"
        echo "$vm_stamp" >"$KERNEL.stamp"
        t_vmlinux="$(since "$t") s"
    fi
fi

# --- 5. Initramfs: busybox + the modules for virtio-9p and overlayfs + guest/init ----------------
INITRD=$KCACHE/initrd.gz
t=$(now)
rd_stamp="$(cat "$HIL_DIR/guest/init" /bin/busybox | sha256sum | cut -c1-16) $(stat -c %Y "/lib/modules/$KVER/modules.dep")"
if stamp_ok "$INITRD" "$rd_stamp"; then
    t_initrd="cached"
else
    stage=$KCACHE/initrd.d
    rm -rf "$stage"
    mkdir -p "$stage"/{bin,dev,proc,sys,modules}
    cp /bin/busybox "$stage/bin/busybox"
    cp "$HIL_DIR/guest/init" "$stage/init"
    chmod 755 "$stage/init"
    : >"$stage/modules.order"
    # modprobe --show-depends resolves only its first argument: call it once per module.
    for mod in virtio_pci 9pnet_virtio 9p overlay; do
        modprobe -S "$KVER" --show-depends "$mod" >"$stage/deps" 2>&1 ||
            die "modprobe -S $KVER --show-depends $mod failed: $(cat "$stage/deps")"
        while read -r kind path _; do
            [ "$kind" = insmod ] || continue
            base=$(basename "$path")
            case "$base" in
                *.ko) cp "$path" "$stage/modules/$base" ;;
                *.ko.xz) base=${base%.xz}; xz -dc "$path" >"$stage/modules/$base" ;;
                *) die "cannot unpack module $path for the initramfs (only .ko and .ko.xz are handled)" ;;
            esac
            grep -qxF "$base" "$stage/modules.order" || echo "$base" >>"$stage/modules.order"
        done <"$stage/deps"
    done
    rm -f "$stage/deps"
    (cd "$stage" && find . | LC_ALL=C sort | cpio --quiet -o -H newc) | gzip -1 >"$INITRD.tmp"
    mv "$INITRD.tmp" "$INITRD"
    echo "$rd_stamp" >"$INITRD.stamp"
    t_initrd="$(since "$t") s"
fi
flock -u "$lock_fd"

echo "hil: prepared kernel $KVER in $(since "$t_start") s (packages ${t_apt} s, gpio-sim.ko $t_ko, vmlinux $t_vmlinux, initramfs $t_initrd)"
[ "$prepare_only" = 1 ] && exit 0

# --- 6. Run directory and the command file the guest's init executes -----------------------------
RUN=$BUILD/run/$name
rm -rf "$RUN"
mkdir -p "$RUN"
{
    echo "# written by Tests/HIL/rig.sh; run by the guest's /init as root inside the chroot"
    printf 'export HIL_NAME=%q HIL_REPO=%q HIL_DIR=%q HIL_RUN_DIR=%q HIL_KVER=%q\n' \
        "$name" "$REPO" "$HIL_DIR" "$RUN" "$KVER"
    printf 'export HIL_GPIO_SIM_KO=%q HIL_GPS_CAPTURE=%q HIL_FEEDER=%q\n' "$KO" "$RUN/gps-rx.bin" "$feeder"
    printf 'cd %q || exit 126\n' "$REPO"
    printf 'exec'; printf ' %q' "$@"; printf '\n'
} >"$RUN/guest.sh"

# --- 7. Feeder (host side of ttyS1 and ttyS2) -------------------------------------------------
SOCKS=$(mktemp -d "${TMPDIR:-/tmp}/puckd-hil.XXXXXX")
feeder_pid=""
cleanup() {
    if [ -n "$feeder_pid" ] && kill -0 "$feeder_pid" 2>/dev/null; then
        kill -TERM "$feeder_pid" 2>/dev/null || true
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$feeder_pid" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$feeder_pid" 2>/dev/null || true
    fi
    rm -rf "$SOCKS"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$feeder" = 1 ]; then
    python3 "$HIL_DIR/feeder.py" --gps-socket "$SOCKS/gps.sock" --control-socket "$SOCKS/ctl.sock" \
        --capture "$RUN/gps-rx.bin" --nmea "$gps" "${feeder_args[@]}" 2>"$RUN/feeder.log" &
    feeder_pid=$!
    serial_gps=(-chardev "socket,id=gps,path=$SOCKS/gps.sock,server=on,wait=off" -serial chardev:gps)
    serial_ctl=(-chardev "socket,id=ctl,path=$SOCKS/ctl.sock,server=on,wait=off" -serial chardev:ctl)
else
    serial_gps=(-serial null)
    serial_ctl=(-serial null)
fi

# --- 8. Boot ----------------------------------------------------------------------------------
t_vm=$(now)
set +e
timeout -k 10 "$timeout_s" qemu-system-x86_64 -accel tcg -M pc -cpu "${HIL_CPU:-max}" -smp "${HIL_SMP:-2}" -m "${HIL_MEM:-1G}" \
    -nodefaults -no-reboot -display none \
    -serial stdio "${serial_gps[@]}" "${serial_ctl[@]}" \
    -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
    -fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
    -device virtio-9p-pci,fsdev=root,mount_tag=hostroot \
    -fsdev "local,id=run,path=$RUN,security_model=none" -device virtio-9p-pci,fsdev=run,mount_tag=hilrun \
    -kernel "$KERNEL" -initrd "$INITRD" \
    -append "console=ttyS0 panic=-1 loglevel=3 hil_run=$RUN hil_cache=${HIL_9P_CACHE:-loose}" \
    </dev/null 2>"$RUN/qemu.stderr" | tee "$RUN/console.log"
qemu_rc=${PIPESTATUS[0]}
set -e
vm_s=$(since "$t_vm")

console_marker() { tr -d '\r' <"$RUN/console.log" | sed -n "s/^$1//p" | tail -n 1; }
guest_status=$(console_marker 'hil-guest-status: ')
up_start=$(console_marker 'hil-init: command starts at uptime ' | cut -d' ' -f1)
up_end=$(console_marker 'hil-init: command exited with status [0-9]* at uptime ' | cut -d' ' -f1)

if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
    status=124
    why="timeout: the VM ran longer than $timeout_s s (raise --timeout or HIL_TIMEOUT if the guest is just slow)"
elif [ $((qemu_rc % 2)) = 1 ] && [ -n "$guest_status" ] && [ $((qemu_rc >> 1)) = "$guest_status" ]; then
    status=$guest_status
    case "$status" in
        0) why="success" ;;
        126) why="rig failure inside the guest (see the hil-init line above)" ;;
        *) why="the command failed" ;;
    esac
elif [ "$qemu_rc" = 0 ] || [ $((qemu_rc % 2)) = 0 ]; then
    status=125
    why="the guest ended without reporting a status (kernel panic or init died; see $RUN/console.log)"
else
    status=126
    why="QEMU failed with exit status $qemu_rc before the guest reported (its messages are above)"
fi
if [ -s "$RUN/qemu.stderr" ] && [ "$status" != 0 ]; then sed 's/^/hil: qemu: /' "$RUN/qemu.stderr" >&2; fi
# Statuses 124..127 of the command itself cannot be told from the rig's own (scenarios exit 0 or 1).

if [ -n "$feeder_pid" ]; then
    cleanup
    feeder_pid=""
    [ -s "$RUN/feeder.log" ] && tail -n 1 "$RUN/feeder.log" | sed 's/^/hil: /'
fi
timing="VM ${vm_s} s"
if [ -n "$up_start" ]; then
    timing="$timing: guest ready at uptime ${up_start} s"
    [ -n "$up_end" ] && timing="$timing, command ran $(awk -v a="$up_start" -v b="$up_end" 'BEGIN { printf "%.1f", b - a }') s"
fi
echo "hil: $name: status $status ($why); $timing; total $(since "$t_start") s"
exit "$status"
