"""The checks of the HIL imu-fifo scenario (scenarios/imu-fifo.sh runs them with hil_python_checks):
puckd reads the LSM6DSL's FIFO over i2c-stub in bursts, by its timer and then at the watermark edges
of a gpio-sim line wired as INT1; judged from the registers its program left in the stub, its
start-up report and its `stats` counters (JSON), and the heading it fuses from the bursts."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hil_checks import angle_off, log, main, wait_for  # noqa: E402
from puckd_console import PuckdConsole, json_at  # noqa: E402

COUNTERS = ("fifoBursts", "fifoOverruns", "interruptEdges", "interruptBursts", "interruptTimeouts")


def imu_counters(console):
    """The imu.* FIFO and interrupt counters of a `stats` reply, as a dict, or None."""
    if not console.command(20, "stats"):
        return None
    values = {name: json_at(console.reply, "device/imu." + name) for name in COUNTERS}
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values.values()):
        return None
    log("stats: " + ", ".join(f"{k} {v}" for k, v in values.items()))
    return values


def bearing_near(console, expected, tolerance):
    """The newest status (polled) shows a bearing from the IMU heading within TOLERANCE degrees
    (no fix is fed: the heading is magnetic)."""
    if not console.new_status():
        return False
    console.heading = console.bearing()
    return console.heading is not None and angle_off(console.heading, expected) <= tolerance


def run(hw, check, name, edges):
    """One puckd run of 12 s on the FIFO model; with `edges`, the line wired as INT1."""
    args = ["--set", "imu.interrupt_line=25"] if edges else []
    hw.run("fifo_model_start", "1" if edges else "0")
    hw.run("start_puckd", name, *args)
    console = PuckdConsole(hw, name)
    report = r"^puckd: imu: .*FIFO read in bursts at 10 Hz"
    check.true(f"{name}: report: the FIFO is read in bursts at 10 Hz",
               console.expect(120, report + (r", read at INT1 edges on line 25" if edges else "")))
    check.true(f"{name}: console: json on", console.json_on())
    time.sleep(12)
    counters = imu_counters(console)
    check.true(f"{name}: stats has the imu FIFO and interrupt counters", counters is not None)
    counters = counters or {k: 0 for k in COUNTERS}
    check.true(f"{name}: bursts were read from the FIFO over i2c-stub (imu.fifoBursts > 0)", counters["fifoBursts"] > 0,
               str(counters))
    check.eq(f"{name}: no overrun", 0, counters["fifoOverruns"])
    check.eq(f"{name}: FIFO_CTRL5 = 0x26 (104 Hz, continuous)", (0, "0x26"), hw.output("ctrl", "0x0a"))
    check.eq(f"{name}: FIFO watermark 66 words (FIFO_CTRL1)", (0, "0x42"), hw.output("ctrl", "0x06"))
    check.eq(f"{name}: INT1_CTRL " + ("= INT1_FTH with the line" if edges else "untouched without it"),
             (0, "0x08" if edges else "0x00"), hw.output("ctrl", "0x0d"))
    if edges:
        check.true(f"{name}: puckd saw the line's rising edges (imu.interruptEdges > 0)", counters["interruptEdges"] > 0,
                   str(counters))
        check.true(f"{name}: bursts read at the INT1 edges (imu.interruptBursts > 0)", counters["interruptBursts"] > 0,
                   str(counters))
        # The shell's model pulses the line slower than 10 Hz under TCG: the fallback timer reads
        # the bursts in between (counted), which is the wrong-wire path at work.
        log(f"{name}: {counters['interruptBursts']} bursts at edges, {counters['interruptTimeouts']} by the fallback timer")
    else:
        check.eq(f"{name}: no edge without the line", 0, counters["interruptBursts"])
    # Level, at rest, x axis 30 degrees from magnetic north; no fix, so the bearing is magnetic.
    console.heading = None
    check.true(f"{name}: the bearing is the IMU heading from the bursts, 30° ± 3°",
               wait_for(20, bearing_near, console, 30.0, 3.0), f"{console.heading}")
    log(f"{name}: bearing {console.heading}")
    check.eq(f"{name}: SIGTERM: clean exit", 0, hw.run("hil_app_stop", name, "TERM", 30))
    hw.run("fifo_model_stop")


def scenario(hw, check):
    run(hw, check, "timer", edges=False)
    run(hw, check, "edges", edges=True)


if __name__ == "__main__":
    sys.exit(main(scenario))
