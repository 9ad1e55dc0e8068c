#!/bin/bash
# hil-feeder-args: --loop
# hil-timeout: 600
# puckd scenario: the unmodified device binary (.build/device/release/puckd, `make build`) runs in
# the guest on the HIL board profile (board/hil.conf) against the kernel's gpio-sim (button 17, LEDs
# 22/23/24 on a chip labelled pinctrl-bcm2711), i2c-stub (LSM6DSL 0x6A + LIS3MDL 0x1C) and the 8250
# UART ttyS1 fed by the host's feeder, and is driven like a person would: fix, 2D fix, short and
# long presses of the button, console commands, a SIGHUP reload, turning the board, unplugging the
# GPS, SIGTERM, and a second start that restores the saved state. The checks look at the hardware
# (line levels on gpio-sim, the kernel's GPIO trace, the bytes puckd sent to the GPS) and at puckd's
# output (start-up report, log lines, the periodic status line). board/HIL.md maps each step to a
# Raspberry Pi 4 with a BerryGPS-IMU v4.
# shellcheck disable=SC2016,SC2317  # NMEA text in single quotes; functions called through check/wait_for
# shellcheck source=../guest/lib.sh
. "$HIL_DIR/guest/lib.sh"

PUCKD=${HIL_PUCKD:-.build/device/release/puckd}
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
# a change of the console (commands, reply texts, the status line's format) is adapted here only.
#   puckd_attach APP            read APP's output (an hil_app_start name) from its beginning
#   puckd_send TEXT             one command line on puckd's standard input (a pipe kept open)
#   puckd_mark                  later waits only look at output printed after this point
#   puckd_expect TIMEOUT_S ERE  waits for an output line (after the mark) matching ERE -> PUCKD_MATCH
#   puckd_wait_status TIMEOUT_S FIELD ERE   waits until the newest status line after the mark has
#                               FIELD ("fix", "heading", "mode", "viewport", "puck", "faults") matching ERE
#   puckd_field FIELD [LINE]    PUCKD_FIELD = that field of a status line (default: the newest)
# The periodic status line (hil.conf: every second) looks like
#   status 12.3 s | fix 3D gps 14 sats 47.6619813 -122.3263932 ±17.1 m 0.00 m/s | heading 104.9°
#   imuHeading ±30.0° | mode follow | viewport idle | camera zoom 14.00 bearing 0.0° pitch 0° |
#   puck shown | faults none
PUCKD_STATUS_RE='^status [0-9]+\.[0-9] s \| '
PUCKD_APP=""
PUCKD_LOG_FD=""
PUCKD_PARTIAL=""
PUCKD_SINCE=()          # complete output lines since the mark
PUCKD_STATUS_SINCE=""   # the newest status line since the mark
PUCKD_STATUS=""         # the newest status line
PUCKD_MATCH=""
PUCKD_FIELD=""

puckd_attach() {
    PUCKD_APP=$1
    [ -n "$PUCKD_LOG_FD" ] && exec {PUCKD_LOG_FD}<&-
    exec {PUCKD_LOG_FD}<"$(hil_app_log "$1")" || hil_die "cannot read the output of $1"
    PUCKD_PARTIAL="" PUCKD_SINCE=() PUCKD_STATUS_SINCE="" PUCKD_STATUS=""
}

# puckd_read: takes in the lines puckd printed since the last call (builtins only: no process).
puckd_read() {
    local line
    while IFS= read -r -u "$PUCKD_LOG_FD" line; do
        line=$PUCKD_PARTIAL$line
        PUCKD_PARTIAL=""
        PUCKD_SINCE+=("$line")
        if [[ $line =~ $PUCKD_STATUS_RE ]]; then PUCKD_STATUS=$line PUCKD_STATUS_SINCE=$line; fi
    done
    PUCKD_PARTIAL+=$line   # an incomplete last line: completed by the next read
}

puckd_mark() { puckd_read; PUCKD_SINCE=() PUCKD_STATUS_SINCE=""; }
puckd_send() { puckd_mark; hil_app_send "$PUCKD_APP" "$1"; }

puckd_seen() {
    local line
    puckd_read
    for line in "${PUCKD_SINCE[@]}"; do
        [[ $line =~ $1 ]] && { PUCKD_MATCH=$line; return 0; }
    done
    return 1
}
puckd_expect() { wait_for "$1" puckd_seen "$2"; }

puckd_field() {
    local seg segs
    PUCKD_FIELD=""
    IFS='|' read -r -a segs <<<"${2:-$PUCKD_STATUS}"
    for seg in "${segs[@]}"; do
        seg=${seg# } seg=${seg% }
        if [[ $seg == "$1 "* ]]; then PUCKD_FIELD=${seg#"$1 "}; return 0; fi
    done
    return 1
}

puckd_status_is() {
    puckd_read
    [ -n "$PUCKD_STATUS_SINCE" ] && puckd_field "$1" "$PUCKD_STATUS_SINCE" && [[ $PUCKD_FIELD =~ $2 ]]
}
puckd_wait_status() { wait_for "$1" puckd_status_is "$2" "$3"; }

# puckd_heading_tenths LINE: PUCKD_HEADING = the IMU heading of a status line in tenths of a degree
# (status 1 when the line has no IMU heading).
puckd_heading_tenths() {
    puckd_field heading "$1" && [[ $PUCKD_FIELD =~ ^([0-9]+)\.([0-9])°\ imuHeading ]] || return 1
    PUCKD_HEADING=$((10#${BASH_REMATCH[1]} * 10 + 10#${BASH_REMATCH[2]}))
}

# === helpers =======================================================================================
# angle_off TENTHS EXPECTED_TENTHS: ANGLE_OFF = |shortest difference| in tenths of a degree.
angle_off() { local d=$(( (($1 - $2) % 3600 + 5400) % 3600 - 1800 )); ANGLE_OFF=${d#-}; }

# heading_near EXPECTED_TENTHS TOLERANCE_TENTHS: the newest status line after the mark shows an IMU
# heading that close.
heading_near() {
    puckd_read
    [ -n "$PUCKD_STATUS_SINCE" ] && puckd_heading_tenths "$PUCKD_STATUS_SINCE" || return 1
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

# check_mode_led NAME BLINKS: samples the mode LED for 7 s; passes when every complete group has
# BLINKS blinks (at least two groups) and the groups repeat every 2 s.
check_mode_led() {
    local p ok=1
    hil_gpio_watch LED_MODE 7
    led_groups 7000
    hil_log "mode LED trace: $HIL_WATCH_TRACE"
    check_match "$1: $2 short blinks per group (groups: ${LED_GROUPS:-none})" "^$2( $2)+\$" "$LED_GROUPS"
    for p in $LED_PERIODS; do [ "$p" -ge 1700 ] && [ "$p" -le 2300 ] || ok=0; done
    check "$1: a group every 2 s (${LED_PERIODS:-no period} ms)" test "$ok" = 1 -a -n "$LED_PERIODS"
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

# ==================================================================================================
[ -x "$PUCKD" ] || hil_die "no device binary at $PUCKD: run 'make build' on the host first (make hil does)"

# --- 1. The board: the HIL profile's lines, chips and UART; puckd starts on it ----------------------
hil_gpio_setup pinctrl-bcm2711 58 17:BUTTON:active-low 22:LED_FIX 23:LED_MODE 24:LED_FAULT
hil_i2c_stub 0x6a 0x1c
hil_imu_lsm6dsl_lis3mdl 0x6a 0x1c
hil_imu_set_level_heading 0           # level, at rest, facing magnetic north
hil_imu_noise_start 0.2               # a real chip never repeats itself: see hil_imu_noise_start
printf '# written by Tests/HIL/scenarios/puckd.sh; SIGHUP re-reads it\n[console]\nstatus_interval_s = 1\n' >"$CONFIG"
mkdir -p "$STATE_DIR"

hil_app_start puckd "$PUCKD" run --board hil --config "$CONFIG" --set state.directory="$STATE_DIR"
puckd_attach puckd
check "puckd holds the button line 17 (consumer puckd)" wait_for 60 hil_gpio_requested BUTTON puckd
check "puckd holds the LED lines 22, 23, 24" \
    eval 'hil_gpio_requested LED_FIX puckd && hil_gpio_requested LED_MODE puckd && hil_gpio_requested LED_FAULT puckd'
check "puckd configured the LSM6DSL and the LIS3MDL through i2c-dev" hil_imu_wait_configured 60
check "report: the IMU found on the stub adapter by name" \
    puckd_expect 30 '^puckd: imu: /dev/i2c-[0-9]+, 100 Hz, .*: LSM6DSL \+ LIS3MDL: accel/gyro 0x6a .*magnetometer 0x1c'
check "report: the GPIO chip by label, button 17, LEDs 22 23 24" \
    puckd_expect 10 '^puckd: gpio: /dev/gpiochip[0-9]+ \(.*label pinctrl-bcm2711.*\), button 17 \(active-low, pull-up\), LEDs fix 22 mode 23 fault 24$'
check "report: nothing degraded" puckd_expect 10 '^puckd: degraded: nothing$'
check "the real 8250 /dev/ttyS1 is opened with libserialport (not termios)" \
    puckd_expect 30 '^puckd: gps: serial /dev/ttyS1: libserialport$'
check "the IMU runs" puckd_expect 30 '^puckd: imu: running'
check "before any fix: the status line says no fix" puckd_wait_status 30 fix '^none yet$'
check "before any fix: an IMU heading near magnetic north (no declination yet)" \
    wait_for 30 heading_near 0 20
check "the silent GPS is a fault after [gps] stale_s = 3 s" puckd_wait_status 30 faults 'gps-silent'
check "fault LED on while the GPS is silent" wait_for 10 hil_led_is_on LED_FAULT
hil_gpio_watch LED_FIX 2
check_match "fix LED off before any fix ($HIL_WATCH_TRACE)" '^0@[0-9]+$' "$HIL_WATCH_TRACE"

# --- 2. A 3D fix ----------------------------------------------------------------------------------
puckd_mark
check "the feeder plays the log" hil_gps play
check "status: 3D fix within 60 s" puckd_wait_status 60 fix '^3D '
hil_log "fix after ${HIL_WAITED_S} s: $PUCKD_FIELD"
check_match "status: the log's position" '47\.66198[0-9]* -122\.32639[0-9]*' "$PUCKD_FIELD"
check "the GPS fault clears" puckd_wait_status 20 faults '^none$'
check "fault LED off" wait_for 10 hil_led_is_off LED_FAULT
hil_gpio_watch LED_FIX 3
check_match "fix LED steady on for the 3D fix (3 s: $HIL_WATCH_TRACE)" '^1@[0-9]+$' "$HIL_WATCH_TRACE"

# --- 3. A 2D fix: 1 Hz blink ------------------------------------------------------------------------
check "the feeder pauses the log" hil_gps pause
puckd_mark
hil_bg gps2d gps_2d_epochs 10
check "status: 2D fix from the injected epochs" puckd_wait_status 30 fix '^2D '
hil_gpio_watch LED_FIX 4
hil_log "fix LED (2D): $HIL_WATCH_TRACE"
check_range "fix LED blinks at 1 Hz for 2D: rises in 4 s" 3 5 "$HIL_WATCH_RISES"
check_range "fix LED blinks at 1 Hz for 2D: % of the time on" 35 65 "$HIL_WATCH_HIGH_PERCENT"
check "the 2D epochs were all sent" hil_wait gps2d 60
puckd_mark
check "the feeder plays the log again" hil_gps play
check "status: 3D fix again" puckd_wait_status 30 fix '^3D '
fix_led_steady() { hil_gpio_watch LED_FIX 1.5; [[ $HIL_WATCH_TRACE =~ ^1@[0-9]+$ ]]; }
check "fix LED steady on again" wait_for 10 fix_led_steady

# The board has stood still, level and facing magnetic north, since the start, and the fixes give
# the declination: the heading must be there, and be true north + 14.9°.
check "standing still with a fix: the heading is reported and true (14.9° ± 2°)" wait_for 5 heading_near "$DECLINATION_TENTHS" 20
hil_log "heading while standing still: ${PUCKD_STATUS_SINCE:+$(puckd_field heading "$PUCKD_STATUS_SINCE"; echo "$PUCKD_FIELD")}"

# --- 4. The mode button: short press = next mode; long press = toggle overview ----------------------
check "status: mode follow (the profile's first-start mode)" puckd_wait_status 10 mode '^follow$'
check_mode_led "mode LED for follow (position 1 of none,follow,followWithCourse,followWithHeading)" 1
puckd_mark
hil_button_hold BUTTON 0.15
check "short press seen by puckd" puckd_expect 20 '^puckd: button: short press → next-mode$'
check "mode changed to followWithCourse" puckd_expect 20 '^puckd: mode: followWithCourse \(LED: 2 blinks\)$'
check "status: mode followWithCourse" puckd_wait_status 20 mode '^followWithCourse$'
check_mode_led "mode LED for followWithCourse" 2

puckd_mark
hil_button_hold BUTTON 1.6
check "long press seen by puckd" puckd_expect 20 '^puckd: button: long press → toggle-overview$'
check "viewport: overview" puckd_expect 30 '^puckd: viewport: overview$'
check "status: viewport overview" puckd_wait_status 20 viewport '^overview$'
check "no short press was counted for the long one" hil_not puckd_seen 'short press'
hil_gpio_watch LED_MODE 4
check_eq "mode LED dark in the overview (not in the mode cycle; 4 s)" 0 "$HIL_WATCH_RISES"
puckd_mark
hil_button_hold BUTTON 1.6
check "long press again: back to following the puck" puckd_expect 30 '^puckd: viewport: follow puck$'
check "status: viewport follow" puckd_wait_status 20 viewport '^follow$'
# (The viewport transitions set the tracking mode to none, as the Mapbox viewport API does to a
# MapLibre tracking mode; the mode is not asserted here. Section 9 checks it is restored.)
puckd_field mode "$PUCKD_STATUS_SINCE"
hil_log "after overview and back: mode $PUCKD_FIELD, viewport follow"

# --- 5. Console commands -------------------------------------------------------------------------
puckd_send help
check "console: help lists the commands" puckd_expect 20 '^commands: '
puckd_send leds
check "console: leds reports the fix line" puckd_expect 20 '^puckd: leds: fix line 22 (on|off)'
check_eq "console: puckd's fix LED report matches the gpio-sim line" \
    "$([ "$(hil_gpio_value LED_FIX)" = 1 ] && echo on || echo off)" "$([[ $PUCKD_MATCH =~ (on|off)$ ]] && echo "${BASH_REMATCH[1]}")"
check "console: leds reports the fault line off" puckd_expect 20 '^puckd: leds: fault line 24 off'
puckd_send press
check "console: press is refused on a real board" puckd_expect 20 '^puckd: press: only the simulated board'
puckd_send 'frobnicate now'
check "console: an unknown command is named as such" puckd_expect 20 '^puckd: unknown command; type help$'
# SIGHUP: status lines off, then `status` prints exactly one.
printf '[console]\nstatus_interval_s = 0\n' >"$CONFIG"
puckd_mark
kill -HUP "$(hil_app_pid puckd)"
check "SIGHUP reloads the configuration file" puckd_expect 20 '^puckd: config: reloaded '
hil_log "reload: $PUCKD_MATCH"
puckd_mark
hil_sleep 3
puckd_read
check_eq "no periodic status line for 3 s after status_interval_s = 0" "" "$PUCKD_STATUS_SINCE"
puckd_send status
check "console: status prints a status line" puckd_expect 20 "$PUCKD_STATUS_RE"
hil_sleep 2
puckd_read
check_eq "... exactly one" 1 "$(printf '%s\n' "${PUCKD_SINCE[@]}" | grep -cE "$PUCKD_STATUS_RE")"
printf '[console]\nstatus_interval_s = 1\n' >"$CONFIG"
puckd_mark
kill -HUP "$(hil_app_pid puckd)"
check "SIGHUP again: status lines every second again" puckd_wait_status 20 fix '^3D '

# --- 6. Turning the board: the gyro turns the heading, the magnetometer confirms it ----------------
# The board turns clockwise, level, at TURN_DEG_PER_S for about TURN_S (gyro z negative: z is up),
# measured around the two I2C writes that start and stop it; then the magnetometer shows the new
# heading. puckd reports the true heading: magnetic + declination.
gyro_z_write "$(awk -v d="$TURN_DEG_PER_S" 'BEGIN { printf "%.6f", -d * atan2(0, -1) / 180 }')"
turn_bytes=("${GYRO_BYTES[@]}")
gyro_z_write 0
stop_bytes=("${GYRO_BYTES[@]}")
puckd_mark
t0=$(hil_now_us)
i2cset -y "$HIL_I2C_BUS" 0x6a 0x26 "${turn_bytes[@]}" i
t1=$(hil_now_us)
hil_sleep "$TURN_S"
t2=$(hil_now_us)
i2cset -y "$HIL_I2C_BUS" 0x6a 0x26 "${stop_bytes[@]}" i
t3=$(hil_now_us)
turned_tenths=$(( ((t2 + t3) / 2 - (t0 + t1) / 2) * TURN_DEG_PER_S / 100000 ))
hil_log "turned $(tenths "$turned_tenths")° (I2C writes took $(( (t1 - t0) / 1000 )) and $(( (t3 - t2) / 1000 )) ms)"
hil_imu_set_level_heading "$(tenths "$turned_tenths")"
expected=$(( (turned_tenths + DECLINATION_TENTHS) % 3600 ))
puckd_read
mid=0
for line in "${PUCKD_SINCE[@]}"; do
    puckd_heading_tenths "$line" || continue
    angle_off "$PUCKD_HEADING" "$DECLINATION_TENTHS"; a=$ANGLE_OFF
    angle_off "$PUCKD_HEADING" "$expected"
    [ "$a" -ge 100 ] && [ "$ANGLE_OFF" -ge 100 ] && mid=$PUCKD_HEADING
done
check "during the turn a status line shows the heading on its way (gyro): $(tenths "$mid")°" test "$mid" != 0
check "after the turn the heading is $(tenths "$expected")° ± 4° (turn + 14.9° declination)" \
    wait_for 60 heading_near "$expected" 40
hil_log "heading after the turn: $PUCKD_FIELD (waited ${HIL_WAITED_S} s)"
puckd_mark
hil_imu_set_level_heading 225
check "turned to 225° magnetic by the magnetometer alone: heading 239.9° ± 4° (after magnetic recovery)" \
    wait_for 120 heading_near $((2250 + DECLINATION_TENTHS)) 40
hil_log "heading after the magnetometer jump: $PUCKD_FIELD (waited ${HIL_WAITED_S} s)"

# --- 7. Unplugging the GPS: stale puck, fault LED; plugging it back ---------------------------------
puckd_mark
check "the feeder unplugs the GPS" hil_gps unplug
check "status: fault gps-silent after [gps] stale_s" puckd_wait_status 20 faults 'gps-silent'
check "fault LED on" wait_for 10 hil_led_is_on LED_FAULT
check "status: fix stale" puckd_wait_status 10 fix '^stale'
hil_gpio_watch LED_FIX 2
hil_log "fix LED (stale): $HIL_WATCH_TRACE"
check_range "fix LED blinks fast (4 Hz) for a stale fix: rises in 2 s" 6 10 "$HIL_WATCH_RISES"
check "the puck goes stale after [tracking] stale_s = 30 s" puckd_wait_status 60 puck 'stale'
puckd_mark
check "the feeder plugs the GPS back in" hil_gps plug
check "status: 3D fix again after plugging in" puckd_wait_status 30 fix '^3D '
check "the puck is fresh again" puckd_wait_status 20 puck '^shown$'
check "the fault clears" puckd_wait_status 20 faults '^none$'
check "fault LED off" wait_for 10 hil_led_is_off LED_FAULT
check "fix LED on" wait_for 10 hil_led_is_on LED_FIX

# --- 8. SIGTERM: clean exit, LEDs driven off before release, state saved ----------------------------
puckd_read
puckd_field mode; final_mode=$PUCKD_FIELD
puckd_field viewport; final_viewport=$PUCKD_FIELD
hil_log "before SIGTERM: mode $final_mode, viewport $final_viewport"
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
if [ -s "$HIL_GPS_CAPTURE" ]; then
    read -r total bad < <(tr '\r' '\n' <"$HIL_GPS_CAPTURE" | grep -v '^$' | nmea_check /dev/stdin)
    check "what puckd sent to the GPS ($(wc -c <"$HIL_GPS_CAPTURE") bytes) is well-formed sentences only ($bad of $total bad)" \
        test "$bad" = 0 -a "$total" -gt 0
    check "... and no echo of the receiver's own sentences" hil_not grep -qE '^\$G[PLNAB]' "$HIL_GPS_CAPTURE"
else
    check_eq "puckd sent nothing to the GPS (it configures no receiver)" 0 "$(hil_gps_status bytes_received)"
fi

# --- 9. Starting again restores the saved state --------------------------------------------------
hil_app_start puckd2 "$PUCKD" run --board hil --config "$CONFIG" --set state.directory="$STATE_DIR"
puckd_attach puckd2
# The first start ran with the profile's defaults (mode follow, viewport idle); the first run ended
# in other ones, so seeing them again proves the state file was read.
check "the first run ended away from the defaults (mode $final_mode, viewport $final_viewport)" \
    test "$final_mode" != follow -o "$final_viewport" != idle
check "second start: the state file is loaded (mode $final_mode, the last fix)" \
    puckd_expect 60 "^puckd: state: $STATE_DIR/.*: loaded \(mode $final_mode, last fix 47\.66[0-9]+ -122\.32[0-9]+"
check "second start: status mode $final_mode" puckd_wait_status 30 mode "^$final_mode\$"
check "second start: status viewport $final_viewport" puckd_wait_status 30 viewport "^$final_viewport\$"
rc=0
hil_app_stop puckd2 TERM 30 || rc=$?
check_eq "second start: SIGTERM, exit status 0" 0 "$rc"

hil_finish
