"""puckd's scripted console, as the HIL puckd scenario uses it (checks/puckd_checks.py).

puckd runs with `--console stdio` and its standard input a pipe (hil_app_start's FIFO, held open
by the scenario's shell: the end of input would stop puckd): one command per line, replies on
standard output, log lines on standard error (two files: hil_app_start --stderr-apart). After
`json on` every reply is one JSON object on one line, in the order of the commands, so the k-th
JSON line answers the k-th command sent. Every interaction with puckd's console goes through this
class, so a change of its commands, reply texts or JSON fields is adapted here only.

A status reply (abridged):
  {"reply":"status",...,"fix":{"mode":"3D","latitudeDegrees":47.661981333,...,"ageSeconds":0.152},
   "heading":{"trueHeadingDegrees":14.90,"magneticHeadingDegrees":0.00,...},
   "bearing":{"source":"imuHeading","degrees":14.90,...},"trackingMode":"follow",
   "viewport":{"viewportStatus":"state","viewportState":"followPuck","viewportTransition":null},
   "zoom":16.0000,"puckVisible":true,"puckStale":false,...,"faults":[{"source":"gps","reason":"..."}]}
"""

import json
import re

from hil_checks import AppStreams, log, wait_for

JSON_ON = {"reply": "json", "json": True}


class Missing:
    """What `json_at` gives for a path a reply does not have (unequal to everything, also None)."""

    def __repr__(self):
        return "missing"

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__


MISSING = Missing()


def json_at(document, path):
    """The value at PATH ("fix/mode", "device/gpio.shortPresses") of a parsed reply (null is None),
    or MISSING when the reply has no such path."""
    value = document
    for key in path.split("/"):
        if not isinstance(value, dict) or key not in value:
            return MISSING
        value = value[key]
    return value


class PuckdConsole:
    """Sends console commands to one puckd (an hil_app_start name) and reads its two streams."""

    def __init__(self, plumbing, app):
        self.plumbing = plumbing
        self.app = app
        self.streams = AppStreams(f"/run/hil-app-{app}.log", f"/run/hil-app-{app}.err")
        self.fifo = open(f"/run/hil-app-{app}.in", "w", buffering=1)
        self.sent = 0            # JSON-mode commands sent (text's `json off` and CMD not counted)
        self.received = 0        # JSON replies received
        self.mark_sent = 0       # `sent` at the mark
        self.reply = None        # the newest JSON reply (parsed; the raw line if it does not parse)
        self.log_since = []      # log lines (standard error) since the mark
        self.text_lines = []     # text lines on standard output
        self.stdout_lines = []   # everything on standard output, for the end-of-run stream check
        self.stderr_lines = []
        self.status = None       # the newest status reply
        self.status_since = None  # the newest status reply to a command sent after the mark
        self.status_fresh = False  # status_since not looked at by new_status yet
        self.match = ""
        self.heading = None      # the bearing heading_near saw last (degrees)

    # --- the streams ---
    def read(self):
        out, err = self.streams.read()
        self.stdout_lines += out
        self.stderr_lines += err
        for line in out:
            if line.startswith("{"):
                self.received += 1
                try:
                    self.reply = json.loads(line)
                except ValueError:
                    self.reply = line
                if isinstance(self.reply, dict) and self.reply.get("reply") == "status":
                    self.status = self.reply
                    if self.received > self.mark_sent:
                        self.status_since, self.status_fresh = self.reply, True
            else:
                self.text_lines.append(line)
        self.log_since += err

    def mark(self):
        """Later waits only look at log lines printed, and status replies to commands sent, after
        this point."""
        self.read()
        self.mark_sent = self.sent
        self.log_since, self.status_since, self.status_fresh = [], None, False

    def _write(self, line):
        self.fifo.write(line + "\n")

    def request(self, line):
        self._write(line)
        self.sent += 1

    def send(self, line):
        self.mark()
        self.request(line)

    def replied(self):
        self.read()
        return self.received >= self.sent

    def command(self, timeout_s, line):
        """Sends LINE and waits for its reply -> self.reply (a parsed JSON object)."""
        self.send(line)
        return wait_for(timeout_s, self.replied)

    def json_on(self):
        return bool(self.command(30, "json on")) and self.reply == JSON_ON

    def text(self, timeout_s, line):
        """LINE's reply as a person reads it (`json off`, LINE, `json on`) -> self.text_lines."""
        self.mark()
        self.text_lines = []
        self._write("json off")
        self._write(line)
        self.request("json on")
        if not wait_for(timeout_s, self.replied) or self.reply != JSON_ON:
            return False
        if not self.text_lines or self.text_lines[0] != "json off":
            return False
        self.text_lines = self.text_lines[1:]
        for text_line in self.text_lines:
            log(f"  | {text_line}")
        return True

    def text_has(self, pattern):
        for line in self.text_lines:
            if re.search(pattern, line):
                self.match = line
                return re.search(pattern, line)
        return None

    # --- the log ---
    def seen(self, pattern):
        """A log line since the mark matches PATTERN (-> self.match)."""
        self.read()
        for line in self.log_since:
            if re.search(pattern, line):
                self.match = line
                return True
        return False

    def expect(self, timeout_s, pattern):
        return wait_for(timeout_s, self.seen, pattern)

    # --- status ---
    def new_status(self):
        """True when a status reply (to a `status` sent after the mark) came in since the last
        call -> self.status_since; else asks for one (if none is on its way) and is false."""
        self.read()
        if self.status_fresh:
            self.status_fresh = False
            return True
        if self.received >= self.sent:
            self.request("status")
        return False

    def value(self, path, document=None):
        """The value at PATH of DOCUMENT (default: the newest status since the mark)."""
        return json_at(self.status_since if document is None else document, path)

    def status_holds(self, predicate):
        return self.new_status() and predicate(self.status_since)

    def wait_status(self, timeout_s, what, predicate):
        """Polls `status` until PREDICATE(status) holds; WHAT describes it for the log."""
        waited = wait_for(timeout_s, self.status_holds, predicate)
        if not waited:
            log(f"no status with {what} in {timeout_s} s; the newest status: {json.dumps(self.status)}")
        return waited

    def wait_value(self, timeout_s, path, expected):
        return self.wait_status(timeout_s, f"{path} = {expected!r}", lambda s: json_at(s, path) == expected)

    def bearing(self):
        """The bearing (degrees) of the newest status since the mark when it comes from the IMU
        heading, else None."""
        if self.value("bearing/source") != "imuHeading":
            return None
        degrees = self.value("bearing/degrees")
        return float(degrees) if isinstance(degrees, (int, float)) else None

    def fix_is(self, mode, freshness):
        """The newest status (polled) has a fix of MODE whose age is under 2 s ("fresh") or at
        least [gps] stale_s = 3 s ("stale")."""
        if not self.new_status() or self.value("fix/mode") != mode:
            return False
        age = self.value("fix/ageSeconds")
        if not isinstance(age, (int, float)):
            return False
        return age < 2 if freshness == "fresh" else age >= 3

    def faults_have(self, source, reason_prefix):
        """A predicate on a status: a fault from SOURCE whose reason starts with REASON_PREFIX."""
        def holds(status):
            faults = json_at(status, "faults")
            return isinstance(faults, list) and any(
                isinstance(f, dict) and f.get("source") == source and str(f.get("reason", "")).startswith(reason_prefix)
                for f in faults)
        return holds

    def pid(self):
        return int(self.plumbing.output("hil_app_pid", self.app)[1])
