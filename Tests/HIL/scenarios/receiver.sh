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
# a pty (Tests/PuckdTests/ReceiverConfigurationTests).
# shellcheck source=../guest/lib.sh
. "$HIL_DIR/guest/lib.sh"

PUCKD=${HIL_PUCKD:-.build/device/release/puckd}
mkdir -p "$HIL_RUN_DIR/state"

# puckd's log (standard error) holds a line matching ERE.
log_has() { grep -qE -- "$2" "$(hil_app_errlog "$1")"; }
# Lines of the log matching ERE.
log_count() { grep -cE -- "$2" "$(hil_app_errlog "$1")"; }
# twin_is KEY VALUE: the twin's KEY (feeder `twin`) is VALUE.
twin_is() {
    hil_gps twin || return 1
    local word
    for word in $HIL_CTL_REPLY; do [ "$word" = "$1=$2" ] && return 0; done
    return 1
}
twin_field() {
    hil_gps twin || return 1
    local word
    for word in $HIL_CTL_REPLY; do case "$word" in "$1"=*) printf '%s\n' "${word#*=}"; return 0 ;; esac; done
}
# puckd_json APP CMD: sends CMD (json on) and prints its reply line.
puckd_json() {
    hil_app_mark "$1"
    hil_app_send "$1" "$2"
    hil_app_wait_output "$1" 15 '^\{"reply":' >/dev/null || return 1
    hil_app_output "$1" | grep -m1 '^{"reply":'
}
# json_number JSON KEY: the first number after "KEY":.
json_number() { [[ $1 =~ \"$2\":(-?[0-9]+) ]] && printf '%s\n' "${BASH_REMATCH[1]}"; }

common=(run --board hil --console stdio --set state.directory="$HIL_RUN_DIR/state" --set imu.chip=none
        --set gpio.chip=none)
configure=(--set gps.rate_hz=10 --set gps.configure_baud=115200 --set gps.sentences=needed
           --set gps.constellations=gps,glonass,sbas,qzss)

# --- 1. a u-blox M8 at its factory settings (9600, 1 Hz) ------------------------------------------
hil_app_start --stderr-apart puckd "$PUCKD" "${common[@]}" "${configure[@]}"
check "the start-up report says what will be asked" wait_for 30 log_has puckd \
    "gps: receiver: recognized from what it says; configured after the port opens and after a restart: 115200 baud, sentences GGA,GSA,GSV,RMC,GST, constellations gps,glonass,qzss,sbas, rate 10 Hz"
check "ttyS1 through libserialport (the real 8250)" wait_for 30 log_has puckd "gps: serial /dev/ttyS1: libserialport"
hil_gps play
check "recognized from its UBX-MON-VER reply" wait_for 60 log_has puckd \
    'gps: receiver: u-blox M8 CAM-M8C-0 \(SPG 3.01, protocol 18.00\), recognized from its version reply'
check "receiver and port switched to 115200, NMEA verified" wait_for 60 log_has puckd \
    "gps: receiver and port switched from 9600 to 115200 baud, NMEA verified at the new speed"
check_eq "the 8250 runs at 115200 (the divisor puckd set)" 115200 "$(stty -F /dev/ttyS1 speed 2>&1)"
check "the twin was told 115200 baud (UBX-CFG-PRT)" twin_is baud 115200
check "the twin was told 10 Hz (UBX-CFG-RATE)" wait_for 30 twin_is period_ms 100
check "the twin sends the needed sentences only (UBX-CFG-MSG)" twin_is sentences GGA,GSA,GST,GSV,RMC
check "the twin tracks GPS, GLONASS, SBAS, QZSS (UBX-CFG-GNSS)" twin_is constellations glonass,gps,qzss,sbas
check_eq "every command acknowledged, none refused" 0 "$(twin_field naks)"
check "log: rate 10 Hz applied" log_has puckd "gps: receiver: rate 10 Hz applied"
hil_app_send puckd "json on"
status=$(puckd_json puckd status)
check_match "status: the receiver is configured" '"receiver":\{"family":"u-blox M8","model":"CAM-M8C-0".*"phase":"configured","portBaudRate":115200' "$status"
stats1=$(puckd_json puckd stats); t1=$EPOCHREALTIME
hil_sleep 5
stats2=$(puckd_json puckd stats); t2=$EPOCHREALTIME
fixes1=$(json_number "$stats1" gps.fixes) fixes2=$(json_number "$stats2" gps.fixes)
rate=$(awk -v a="$fixes1" -v b="$fixes2" -v s="$t1" -v e="$t2" 'BEGIN { printf "%.1f", (b - a) / (e - s) }')
check_range "fixes arrive ten a second ($rate/s)" 7 12 "$rate"
check_range "UBX replies read with their checksums (ubxDelivered)" 15 1000 "$(json_number "$stats2" ubxDelivered)"
check_eq "no UBX checksum error" 0 "$(json_number "$stats2" ubxBadChecksums)"

# --- 2. power loss: the twin forgets; its start-up text makes puckd configure it again -------------
hil_gps powercycle
check "the twin is back at 1 Hz" twin_is period_ms 1000
check "log: configuring the receiver again after the restart" wait_for 60 log_has puckd \
    "gps: configuring the receiver again: the receiver restarted"
check "configured again: 10 Hz" wait_for 60 twin_is period_ms 100
check "log: configured again" wait_for 30 log_has puckd "gps: receiver configured again: u-blox M8"
check_eq "'rate 10 Hz applied' said once" 1 "$(log_count puckd "gps: receiver: rate 10 Hz applied")"

# --- 3. another receiver on the line: a MediaTek MTK3339 (PMTK) ---------------------------------
hil_gps twin mtk3339
check "recognized as MediaTek PA6H (\$PMTK705)" wait_for 60 log_has puckd \
    'gps: receiver: MediaTek PA6H \(AXN_2.31_3339_13101700\), recognized from its version reply'
check "the MTK3339 was told 10 Hz (\$PMTK220)" wait_for 60 twin_is period_ms 100
check "... and the sentences (\$PMTK314)" twin_is sentences GGA,GSA,GST,GSV,RMC
check "puckd sent \$PMTK220,100*2F on the UART" hil_gps_captured '$PMTK220,100*2F'
check "log: its refusal of GLONASS said once (\$PMTK001 flag 1)" wait_for 30 log_has puckd \
    'gps: receiver: constellations gps,glonass,qzss,sbas partly applied \(\$PMTK001 flag 1: unsupported\); puckd goes on with what the receiver sends'
check_eq "... once" 1 "$(log_count puckd 'gps: receiver: constellations gps,glonass,qzss,sbas partly applied')"
check_eq "the start-up text and the version reply: one line for the MediaTek" 1 "$(log_count puckd 'gps: receiver: MediaTek')"
status=$(puckd_json puckd status)
check_match "status says it" '"family":"MediaTek","model":"PA6H".*"constellations":"partly applied"' "$status"
check_match "a 3D fix from it" '"fix":\{"mode":"3D"' "$status"
hil_app_stop puckd TERM 30
check_eq "puckd exits cleanly" 0 "$?"

# --- 4. configure = never: nothing is written -----------------------------------------------------
hil_gps powercycle
before=$(twin_field commands)
hil_app_start --stderr-apart never "$PUCKD" "${common[@]}" "${configure[@]}" --set gps.configure=never
check "log: the receiver is left alone" wait_for 30 log_has never "gps: receiver: never configured"
hil_sleep 8
check_eq "the twin got no command" "$before" "$(twin_field commands)"
check "... and stays at 1 Hz" twin_is period_ms 1000
check "puckd reads its NMEA all the same" wait_for 30 log_has never "gps: source open, reading NMEA"
hil_app_stop never TERM 30
check_eq "puckd exits cleanly" 0 "$?"
hil_finish
