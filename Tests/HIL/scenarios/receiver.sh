#!/bin/bash
# hil-feeder-args: --twin ublox-m8 --loop
# hil-timeout: 420
# Receiver scenario: the unmodified device binary configures the GPS over the real 8250 UART
# (/dev/ttyS1: libserialport, termios, the kernel's tty layer) while the host's feeder plays the
# receiver twin (Tests/HIL/receiver_twin.py): a u-blox M8 recognized from its UBX-MON-VER reply, set
# to 115200 baud (the 8250's divisor changes), the needed sentences, GPS + GLONASS + SBAS + QZSS and
# 10 Hz, every command acknowledged, fixes then arriving ten a second; a power loss (the twin forgets)
# configured again; another receiver plugged on the same line (a MediaTek MTK3339 speaking PMTK)
# recognized and configured with its own commands, its refusal said once; and `configure = never`
# writing nothing. The checks look at the twin's state (what the receiver was told) and at puckd's
# log, `status` and `stats`. What QEMU's line cannot show (bytes garbled at a wrong speed) is tested on
# a pty (Tests/PuckdTests/Device/Components/ReceiverConfigurationTests).
# This file is the plumbing (starting puckd); the checks are Tests/HIL/checks/receiver_checks.py,
# run by hil_python_checks.
# shellcheck disable=SC2317  # functions called by the checker through hil_python_checks
# shellcheck source=../guest/lib.sh
. "$HIL_DIR/guest/lib.sh"

PUCKD=${HIL_PUCKD:-.build/device/release/puckd}
mkdir -p "$HIL_RUN_DIR/state"

common=(run --board hil --console stdio --set state.directory="$HIL_RUN_DIR/state" --set imu.chip=none
        --set gpio.chip=none)
configure=(--set gps.rate_hz=10 --set gps.configure_baud=115200 --set gps.sentences=needed
           --set gps.constellations=gps,glonass,sbas,qzss)
# start_puckd NAME [ARG...]: puckd on the hil profile without IMU and GPIO, asked for 10 Hz, 115200
# baud, the needed sentences and GPS + GLONASS + SBAS + QZSS (ARGs added).
start_puckd() {
    local name=$1
    shift
    hil_app_start --stderr-apart "$name" "$PUCKD" "${common[@]}" "${configure[@]}" "$@"
}

hil_python_checks "$HIL_DIR/checks/receiver_checks.py"
hil_finish
