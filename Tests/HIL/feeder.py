#!/usr/bin/env python3
"""Host-side GPS receiver for the HIL rig: serves a recorded NMEA log into the guest's /dev/ttyS1.

    feeder.py --gps-socket PATH [--control-socket PATH] [--capture FILE] [--nmea LOG]
              [--autostart] [--loop] [--speed X] [--unplug-after SECONDS] [--connect-timeout SECONDS]
              [--twin ublox-m8|mtk3339|l76b]

* Connects to QEMU's unix socket behind ttyS1 (retrying until QEMU has created it) and, when told,
  plays the log at receiver pace: sentences are grouped into epochs by their UTC time field (RMC,
  GGA, GLL, ZDA, GNS, GST, GBS, GRS; sentences without a time join the current epoch) and one epoch
  is sent per recorded interval, lines ending in CR LF like a real receiver.
* Reads everything the guest transmits on ttyS1 and appends it to --capture (flushed at once), so a
  scenario can assert on the configuration commands the app sends to the receiver. Reading also
  keeps the guest's UART from stalling (an undrained 8250 blocks close() for 30 s).
* Like a real receiver it does not wait for anybody: when the guest does not read (port closed),
  epochs that do not fit are dropped instead of piling up and arriving late in a burst.
* Control channel (the guest's ttyS2): one command per line, answered with one line "ok ..." or
  "error ...": play, pause, unplug (stop and close the ttyS1 connection), plug (reconnect; resumes
  playing if it was playing), rewind, loop on|off, send TEXT (one raw line to the guest, e.g. a
  receiver acknowledgement), status, ping; with --twin also `twin` (the twin's state), `twin MODEL`
  (another receiver on the line: it starts with its start-up text) and `powercycle` (power lost and
  back: a second of silence, the start-up text, the saved or factory configuration).
* --twin MODEL: the log is the output of a receiver (receiver_twin.py) that reads the guest's UBX or
  PMTK commands and answers them (ACK/NAK, $PMTK001, version replies), sends one epoch of the log per
  cycle of the rate it was set to, only the sentences it was told to, and records the baud rate it
  was told (QEMU's socket carries any speed).
* Exits cleanly on SIGTERM/SIGINT or when QEMU closes the connections, printing one summary line on
  stderr.

Standard library only.
"""
import argparse
import errno
import os
import select
import signal
import socket
import sys
import time

from receiver_twin import MODELS, ReceiverTwin

TIME_FIELD = {"RMC": 1, "GGA": 1, "GLL": 5, "ZDA": 1, "GNS": 1, "GST": 1, "GBS": 1, "GRS": 1}
SECONDS_PER_DAY = 86400.0


def sentence_time(line):
    """Seconds of day of an NMEA sentence's UTC time field, or None when it has none."""
    if not line.startswith(("$", "!")) or len(line) < 7:
        return None
    field = TIME_FIELD.get(line[3:6])
    if field is None:
        return None
    fields = line.split("*", 1)[0].split(",")
    if len(fields) <= field:
        return None
    hhmmss = fields[field]
    try:
        if len(hhmmss) < 6:
            return None
        return int(hhmmss[0:2]) * 3600 + int(hhmmss[2:4]) * 60 + float(hhmmss[4:])
    except ValueError:
        return None


def load_epochs(path, max_gap_s):
    """[(offset_s, bytes)]: epochs with their send offset from the first one."""
    with open(path, "rb") as f:
        text = f.read().decode("ascii", errors="replace")
    groups = []  # [time or None, [lines]]
    for raw in text.splitlines():
        line = raw.strip("\r\n")
        if not line or line.startswith("#"):
            continue
        t = sentence_time(line)
        if t is not None and (not groups or (groups[-1][0] is not None and t != groups[-1][0])):
            groups.append([t, [line]])
        else:
            if not groups:
                groups.append([None, []])
            if t is not None and groups[-1][0] is None:
                groups[-1][0] = t
            groups[-1][1].append(line)
    if not groups:
        raise SystemExit(f"feeder: {path} holds no NMEA sentences; give a gpsd-style log with --nmea")
    epochs, offset, previous = [], 0.0, None
    for t, lines in groups:
        if previous is not None and t is not None:
            offset += min((t - previous) % SECONDS_PER_DAY, max_gap_s)
        if t is not None:
            previous = t
        epochs.append((offset, ("".join(line + "\r\n" for line in lines)).encode("ascii", errors="replace")))
    return epochs


def median_interval(epochs):
    steps = sorted(b[0] - a[0] for a, b in zip(epochs, epochs[1:]) if b[0] > a[0])
    return steps[len(steps) // 2] if steps else 1.0


class Feeder:
    def __init__(self, args):
        self.args = args
        self.epochs = load_epochs(args.nmea, args.max_gap)
        self.loop_gap_s = median_interval(self.epochs)
        self.gps = None
        self.ctl = None
        self.ctl_buffer = b""
        self.pending = b""
        self.capture = open(args.capture, "ab") if args.capture else None
        self.playing = False
        self.was_playing = False  # playing when unplugged: 'plug' resumes
        self.plugged = True
        self.loop = args.loop
        self.index = 0
        self.origin = 0.0         # monotonic time of epoch 0 of the current pass
        self.play_started = None  # monotonic time of the first play (for --unplug-after)
        self.sent_epochs = self.sent_bytes = self.dropped_epochs = self.received_bytes = 0
        self.stop = False
        self.t0 = time.monotonic()
        # --twin: the log is the output of a receiver that answers the guest's commands (receiver_twin.py).
        self.twin = ReceiverTwin(args.twin, args.nmea) if args.twin else None
        self.twin_next = 0.0      # monotonic time of the twin's next cycle
        self.power_text = None    # (time, bytes): the start-up text after a power cycle

    def log(self, message):
        print(f"feeder: {time.monotonic() - self.t0:8.3f} s {message}", file=sys.stderr, flush=True)

    def connect(self, path, deadline):
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.args.sndbuf)
                s.connect(path)
                s.setblocking(False)
                return s
            except OSError as e:
                s.close()
                if e.errno not in (errno.ENOENT, errno.ECONNREFUSED) or time.monotonic() > deadline or self.stop:
                    raise SystemExit(f"feeder: cannot connect to {path}: {e.strerror}; is QEMU running "
                                     f"with -chardev socket,path={path},server=on?")
                time.sleep(0.05)

    # --- playing -------------------------------------------------------------------------------
    def start_playing(self, now):
        if self.index >= len(self.epochs):
            self.index = 0
        self.origin = now - self.epochs[self.index][0] / self.args.speed
        self.twin_next = now
        self.playing = True
        if self.play_started is None:
            self.play_started = now

    def next_due(self):
        if self.twin:                 # the twin sends one epoch of the log per cycle of its own rate
            return self.twin_next
        return self.origin + self.epochs[self.index][0] / self.args.speed

    def send_due_epochs(self, now):
        if self.twin and self.power_text and now >= self.power_text[0] and self.gps:
            self.pending = self.power_text[1] + self.pending
            self.power_text = None
        while self.playing and self.plugged and self.gps and now >= self.next_due():
            data = self.epochs[self.index][1]
            if self.twin:
                data = self.twin.filter_epoch(data)
                self.twin_next += self.twin.config["period_ms"] / 1000.0 / self.args.speed
                if self.twin_next < now:  # fell behind (a busy host): no burst of old cycles
                    self.twin_next = now
            if self.pending:  # the previous epoch has not left yet: nobody reads, like a real UART
                self.dropped_epochs += 1
            else:
                self.pending += data
                self.sent_epochs += 1
            self.index += 1
            if self.index >= len(self.epochs):
                if self.loop:
                    self.origin = self.next_due_after_end()
                    self.index = 0
                else:
                    self.playing = False
                    self.log(f"end of log after {self.sent_epochs} epochs")
        self.flush_pending()

    def next_due_after_end(self):
        last = self.origin + self.epochs[-1][0] / self.args.speed
        return last + self.loop_gap_s / self.args.speed

    def flush_pending(self):
        while self.pending and self.gps:
            try:
                n = self.gps.send(self.pending)
            except BlockingIOError:
                return
            except OSError as e:
                self.log(f"ttyS1 connection lost while sending: {e.strerror}")
                self.close_gps()
                return
            self.sent_bytes += n
            self.pending = self.pending[n:]

    def close_gps(self):
        if self.gps:
            self.gps.close()
            self.gps = None
        self.pending = b""

    # --- control channel ---------------------------------------------------------------------
    def reply(self, text):
        if self.ctl:
            try:
                self.ctl.setblocking(True)
                self.ctl.sendall((text + "\n").encode())
                self.ctl.setblocking(False)
            except OSError:
                pass
        self.log(text)

    def status_text(self):
        state = "unplugged" if not self.plugged else ("playing" if self.playing else
                                                      ("ended" if self.index >= len(self.epochs) else "paused"))
        text = (f"state={state} epoch={self.index}/{len(self.epochs)} epochs_sent={self.sent_epochs} "
                f"bytes_sent={self.sent_bytes} dropped_epochs={self.dropped_epochs} "
                f"bytes_received={self.received_bytes} loop={'on' if self.loop else 'off'}")
        return text + (" " + self.twin.status_text() if self.twin else "")

    def command(self, line, now):
        words = line.split(None, 1)
        if not words or line.startswith(("ok", "error")):  # ignore blanks and our own echoed replies
            return
        cmd, rest = words[0], (words[1] if len(words) > 1 else "")
        if cmd == "play":
            self.start_playing(now)
            self.reply(f"ok play epoch={self.index}")
        elif cmd == "pause":
            self.playing = False
            self.reply(f"ok pause epoch={self.index}")
        elif cmd == "unplug":
            self.unplug()
            self.reply(f"ok unplug {self.status_text()}")
        elif cmd == "plug":
            failure = self.plug(now)
            self.reply(f"error plug: {failure}" if failure else f"ok plug {self.status_text()}")
        elif cmd == "rewind":
            self.index = 0
            if self.playing:
                self.start_playing(now)
            self.reply("ok rewind")
        elif cmd == "loop" and rest in ("on", "off"):
            self.loop = rest == "on"
            self.reply(f"ok loop {rest}")
        elif cmd == "send" and rest:
            if self.gps:
                self.pending += (rest + "\r\n").encode("ascii", errors="replace")
                self.flush_pending()
                self.reply(f"ok send {len(rest) + 2} bytes")
            else:
                self.reply("error send: the GPS is unplugged; send 'plug' first")
        elif cmd == "status":
            self.reply(f"ok status {self.status_text()}")
        elif cmd == "twin" and self.twin:
            if rest:
                if rest not in MODELS:
                    self.reply(f"error twin: unknown model '{rest}'; known: {', '.join(MODELS)}")
                    return
                # Another receiver on the same line: it powers up with its own start-up text.
                self.twin = ReceiverTwin(rest, self.args.nmea)
                self.power_cycle(now)
            self.reply(f"ok twin {self.twin.status_text()}")
        elif cmd == "powercycle" and self.twin:
            self.power_cycle(now)
            self.reply(f"ok powercycle {self.twin.status_text()}")
        elif cmd == "ping":
            self.reply("ok pong")
        else:
            self.reply(f"error unknown command '{line[:60]}'; known: play, pause, unplug, plug, rewind, "
                       "loop on|off, send TEXT, status, ping" + (", twin [MODEL], powercycle" if self.twin else ""))

    def power_cycle(self, now):
        """The twin loses power and comes back: what was queued is gone, a second of silence, then
        its start-up text and its (saved or factory) output."""
        text = self.twin.power_cycle()
        self.pending = b""
        self.power_text = (now + 0.9, text)
        self.twin_next = now + 1.0

    def unplug(self):
        self.was_playing = self.playing or self.was_playing
        self.playing = False
        self.plugged = False
        self.close_gps()

    def plug(self, now):
        """Reconnects to ttyS1; returns an error text or None."""
        if self.plugged:
            return None
        try:
            self.gps = self.connect(self.args.gps_socket, now + 5.0)
        except SystemExit as e:
            return str(e)
        self.plugged = True
        if self.was_playing:
            self.start_playing(now)
        self.was_playing = False
        return None

    # --- main loop ---------------------------------------------------------------------------
    def run(self):
        deadline = time.monotonic() + self.args.connect_timeout
        self.gps = self.connect(self.args.gps_socket, deadline)
        if self.args.control_socket:
            self.ctl = self.connect(self.args.control_socket, deadline)
        self.log(f"connected; {len(self.epochs)} epochs from {self.args.nmea}, "
                 f"interval {self.loop_gap_s:.3f} s, speed {self.args.speed}")
        if self.args.autostart:
            self.start_playing(time.monotonic())
        while not self.stop:
            now = time.monotonic()
            if (self.args.unplug_after is not None and self.plugged and self.play_started is not None
                    and now - self.play_started >= self.args.unplug_after):
                self.unplug()
                self.args.unplug_after = None
                self.log("unplugged (--unplug-after)")
            self.send_due_epochs(now)
            timeout = 1.0
            if self.playing and self.gps:
                timeout = max(0.0, min(timeout, self.next_due() - now))
            readers = [s for s in (self.gps, self.ctl) if s]
            writers = [self.gps] if self.pending and self.gps else []
            if not readers:
                time.sleep(timeout)
                continue
            try:
                readable, writable, _ = select.select(readers, writers, [], timeout)
            except InterruptedError:
                continue
            if self.gps in writable:
                self.flush_pending()
            if self.gps and self.gps in readable:
                self.read_gps()
            if self.ctl and self.ctl in readable:
                self.read_ctl(now)

    def read_gps(self):
        try:
            data = self.gps.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.log("QEMU closed ttyS1")
            self.close_gps()
            if not self.ctl:
                self.stop = True
            return
        self.received_bytes += len(data)
        if self.capture:
            self.capture.write(data)
            self.capture.flush()
        if self.twin:
            replies = self.twin.receive(data)
            if replies:  # a receiver answers at once, ahead of the NMEA it has queued
                self.pending = replies + self.pending
                self.flush_pending()

    def read_ctl(self, now):
        try:
            data = self.ctl.recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.log("QEMU closed ttyS2")
            self.stop = True
            return
        self.ctl_buffer += data
        while b"\n" in self.ctl_buffer or b"\r" in self.ctl_buffer:
            cut = min(i for i in (self.ctl_buffer.find(b"\n"), self.ctl_buffer.find(b"\r")) if i >= 0)
            line, self.ctl_buffer = self.ctl_buffer[:cut], self.ctl_buffer[cut + 1:]
            self.command(line.decode("ascii", errors="replace").strip(), now)

    def summary(self):
        return (f"feeder: sent {self.sent_epochs} epochs ({self.sent_bytes} bytes), dropped {self.dropped_epochs}, "
                f"received {self.received_bytes} bytes from the guest")


def main():
    default_nmea = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "nmea", "gpsd",
                                "quectel-l76k-nmea.nmea")
    p = argparse.ArgumentParser(description="Serve an NMEA log into a QEMU serial port at receiver pace.")
    p.add_argument("--gps-socket", required=True, help="QEMU's unix socket behind the guest's GPS UART")
    p.add_argument("--control-socket", help="QEMU's unix socket behind the guest's control UART (ttyS2)")
    p.add_argument("--capture", help="file that receives everything the guest transmits on the GPS UART")
    p.add_argument("--nmea", default=os.path.normpath(default_nmea), help="NMEA log (default: gpsd's quectel-l76k log, 5 Hz, every sentence type)")
    p.add_argument("--autostart", action="store_true", help="play at once instead of waiting for 'play'")
    p.add_argument("--loop", action="store_true", help="start over at the end of the log")
    p.add_argument("--speed", type=float, default=1.0, help="playback speed factor (default 1)")
    p.add_argument("--unplug-after", type=float, help="unplug this many seconds after playing starts")
    p.add_argument("--twin", choices=MODELS,
                   help="play the log as this receiver, which answers the guest's commands (receiver_twin.py)")
    p.add_argument("--max-gap", type=float, default=5.0, help="longest pause between epochs, s (default 5)")
    p.add_argument("--connect-timeout", type=float, default=60.0, help="wait this long for QEMU's sockets")
    p.add_argument("--sndbuf", type=int, default=1,
                   help="socket send buffer, bytes; bounds the stale data queued while the guest does not "
                        "read (default: the kernel's minimum, about 4.6 KB = 1 s of the bundled drive)")
    args = p.parse_args()
    if args.speed <= 0:
        p.error("--speed must be positive")
    feeder = Feeder(args)

    def on_signal(_signum, _frame):
        feeder.stop = True
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        feeder.run()
    finally:
        print(feeder.summary(), file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
