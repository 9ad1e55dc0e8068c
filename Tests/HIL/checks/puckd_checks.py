"""The checks of the HIL puckd scenario (scenarios/puckd.sh runs them with hil_python_checks).

puckd.sh sets up the board (gpio-sim, i2c-stub, the feeder) and starts puckd; this file drives it
like a person would and judges the hardware (line levels, the kernel's GPIO trace, the bytes sent
to the GPS) and puckd's output (start-up report and log, console replies, `status` as JSON), in
the nine sections of Tests/HIL/README.md. Hardware actions are the shell's (`hw.ok(...)`).
"""

import math
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hil_checks import angle_off, log, main, wait_for, wrap360  # noqa: E402
from puckd_console import PuckdConsole, json_at  # noqa: E402
import puckd_hardware as board  # noqa: E402
import puckd_stop  # noqa: E402

LIBGPIOD = os.environ.get("HIL_EXPECT_LIBGPIOD", "")   # the libgpiod the binary must carry
STATE_DIR = os.environ["HIL_RUN_DIR"] + "/state"
CONFIG = os.environ.get("PUCKD_CONFIG", "/run/puckd-hil.conf")
# The feeder's log (gpsd's quectel-l76k capture): a receiver standing at 47.66198 N, 122.32639 W on
# 2026-08-05, 3D fix. WMM2025 declination there and then (puckd's own model, as printed by
# `puckd run --board sim --gps Tests/Fixtures/nmea/gpsd/quectel-l76k-nmea.nmea`): 14.90° east.
DECLINATION_DEG = 14.9
TURN_DEG_PER_S = 30.0   # the simulated turn: clockwise at 30°/s for about 3 s
TURN_S = 3.0
POSITION = r"^47\.66198[0-9]* -122\.32639[0-9]*$"


def heading_near(console, expected, tolerance):
    """The newest status (polled) shows a bearing from the IMU heading within TOLERANCE degrees."""
    if not console.new_status():
        return False
    console.heading = console.bearing()
    return console.heading is not None and angle_off(console.heading, expected) <= tolerance


def config_is(console, value):
    """`config tracking.follow_zoom` reports VALUE, from CONFIG line 3, applied (live)."""
    if not console.command(20, "config tracking.follow_zoom"):
        return False
    reply = console.reply
    log(f"config reply: {reply}")
    return isinstance(reply, dict) and reply.get("key") == "tracking.follow_zoom" and \
        reply.get("value") == value and reply.get("origin") == f"{CONFIG}:3" and reply.get("needsRestart") is False


def mode_next(console, expected):
    """`mode next` on the console replies with the tracking mode EXPECTED."""
    if not console.command(20, "mode next"):
        return False
    log(f"mode next: {console.reply}")
    return json_at(console.reply, "trackingMode") == expected


def start_and_report(hw, check, console):
    """1. The board: the HIL profile's lines, chips and UART; puckd starts on it."""
    check.true("puckd holds the button line 17 (consumer puckd)", hw.ok("wait_for", 60, "hil_gpio_requested", "BUTTON", "puckd"))
    check.true("puckd holds the LED lines 22, 23, 24", all(hw.ok("hil_gpio_requested", led, "puckd") for led in board.LEDS))
    check.true("puckd configured the LSM6DSL and the LIS3MDL through i2c-dev", hw.ok("hil_imu_wait_configured", 60))
    check.true("report: the IMU found on the stub adapter by name", console.expect(
        30, r"^puckd: imu: /dev/i2c-[0-9]+, 100 Hz, .*: LSM6DSL \+ LIS3MDL: accel/gyro 0x6a .*magnetometer 0x1c"))
    if LIBGPIOD:
        gpiod_re = f"libgpiod {re.escape(LIBGPIOD)} \\(GPIO uAPI v{LIBGPIOD.split('.')[0]}\\)"
    else:
        gpiod_re = r"libgpiod [0-9.]+ \(GPIO uAPI v[12]\)"
    if LIBGPIOD.startswith("1."):
        debounce, debounce_re = "debounce 30 ms in puckd: GPIO uAPI v1 (libgpiod …) has no kernel debounce", \
            r"debounce 30 ms in puckd: GPIO uAPI v1 \(libgpiod [0-9.]+\) has no kernel debounce"
    elif LIBGPIOD.startswith("2."):
        debounce, debounce_re = "kernel debounce 30 ms", r"kernel debounce 30 ms"
    else:
        debounce, debounce_re = "kernel debounce 30 ms or debounce in puckd", r"(kernel debounce 30 ms|debounce 30 ms in puckd: .*)"
    through = f" libgpiod {LIBGPIOD}" if LIBGPIOD else ""
    check.true(f"report: the GPIO chip by label through{through}, button 17 ({debounce}), LEDs 22 23 24", console.expect(
        10, rf"^puckd: gpio: /dev/gpiochip[0-9]+ \(.*label pinctrl-bcm2711.*\) through {gpiod_re}, button 17 "
            rf"\(active-low, pull-up, {debounce_re}\), LEDs fix 22 mode 23 fault 24$"))
    check.true("report: nothing degraded", console.expect(10, r"^puckd: degraded: nothing$"))
    check.true("report: the console on a pipe is scripted (replies on standard output, logs on standard error)", console.expect(
        10, r"^puckd: console: standard input/output \(not a terminal: scripted, one command per line\); "
            r"replies on standard output, logs on standard error"))
    check.true("the real 8250 /dev/ttyS1 is opened with libserialport (not termios)",
               console.expect(30, r"^puckd: gps: serial /dev/ttyS1: libserialport$"))
    check.true("the IMU runs", console.expect(30, r"^puckd: imu: running"))
    check.true("console: json on is acknowledged with one JSON line", console.json_on())
    check.true("before any fix: status has no fix", console.wait_status(30, "no fix", lambda s: "fix" in s and s["fix"] is None))
    check.true("before any fix: the bearing is the IMU heading, near magnetic north", wait_for(30, heading_near, console, 0.0, 2.0))
    check.eq("before any fix: the IMU heading has no true value (no position, no declination)",
             None, console.value("heading/trueHeadingDegrees"))
    check.true("the silent GPS is a fault after [gps] stale_s = 3 s (status: gps, no NMEA sentence)", console.wait_status(
        30, "a gps fault", console.faults_have("gps", "no NMEA sentence for [gps] stale_s")))
    check.true("fault LED on while the GPS is silent", hw.ok("wait_for", 10, "hil_led_is_on", "LED_FAULT"))
    trace = board.watch(hw, "LED_FIX", 2)["trace"]
    check.match(f"fix LED off before any fix ({trace})", r"^0@[0-9]+$", trace)


def fixes(hw, check, console):
    """2. A 3D fix; 3. a 2D fix (1 Hz blink) and back; the true heading standing still."""
    console.mark()
    check.true("the feeder plays the log", hw.ok("hil_gps", "play"))
    waited = wait_for(60, console.fix_is, "3D", "fresh")
    check.true("status: a fresh 3D fix within 60 s", waited)
    position = f"{console.value('fix/latitudeDegrees')} {console.value('fix/longitudeDegrees')}"
    log(f"fix after {waited.seconds:.2f} s: {position}")
    check.match("status: the log's position", POSITION, position)
    check.true("the GPS fault clears", console.wait_value(20, "faults", []))
    check.true("fault LED off", hw.ok("wait_for", 10, "hil_led_is_off", "LED_FAULT"))
    trace = board.watch(hw, "LED_FIX", 3)["trace"]
    check.match(f"fix LED steady on for the 3D fix (3 s: {trace})", r"^1@[0-9]+$", trace)

    check.true("the feeder pauses the log", hw.ok("hil_gps", "pause"))
    console.mark()
    hw.run("hil_bg", "gps2d", "gps_2d_epochs", 10)
    check.true("status: a 2D fix from the injected epochs", wait_for(30, console.fix_is, "2D", "fresh"))
    watched = board.watch(hw, "LED_FIX", 4)
    log(f"fix LED (2D): {watched['trace']}")
    check.range("fix LED blinks at 1 Hz for 2D: rises in 4 s", 3, 5, watched["rises"])
    check.range("fix LED blinks at 1 Hz for 2D: % of the time on", 35, 65, watched["high_percent"])
    check.true("the 2D epochs were all sent", hw.ok("hil_wait", "gps2d", 60))
    console.mark()
    check.true("the feeder plays the log again", hw.ok("hil_gps", "play"))
    check.true("status: a fresh 3D fix again", wait_for(30, console.fix_is, "3D", "fresh"))
    check.true("fix LED steady on again", wait_for(
        10, lambda: re.fullmatch(r"1@[0-9]+", board.watch(hw, "LED_FIX", 1.5)["trace"]) is not None))

    # The board has stood still, level and facing magnetic north, since the start, and the fixes
    # give the declination: the bearing must be the IMU heading, true north + 14.9°.
    console.heading = None
    check.true("standing still with a fix: the bearing is the IMU heading, true (14.9° ± 2°)",
               wait_for(10, heading_near, console, DECLINATION_DEG, 2.0))
    log(f"bearing while standing still: {console.heading}°")
    true_deg, magnetic_deg = console.value("heading/trueHeadingDegrees"), console.value("heading/magneticHeadingDegrees")
    seen = wrap360(true_deg - magnetic_deg) if isinstance(true_deg, (int, float)) and isinstance(magnetic_deg, (int, float)) else None
    check.range("the IMU heading is magnetic + the WMM declination 14.90° ± 0.1° (true − magnetic, °)",
                14.8, 15.0, round(seen, 2) if seen is not None else seen)


def viewport_is(state):
    return lambda s: isinstance(json_at(s, "viewport"), dict) and json_at(s, "viewport/viewportStatus") == "state" \
        and json_at(s, "viewport/viewportState") == state


def button(hw, check, console):
    """4. The mode button: short press = next mode; long press = toggle overview."""
    check.true("status: mode follow (the profile's first-start mode)", console.wait_value(10, "trackingMode", "follow"))
    board.check_mode_led(hw, check, "mode LED for follow (position 1 of none,follow,followWithCourse,followWithHeading)", 1)
    console.mark()
    hw.run("hil_button_hold", "BUTTON", 0.15)
    check.true("short press seen by puckd", console.expect(20, r"^puckd: button: short press → next-mode$"))
    check.true("mode changed to followWithCourse", console.expect(20, r"^puckd: mode: followWithCourse \(LED: 2 blinks\)$"))
    check.true("status: mode followWithCourse", console.wait_value(20, "trackingMode", "followWithCourse"))
    board.check_mode_led(hw, check, "mode LED for followWithCourse", 2)

    console.mark()
    hw.run("hil_button_hold", "BUTTON", 1.6)
    check.true("long press seen by puckd", console.expect(20, r"^puckd: button: long press → toggle-overview$"))
    check.true("viewport: overview", console.expect(30, r"^puckd: viewport: overview$"))
    check.true("status: viewport overview", console.wait_status(20, "viewport overview", viewport_is("overview")))
    check.true("no short press was counted for the long one", not console.seen("short press"))
    check.eq("mode LED dark in the overview (not in the mode cycle; 4 s)", 0, board.watch(hw, "LED_MODE", 4)["rises"])
    console.mark()
    hw.run("hil_button_hold", "BUTTON", 1.6)
    check.true("long press again: back to following the puck", console.expect(30, r"^puckd: viewport: follow$"))
    check.true("status: viewport follow", console.wait_status(20, "viewport follow", viewport_is("followPuck")))
    check.eq("following at the configuration file's [tracking] follow_zoom = 16", 16.0, console.value("zoom"))
    # (The viewport transitions set the tracking mode to none, as the Mapbox viewport API does to a
    # MapLibre tracking mode. Section 5 steps it on with `mode next`; section 9 checks it is restored.)
    mode_now = console.value("trackingMode")
    log(f"after overview and back: mode {mode_now}, viewport follow")
    return mode_now


def help_lists(console, *commands):
    """The text help has its heading and a line for each command."""
    if not console.text_has(r"^Commands \(help CMD for details\):$"):
        return False
    for command in commands:
        if not console.text_has(rf"^  {command}( |$)"):
            log(f"help has no line for {command}")
            return False
    return True


def console_text(hw, check, console, mode_now):
    """5a. As a person reads them (json off): help, leds against the gpio-sim lines, press refused
    on a real board, an unknown command with a suggestion, the status screen."""
    check.true("console (text): help lists the commands", console.text(20, "help") and
               help_lists(console, "status", "leds", "stats", "config", "mode", "json", "press", "quit"))
    check.true("console (text): leds answers", console.text(20, "leds"))
    fix = console.text_has(r"^fix +(on|off) +22  (.*)$")
    fix_led = "on" if board.value(hw, "LED_FIX") == "1" else "off"
    check.eq("console (text): leds shows the fix LED on line 22 as the gpio-sim line is",
             f"{fix_led} on: 3D fix", f"{fix.group(1)} {fix.group(2)}" if fix else None)
    check.true("console (text): leds shows the fault LED on line 24 off, as the gpio-sim line is",
               hw.ok("hil_led_is_off", "LED_FAULT") and console.text_has(r"^fault +off +24  off: no fault$"))
    check.true(f"console (text): leds shows the mode LED on line 23 with the mode {mode_now}",
               console.text_has(rf"^mode +(on|off) +23  .*: {re.escape(str(mode_now))}$"))
    check.true("console (text): press is refused on a real board", console.text(20, "press") and console.text_has(
        r"^press: only the simulated board \(--board sim\) has buttons the console can press; press the real button$"))
    check.true("console (text): an unknown command gets the nearest command suggested", console.text(20, "stauts") and
               console.text_has(r"^unknown command 'stauts'; did you mean 'status'\? Type 'help' for the list\.$"))
    check.true("console (text): status answers", console.text(20, "status"))
    check.true("console (text): status shows the 3D fix", console.text_has(r"^fix +3D .*47\.66198[0-9]* N 122\.32639[0-9]* W"))
    check.true("console (text): status shows the IMU running", console.text_has(r"^ +imu: .*LSM6DSL \+ LIS3MDL.* \(running\)$"))
    check.true("console (text): status shows the GPIO chip open", console.text_has(r"^ +gpio: .*pinctrl-bcm2711.* \(open\)$"))
    check.true("console (text): status shows no fault", console.text_has(r"^faults +none$"))


def counters_reload_mode(hw, check, console):
    """5b. Counters (JSON), the SIGHUP reload (good and bad), `mode next` on the console."""
    check.true("console: stats answers", console.command(20, "stats"))
    stats = console.reply

    def counter(name):
        value = json_at(stats, "device/" + name)
        return value if isinstance(value, int) and not isinstance(value, bool) else "missing"

    check.eq("stats: 1 short press and 2 long presses (as made on line 17; press on the console added none)",
             (1, 2), (counter("gpio.shortPresses"), counter("gpio.longPresses")))
    check.range("stats: button edges (3 presses, 2 edges each)", 6, 6, counter("gpio.buttonEdges"))
    check.range("stats: IMU samples read over I2C", 1, 100000000, counter("imu.samples"))
    check.eq("stats: no I2C error (nack io busy timeout other)", [0, 0, 0, 0, 0],
             [counter("i2c.errors." + e) for e in ("nack", "io", "busy", "timeout", "other")])
    check.range("stats: LED writes", 1, 100000000, counter("gpio.ledWrites"))
    check.eq("stats: no GPIO error", 0, counter("gpio.errors"))
    check.range("stats: GPS bytes read from ttyS1", 1000, 100000000, counter("gps.bytes"))
    check.range("stats: GPS fixes", 10, 100000000, counter("gps.fixes"))

    # SIGHUP: a live key changed in the file applies, with its file:line origin; a bad value is
    # rejected with the file:line sentence and the running value stays.
    check.true(f"config: tracking.follow_zoom is 16 from {CONFIG}:3", config_is(console, "16"))
    hw.run("write_config", "15.5")
    console.mark()
    os.kill(console.pid(), 1)
    check.true("SIGHUP reloads the file: follow_zoom 16 → 15.5 applied",
               console.expect(20, r"^puckd: config: reloaded .*: applied tracking\.follow_zoom 16 → 15\.5$"))
    log(f"reload: {console.match}")
    check.true(f"config: tracking.follow_zoom is 15.5 from {CONFIG}:3, live", config_is(console, "15.5"))
    check.true("console: viewport follow immediate answers", console.command(20, "viewport follow immediate"))
    check.true("status: following at the reloaded zoom 15.5", console.wait_value(20, "zoom", 15.5))
    hw.run("write_config", "99")
    console.mark()
    os.kill(console.pid(), 1)
    check.true("SIGHUP with follow_zoom = 99: rejected, naming file, line, key and the allowed range", console.expect(
        20, rf"^puckd: config: reload rejected, the running configuration stays: {re.escape(CONFIG)}:3: "
            r"\[tracking\] follow_zoom = 99: out of range, allowed 0…25\.5"))
    check.true(f"config: tracking.follow_zoom is still 15.5 from {CONFIG}:3", config_is(console, "15.5"))
    hw.run("write_config", "15.5")   # the second start (section 9) reads the file again

    # `mode next` on the console steps the mode cycle like the button: the mode LED shows it.
    check.true("status: mode none (the viewport follow set it)", console.wait_value(20, "trackingMode", "none"))
    check.true("console: mode next → follow", mode_next(console, "follow"))
    check.true("console: mode next → followWithCourse", mode_next(console, "followWithCourse"))
    board.check_mode_led(hw, check, "mode LED after mode next twice on the console", 2)


def turning(hw, check, console):
    """6. The board turns clockwise, level, at TURN_DEG_PER_S for about TURN_S (gyro z negative: z
    is up), measured around the two I2C writes that start and stop it, while `status` is polled;
    then the magnetometer shows the new heading. puckd reports the true heading: magnetic +
    declination."""
    hw.run("gyro_z_prepare", f"{-math.radians(TURN_DEG_PER_S):.6f}")
    console.mark()
    headings = []
    hw.run("gyro_z_turn", "start")
    t0, t1 = float(hw.var("TURN_T0")), float(hw.var("TURN_T1"))
    while time.time() < t1 + TURN_S:
        if console.new_status() and console.bearing() is not None:
            headings.append(console.bearing())
        time.sleep(0.05)
    hw.run("gyro_z_turn", "stop")
    t2, t3 = float(hw.var("TURN_T0")), float(hw.var("TURN_T1"))
    turned = ((t2 + t3) / 2 - (t0 + t1) / 2) * TURN_DEG_PER_S
    log(f"turned {turned:.1f}° (I2C writes took {(t1 - t0) * 1000:.0f} and {(t3 - t2) * 1000:.0f} ms); "
        f"bearings polled during the turn: {' '.join(f'{h:.1f}' for h in headings)}")
    hw.run("hil_imu_set_level_heading", f"{turned:.1f}")
    expected = wrap360(turned + DECLINATION_DEG)
    on_the_way = [h for h in headings if angle_off(h, DECLINATION_DEG) >= 10 and angle_off(h, expected) >= 10]
    mid = on_the_way[-1] if on_the_way else None
    check.true(f"during the turn a status reply shows the heading on its way (gyro): {mid if mid is None else f'{mid:.1f}'}°",
               mid is not None)
    console.mark()
    waited = wait_for(60, heading_near, console, expected, 4.0)
    check.true(f"after the turn the heading is {expected:.1f}° ± 4° (turn + 14.9° declination)", waited)
    log(f"heading after the turn: {console.heading}° (waited {waited.seconds:.2f} s)")
    console.mark()
    hw.run("hil_imu_set_level_heading", 225)
    waited = wait_for(120, heading_near, console, 225 + DECLINATION_DEG, 4.0)
    check.true("turned to 225° magnetic by the magnetometer alone: heading 239.9° ± 4° (after magnetic recovery)", waited)
    log(f"heading after the magnetometer jump: {console.heading}° (waited {waited.seconds:.2f} s)")


def unplug(hw, check, console):
    """7. Unplugging the GPS: stale puck, fault LED; plugging it back."""
    console.mark()
    check.true("the feeder unplugs the GPS", hw.ok("hil_gps", "unplug"))
    check.true("status: a gps fault after [gps] stale_s (no NMEA sentence)",
               console.wait_status(20, "a gps fault", console.faults_have("gps", "no NMEA sentence")))
    check.true("fault LED on", hw.ok("wait_for", 10, "hil_led_is_on", "LED_FAULT"))
    check.true("status: the 3D fix is stale (age ≥ 3 s)", wait_for(10, console.fix_is, "3D", "stale"))
    watched = board.watch(hw, "LED_FIX", 2)
    log(f"fix LED (stale): {watched['trace']}")
    check.range("fix LED blinks fast (4 Hz) for a stale fix: rises in 2 s", 6, 10, watched["rises"])

    def fix_led_pattern():
        if not console.command(20, "leds"):
            return None
        leds = json_at(console.reply, "leds")
        fix = [led for led in leds or [] if isinstance(led, dict) and led.get("name") == "fix" and led.get("line") == 22]
        return fix[0].get("pattern") if fix else None
    check.eq("leds: the fix LED's pattern is the stale one", "4 Hz blink: the fix is stale", fix_led_pattern())
    check.true("the puck goes stale after [tracking] stale_s = 30 s", console.wait_value(60, "puckStale", True))
    console.mark()
    check.true("the feeder plugs the GPS back in", hw.ok("hil_gps", "plug"))
    check.true("status: a fresh 3D fix again after plugging in", wait_for(30, console.fix_is, "3D", "fresh"))
    check.true("the puck is fresh and shown again",
               console.wait_value(20, "puckStale", False) and console.value("puckVisible") is True)
    check.true("the fault clears", console.wait_value(20, "faults", []))
    check.true("fault LED off", hw.ok("wait_for", 10, "hil_led_is_off", "LED_FAULT"))
    check.true("fix LED on", hw.ok("wait_for", 10, "hil_led_is_on", "LED_FIX"))


def scenario(hw, check):
    console = PuckdConsole(hw, "puckd")
    start_and_report(hw, check, console)
    fixes(hw, check, console)
    mode_now = button(hw, check, console)
    console_text(hw, check, console, mode_now)
    counters_reload_mode(hw, check, console)
    turning(hw, check, console)
    unplug(hw, check, console)
    final = puckd_stop.sigterm(hw, check, console, STATE_DIR)
    puckd_stop.restart(hw, check, STATE_DIR, CONFIG, final, lambda c: config_is(c, "15.5"))


if __name__ == "__main__":
    sys.exit(main(scenario))
