"""Checks of a HIL scenario, run in the guest by `hil_python_checks` (guest/lib.sh).

The scenario's bash keeps the VM plumbing (gpio-sim, i2c-stub, the feeder, starting and stopping
the program); this module is the other half: it asks bash to run plumbing functions over a pipe
(`Plumbing`), reads what the program printed (`AppStreams`), and judges it (`Checks`). A check has
a name, a measured value and an expectation; its verdict goes back to lib.sh's `hil_pass` /
`hil_fail`, so every scenario keeps one numbering, the `ok N - NAME` / `FAIL N - NAME` lines and
the final `N passed, N failed` that run-scenarios.sh reads. Standard library only (the guest is
the host's root file system read-only: no pip).
"""

import math
import os
import re
import shlex
import sys
import time

POLL_S = float(os.environ.get("HIL_POLL_S", "0.1"))


def log(message):
    """`[uptime] MESSAGE` on the console, like lib.sh's hil_log."""
    with open("/proc/uptime") as f:
        uptime = f.read().split()[0]
    print(f"[{uptime:>8}] {message}", flush=True)


# --- angles ---------------------------------------------------------------------------------------
def wrap360(degrees):
    """DEGREES in [0, 360)."""
    value = math.fmod(degrees, 360.0)
    return value + 360.0 if value < 0 else value + 0.0


def angle_off(a, b):
    """|shortest difference| between two directions in degrees, 0 ... 180."""
    return abs(wrap360(a - b + 180.0) - 180.0)


# --- the bash side ---
def shell_word(value):
    """VALUE as one bash word on one line: ANSI-C quoting ($'...') when it holds control characters."""
    text = str(value)
    if text.isprintable():
        return shlex.quote(text)
    escaped = "".join(c if c.isprintable() and c not in "\\'" else f"\\x{ord(c):02x}" if ord(c) < 256 else c
                      for c in text)
    return "$'" + escaped + "'"


class Plumbing:
    """The scenario's bash (lib.sh's `hil_python_checks` loop): runs its functions in the shell that
    started the program and the background processes, so `wait`, fds and variables stay there."""

    def __init__(self, request_fd=3, reply_fd=4):
        self.requests = os.fdopen(request_fd, "w", buffering=1)
        self.replies = os.fdopen(reply_fd, "r")

    def _ask(self, line):
        self.requests.write(line + "\n")
        reply = self.replies.readline()
        if not reply:
            raise SystemExit("hil_checks: the scenario's shell closed the plumbing pipe")
        return reply.rstrip("\n")

    def run(self, *words):
        """Runs one shell command (a function of lib.sh or the scenario) -> its exit status."""
        return int(self._ask("call " + " ".join(shell_word(w) for w in words)))

    def ok(self, *words):
        return self.run(*words) == 0

    def output(self, *words):
        """(status, standard output on one line) of a shell command (a subshell: costs a fork)."""
        reply = self._ask("out " + " ".join(shell_word(w) for w in words))
        status, _, text = reply.partition(" ")
        return int(status), text

    def var(self, name):
        """The value of a shell variable ("" when unset)."""
        return self._ask("get " + name)

    def pass_(self, name):
        self.run("hil_pass", name)

    def fail(self, name, detail):
        self.run("hil_fail", name, detail)


# --- waiting --------------------------------------------------------------------------------------
class Waited:
    """The outcome of `wait_for`: truthy when the condition held; `seconds` waited."""

    def __init__(self, held, seconds):
        self.held, self.seconds = held, seconds

    def __bool__(self):
        return self.held


def wait_for(timeout_s, condition, *args):
    """Polls CONDITION(*ARGS) every HIL_POLL_S s until it is true or TIMEOUT_S passes."""
    start = time.monotonic()
    while True:
        if condition(*args):
            return Waited(True, time.monotonic() - start)
        if time.monotonic() - start >= timeout_s:
            return Waited(False, timeout_s)
        time.sleep(POLL_S)


# --- the program's output -------------------------------------------------------------------------
class AppStreams:
    """Reads a program's standard output and standard error files (hil_app_start --stderr-apart)
    incrementally: complete lines only, an incomplete last line kept for the next read."""

    def __init__(self, out_path, err_path):
        self.out = open(out_path, "rb")
        self.err = open(err_path, "rb")
        self.partial = {self.out: b"", self.err: b""}

    def _lines(self, f):
        data = self.partial[f] + f.read()
        *lines, self.partial[f] = data.split(b"\n")
        return [line.decode("utf-8", "replace") for line in lines]

    def read(self):
        """(new standard output lines, new standard error lines)."""
        return self._lines(self.out), self._lines(self.err)


# --- verdicts -------------------------------------------------------------------------------------
class Checks:
    """Judges measured values against expectations and reports each verdict through lib.sh."""

    def __init__(self, plumbing):
        self.plumbing = plumbing

    def verdict(self, name, passed, detail=""):
        if passed:
            self.plumbing.pass_(name)
        else:
            self.plumbing.fail(name, detail)
        return bool(passed)

    def true(self, name, measured, detail=""):
        """Passes when MEASURED is truthy (a condition, a Waited, a shell status 0 as True)."""
        return self.verdict(name, measured, detail or f"failed: {name}")

    def eq(self, name, expected, actual):
        return self.verdict(name, expected == actual, f"expected {expected!r}, got {actual!r}")

    def match(self, name, pattern, actual):
        """ACTUAL (a string) matches the regular expression PATTERN (re.search)."""
        ok = isinstance(actual, str) and re.search(pattern, actual) is not None
        return self.verdict(name, ok, f"{actual!r} does not match /{pattern}/")

    def range(self, name, low, high, actual):
        """LOW <= ACTUAL <= HIGH (inclusive); the value is shown in the name, as bash's check_range."""
        ok = isinstance(actual, (int, float)) and not isinstance(actual, bool) and low <= actual <= high
        if ok:
            return self.verdict(f"{name} ({actual})", True)
        return self.verdict(name, False, f"expected {low} .. {high}, got {actual!r}")

    def angle(self, name, expected, tolerance, actual):
        """ACTUAL (degrees) within TOLERANCE of EXPECTED, across 0/360."""
        ok = isinstance(actual, (int, float)) and angle_off(actual, expected) <= tolerance
        return self.verdict(name, ok, f"expected {expected:.2f}° ± {tolerance}°, got {actual!r}")


def main(scenario):
    """Runs SCENARIO(plumbing, checks); an exception becomes one failed check with its message."""
    plumbing = Plumbing()
    checks = Checks(plumbing)
    try:
        scenario(plumbing, checks)
    except Exception as error:  # the scenario's remaining checks did not run: say why, once
        import traceback
        traceback.print_exc(file=sys.stdout)
        sys.stdout.flush()
        plumbing.fail("checker: the scenario's checks stopped early", f"{type(error).__name__}: {error}")
        return 1
    return 0
