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
# This file is the plumbing: the board, starting puckd, and the shell functions the checks call
# to act on the board (feeding 2D epochs, turning the gyro, rewriting the configuration file).
# The checks themselves (driving the console, parsing its JSON, angles, LED patterns) are
# Tests/HIL/checks/puckd_checks.py, run by hil_python_checks.
# shellcheck disable=SC2317  # functions called by the checker through hil_python_checks
# shellcheck source=../guest/lib.sh
. "$HIL_DIR/guest/lib.sh"

PUCKD=${HIL_PUCKD:-.build/device/release/puckd}
STATE_DIR=$HIL_RUN_DIR/state
CONFIG=/run/puckd-hil.conf
export HIL_PUCKD=$PUCKD PUCKD_CONFIG=$CONFIG   # for the checker (HIL_EXPECT_LIBGPIOD comes from run-scenarios.sh)

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
# through the feeder's `send`, one per second, at the log's position (run with hil_bg).
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

# gyro_z_prepare RAD_PER_S: the LSM6DSL's gyro z output bytes (OUTZ_L_G 0x26, 2 bytes) for the turn
# and for rest, with the full scale puckd configured -> GYRO_TURN_BYTES, GYRO_STOP_BYTES; a turn
# then starts and ends with one I2C transfer each (gyro_z_turn start|stop).
gyro_z_prepare() {
    local bytes saved=("${HIL_IMU_GYRO[@]}") rate
    for rate in "$1" 0; do
        HIL_IMU_GYRO=(0 0 "$rate")
        read -r -a bytes <<<"$(hil_imu_encode "$(hil_i2c_read 0x6a 0x10)" "$(hil_i2c_read 0x6a 0x11)" 0)"
        if [ "$rate" = 0 ]; then GYRO_STOP_BYTES=("${bytes[4]}" "${bytes[5]}"); else GYRO_TURN_BYTES=("${bytes[4]}" "${bytes[5]}"); fi
    done
    HIL_IMU_GYRO=("${saved[@]}")
}
# gyro_z_turn start|stop: writes the turn's (or rest's) gyro z bytes; TURN_T0 and TURN_T1 = the
# wall clock (s) just before and after the write.
gyro_z_turn() {
    local bytes=("${GYRO_TURN_BYTES[@]}")
    [ "$1" = stop ] && bytes=("${GYRO_STOP_BYTES[@]}")
    TURN_T0=$EPOCHREALTIME
    i2cset -y "$HIL_I2C_BUS" 0x6a 0x26 "${bytes[@]}" i
    TURN_T1=$EPOCHREALTIME
}

# write_config FOLLOW_ZOOM: the scenario's configuration file; the value is on line 3 (section 5
# rewrites it and sends SIGHUP, and checks the origin `$CONFIG:3` that puckd reports).
write_config() {
    printf '# written by Tests/HIL/scenarios/puckd.sh; SIGHUP re-reads it\n[tracking]\nfollow_zoom = %s\n' "$1" >"$CONFIG"
}

# ==================================================================================================
[ -x "$PUCKD" ] || hil_die "no device binary at $PUCKD: run 'make build' on the host first (make hil does)"

# The board: the HIL profile's lines, chips and UART; puckd starts on it.
hil_gpio_setup pinctrl-bcm2711 58 17:BUTTON:active-low 22:LED_FIX 23:LED_MODE 24:LED_FAULT
hil_i2c_stub 0x6a 0x1c
hil_imu_lsm6dsl_lis3mdl 0x6a 0x1c
hil_imu_set_level_heading 0           # level, at rest, facing magnetic north
hil_imu_noise_start 0.2               # a real chip never repeats itself: see hil_imu_noise_start
write_config 16
mkdir -p "$STATE_DIR"

hil_app_start --stderr-apart puckd "$PUCKD" run --board hil --console stdio --config "$CONFIG" \
    --set state.directory="$STATE_DIR"
hil_python_checks "$HIL_DIR/checks/puckd_checks.py"
hil_finish
