#!/bin/bash
# hil-libgpiod: both
# hil-timeout: 300
# Debounce scenario: who debounces the button against the kernel's own gpio-sim, on each libgpiod API
# (run-scenarios.sh runs it on the device binary of both): with libgpiod 2 (GPIO uAPI v2) puckd asks
# the kernel for the debounce period and the kernel's debouncer swallows a glitch before it is an
# event; with libgpiod 1 (uAPI v1, no kernel debounce) puckd's own debouncer sees both edges and
# rejects them. Either way a glitch is no press, and a press with contact bounce is one short press.
# The debounce time is 400 ms (gpio.debounce_ms) so a TCG stall in the guest cannot stretch the
# glitch (two back-to-back sysfs writes, about a millisecond) into a press.
# This file is the plumbing (the line, puckd, the glitch and the press); the checks are
# Tests/HIL/checks/gpio_debounce_checks.py, run by hil_python_checks.
# shellcheck disable=SC2317  # functions called by the checker through hil_python_checks
# shellcheck source=../guest/lib.sh
. "$HIL_DIR/guest/lib.sh"

PUCKD=${HIL_PUCKD:-.build/device/release/puckd}
export HIL_PUCKD=$PUCKD
[ -x "$PUCKD" ] || hil_die "no device binary at $PUCKD: run 'make build' on the host first (make hil does)"

start_puckd() {
    hil_app_start --stderr-apart deb "$PUCKD" run --board hil --console stdio --set imu.chip=none \
        --set gpio.debounce_ms=400 --set gpio.long_press_ms=3000 --set state.directory="$HIL_RUN_DIR/state"
}
# glitch: the line pulled to ground and back at once.
glitch() {
    local t0=$EPOCHREALTIME t1
    hil_gpio_pull BUTTON down
    hil_gpio_pull BUTTON up
    t1=$EPOCHREALTIME
    hil_log "glitch: $(( (${t1/./} - ${t0/./}) / 1000 )) ms low"
}
# bouncy_press: a press with contact bounce (three quick edges each way), held 1 s.
bouncy_press() {
    hil_gpio_pull BUTTON down; hil_gpio_pull BUTTON up; hil_gpio_pull BUTTON down
    hil_sleep 1.0
    hil_gpio_pull BUTTON up; hil_gpio_pull BUTTON down; hil_gpio_pull BUTTON up
}

hil_gpio_setup pinctrl-bcm2711 58 17:BUTTON:active-low 22:LED_FIX 23:LED_MODE 24:LED_FAULT
# The wire alone pulls line 17 down: only the pull-up bias puckd requests (gpio.button_bias) makes it
# idle high, and gpio-sim shows the request in the line's `pull`.
hil_gpio_pull BUTTON down
mkdir -p "$HIL_RUN_DIR/state"
hil_python_checks "$HIL_DIR/checks/gpio_debounce_checks.py"
hil_finish
