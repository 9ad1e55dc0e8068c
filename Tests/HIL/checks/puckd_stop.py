"""Sections 8 and 9 of the HIL puckd scenario: SIGTERM (clean exit, LEDs driven off before
release, state saved, the two streams apart, what was sent to the GPS) and a second start that
restores the saved state and stops on `quit`."""

import glob
import os
import re

import puckd_hardware as board
from hil_checks import log, wait_for
from puckd_console import PuckdConsole


def sigterm(hw, check, console, state_dir):
    """8. SIGTERM -> (mode, viewport status, viewport state) the run ended in."""
    check.true("status before SIGTERM", wait_for(10, console.new_status))
    final = (console.value("trackingMode"), console.value("viewport/viewportStatus"), console.value("viewport/viewportState"))
    log(f"before SIGTERM: mode {final[0]}, viewport {final[1]} {final[2]}")
    hw.run("hil_gpio_trace_start")
    check.true("the fix LED is on just before SIGTERM", hw.ok("hil_led_is_on", "LED_FIX"))
    console.mark()
    status = hw.run("hil_app_stop", "puckd", "TERM", 30)
    hw.run("hil_gpio_trace_stop")
    check.eq("SIGTERM: exit status 0", 0, status)
    check.true("puckd says it turned the LEDs off and saved the state",
               console.seen(rf"^puckd: stopped by SIGTERM: LEDs off, state saved to {re.escape(state_dir)}/"))
    for led in board.LEDS:
        values = board.trace_values(hw, led)
        check.eq(f"kernel GPIO trace: puckd's last write to {led} before exit is 0 (writes: {' '.join(values) or 'none'})",
                 "0", values[-1] if values else None)
    fix_values = board.trace_values(hw, "LED_FIX")
    check.true("kernel GPIO trace: the lit fix LED was only written 0 (off) from SIGTERM on",
               bool(fix_values) and set(fix_values) == {"0"}, f"writes: {' '.join(fix_values) or 'none'}")
    check.true("all lines released", board.lines_released(hw))
    # The state directory holds the state file and the track journal's directory (track/).
    state_files = sorted(p for p in glob.glob(state_dir + "/*") if os.path.isfile(p))
    state_file = state_files[0] if len(state_files) == 1 else " ".join(state_files)
    check.true(f"the state file exists and is not empty ({state_file})",
               len(state_files) == 1 and os.path.getsize(state_file) > 0)
    # The streams stayed apart: replies only on standard output (no log line, and no periodic
    # status line: hil.conf's status_interval_s = 1 applies only without a console), no reply on
    # standard error.
    console.read()
    logs_on_stdout = [line for line in console.stdout_lines if re.match(r"(puckd: |status [0-9])", line)]
    replies_on_stderr = [line for line in console.stderr_lines if '{"reply"' in line]
    check.true("standard output held replies only, standard error no reply", not logs_on_stdout and not replies_on_stderr,
               f"log lines on standard output: {logs_on_stdout[:3]}; replies on standard error: {replies_on_stderr[:3]}")
    capture = os.environ.get("HIL_GPS_CAPTURE", "")
    data = open(capture, "rb").read() if capture and os.path.exists(capture) else b""
    if data:
        total, bad = board.nmea_counts(data)
        check.true(f"what puckd sent to the GPS ({len(data)} bytes) is well-formed sentences only ({bad} of {total} bad)",
                   bad == 0 and total > 0)
        check.true("... and no echo of the receiver's own sentences",
                   re.search(rb"(^|[\r\n])\$G[PLNAB]", data) is None)
    else:
        _, received = hw.output("hil_gps_status", "bytes_received")
        check.eq("puckd sent nothing to the GPS (it configures no receiver)", "0", received.strip())
    return final


def restart(hw, check, state_dir, config, final, config_is):
    """9. Starting again restores the saved state; quit on the console stops it."""
    puckd = os.environ.get("HIL_PUCKD", ".build/device/release/puckd")
    hw.run("hil_app_start", "--stderr-apart", "puckd2", puckd, "run", "--board", "hil", "--console", "stdio",
           "--config", config, "--set", f"state.directory={state_dir}")
    console = PuckdConsole(hw, "puckd2")
    mode, viewport, viewport_state = final
    # The first start ran with the profile's defaults (mode follow, viewport idle); the first run
    # ended in other ones, so seeing them again proves the state file was read.
    check.true(f"the first run ended away from the defaults (mode {mode}, viewport {viewport})",
               mode != "follow" or viewport != "idle")
    check.true(f"second start: the state file is loaded (mode {mode}, the last fix)", console.expect(
        60, rf"^puckd: state: {re.escape(state_dir)}/.*: loaded \(mode {re.escape(str(mode))}, last fix 47\.66[0-9]+ -122\.32[0-9]+"))
    check.true("second start: json on", console.json_on())
    check.true(f"second start: status mode {mode}", console.wait_value(30, "trackingMode", mode))
    check.eq(f"second start: status viewport {viewport} {'null' if viewport_state is None else viewport_state}",
             (viewport, viewport_state), (console.value("viewport/viewportStatus"), console.value("viewport/viewportState")))
    check.true("second start: follow_zoom 15.5 from the file", config_is(console))
    hw.run("hil_gpio_trace_start")
    check.true("second start: quit on the console is answered",
               console.command(20, "quit") and console.reply == {"reply": "quit", "reason": "command"})
    status = hw.run("hil_app_wait_exit", "puckd2", 30)
    hw.run("hil_gpio_trace_stop")
    check.eq("second start: quit stops puckd, exit status 0", 0, status)
    check.true("second start: it says it turned the LEDs off and saved the state",
               console.seen(rf"^puckd: stopped by quit on the console: LEDs off, state saved to {re.escape(state_dir)}/"))
    last_writes = [(board.trace_values(hw, led) or ["none"])[-1] for led in board.LEDS]
    check.eq("kernel GPIO trace: after quit, puckd's last write to each LED (fix, mode, fault) is 0", ["0", "0", "0"], last_writes)
    check.true("second start: all lines released", board.lines_released(hw))
