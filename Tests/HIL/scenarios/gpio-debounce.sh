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
# shellcheck source=../guest/lib.sh
. "$HIL_DIR/guest/lib.sh"

PUCKD=${HIL_PUCKD:-.build/device/release/puckd}
LIBGPIOD=${HIL_EXPECT_LIBGPIOD:-}
[ -x "$PUCKD" ] || hil_die "no device binary at $PUCKD: run 'make build' on the host first (make hil does)"
api=$("$PUCKD" --version | sed -n 's/^libgpiod \([0-9.]*\) (GPIO uAPI v\([12]\)).*/\2/p')
version=$("$PUCKD" --version | sed -n 's/^libgpiod \([0-9.]*\) .*/\1/p')
hil_log "debounce: $PUCKD carries libgpiod $version (uAPI v$api)"
[ -z "$LIBGPIOD" ] || check_eq "the binary carries the libgpiod it was built against" "$LIBGPIOD" "$version"

stats_replies() { grep -c '"reply":"stats"' "$(hil_app_log deb)"; }
stats_replies_above() { [ "$(stats_replies)" -gt "$1" ]; }
# stats_counters: EDGES REJECTED SHORT from puckd's `stats` reply (JSON).
stats_counters() {
    local before reply
    before=$(stats_replies)
    hil_app_send deb stats
    wait_for 20 stats_replies_above "$before" || return 1
    reply=$(grep '"reply":"stats"' "$(hil_app_log deb)" | tail -n 1)
    [[ $reply =~ \"gpio\.buttonEdges\":([0-9]+) ]] && EDGES=${BASH_REMATCH[1]} || return 1
    [[ $reply =~ \"gpio\.bouncesRejected\":([0-9]+) ]] && REJECTED=${BASH_REMATCH[1]} || return 1
    [[ $reply =~ \"gpio\.shortPresses\":([0-9]+) ]] && SHORT=${BASH_REMATCH[1]} || return 1
    hil_log "stats: button edges $EDGES, bounces rejected $REJECTED, short presses $SHORT"
}
report_has() { grep -qE -- "$1" "$(hil_app_errlog deb)"; }

hil_gpio_setup pinctrl-bcm2711 58 17:BUTTON:active-low 22:LED_FIX 23:LED_MODE 24:LED_FAULT
# The wire alone pulls line 17 down: only the pull-up bias puckd requests (gpio.button_bias) makes it
# idle high, and gpio-sim shows the request in the line's `pull`.
hil_gpio_pull BUTTON down
mkdir -p "$HIL_RUN_DIR/state"
hil_app_start --stderr-apart deb "$PUCKD" run --board hil --console stdio --set imu.chip=none \
    --set gpio.debounce_ms=400 --set gpio.long_press_ms=3000 --set state.directory="$HIL_RUN_DIR/state"
check "puckd holds the button line 17" wait_for 60 hil_gpio_requested BUTTON puckd
check_eq "puckd's pull-up bias request reached the line (gpio-sim pull)" pull-up "$(cat "$(hil_gpio_attr BUTTON pull)")"
check_eq "... so the idle button reads high" 1 "$(hil_gpio_value BUTTON)"
if [ "$api" = 2 ]; then
    check "report: the kernel debounces the button (uAPI v2, read back from the line's info)" \
        wait_for 20 report_has '^puckd: gpio: .* through libgpiod [0-9.]+ \(GPIO uAPI v2\), button 17 \(active-low, pull-up, kernel debounce 400 ms\)'
else
    check "report: puckd debounces the button (uAPI v1 has no kernel debounce)" \
        wait_for 20 report_has '^puckd: gpio: .* through libgpiod [0-9.]+ \(GPIO uAPI v1\), button 17 \(active-low, pull-up, debounce 400 ms in puckd: GPIO uAPI v1'
fi
hil_app_send deb 'json on'
check "console: json on" wait_for 20 grep -q '"reply":"json"' "$(hil_app_log deb)"
check "stats before any press" stats_counters
check_eq "no edge, no press yet" "0 0 0" "$EDGES $REJECTED $SHORT"

# A glitch: the line pulled to ground and back at once.
t0=$EPOCHREALTIME
hil_gpio_pull BUTTON down
hil_gpio_pull BUTTON up
t1=$EPOCHREALTIME
hil_log "glitch: $(( (${t1/./} - ${t0/./}) / 1000 )) ms low"
hil_sleep 1.2
check "stats after the glitch" stats_counters
if [ "$api" = 2 ]; then
    check_eq "uAPI v2: the kernel's debouncer swallowed the glitch (no edge reached puckd, no press)" "0 0 0" "$EDGES $REJECTED $SHORT"
else
    check_eq "uAPI v1: puckd saw both edges and rejected them as a bounce (no press)" "2 1 0" "$EDGES $REJECTED $SHORT"
fi

# A press with contact bounce (three quick edges each way), held 1 s: one short press.
hil_app_mark deb
hil_gpio_pull BUTTON down; hil_gpio_pull BUTTON up; hil_gpio_pull BUTTON down
hil_sleep 1.0
hil_gpio_pull BUTTON up; hil_gpio_pull BUTTON down; hil_gpio_pull BUTTON up
check "one short press seen by puckd" wait_for 20 report_has '^puckd: button: short press → next-mode$'
hil_sleep 1.2
check "stats after the bouncy press" stats_counters
if [ "$api" = 2 ]; then
    check_eq "uAPI v2: two debounced edges from the kernel, nothing rejected by puckd, one short press" "2 0 1" "$EDGES $REJECTED $SHORT"
else
    check_eq "uAPI v1: 6 more edges, 2 more rejected, one short press" "8 3 1" "$EDGES $REJECTED $SHORT"
fi
check_eq "exactly one press logged" 1 "$(grep -c '^puckd: button: short press' "$(hil_app_errlog deb)")"

rc=0
hil_app_stop deb TERM 30 || rc=$?
check_eq "SIGTERM: clean exit" 0 "$rc"
check "all lines released" eval '! hil_gpio_requested BUTTON && ! hil_gpio_requested LED_FIX'
hil_finish
