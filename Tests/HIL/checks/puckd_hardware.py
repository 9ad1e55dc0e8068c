"""What the HIL puckd scenario reads from the simulated board (gpio-sim lines sampled by the
shell's hil_gpio_watch, the kernel's GPIO trace, the feeder's capture) and how it judges it: the
LED patterns, the mode LED's blink groups, well-formed NMEA sent to the GPS."""

import re

from hil_checks import log

LEDS = ("LED_FIX", "LED_MODE", "LED_FAULT")


def watch(hw, line, seconds):
    """Samples LINE for SECONDS (hil_gpio_watch) -> {"trace": "value@ms ...", "rises", "falls",
    "high_percent"}."""
    hw.run("hil_gpio_watch", line, seconds)
    return {"trace": hw.var("HIL_WATCH_TRACE"), "rises": int(hw.var("HIL_WATCH_RISES")),
            "falls": int(hw.var("HIL_WATCH_FALLS")), "high_percent": int(hw.var("HIL_WATCH_HIGH_PERCENT"))}


def value(hw, line):
    """"0" or "1": the line's level."""
    return hw.output("hil_gpio_value", line)[1].strip()


def trace_values(hw, line):
    """The levels set on LINE since hil_gpio_trace_start, in order, e.g. ["1", "0"]."""
    return hw.output("hil_gpio_trace_values", line)[1].split()


def lines_released(hw):
    return not any(hw.ok("hil_gpio_requested", line) for line in ("BUTTON",) + LEDS)


def blink_groups(trace, end_ms):
    """From a hil_gpio_watch trace, the blink groups: rises less than 1 s apart form a group;
    groups within 1 s of the window's ends are left out (they may be cut). -> (blinks per group,
    ms between the starts of consecutive groups)."""
    groups, previous = [], None
    for token in trace.split():
        level, at = token.split("@")
        level, at = int(level), int(at)
        if level == 1 and previous == 0:
            if not groups or at - groups[-1][2] > 1000:
                groups.append([at, 0, at])        # start, blinks, last rise
            groups[-1][1] += 1
            groups[-1][2] = at
        previous = level
    kept = [g for g in groups if g[0] >= 1000 and g[2] <= end_ms - 1000]
    return [g[1] for g in kept], [b[0] - a[0] for a, b in zip(kept, kept[1:])]


def mode_led_window(hw, blinks):
    """Samples the mode LED for 7 s: every complete group has BLINKS blinks (at least two groups)
    and the groups repeat every 2 s (1.7-2.3 s)."""
    trace = watch(hw, "LED_MODE", 7)["trace"]
    counts, periods = blink_groups(trace, 7000)
    log(f"mode LED trace: {trace} (groups: {' '.join(map(str, counts)) or 'none'}; "
        f"periods: {' '.join(map(str, periods)) or 'none'} ms)")
    return len(counts) >= 2 and all(c == blinks for c in counts) and bool(periods) and \
        all(1700 <= p <= 2300 for p in periods)


def check_mode_led(hw, check, name, blinks):
    """The mode LED shows BLINKS short blinks every 2 s. A second 7 s window is sampled when the
    first does not show it: under TCG on a busy host the guest can stall for a few hundred
    milliseconds, long enough to swallow one blink of a group (puckd draws the pattern from the
    clock, so after a stall it is already past the blink)."""
    check.true(f"{name}: {blinks} short blinks every 2 s", mode_led_window(hw, blinks) or mode_led_window(hw, blinks))


def nmea_counts(data):
    """(sentences, bad ones) in bytes sent to the GPS: each line must be $...*HH with its XOR."""
    total = bad = 0
    for raw in re.split(rb"[\r\n]+", data):
        if not raw:
            continue
        total += 1
        m = re.fullmatch(rb"[$!]([^*]*)\*([0-9A-Fa-f]{2})", raw)
        if not m:
            bad += 1
            continue
        checksum = 0
        for byte in m.group(1):
            checksum ^= byte
        bad += checksum != int(m.group(2), 16)
    return total, bad
