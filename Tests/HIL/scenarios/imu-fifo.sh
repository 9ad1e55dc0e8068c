#!/bin/bash
# hil-libgpiod: both
# hil-timeout: 300
# IMU FIFO scenario (docs/hardware.md §1.7.2, §1.7.7): puckd reads the LSM6DSL's FIFO in
# bursts over the kernel's i2c-stub (`imu.burst_hz=10`), first by its burst timer, then at the
# FIFO-watermark edges of a gpio-sim line wired as INT1 (`imu.interrupt_line=25`), on each libgpiod
# API (run-scenarios.sh runs it on the device binary of both).
# i2c-stub is a plain register file (docs/hil.md P4, P17): the shell's FIFO model writes what a
# burst read sees. FIFO_DATA_OUT 0x3E..0x55 holds two whole samples (gyro then accelerometer, the
# chip's pattern), so each 24-byte I2C block read from 0x3E (puckd's transfer) gets two samples, a
# 12-byte read the first; FIFO_STATUS1..4 0x3A..0x3D say 66 unread words (the watermark, 11 samples),
# WaterM set, pattern 0. Every cycle an accelerometer LSB flips (a real chip never repeats itself).
# With the line, each cycle then raises line 25 (a rising edge, as INT1 on the watermark) and lowers
# it again. This file is the plumbing; the checks are Tests/HIL/checks/imu_fifo_checks.py.
# shellcheck disable=SC2317  # functions called by the checker through hil_python_checks
# shellcheck source=../guest/lib.sh
. "$HIL_DIR/guest/lib.sh"

PUCKD=${HIL_PUCKD:-.build/device/release/puckd}
export HIL_PUCKD=$PUCKD
[ -x "$PUCKD" ] || hil_die "no device binary at $PUCKD: run 'make build' on the host first (make hil does)"

# start_puckd NAME [ARG...]: puckd on the HIL profile, FIFO bursts at 10 Hz, plus ARGs.
start_puckd() {
    local name=$1
    shift
    hil_app_start --stderr-apart "$name" "$PUCKD" run --board hil --console stdio --set imu.burst_hz=10 \
        --set state.directory="$HIL_RUN_DIR/state-$name" "$@"
}

# fifo_model_loop PERIOD_S EDGES: every PERIOD_S writes the FIFO's data and status; with EDGES=1 then
# pulses line 25 (INT1) up and down.
fifo_model_loop() {
    local flip=0 bytes sample
    while true; do
        flip=$((flip ^ 1))
        if read -r -a bytes <"$HIL_IMU_BYTES_FILE" 2>/dev/null && [ "${#bytes[@]}" = 18 ]; then
            bytes[6]=$(( bytes[6] ^ flip ))
            sample=("${bytes[@]:0:12}")
            i2cset -y "$HIL_I2C_BUS" "$HIL_IMU_AG" 0x3e "${sample[@]}" "${sample[@]}" i 2>/dev/null
            i2cset -y "$HIL_I2C_BUS" "$HIL_IMU_AG" 0x3a 66 0x80 0 0 i 2>/dev/null
        fi
        if [ "$2" = 1 ]; then
            hil_gpio_pull IMU_INT1 up
            hil_sleep 0.02
            hil_gpio_pull IMU_INT1 down
        fi
        hil_sleep "$1"
    done
}
fifo_model_start() { hil_bg fifo-model fifo_model_loop 0.1 "$1"; }
fifo_model_stop() { hil_stop fifo-model; }

# ctrl ADDR REG: one register of the LSM6DSL as puckd left it (the checker reads the FIFO program).
ctrl() { hil_i2c_read "$HIL_IMU_AG" "$1"; }

hil_gpio_setup pinctrl-bcm2711 58 17:BUTTON:active-low 22:LED_FIX 23:LED_MODE 24:LED_FAULT 25:IMU_INT1
hil_gpio_pull IMU_INT1 down
hil_i2c_stub 0x6a 0x1c
hil_imu_lsm6dsl_lis3mdl 0x6a 0x1c
hil_imu_set_level_heading 30          # level, at rest, its x axis 30 degrees east of magnetic north
mkdir -p "$HIL_RUN_DIR/state-timer" "$HIL_RUN_DIR/state-edges"
hil_python_checks "$HIL_DIR/checks/imu_fifo_checks.py"
hil_finish
