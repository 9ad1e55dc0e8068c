"""The checks of the HIL receiver scenario (scenarios/receiver.sh runs them with hil_python_checks):
puckd configures the receiver twin over the real 8250 UART; judged from what the twin was told (the
feeder's `twin` state), the 8250's speed, puckd's log, and its `status` / `stats` replies (JSON)."""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hil_checks import main, wait_for  # noqa: E402
from puckd_console import PuckdConsole, json_at  # noqa: E402

CONFIGURED = ("gps: receiver: recognized from what it says; configured after the port opens and after a restart: "
              "115200 baud, sentences GGA,GSA,GSV,RMC,GST, constellations gps,glonass,qzss,sbas, rate 10 Hz")


def twin(hw):
    """The twin's state (feeder `twin`: `ok twin KEY=VALUE ...`) as a dict, or {} without a reply."""
    if not hw.ok("hil_gps", "twin"):
        return {}
    return dict(word.split("=", 1) for word in hw.var("HIL_CTL_REPLY").split() if "=" in word)


def twin_is(hw, key, value):
    return twin(hw).get(key) == value


def logged(console, text):
    """How many lines of the whole log contain TEXT (a regular expression)."""
    console.read()
    return sum(1 for line in console.stderr_lines if re.search(text, line))


def has_logged(console, text):
    return logged(console, text) > 0


def counter(reply, path):
    value = json_at(reply, path)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def ublox(hw, check, console):
    """1. A u-blox M8 at its factory settings (9600, 1 Hz)."""
    check.true("the start-up report says what will be asked", wait_for(30, has_logged, console, CONFIGURED))
    check.true("ttyS1 through libserialport (the real 8250)",
               wait_for(30, has_logged, console, "gps: serial /dev/ttyS1: libserialport"))
    hw.run("hil_gps", "play")
    check.true("recognized from its UBX-MON-VER reply", wait_for(60, has_logged, console,
               r"gps: receiver: u-blox M8 CAM-M8C-0 \(SPG 3.01, protocol 18.00\), recognized from its version reply"))
    check.true("receiver and port switched to 115200, NMEA verified", wait_for(60, has_logged, console,
               "gps: receiver and port switched from 9600 to 115200 baud, NMEA verified at the new speed"))
    check.eq("the 8250 runs at 115200 (the divisor puckd set)", "115200",
             hw.output("eval", "stty -F /dev/ttyS1 speed 2>&1")[1].strip())
    check.true("the twin was told 115200 baud (UBX-CFG-PRT)", twin_is(hw, "baud", "115200"))
    check.true("the twin was told 10 Hz (UBX-CFG-RATE)", wait_for(30, twin_is, hw, "period_ms", "100"))
    check.true("the twin sends the needed sentences only (UBX-CFG-MSG)", twin_is(hw, "sentences", "GGA,GSA,GST,GSV,RMC"))
    check.true("the twin tracks GPS, GLONASS, SBAS, QZSS (UBX-CFG-GNSS)", twin_is(hw, "constellations", "glonass,gps,qzss,sbas"))
    check.eq("every command acknowledged, none refused", "0", twin(hw).get("naks"))
    check.true("log: rate 10 Hz applied", has_logged(console, "gps: receiver: rate 10 Hz applied"))
    console.json_on()
    console.command(15, "status")
    receiver = json_at(console.reply, "receiver")
    check.eq("status: the receiver is configured", ("u-blox M8", "CAM-M8C-0", "configured", 115200),
             tuple(json_at(receiver, k) for k in ("family", "model", "phase", "portBaudRate")))
    console.command(15, "stats")
    stats1, t1 = console.reply, time.time()
    time.sleep(5)
    console.command(15, "stats")
    stats2, t2 = console.reply, time.time()
    fixes1, fixes2 = counter(stats1, "device/gps.fixes"), counter(stats2, "device/gps.fixes")
    rate = round((fixes2 - fixes1) / (t2 - t1), 1) if fixes1 is not None and fixes2 is not None else None
    check.range(f"fixes arrive ten a second ({rate}/s)", 7, 12, rate)
    check.range("UBX replies read with their checksums (ubxDelivered)", 15, 1000, counter(stats2, "receiver/ubxDelivered"))
    check.eq("no UBX checksum error", 0, counter(stats2, "receiver/ubxBadChecksums"))


def powercycle(hw, check, console):
    """2. Power loss: the twin forgets; its start-up text makes puckd configure it again."""
    hw.run("hil_gps", "powercycle")
    check.true("the twin is back at 1 Hz", twin_is(hw, "period_ms", "1000"))
    check.true("log: configuring the receiver again after the restart", wait_for(60, has_logged, console,
               "gps: configuring the receiver again: the receiver restarted"))
    check.true("configured again: 10 Hz", wait_for(60, twin_is, hw, "period_ms", "100"))
    check.true("log: configured again", wait_for(30, has_logged, console, "gps: receiver configured again: u-blox M8"))
    check.eq("'rate 10 Hz applied' said once", 1, logged(console, "gps: receiver: rate 10 Hz applied"))


def mediatek(hw, check, console):
    """3. Another receiver on the line: a MediaTek MTK3339 (PMTK)."""
    hw.run("hil_gps", "twin", "mtk3339")
    check.true("recognized as MediaTek PA6H ($PMTK705)", wait_for(60, has_logged, console,
               r"gps: receiver: MediaTek PA6H \(AXN_2.31_3339_13101700\), recognized from its version reply"))
    check.true("the MTK3339 was told 10 Hz ($PMTK220)", wait_for(60, twin_is, hw, "period_ms", "100"))
    check.true("... and the sentences ($PMTK314)", twin_is(hw, "sentences", "GGA,GSA,GST,GSV,RMC"))
    check.true("puckd sent $PMTK220,100*2F on the UART", hw.ok("hil_gps_captured", "$PMTK220,100*2F"))
    refusal = "gps: receiver: constellations gps,glonass,qzss,sbas partly applied"
    check.true("log: its refusal of GLONASS said once ($PMTK001 flag 1)", wait_for(30, has_logged, console,
               refusal + r" \(\$PMTK001 flag 1: unsupported\); puckd goes on with what the receiver sends"))
    check.eq("... once", 1, logged(console, refusal))
    check.eq("the start-up text and the version reply: one line for the MediaTek", 1, logged(console, "gps: receiver: MediaTek"))
    console.command(15, "status")
    status = console.reply
    check.eq("status says it", ("MediaTek", "PA6H", "partly applied"),
             (json_at(status, "receiver/family"), json_at(status, "receiver/model"),
              json_at(status, "receiver/settings/constellations")))
    check.eq("a 3D fix from it", "3D", json_at(status, "fix/mode"))
    check.eq("puckd exits cleanly", 0, hw.run("hil_app_stop", "puckd", "TERM", 30))


def never(hw, check):
    """4. configure = never: nothing is written."""
    hw.run("hil_gps", "powercycle")
    before = twin(hw).get("commands")
    hw.run("start_puckd", "never", "--set", "gps.configure=never")
    console = PuckdConsole(hw, "never")
    check.true("log: the receiver is left alone", wait_for(30, has_logged, console, "gps: receiver: never configured"))
    time.sleep(8)
    check.eq("the twin got no command", before, twin(hw).get("commands"))
    check.true("... and stays at 1 Hz", twin_is(hw, "period_ms", "1000"))
    check.true("puckd reads its NMEA all the same", wait_for(30, has_logged, console, "gps: source open, reading NMEA"))
    check.eq("puckd exits cleanly", 0, hw.run("hil_app_stop", "never", "TERM", 30))


def scenario(hw, check):
    hw.run("start_puckd", "puckd")
    console = PuckdConsole(hw, "puckd")
    ublox(hw, check, console)
    powercycle(hw, check, console)
    mediatek(hw, check, console)
    never(hw, check)


if __name__ == "__main__":
    sys.exit(main(scenario))
