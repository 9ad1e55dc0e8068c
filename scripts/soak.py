#!/usr/bin/env python3
"""make soak: the long-run checks of puckd (scripts/soak runs this with the device binary).

1. replay: a 24-hour-equivalent log, 864 000 epochs at 10 Hz, made from gpsd's nmea-rtk log (the
   drive puckd bundles) with every time and date rewritten monotonically (checksums recomputed), goes
   through `puckd replay --json`; every fix must come out, once, in order, 0.1 s apart, each line a
   whole JSON object, with exit status 0. CPU time and peak RSS are printed.
2. device: `puckd run --board sim` for SOAK_SECONDS, its console scripted on a pipe: every
   SOAK_SAMPLE_SECONDS it asks `stats` (JSON) and reads /proc for RSS and open descriptors. The run
   fails when RSS or the descriptor count grows after the warm-up, when fixes stop coming, or when
   an error counter moves; it ends with `quit` and must exit 0.

Prints one summary block; exit status 1 on any failed check.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

EPOCHS = 864_000
STEP_MS = 100


def checksum(body):
    c = 0
    for b in body.encode("ascii"):
        c ^= b
    return "%02X" % c


def load_epochs(path):
    """The log's sentences (without $ and checksum) grouped by time of day, in order."""
    epochs, current, current_time = [], [], None
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("ascii", "replace").strip()
            if not line.startswith("$") or "*" not in line:
                continue
            body = line[1:line.rindex("*")]
            fields = body.split(",")
            kind = fields[0][2:]
            if kind in ("GGA", "RMC", "GLL", "GNS", "ZDA"):
                t = fields[1]
                if t and t != current_time and current:
                    epochs.append(current)
                    current = []
                current_time = t or current_time
            current.append(fields)
    if current:
        epochs.append(current)
    return epochs


def rewrite(fields, ms):
    """The sentence with its time (and RMC date) set to `ms` after 2020-03-18T00:00:00Z."""
    day_ms = 86_400_000
    day, rest = divmod(ms, day_ms)
    h, rest = divmod(rest, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, msec = divmod(rest, 1000)
    stamp = "%02d%02d%02d.%02d" % (h, m, s, msec // 10)
    out = list(fields)
    kind = out[0][2:]
    if kind in ("GGA", "RMC", "GNS", "ZDA"):
        out[1] = stamp
    elif kind == "GLL" and len(out) > 5:
        out[5] = stamp
    if kind == "RMC" and len(out) > 9:
        d = 18 + day                                      # March 2020 has 31 days: 18 + 1 stays in it
        out[9] = "%02d0320" % d
    if kind == "ZDA" and len(out) > 4:
        out[2], out[3], out[4] = "%02d" % (18 + day), "03", "2020"
    body = ",".join(out)
    return "$" + body + "*" + checksum(body) + "\r\n"


def make_log(source, path):
    epochs = load_epochs(source)
    with open(path, "w", newline="") as f:
        for k in range(EPOCHS):
            for fields in epochs[k % len(epochs)]:
                f.write(rewrite(fields, k * STEP_MS))
    return len(epochs)


def replay(puckd, log, work):
    out_path = os.path.join(work, "replay.jsonl")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out_path, "wb") as out, open(os.path.join(work, "replay.err"), "wb") as err:
        status = subprocess.call(["/usr/bin/time", "-f", "%M", "-o", os.path.join(work, "replay.rss"),
                                  puckd, "replay", log, "--json"], stdout=out, stderr=err)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss_kb = int(open(os.path.join(work, "replay.rss")).read().split()[-1])
    problems = []
    count, previous = 0, None
    with open(out_path, "rb") as f:
        for raw in f:
            count += 1
            try:
                fix = json.loads(raw)
            except ValueError:
                problems.append("line %d is not a whole JSON object: %r" % (count, raw[:80]))
                break
            t = fix.get("time")
            if t is None:
                problems.append("line %d has no time" % count)
                break
            if previous is not None and t <= previous:
                problems.append("line %d: time %s is not after %s" % (count, t, previous))
                break
            previous = t
    size = os.path.getsize(out_path)
    os.unlink(out_path)
    if status != 0:
        problems.append("puckd replay exited %d: %s" % (status, open(os.path.join(work, "replay.err")).read()[-300:]))
    if count != EPOCHS:
        problems.append("%d fixes came out of %d epochs" % (count, EPOCHS))
    return count, size, cpu, rss_kb, problems


def proc_sample(pid):
    with open("/proc/%d/status" % pid) as f:
        status = dict(line.split(":", 1) for line in f if ":" in line)
    rss = int(status["VmRSS"].split()[0])
    hwm = int(status["VmHWM"].split()[0])
    threads = int(status["Threads"])
    fds = len(os.listdir("/proc/%d/fd" % pid))
    return rss, hwm, fds, threads


def device(puckd, work, seconds, sample_seconds):
    state = os.path.join(work, "state")
    os.makedirs(state, exist_ok=True)
    p = subprocess.Popen([puckd, "run", "--board", "sim", "--console", "stdio", "--set", "state.directory=" + state],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    os.set_blocking(p.stdout.fileno(), False)
    buffer = b""

    def ask(command, timeout=10):
        nonlocal buffer
        p.stdin.write((command + "\n").encode())
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                chunk = p.stdout.read(65536)
            except BlockingIOError:
                chunk = None
            if chunk:
                buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if line.startswith(b"{"):
                    reply = json.loads(line)
                    if reply.get("reply") == command.split()[0]:
                        return reply
            time.sleep(0.05)
        raise RuntimeError("no reply to %r within %d s" % (command, timeout))

    def counters():
        reply = ask("stats")
        flat = dict(reply.get("device") or {})           # "loop.ticks", "gps.fixes", "state.writeFailures" …
        flat["heap.allocationsSinceStart"] = reply.get("allocationsAfterStartUp")
        for k, v in (reply.get("nmeaFramer") or {}).items():
            flat["nmea." + k] = v
        return flat

    samples = []
    time.sleep(3)
    ask("json on")
    start = time.time()
    while True:
        elapsed = time.time() - start
        rss, hwm, fds, threads = proc_sample(p.pid)
        samples.append((elapsed, rss, hwm, fds, threads, counters()))
        if elapsed >= seconds:
            break
        time.sleep(min(sample_seconds, max(0.1, seconds - elapsed)))
    ask("quit")
    status = p.wait(timeout=30)
    problems = []
    warm = [s for s in samples if s[0] >= min(60, seconds / 5)] or samples
    rss_values = [s[1] for s in warm]
    if max(rss_values) - min(rss_values) > 256:
        problems.append("RSS grew by %d KB after the warm-up" % (max(rss_values) - min(rss_values)))
    if len({s[3] for s in samples}) != 1:
        problems.append("open descriptors changed: %s" % sorted({s[3] for s in samples}))
    first, last = samples[0][5], samples[-1][5]

    def value(c, *names):
        for n in names:
            if n in c:
                return c[n]
        return None

    fixes0, fixes1 = value(first, "gps.fixes", "loop.fixes"), value(last, "gps.fixes", "loop.fixes")
    if fixes0 is None or fixes1 is None or fixes1 <= fixes0:
        problems.append("fixes did not keep coming (%s → %s)" % (fixes0, fixes1))
    for key in sorted(last):
        if not key.startswith("nmea.") and any(word in key.lower() for word in ("error", "failure", "dropped", "fault")) \
                and isinstance(last[key], int) and last[key] != first.get(key, 0):
            problems.append("%s moved: %s → %s" % (key, first.get(key), last[key]))
    if status != 0:
        problems.append("puckd run exited %d" % status)
    return samples, problems


def main():
    puckd = sys.argv[1]
    source = sys.argv[2]
    seconds = float(os.environ.get("SOAK_SECONDS", "600"))
    sample = float(os.environ.get("SOAK_SAMPLE_SECONDS", "10"))
    failed = False
    with tempfile.TemporaryDirectory(prefix="puckd-soak-") as work:
        log = os.path.join(work, "24h.nmea")
        t0 = time.time()
        per_lap = make_log(source, log)
        size = os.path.getsize(log)
        print("soak: generated %s: %d epochs (%d-epoch lap of the bundled drive), %.0f MB, in %.0f s"
              % ("24h.nmea", EPOCHS, per_lap, size / 1e6, time.time() - t0))
        count, out_size, cpu, rss_kb, problems = replay(puckd, log, work)
        os.unlink(log)
        print("soak: replay: %d of %d fixes out (%.0f MB of JSON), %.2f s CPU (%.0f k fixes/s), peak RSS %.1f MB"
              % (count, EPOCHS, out_size / 1e6, cpu, count / cpu / 1e3 if cpu else 0, rss_kb / 1024))
        for p in problems:
            print("soak: FAILED: replay: " + p)
            failed = True
        samples, problems = device(puckd, work, seconds, sample)
        first, last = samples[0], samples[-1]
        rss = [s[1] for s in samples]
        print("soak: device: %.0f s, %d samples; RSS %.2f → %.2f MB (min %.2f, max %.2f, peak VmHWM %.2f MB); "
              "descriptors %s; threads %s" % (last[0], len(samples), first[1] / 1024, last[1] / 1024, min(rss) / 1024,
                                              max(rss) / 1024, last[2] / 1024, sorted({s[3] for s in samples}),
                                              sorted({s[4] for s in samples})))
        quarters = [samples[min(len(samples) - 1, i * (len(samples) - 1) // 4)] for i in range(5)]
        print("soak: device RSS at 0/25/50/75/100 %%: %s MB" % " / ".join("%.2f" % (q[1] / 1024) for q in quarters))
        out = os.environ.get("SOAK_SAMPLES", ".build/soak-samples.csv")
        with open(out, "w") as f:
            f.write("seconds,rss_kb,hwm_kb,fds,threads,fixes,ticks,wakeUps,skippedTicks\n")
            for t, rss_kb, hwm_kb, fds, threads, c in samples:
                f.write("%.1f,%d,%d,%d,%d,%s,%s,%s,%s\n" % (t, rss_kb, hwm_kb, fds, threads, c.get("gps.fixes"),
                                                           c.get("loop.ticks"), c.get("loop.wakeUps"), c.get("loop.skippedTicks")))
        print("soak: every sample in " + out)
        c0, c1 = first[5], last[5]
        shown = [k for k in ("gps.fixes", "loop.ticks", "loop.wakeUps", "imu.samples", "heading.published",
                             "loop.skippedTicks", "gps.errors", "state.writes", "state.writeFailures",
                             "log.linesDropped") if k in c1]
        print("soak: device counters over the run: " + ", ".join("%s %s → %s" % (k, c0.get(k), c1[k]) for k in shown))
        for p in problems:
            print("soak: FAILED: device: " + p)
            failed = True
    print("soak: " + ("FAILED" if failed else "all checks passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
