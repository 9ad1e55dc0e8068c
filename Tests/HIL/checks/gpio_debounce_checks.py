"""The checks of the HIL gpio-debounce scenario (scenarios/gpio-debounce.sh runs them with
hil_python_checks): who debounces the button, the kernel (GPIO uAPI v2) or puckd (uAPI v1), judged
from puckd's start-up report and its `stats` counters (JSON) after a glitch and a bouncy press,
which the shell makes on gpio-sim's line 17 (`glitch`, `bouncy_press`: the timing stays in bash)."""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hil_checks import log, main  # noqa: E402
from puckd_console import PuckdConsole, json_at  # noqa: E402

PUCKD = os.environ.get("HIL_PUCKD", ".build/device/release/puckd")
LIBGPIOD = os.environ.get("HIL_EXPECT_LIBGPIOD", "")


def stats_counters(console):
    """(button edges, bounces rejected, short presses) from a `stats` reply, or None."""
    if not console.command(20, "stats"):
        return None
    values = tuple(json_at(console.reply, "device/gpio." + name) for name in ("buttonEdges", "bouncesRejected", "shortPresses"))
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    log(f"stats: button edges {values[0]}, bounces rejected {values[1]}, short presses {values[2]}")
    return values


def scenario(hw, check):
    version_text = subprocess.run([PUCKD, "--version"], capture_output=True, text=True).stdout
    found = re.search(r"^libgpiod ([0-9.]+) \(GPIO uAPI v([12])\)", version_text, re.MULTILINE)
    version, api = (found.group(1), found.group(2)) if found else ("", "")
    log(f"debounce: {PUCKD} carries libgpiod {version} (uAPI v{api})")
    if LIBGPIOD:
        check.eq("the binary carries the libgpiod it was built against", LIBGPIOD, version)
    hw.run("start_puckd")
    console = PuckdConsole(hw, "deb")
    check.true("puckd holds the button line 17", hw.ok("wait_for", 60, "hil_gpio_requested", "BUTTON", "puckd"))
    check.eq("puckd's pull-up bias request reached the line (gpio-sim pull)", "pull-up",
             hw.output("eval", 'cat "$(hil_gpio_attr BUTTON pull)"')[1].strip())
    check.eq("... so the idle button reads high", "1", hw.output("hil_gpio_value", "BUTTON")[1].strip())
    report = r"^puckd: gpio: .* through libgpiod [0-9.]+ \(GPIO uAPI v{}\), button 17 \(active-low, pull-up, {}"
    if api == "2":
        check.true("report: the kernel debounces the button (uAPI v2, read back from the line's info)",
                   console.expect(20, report.format(2, r"kernel debounce 400 ms\)")))
    else:
        check.true("report: puckd debounces the button (uAPI v1 has no kernel debounce)",
                   console.expect(20, report.format(1, r"debounce 400 ms in puckd: GPIO uAPI v1")))
    check.true("console: json on", console.json_on())
    counters = stats_counters(console)
    check.true("stats before any press", counters is not None)
    check.eq("no edge, no press yet", (0, 0, 0), counters)

    # A glitch: the line pulled to ground and back at once.
    hw.run("glitch")
    time.sleep(1.2)
    counters = stats_counters(console)
    check.true("stats after the glitch", counters is not None)
    if api == "2":
        check.eq("uAPI v2: the kernel's debouncer swallowed the glitch (no edge reached puckd, no press)", (0, 0, 0), counters)
    else:
        check.eq("uAPI v1: puckd saw both edges and rejected them as a bounce (no press)", (2, 1, 0), counters)

    # A press with contact bounce (three quick edges each way), held 1 s: one short press.
    console.mark()
    hw.run("bouncy_press")
    check.true("one short press seen by puckd", console.expect(20, r"^puckd: button: short press → next-mode$"))
    time.sleep(1.2)
    counters = stats_counters(console)
    check.true("stats after the bouncy press", counters is not None)
    if api == "2":
        check.eq("uAPI v2: two debounced edges from the kernel, nothing rejected by puckd, one short press", (2, 0, 1), counters)
    else:
        check.eq("uAPI v1: 6 more edges, 2 more rejected, one short press", (8, 3, 1), counters)
    console.read()
    check.eq("exactly one press logged", 1, sum(1 for line in console.stderr_lines if line.startswith("puckd: button: short press")))

    check.eq("SIGTERM: clean exit", 0, hw.run("hil_app_stop", "deb", "TERM", 30))
    check.true("all lines released", not hw.ok("hil_gpio_requested", "BUTTON") and not hw.ok("hil_gpio_requested", "LED_FIX"))


if __name__ == "__main__":
    sys.exit(main(scenario))
