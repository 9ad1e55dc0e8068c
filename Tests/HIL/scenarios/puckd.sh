#!/bin/bash
# hil-feeder-args: --loop
# hil-timeout: 600
# hil-libgpiod: both
# puckd scenario: the unmodified device binary (.build/device/release/puckd, `make build`) runs in
# the guest on the HIL board profile (board/hil.conf) against the kernel's gpio-sim (button 17, LEDs
# 22/23/24 on a chip labelled pinctrl-bcm2711), i2c-stub (LSM6DSL 0x6A + LIS3MDL 0x1C) and the 8250
# UART ttyS1 fed by the host's feeder, with its console scripted on a pipe, and is driven like a
# person would: fix, 2D fix, short and long presses of the button, console commands (text and JSON
# replies, counters, mode next), a SIGHUP reload (good and bad), turning the board, unplugging the
# GPS, SIGTERM, and a second start that restores the saved state and stops on `quit`. The checks
# look at the hardware (line levels on gpio-sim, the kernel's GPIO trace, the bytes puckd sent to
# the GPS) and at puckd's output (start-up report and log lines on standard error, console replies
# on standard output, `status` polled as JSON). board/HIL.md maps each step to a Raspberry Pi 4
# with a BerryGPS-IMU v4.
# shellcheck disable=SC2016,SC2317  # NMEA text in single quotes; functions called through check/wait_for
# shellcheck source=../guest/lib.sh
. "$HIL_DIR/guest/lib.sh"

PUCKD=${HIL_PUCKD:-.build/device/release/puckd}
# The libgpiod the binary must carry (run-scenarios.sh passes it; make hil runs this scenario on the
# device binary of each libgpiod API): it decides who debounces the button, the kernel (uAPI v2) or puckd.
LIBGPIOD=${HIL_EXPECT_LIBGPIOD:-}
STATE_DIR=$HIL_RUN_DIR/state
CONFIG=/run/puckd-hil.conf
# The feeder's log (gpsd's quectel-l76k capture): a receiver standing at 47.66198 N, 122.32639 W on
# 2026-08-05, 3D fix. WMM2025 declination there and then (puckd's own model, as printed by
# `puckd run --board sim --gps Tests/Fixtures/nmea/gpsd/quectel-l76k-nmea.nmea`): 14.90° east.
DECLINATION_TENTHS=149
TURN_DEG_PER_S=30      # the simulated turn: clockwise at 30°/s for about 3 s
TURN_S=3

# === puckd's console ===============================================================================
# Every interaction with puckd's console and output goes through the functions of this section, so
# a change of the console (commands, reply texts, JSON fields) is adapted here only.
# puckd runs with `--console stdio` and its standard input a pipe (hil_app_start's FIFO, held open:
# the end of input would stop puckd): the console is *scripted*, one command per line, replies on
# standard output, log lines on standard error (kept in two files by hil_app_start --stderr-apart).
# puckd_attach switches the replies to JSON (`json on`): then every reply is one JSON object on one
# line, in the order of the commands, so the k-th JSON line answers the k-th command sent.
#   puckd_attach APP              read APP's two streams from their beginning (an hil_app_start name)
#   puckd_send CMD                one command line (marks first: see puckd_mark)
#   puckd_command TIMEOUT_S CMD   puckd_send, then waits for its reply -> PUCKD_REPLY (one JSON line)
#   puckd_text TIMEOUT_S CMD      CMD's reply as a person reads it (`json off`, CMD, `json on`) ->
#                                 PUCKD_TEXT_LINES (array); puckd_text_has ERE finds a line -> PUCKD_MATCH
#   puckd_mark                    later waits only look at log lines printed, and status replies to
#                                 commands sent, after this point
#   puckd_expect TIMEOUT_S ERE    waits for a log line (after the mark) matching ERE -> PUCKD_MATCH
#   puckd_seen ERE                the same without waiting
#   puckd_new_status              true when a status reply (to a `status` sent after the mark) came in
#                                 since the last call -> PUCKD_STATUS_SINCE; else asks for one, false
#   puckd_wait_status TIMEOUT_S PATH ERE   polls `status` until the value at PATH matches ERE
#   puckd_json PATH [JSON]        PUCKD_VALUE = the value at PATH ("fix/mode", "trackingMode",
#                                 "device/gpio.shortPresses") of a reply (default: the newest status
#                                 since the mark): a string without its quotes, a number, true, false,
#                                 null, or a flat object or (last key only) an array as JSON text
# A status reply (abridged) looks like
#   {"reply":"status",...,"fix":{"mode":"3D","quality":"gps","latitudeDegrees":47.661981333,
#   "longitudeDegrees":-122.326393167,...,"ageSeconds":0.152,...},"heading":{"trueHeadingDegrees":14.90,
#   "magneticHeadingDegrees":0.00,...},"bearing":{"source":"imuHeading","degrees":14.90,...},
#   "trackingMode":"follow",...,"viewport":{"viewportStatus":"state","viewportState":"followPuck",
#   "viewportTransition":null},"zoom":16.0000,...,"puckVisible":true,...,"puckStale":false,...,
#   "sources":[...],"faults":[{"source":"gps","reason":"no NMEA sentence for [gps] stale_s: ..."}]}
PUCKD_APP=""
PUCKD_OUT_FD="" PUCKD_ERR_FD=""
PUCKD_OUT_PARTIAL="" PUCKD_ERR_PARTIAL=""
PUCKD_SENT=0            # JSON-mode commands sent (puckd_text's `json off` and CMD are not counted)
PUCKD_RECEIVED=0        # JSON replies received
PUCKD_MARK_SENT=0       # PUCKD_SENT at the mark
PUCKD_REPLY=""          # the newest JSON reply
PUCKD_LOG_SINCE=()      # log lines (standard error) since the mark
PUCKD_TEXT_LINES=()     # text lines on standard output (puckd_text)
PUCKD_STATUS=""         # the newest status reply
PUCKD_STATUS_SINCE=""   # the newest status reply to a command sent after the mark
PUCKD_STATUS_FRESH=0    # 1: PUCKD_STATUS_SINCE not looked at by puckd_new_status yet
PUCKD_MATCH=""
PUCKD_VALUE=""

puckd_attach() {
    PUCKD_APP=$1
    [ -n "$PUCKD_OUT_FD" ] && exec {PUCKD_OUT_FD}<&- {PUCKD_ERR_FD}<&-
    exec {PUCKD_OUT_FD}<"$(hil_app_log "$1")" {PUCKD_ERR_FD}<"$(hil_app_errlog "$1")" ||
        hil_die "cannot read the output of $1 (start it with hil_app_start --stderr-apart)"
    PUCKD_OUT_PARTIAL="" PUCKD_ERR_PARTIAL="" PUCKD_SENT=0 PUCKD_RECEIVED=0 PUCKD_MARK_SENT=0
    PUCKD_REPLY="" PUCKD_LOG_SINCE=() PUCKD_TEXT_LINES=() PUCKD_STATUS="" PUCKD_STATUS_SINCE="" PUCKD_STATUS_FRESH=0
}

# puckd_read: takes in what puckd printed since the last call (builtins only: no process).
puckd_read() {
    local line
    while IFS= read -r -u "$PUCKD_OUT_FD" line; do
        line=$PUCKD_OUT_PARTIAL$line
        PUCKD_OUT_PARTIAL=""
        if [[ $line == '{'* ]]; then
            PUCKD_RECEIVED=$((PUCKD_RECEIVED + 1))
            PUCKD_REPLY=$line
            if [[ $line == '{"reply":"status",'* ]]; then
                PUCKD_STATUS=$line
                [ "$PUCKD_RECEIVED" -gt "$PUCKD_MARK_SENT" ] && PUCKD_STATUS_SINCE=$line PUCKD_STATUS_FRESH=1
            fi
        else
            PUCKD_TEXT_LINES+=("$line")
        fi
    done
    PUCKD_OUT_PARTIAL+=$line   # an incomplete last line: completed by the next read
    while IFS= read -r -u "$PUCKD_ERR_FD" line; do
        line=$PUCKD_ERR_PARTIAL$line
        PUCKD_ERR_PARTIAL=""
        PUCKD_LOG_SINCE+=("$line")
    done
    PUCKD_ERR_PARTIAL+=$line
}

puckd_mark() { puckd_read; PUCKD_MARK_SENT=$PUCKD_SENT PUCKD_LOG_SINCE=() PUCKD_STATUS_SINCE="" PUCKD_STATUS_FRESH=0; }
puckd_request() { hil_app_send "$PUCKD_APP" "$1"; PUCKD_SENT=$((PUCKD_SENT + 1)); }
puckd_send() { puckd_mark; puckd_request "$1"; }
puckd_replied() { puckd_read; [ "$PUCKD_RECEIVED" -ge "$PUCKD_SENT" ]; }
puckd_command() { puckd_send "$2"; wait_for "$1" puckd_replied; }

puckd_text() {
    local i
    puckd_mark
    PUCKD_TEXT_LINES=()
    hil_app_send "$PUCKD_APP" 'json off'
    hil_app_send "$PUCKD_APP" "$2"
    puckd_request 'json on'
    wait_for "$1" puckd_replied || return 1
    [ "$PUCKD_REPLY" = '{"reply":"json","json":true}' ] || return 1
    [ "${PUCKD_TEXT_LINES[0]:-}" = 'json off' ] || return 1
    PUCKD_TEXT_LINES=("${PUCKD_TEXT_LINES[@]:1}")
    for i in "${PUCKD_TEXT_LINES[@]}"; do hil_log "  | $i"; done
}
puckd_text_has() {
    local line
    for line in "${PUCKD_TEXT_LINES[@]}"; do
        [[ $line =~ $1 ]] && { PUCKD_MATCH=$line; return 0; }
    done
    return 1
}

puckd_seen() {
    local line
    puckd_read
    for line in "${PUCKD_LOG_SINCE[@]}"; do
        [[ $line =~ $1 ]] && { PUCKD_MATCH=$line; return 0; }
    done
    return 1
}
puckd_expect() { wait_for "$1" puckd_seen "$2"; }

puckd_json() {
    local json=${2-$PUCKD_STATUS_SINCE} path=$1 key re
    PUCKD_VALUE=""
    while [[ $path == */* ]]; do
        key=${path%%/*} path=${path#*/}
        re="\"${key//./[.]}\":([{][^{}]*[}])"
        [[ $json =~ $re ]] || return 1
        json=${BASH_REMATCH[1]}
    done
    # POSIX regexes take the longest alternative: a whole object, array or string over a bare word.
    re="\"${path//./[.]}\":([{][^{}]*[}]|[[].*[]]|\"[^\"]*\"|[^],}]*)"
    [[ $json =~ $re ]] || return 1
    PUCKD_VALUE=${BASH_REMATCH[1]}
    if [[ $PUCKD_VALUE == \"*\" ]]; then PUCKD_VALUE=${PUCKD_VALUE:1:-1}; fi
    return 0
}

puckd_new_status() {
    puckd_read
    if [ "$PUCKD_STATUS_FRESH" = 1 ]; then PUCKD_STATUS_FRESH=0; return 0; fi
    [ "$PUCKD_RECEIVED" -ge "$PUCKD_SENT" ] && puckd_request status   # none on its way: ask
    return 1
}
puckd_status_is() { puckd_new_status && puckd_json "$1" && [[ $PUCKD_VALUE =~ $2 ]]; }
puckd_wait_status() {
    wait_for "$1" puckd_status_is "$2" "$3" && return 0
    hil_log "no status with $2 matching /$3/ in $1 s; the newest status: ${PUCKD_STATUS:-none}"
    return 1
}

# puckd_heading_tenths: PUCKD_HEADING = the bearing of the newest status since the mark in tenths of
# a degree, when it comes from the IMU heading (status 1 otherwise).
puckd_heading_tenths() {
    puckd_json bearing/source && [ "$PUCKD_VALUE" = imuHeading ] || return 1
    puckd_json bearing/degrees && [[ $PUCKD_VALUE =~ ^([0-9]+)\.([0-9]) ]] || return 1
    PUCKD_HEADING=$((10#${BASH_REMATCH[1]} * 10 + 10#${BASH_REMATCH[2]}))
}

# puckd_fix_is 3D|2D fresh|stale: the newest status (polled) has a fix of that mode whose age is
# under 2 s (fresh) or at least [gps] stale_s = 3 s (stale).
puckd_fix_is() {
    puckd_new_status && puckd_json fix/mode && [ "$PUCKD_VALUE" = "$1" ] || return 1
    puckd_json fix/ageSeconds && [[ $PUCKD_VALUE =~ ^([0-9]+)\. ]] || return 1
    if [ "$2" = fresh ]; then [ "${BASH_REMATCH[1]}" -lt 2 ]; else [ "${BASH_REMATCH[1]}" -ge 3 ]; fi
}

# puckd_number PATH [JSON]: PUCKD_NUMBER = the integer at PATH (status 1 when it is not one).
puckd_number() {
    puckd_json "$@" && [[ $PUCKD_VALUE =~ ^[0-9]+$ ]] || return 1
    PUCKD_NUMBER=$PUCKD_VALUE
}

# === helpers =======================================================================================
# angle_off TENTHS EXPECTED_TENTHS: ANGLE_OFF = |shortest difference| in tenths of a degree.
angle_off() { local d=$(( (($1 - $2) % 3600 + 5400) % 3600 - 1800 )); ANGLE_OFF=${d#-}; }

# heading_near EXPECTED_TENTHS TOLERANCE_TENTHS: the newest status reply (polled) shows a bearing
# from the IMU heading that close.
heading_near() {
    puckd_new_status && puckd_heading_tenths || return 1
    angle_off "$PUCKD_HEADING" "$1"
    [ "$ANGLE_OFF" -le "$2" ]
}
tenths() { printf '%d.%d' $(($1 / 10)) $(($1 % 10)); }

# led_groups: from HIL_WATCH_TRACE (hil_gpio_watch), the mode LED's blink groups: rises less than
# 1 s apart form a group; groups within 1 s of the window's ends are left out (they may be cut).
# Sets LED_GROUPS (blinks per group, e.g. "2 2 2") and LED_PERIODS (ms between group starts).
led_groups() {
    local out
    out=$(awk -v trace="$HIL_WATCH_TRACE" -v end_ms="$1" 'BEGIN {
        n = split(trace, tok, " "); prev = ""; g = 0
        for (i = 1; i <= n; i++) {
            split(tok[i], p, "@")
            if (p[1] == 1 && prev == 0) {
                if (g == 0 || p[2] - last > 1000) { g++; start[g] = p[2]; count[g] = 0 }
                count[g]++; last = p[2]; stop[g] = p[2]
            }
            prev = p[1]
        }
        sep = ""; groups = ""; periods = ""; previous = -1
        for (k = 1; k <= g; k++) {
            if (start[k] < 1000 || stop[k] > end_ms - 1000) continue
            groups = groups sep count[k]
            if (previous >= 0) periods = periods (periods == "" ? "" : " ") (start[k] - previous)
            previous = start[k]; sep = " "
        }
        print groups; print periods
    }')
    LED_GROUPS=${out%%$'\n'*}
    LED_PERIODS=${out#*$'\n'}
}

# mode_led_window BLINKS: samples the mode LED for 7 s; true when every complete group has BLINKS
# blinks (at least two groups) and the groups repeat every 2 s (1.7-2.3 s).
mode_led_window() {
    local p
    hil_gpio_watch LED_MODE 7
    led_groups 7000
    hil_log "mode LED trace: $HIL_WATCH_TRACE (groups: ${LED_GROUPS:-none}; periods: ${LED_PERIODS:-none} ms)"
    [[ $LED_GROUPS =~ ^$1( $1)+$ ]] && [ -n "$LED_PERIODS" ] || return 1
    for p in $LED_PERIODS; do [ "$p" -ge 1700 ] && [ "$p" -le 2300 ] || return 1; done
}

# check_mode_led NAME BLINKS: the mode LED shows BLINKS short blinks every 2 s. A second 7 s window
# is sampled when the first does not show it: under TCG on a busy host the guest can stall for a
# few hundred milliseconds, long enough to swallow one blink of a group (puckd draws the pattern
# from the clock, so after a stall it is already past the blink).
check_mode_led() {
    check "$1: $2 short blinks every 2 s" eval "mode_led_window $2 || mode_led_window $2"
}

# nmea_line BODY: NMEA_LINE = "$BODY*HH" with its checksum.
nmea_line() {
    local body=$1 sum=0 i c
    for ((i = 0; i < ${#body}; i++)); do
        printf -v c '%d' "'${body:i:1}"
        sum=$((sum ^ c))
    done
    printf -v NMEA_LINE '$%s*%02X' "$body" "$sum"
}

# gps_2d_epochs COUNT: plays COUNT epochs of a 2D fix (GGA without altitude, GSA fix type 2, RMC)
# through the feeder's `send`, one per second, at the log's position.
gps_2d_epochs() {
    local k t body
    for ((k = 1; k <= $1; k++)); do
        printf -v t '0600%02d.00' "$k"
        for body in "GPGGA,$t,4739.71890,N,12219.58362,W,1,03,2.4,,M,,M,," \
                    "GPGSA,A,2,02,07,14,,,,,,,,,,2.6,2.4,1.0" \
                    "GPRMC,$t,A,4739.71890,N,12219.58362,W,0.00,0.00,050826,,,A"; do
            nmea_line "$body"
            hil_gps send "$NMEA_LINE" || return 1
        done
        hil_sleep 1
    done
}

# gyro_z_write RAD_PER_S: writes only the LSM6DSL's gyro z output (OUTZ_L_G 0x26, 2 bytes) with the
# full scale puckd configured, so the start and end of a turn are one I2C transfer each.
gyro_z_write() {
    local bytes saved=("${HIL_IMU_GYRO[@]}")
    HIL_IMU_GYRO=(0 0 "$1")
    read -r -a bytes <<<"$(hil_imu_encode "$(hil_i2c_read 0x6a 0x10)" "$(hil_i2c_read 0x6a 0x11)" 0)"
    HIL_IMU_GYRO=("${saved[@]}")
    GYRO_BYTES=("${bytes[4]}" "${bytes[5]}")
}


# write_config FOLLOW_ZOOM: the scenario's configuration file; the value is on line 3 (section 5
# rewrites it and sends SIGHUP, and checks the origin `$CONFIG:3` that puckd reports).
write_config() {
    printf '# written by Tests/HIL/scenarios/puckd.sh; SIGHUP re-reads it\n[tracking]\nfollow_zoom = %s\n' "$1" >"$CONFIG"
}

# json_on: `json on` is acknowledged with its one-line JSON reply.
json_on() { puckd_command 30 'json on' && [ "$PUCKD_REPLY" = '{"reply":"json","json":true}' ]; }

# hundredths DECIMAL: HUNDREDTHS = a reply's non-negative decimal (two decimals or more) in hundredths.
hundredths() { [[ $1 =~ ^([0-9]+)\.([0-9]{2}) ]] && HUNDREDTHS=$((10#${BASH_REMATCH[1]} * 100 + 10#${BASH_REMATCH[2]})); }

# declination_seen: DECLINATION_SEEN = true − magnetic IMU heading of the newest status, in
# hundredths of a degree ("none" when either is missing).
declination_seen() {
    local t m
    DECLINATION_SEEN=none
    puckd_json heading/trueHeadingDegrees && hundredths "$PUCKD_VALUE" && t=$HUNDREDTHS || return 1
    puckd_json heading/magneticHeadingDegrees && hundredths "$PUCKD_VALUE" && m=$HUNDREDTHS || return 1
    DECLINATION_SEEN=$(( ((t - m) % 36000 + 36000) % 36000 ))
}

# help_lists CMD...: the text help (PUCKD_TEXT_LINES) has a line for each command.
help_lists() {
    local c
    puckd_text_has '^Commands \(help CMD for details\):$' || return 1
    for c in "$@"; do puckd_text_has "^  $c( |\$)" || { hil_log "help has no line for $c"; return 1; }; done
}

# config_is VALUE: `config tracking.follow_zoom` reports VALUE, from $CONFIG line 3, applied (live).
config_is() {
    puckd_command 20 'config tracking.follow_zoom' || return 1
    hil_log "config reply: $PUCKD_REPLY"
    puckd_json key "$PUCKD_REPLY" && [ "$PUCKD_VALUE" = tracking.follow_zoom ] &&
        puckd_json value "$PUCKD_REPLY" && [ "$PUCKD_VALUE" = "$1" ] &&
        puckd_json origin "$PUCKD_REPLY" && [ "$PUCKD_VALUE" = "$CONFIG:3" ] &&
        puckd_json needsRestart "$PUCKD_REPLY" && [ "$PUCKD_VALUE" = false ]
}

# mode_next EXPECTED: `mode next` on the console replies with the tracking mode EXPECTED.
mode_next() {
    puckd_command 20 'mode next' && hil_log "mode next: $PUCKD_REPLY" &&
        puckd_json trackingMode "$PUCKD_REPLY" && [ "$PUCKD_VALUE" = "$1" ]
}

# ==================================================================================================
[ -x "$PUCKD" ] || hil_die "no device binary at $PUCKD: run 'make build' on the host first (make hil does)"

# --- 1. The board: the HIL profile's lines, chips and UART; puckd starts on it ----------------------
hil_gpio_setup pinctrl-bcm2711 58 17:BUTTON:active-low 22:LED_FIX 23:LED_MODE 24:LED_FAULT
hil_i2c_stub 0x6a 0x1c
hil_imu_lsm6dsl_lis3mdl 0x6a 0x1c
hil_imu_set_level_heading 0           # level, at rest, facing magnetic north
hil_imu_noise_start 0.2               # a real chip never repeats itself: see hil_imu_noise_start
write_config 16
mkdir -p "$STATE_DIR"

hil_app_start --stderr-apart puckd "$PUCKD" run --board hil --console stdio --config "$CONFIG" \
    --set state.directory="$STATE_DIR"
puckd_attach puckd
check "puckd holds the button line 17 (consumer puckd)" wait_for 60 hil_gpio_requested BUTTON puckd
check "puckd holds the LED lines 22, 23, 24" \
    eval 'hil_gpio_requested LED_FIX puckd && hil_gpio_requested LED_MODE puckd && hil_gpio_requested LED_FAULT puckd'
check "puckd configured the LSM6DSL and the LIS3MDL through i2c-dev" hil_imu_wait_configured 60
check "report: the IMU found on the stub adapter by name" \
    puckd_expect 30 '^puckd: imu: /dev/i2c-[0-9]+, 100 Hz, .*: LSM6DSL \+ LIS3MDL: accel/gyro 0x6a .*magnetometer 0x1c'
if [ -n "$LIBGPIOD" ]; then gpiod_re="libgpiod ${LIBGPIOD//./\\.} \\(GPIO uAPI v${LIBGPIOD%%.*}\\)"; else gpiod_re='libgpiod [0-9.]+ \(GPIO uAPI v[12]\)'; fi
case "$LIBGPIOD" in
    1.*) debounce_re='debounce 30 ms in puckd: GPIO uAPI v1 \(libgpiod [0-9.]+\) has no kernel debounce' ;;
    2.*) debounce_re='kernel debounce 30 ms' ;;
    *) debounce_re='(kernel debounce 30 ms|debounce 30 ms in puckd: .*)' ;;
esac
check "report: the GPIO chip by label through ${LIBGPIOD:+libgpiod $LIBGPIOD}, button 17 (${debounce_re//\\/}), LEDs 22 23 24" \
    puckd_expect 10 "^puckd: gpio: /dev/gpiochip[0-9]+ \\(.*label pinctrl-bcm2711.*\\) through $gpiod_re, button 17 \\(active-low, pull-up, $debounce_re\\), LEDs fix 22 mode 23 fault 24\$"
check "report: nothing degraded" puckd_expect 10 '^puckd: degraded: nothing$'
check "report: the console on a pipe is scripted (replies on standard output, logs on standard error)" \
    puckd_expect 10 '^puckd: console: standard input/output \(not a terminal: scripted, one command per line\); replies on standard output, logs on standard error'
check "the real 8250 /dev/ttyS1 is opened with libserialport (not termios)" \
    puckd_expect 30 '^puckd: gps: serial /dev/ttyS1: libserialport$'
check "the IMU runs" puckd_expect 30 '^puckd: imu: running'
check "console: json on is acknowledged with one JSON line" json_on
check "before any fix: status has no fix" puckd_wait_status 30 fix '^null$'
check "before any fix: the bearing is the IMU heading, near magnetic north" wait_for 30 heading_near 0 20
puckd_json heading/trueHeadingDegrees
check_eq "before any fix: the IMU heading has no true value (no position, no declination)" null "$PUCKD_VALUE"
check "the silent GPS is a fault after [gps] stale_s = 3 s (status: gps, no NMEA sentence)" \
    puckd_wait_status 30 faults '"source":"gps","reason":"no NMEA sentence for \[gps\] stale_s'
check "fault LED on while the GPS is silent" wait_for 10 hil_led_is_on LED_FAULT
hil_gpio_watch LED_FIX 2
check_match "fix LED off before any fix ($HIL_WATCH_TRACE)" '^0@[0-9]+$' "$HIL_WATCH_TRACE"

# --- 2. A 3D fix ----------------------------------------------------------------------------------
puckd_mark
check "the feeder plays the log" hil_gps play
check "status: a fresh 3D fix within 60 s" wait_for 60 puckd_fix_is 3D fresh
puckd_json fix/latitudeDegrees; lat=$PUCKD_VALUE
puckd_json fix/longitudeDegrees; lon=$PUCKD_VALUE
hil_log "fix after ${HIL_WAITED_S} s: $lat $lon"
check_match "status: the log's position" '^47\.66198[0-9]* -122\.32639[0-9]*$' "$lat $lon"
check "the GPS fault clears" puckd_wait_status 20 faults '^\[\]$'
check "fault LED off" wait_for 10 hil_led_is_off LED_FAULT
hil_gpio_watch LED_FIX 3
check_match "fix LED steady on for the 3D fix (3 s: $HIL_WATCH_TRACE)" '^1@[0-9]+$' "$HIL_WATCH_TRACE"

# --- 3. A 2D fix: 1 Hz blink ------------------------------------------------------------------------
check "the feeder pauses the log" hil_gps pause
puckd_mark
hil_bg gps2d gps_2d_epochs 10
check "status: a 2D fix from the injected epochs" wait_for 30 puckd_fix_is 2D fresh
hil_gpio_watch LED_FIX 4
hil_log "fix LED (2D): $HIL_WATCH_TRACE"
check_range "fix LED blinks at 1 Hz for 2D: rises in 4 s" 3 5 "$HIL_WATCH_RISES"
check_range "fix LED blinks at 1 Hz for 2D: % of the time on" 35 65 "$HIL_WATCH_HIGH_PERCENT"
check "the 2D epochs were all sent" hil_wait gps2d 60
puckd_mark
check "the feeder plays the log again" hil_gps play
check "status: a fresh 3D fix again" wait_for 30 puckd_fix_is 3D fresh
fix_led_steady() { hil_gpio_watch LED_FIX 1.5; [[ $HIL_WATCH_TRACE =~ ^1@[0-9]+$ ]]; }
check "fix LED steady on again" wait_for 10 fix_led_steady

# The board has stood still, level and facing magnetic north, since the start, and the fixes give
# the declination: the bearing must be the IMU heading, true north + 14.9°.
check "standing still with a fix: the bearing is the IMU heading, true (14.9° ± 2°)" wait_for 10 heading_near "$DECLINATION_TENTHS" 20
hil_log "bearing while standing still: $(tenths "${PUCKD_HEADING:-0}")°"
declination_seen
check_range "the IMU heading is magnetic + the WMM declination 14.90° ± 0.1° (true − magnetic, 1/100°)" 1480 1500 "$DECLINATION_SEEN"

# --- 4. The mode button: short press = next mode; long press = toggle overview ----------------------
check "status: mode follow (the profile's first-start mode)" puckd_wait_status 10 trackingMode '^follow$'
check_mode_led "mode LED for follow (position 1 of none,follow,followWithCourse,followWithHeading)" 1
puckd_mark
hil_button_hold BUTTON 0.15
check "short press seen by puckd" puckd_expect 20 '^puckd: button: short press → next-mode$'
check "mode changed to followWithCourse" puckd_expect 20 '^puckd: mode: followWithCourse \(LED: 2 blinks\)$'
check "status: mode followWithCourse" puckd_wait_status 20 trackingMode '^followWithCourse$'
check_mode_led "mode LED for followWithCourse" 2

puckd_mark
hil_button_hold BUTTON 1.6
check "long press seen by puckd" puckd_expect 20 '^puckd: button: long press → toggle-overview$'
check "viewport: overview" puckd_expect 30 '^puckd: viewport: overview$'
check "status: viewport overview" puckd_wait_status 20 viewport '"viewportStatus":"state","viewportState":"overview"'
check "no short press was counted for the long one" hil_not puckd_seen 'short press'
hil_gpio_watch LED_MODE 4
check_eq "mode LED dark in the overview (not in the mode cycle; 4 s)" 0 "$HIL_WATCH_RISES"
puckd_mark
hil_button_hold BUTTON 1.6
check "long press again: back to following the puck" puckd_expect 30 '^puckd: viewport: follow$'
check "status: viewport follow" puckd_wait_status 20 viewport '"viewportStatus":"state","viewportState":"followPuck"'
puckd_json zoom
check_eq "following at the configuration file's [tracking] follow_zoom = 16" 16.0000 "$PUCKD_VALUE"
# (The viewport transitions set the tracking mode to none, as the Mapbox viewport API does to a
# MapLibre tracking mode. Section 5 steps it on with `mode next`; section 9 checks it is restored.)
puckd_json trackingMode; mode_now=$PUCKD_VALUE
hil_log "after overview and back: mode $mode_now, viewport follow"

# --- 5. The console: text replies, counters, SIGHUP reload, mode next --------------------------------
# As a person reads them (json off): help, leds against the gpio-sim lines, press refused on a real
# board, an unknown command with a suggestion, the status screen.
check "console (text): help lists the commands" eval 'puckd_text 20 help && help_lists status leds stats config mode json press quit'
check "console (text): leds answers" puckd_text 20 leds
puckd_text_has '^fix +(on|off) +22  (.*)$'
check_eq "console (text): leds shows the fix LED on line 22 as the gpio-sim line is" \
    "$([ "$(hil_gpio_value LED_FIX)" = 1 ] && echo on || echo off) on: 3D fix" "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
check "console (text): leds shows the fault LED on line 24 off, as the gpio-sim line is" \
    eval 'hil_led_is_off LED_FAULT && puckd_text_has "^fault +off +24  off: no fault\$"'
check "console (text): leds shows the mode LED on line 23 with the mode $mode_now" puckd_text_has "^mode +(on|off) +23  .*: $mode_now\$"
console_press_refused() {
    puckd_text 20 press &&
        puckd_text_has '^press: only the simulated board \(--board sim\) has buttons the console can press; press the real button$'
}
check "console (text): press is refused on a real board" console_press_refused
console_suggests() {
    puckd_text 20 stauts && puckd_text_has "^unknown command 'stauts'; did you mean 'status'\\? Type 'help' for the list\\.\$"
}
check "console (text): an unknown command gets the nearest command suggested" console_suggests
check "console (text): status answers" puckd_text 20 status
check "console (text): status shows the 3D fix" puckd_text_has '^fix +3D .*47\.66198[0-9]* N 122\.32639[0-9]* W'
check "console (text): status shows the IMU running" puckd_text_has '^ +imu: .*LSM6DSL \+ LIS3MDL.* \(running\)$'
check "console (text): status shows the GPIO chip open" puckd_text_has '^ +gpio: .*pinctrl-bcm2711.* \(open\)$'
check "console (text): status shows no fault" puckd_text_has '^faults +none$'

# Counters (JSON): the presses made on line 17, I2C reads, LED writes, GPS bytes.
check "console: stats answers" puckd_command 20 stats
stats=$PUCKD_REPLY
counter() { puckd_number "device/$1" "$stats" && printf '%s' "$PUCKD_NUMBER" || printf 'missing'; }
check_eq "stats: 1 short press and 2 long presses (as made on line 17; press on the console added none)" \
    "1 2" "$(counter gpio.shortPresses) $(counter gpio.longPresses)"
check_range "stats: button edges (3 presses, 2 edges each)" 6 6 "$(counter gpio.buttonEdges)"
check_range "stats: IMU samples read over I2C" 1 100000000 "$(counter imu.samples)"
check_eq "stats: no I2C error (nack io busy timeout other)" "0 0 0 0 0" \
    "$(counter i2c.errors.nack) $(counter i2c.errors.io) $(counter i2c.errors.busy) $(counter i2c.errors.timeout) $(counter i2c.errors.other)"
check_range "stats: LED writes" 1 100000000 "$(counter gpio.ledWrites)"
check_eq "stats: no GPIO error" 0 "$(counter gpio.errors)"
check_range "stats: GPS bytes read from ttyS1" 1000 100000000 "$(counter gps.bytes)"
check_range "stats: GPS fixes" 10 100000000 "$(counter gps.fixes)"

# SIGHUP: a live key changed in the file applies, with its file:line origin; a bad value is rejected
# with the file:line sentence and the running value stays.
check "config: tracking.follow_zoom is 16 from $CONFIG:3" config_is 16
write_config 15.5
puckd_mark
kill -HUP "$(hil_app_pid puckd)"
check "SIGHUP reloads the file: follow_zoom 16 → 15.5 applied" \
    puckd_expect 20 '^puckd: config: reloaded .*: applied tracking\.follow_zoom 16 → 15\.5$'
hil_log "reload: $PUCKD_MATCH"
check "config: tracking.follow_zoom is 15.5 from $CONFIG:3, live" config_is 15.5
check "console: viewport follow immediate answers" puckd_command 20 'viewport follow immediate'
check "status: following at the reloaded zoom 15.5" puckd_wait_status 20 zoom '^15\.5000$'
write_config 99
puckd_mark
kill -HUP "$(hil_app_pid puckd)"
check "SIGHUP with follow_zoom = 99: rejected, naming file, line, key and the allowed range" \
    puckd_expect 20 "^puckd: config: reload rejected, the running configuration stays: $CONFIG:3: \\[tracking\\] follow_zoom = 99: out of range, allowed 0…25\\.5"
check "config: tracking.follow_zoom is still 15.5 from $CONFIG:3" config_is 15.5
write_config 15.5                     # the second start (section 9) reads the file again

# `mode next` on the console steps the mode cycle like the button: the mode LED shows it.
check "status: mode none (the viewport follow set it)" puckd_wait_status 20 trackingMode '^none$'
check "console: mode next → follow" mode_next follow
check "console: mode next → followWithCourse" mode_next followWithCourse
check_mode_led "mode LED after mode next twice on the console" 2

# --- 6. Turning the board: the gyro turns the heading, the magnetometer confirms it ----------------
# The board turns clockwise, level, at TURN_DEG_PER_S for about TURN_S (gyro z negative: z is up),
# measured around the two I2C writes that start and stop it, while `status` is polled; then the
# magnetometer shows the new heading. puckd reports the true heading: magnetic + declination.
gyro_z_write "$(awk -v d="$TURN_DEG_PER_S" 'BEGIN { printf "%.6f", -d * atan2(0, -1) / 180 }')"
turn_bytes=("${GYRO_BYTES[@]}")
gyro_z_write 0
stop_bytes=("${GYRO_BYTES[@]}")
puckd_mark
turn_headings=()
t0=${EPOCHREALTIME/./}
i2cset -y "$HIL_I2C_BUS" 0x6a 0x26 "${turn_bytes[@]}" i
t1=${EPOCHREALTIME/./}
hil_us "$TURN_S"
while [ "${EPOCHREALTIME/./}" -lt $((t1 + HIL_US)) ]; do
    puckd_new_status && puckd_heading_tenths && turn_headings+=("$PUCKD_HEADING")
    hil_sleep 0.05
done
t2=${EPOCHREALTIME/./}
i2cset -y "$HIL_I2C_BUS" 0x6a 0x26 "${stop_bytes[@]}" i
t3=${EPOCHREALTIME/./}
turned_tenths=$(( ((t2 + t3) / 2 - (t0 + t1) / 2) * TURN_DEG_PER_S / 100000 ))
hil_log "turned $(tenths "$turned_tenths")° (I2C writes took $(( (t1 - t0) / 1000 )) and $(( (t3 - t2) / 1000 )) ms); bearings polled during the turn (tenths): ${turn_headings[*]}"
hil_imu_set_level_heading "$(tenths "$turned_tenths")"
expected=$(( (turned_tenths + DECLINATION_TENTHS) % 3600 ))
mid=0
for h in "${turn_headings[@]}"; do
    angle_off "$h" "$DECLINATION_TENTHS"; a=$ANGLE_OFF
    angle_off "$h" "$expected"
    [ "$a" -ge 100 ] && [ "$ANGLE_OFF" -ge 100 ] && mid=$h
done
check "during the turn a status reply shows the heading on its way (gyro): $(tenths "$mid")°" test "$mid" != 0
puckd_mark
check "after the turn the heading is $(tenths "$expected")° ± 4° (turn + 14.9° declination)" \
    wait_for 60 heading_near "$expected" 40
hil_log "heading after the turn: $(tenths "$PUCKD_HEADING")° (waited ${HIL_WAITED_S} s)"
puckd_mark
hil_imu_set_level_heading 225
check "turned to 225° magnetic by the magnetometer alone: heading 239.9° ± 4° (after magnetic recovery)" \
    wait_for 120 heading_near $((2250 + DECLINATION_TENTHS)) 40
hil_log "heading after the magnetometer jump: $(tenths "$PUCKD_HEADING")° (waited ${HIL_WAITED_S} s)"

# --- 7. Unplugging the GPS: stale puck, fault LED; plugging it back ---------------------------------
puckd_mark
check "the feeder unplugs the GPS" hil_gps unplug
check "status: a gps fault after [gps] stale_s (no NMEA sentence)" \
    puckd_wait_status 20 faults '"source":"gps","reason":"no NMEA sentence'
check "fault LED on" wait_for 10 hil_led_is_on LED_FAULT
check "status: the 3D fix is stale (age ≥ 3 s)" wait_for 10 puckd_fix_is 3D stale
hil_gpio_watch LED_FIX 2
hil_log "fix LED (stale): $HIL_WATCH_TRACE"
check_range "fix LED blinks fast (4 Hz) for a stale fix: rises in 2 s" 6 10 "$HIL_WATCH_RISES"
fix_led_pattern_is() {
    puckd_command 20 leds && [[ $PUCKD_REPLY =~ \{\"name\":\"fix\",\"on\":(true|false),\"line\":22,\"pattern\":\"([^\"]*)\" ]] &&
        [ "${BASH_REMATCH[2]}" = "$1" ]
}
check "leds: the fix LED's pattern is the stale one" fix_led_pattern_is '4 Hz blink: the fix is stale'
check "the puck goes stale after [tracking] stale_s = 30 s" puckd_wait_status 60 puckStale '^true$'
puckd_mark
check "the feeder plugs the GPS back in" hil_gps plug
check "status: a fresh 3D fix again after plugging in" wait_for 30 puckd_fix_is 3D fresh
check "the puck is fresh and shown again" eval 'puckd_wait_status 20 puckStale "^false\$" && puckd_json puckVisible && [ "$PUCKD_VALUE" = true ]'
check "the fault clears" puckd_wait_status 20 faults '^\[\]$'
check "fault LED off" wait_for 10 hil_led_is_off LED_FAULT
check "fix LED on" wait_for 10 hil_led_is_on LED_FIX

# --- 8. SIGTERM: clean exit, LEDs driven off before release, state saved ----------------------------
check "status before SIGTERM" wait_for 10 puckd_new_status
puckd_json trackingMode; final_mode=$PUCKD_VALUE
puckd_json viewport/viewportStatus; final_viewport=$PUCKD_VALUE
puckd_json viewport/viewportState; final_viewport_state=$PUCKD_VALUE
hil_log "before SIGTERM: mode $final_mode, viewport $final_viewport $final_viewport_state"
hil_gpio_trace_start
check "the fix LED is on just before SIGTERM" hil_led_is_on LED_FIX
puckd_mark
rc=0
hil_app_stop puckd TERM 30 || rc=$?
hil_gpio_trace_stop
check_eq "SIGTERM: exit status 0" 0 "$rc"
check "puckd says it turned the LEDs off and saved the state" \
    puckd_seen "^puckd: stopped by SIGTERM: LEDs off, state saved to $STATE_DIR/"
for led in LED_FIX LED_MODE LED_FAULT; do
    values=$(hil_gpio_trace_values "$led")
    check_match "kernel GPIO trace: puckd's last write to $led before exit is 0 (writes: ${values:-none})" '(^| )0$' "$values"
done
check_match "kernel GPIO trace: the lit fix LED was only written 0 (off) from SIGTERM on" '^0( 0)*$' "$(hil_gpio_trace_values LED_FIX)"
check "all lines released" eval '! hil_gpio_requested BUTTON && ! hil_gpio_requested LED_FIX && ! hil_gpio_requested LED_MODE && ! hil_gpio_requested LED_FAULT'
state_file=$(printf '%s\n' "$STATE_DIR"/*)
check "the state file exists and is not empty ($state_file)" test -s "$state_file"
# The streams stayed apart: replies only on standard output (no log line, and no periodic status
# line: hil.conf's status_interval_s = 1 applies only without a console), no reply on standard error.
check "standard output held replies only, standard error no reply" \
    eval '! grep -qE "^(puckd: |status [0-9])" "$(hil_app_log puckd)" && ! grep -q "{\"reply\"" "$(hil_app_errlog puckd)"'
if [ -s "$HIL_GPS_CAPTURE" ]; then
    read -r total bad < <(tr '\r' '\n' <"$HIL_GPS_CAPTURE" | grep -v '^$' | nmea_check /dev/stdin)
    check "what puckd sent to the GPS ($(wc -c <"$HIL_GPS_CAPTURE") bytes) is well-formed sentences only ($bad of $total bad)" \
        test "$bad" = 0 -a "$total" -gt 0
    check "... and no echo of the receiver's own sentences" hil_not grep -qE '^\$G[PLNAB]' "$HIL_GPS_CAPTURE"
else
    check_eq "puckd sent nothing to the GPS (it configures no receiver)" 0 "$(hil_gps_status bytes_received)"
fi

# --- 9. Starting again restores the saved state; quit on the console stops it ----------------------
hil_app_start --stderr-apart puckd2 "$PUCKD" run --board hil --console stdio --config "$CONFIG" \
    --set state.directory="$STATE_DIR"
puckd_attach puckd2
# The first start ran with the profile's defaults (mode follow, viewport idle); the first run ended
# in other ones, so seeing them again proves the state file was read.
check "the first run ended away from the defaults (mode $final_mode, viewport $final_viewport)" \
    test "$final_mode" != follow -o "$final_viewport" != idle
check "second start: the state file is loaded (mode $final_mode, the last fix)" \
    puckd_expect 60 "^puckd: state: $STATE_DIR/.*: loaded \(mode $final_mode, last fix 47\.66[0-9]+ -122\.32[0-9]+"
check "second start: json on" json_on
check "second start: status mode $final_mode" puckd_wait_status 30 trackingMode "^$final_mode\$"
check "second start: status viewport $final_viewport $final_viewport_state" \
    eval 'puckd_json viewport/viewportStatus && [ "$PUCKD_VALUE" = "$final_viewport" ] && puckd_json viewport/viewportState && [ "$PUCKD_VALUE" = "$final_viewport_state" ]'
check "second start: follow_zoom 15.5 from the file" config_is 15.5
hil_gpio_trace_start
check "second start: quit on the console is answered" \
    eval 'puckd_command 20 quit && [ "$PUCKD_REPLY" = "{\"reply\":\"quit\",\"reason\":\"command\"}" ]'
rc=0
hil_app_wait_exit puckd2 30 || rc=$?
hil_gpio_trace_stop
check_eq "second start: quit stops puckd, exit status 0" 0 "$rc"
check "second start: it says it turned the LEDs off and saved the state" \
    puckd_seen "^puckd: stopped by quit on the console: LEDs off, state saved to $STATE_DIR/"
last_writes=""
for led in LED_FIX LED_MODE LED_FAULT; do
    values=$(hil_gpio_trace_values "$led")
    last_writes+="${values##* } "
done
check_eq "kernel GPIO trace: after quit, puckd's last write to each LED (fix, mode, fault) is 0" "0 0 0 " "$last_writes"
check "second start: all lines released" eval '! hil_gpio_requested BUTTON && ! hil_gpio_requested LED_FIX && ! hil_gpio_requested LED_MODE && ! hil_gpio_requested LED_FAULT'

hil_finish
