#!/bin/sh
# board/install.sh BOARD — installs puckd for a board profile (board/BOARD.conf) on a Debian /
# Raspberry Pi OS machine with systemd. Idempotent: run it again after an update.
#   sudo board/install.sh pi4-berrygps-imu-v4            # profile names: ls board/*.conf
#   sudo board/install.sh --uninstall [--purge]          # --purge also removes /etc/puckd.conf and state
# Environment: DESTDIR (stage into a directory: no users, no systemctl, no udevadm), PREFIX (where
# bin/puckd and share/doc/puckd (README.md and docs/*.md) go, default /usr/local; the installed unit's ExecStart and
# Documentation name it), PUCKD (the binary to install, default .build/device/release/puckd: run
# `make build` as yourself first; installing needs no Swift toolchain).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
PUCKD=${PUCKD:-$repo/.build/device/release/puckd}
BIN=$DESTDIR$PREFIX/bin/puckd
DOC=$DESTDIR$PREFIX/share/doc/puckd
CONF=$DESTDIR/etc/puckd.conf
UNIT=$DESTDIR/etc/systemd/system/puckd.service
RULES=$DESTDIR/etc/udev/rules.d/99-puckd.rules

say() { echo "install: $*"; }
die() { echo "install: $*" >&2; exit 1; }
live() { [ -z "$DESTDIR" ]; }           # acting on this machine (not staging into DESTDIR)
have() { command -v "$1" >/dev/null 2>&1; }
systemd_running() { [ -d /run/systemd/system ]; }

if live && [ "$(id -u)" -ne 0 ]; then die "run as root (sudo $0 $*)"; fi

uninstall() {
    purge=${1:-}
    if live && systemd_running && have systemctl; then
        systemctl disable --now puckd.service 2>/dev/null || true
    fi
    rm -f "$BIN" "$UNIT" "$RULES"
    rm -rf "$DOC"
    if live && systemd_running; then systemctl daemon-reload || true; fi
    if live && have udevadm; then udevadm control --reload 2>/dev/null || true; fi
    if [ "$purge" = "--purge" ]; then
        rm -f "$CONF" "$CONF.new"
        rm -rf "$DESTDIR/var/lib/puckd"
        if live && id puckd >/dev/null 2>&1; then userdel puckd || true; fi
        say "removed puckd, its configuration, state and user"
    else
        say "removed puckd (kept /etc/puckd.conf, /var/lib/puckd and the puckd user; --purge removes them)"
    fi
}

boards() { for f in "$here"/*.conf; do printf '%s ' "$(basename "$f" .conf)"; done; }

case "${1:-}" in
    ""|-h|--help)
        echo "usage: $0 BOARD | --uninstall [--purge]"
        echo "boards: $(boards)"
        [ -n "${1:-}" ] && exit 0 || exit 64 ;;
    --uninstall) uninstall "${2:-}"; exit 0 ;;
esac

board=$1
profile=$here/$board.conf
[ -f "$profile" ] || die "no profile board/$board.conf (boards: $(boards))"
[ -x "$PUCKD" ] || die "$PUCKD is missing: run 'make build' first"
"$PUCKD" run --config "$profile" --check >/dev/null || die "board/$board.conf does not validate (see above)"

# Binary, documentation, unit, udev rules: always replaced (they belong to puckd).
install -d "$(dirname "$BIN")" "$DOC/docs" "$(dirname "$UNIT")" "$(dirname "$RULES")" "$(dirname "$CONF")"
install -m 0755 "$PUCKD" "$BIN"
install -m 0644 "$repo/README.md" "$DOC/README.md"
# The reference documents README links (docs/configuration.md, docs/console.md, …), at the same
# relative paths so the links work in the installed copy; a document dropped upstream is dropped here.
rm -f "$DOC"/docs/*.md
install -m 0644 "$repo"/docs/*.md "$DOC/docs/"
# The unit names the binary and documentation where PREFIX put them (board/puckd.service says /usr/local).
sed -e "s|/usr/local/bin/puckd|$PREFIX/bin/puckd|g" -e "s|/usr/local/share/doc/puckd|$PREFIX/share/doc/puckd|g" \
    "$here/puckd.service" >"$UNIT.tmp"
chmod 0644 "$UNIT.tmp"
mv "$UNIT.tmp" "$UNIT"
install -m 0644 "$repo/udev/99-puckd.rules" "$RULES"
say "installed $PREFIX/bin/puckd, the systemd unit and the udev rules"

# Configuration: the user's to edit, never overwritten.
if [ ! -f "$CONF" ]; then
    install -m 0644 "$profile" "$CONF"
    say "installed board/$board.conf as /etc/puckd.conf"
elif cmp -s "$profile" "$CONF"; then
    say "/etc/puckd.conf is already board/$board.conf"
else
    install -m 0644 "$profile" "$CONF.new"
    say "/etc/puckd.conf exists and differs: kept it, wrote board/$board.conf as /etc/puckd.conf.new (diff them)"
fi

if ! live; then say "staged into $DESTDIR (no user, groups or services touched)"; exit 0; fi

# Groups for device access (Raspberry Pi OS has gpio and i2c already; plain Debian does not), then
# the service user, a system account with no login and no home of its own.
for group in dialout gpio i2c; do
    getent group "$group" >/dev/null || { groupadd --system "$group"; say "created group $group"; }
done
if ! id puckd >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/puckd --no-create-home \
        --shell /usr/sbin/nologin --comment "puckd GPS/IMU tracking" puckd
    say "created system user puckd"
fi
usermod -a -G dialout,gpio,i2c puckd

if have udevadm; then
    udevadm control --reload 2>/dev/null || true
    udevadm trigger --subsystem-match=tty --subsystem-match=gpio --subsystem-match=i2c-dev \
        --subsystem-match=pps 2>/dev/null || true
fi
if systemd_running && have systemctl; then
    systemctl daemon-reload
    systemctl enable puckd.service >/dev/null 2>&1
    if systemctl is-active --quiet puckd.service; then
        systemctl restart puckd.service; say "restarted puckd.service"
    else
        say "enabled puckd.service: start it with 'sudo systemctl start puckd', watch with 'journalctl -fu puckd'"
    fi
else
    say "systemd is not running here: start puckd by hand with 'puckd run --config /etc/puckd.conf'"
fi
