"""Receiver twins for the HIL feeder: the feeder's log played as the output of a u-blox M8 (UBX) or a
MediaTek MTK3339 / Quectel L76B (PMTK) that reads the commands the guest writes on its UART, answers
them (UBX-ACK-ACK/NAK, $PMTK001,CMD,FLAG, MON-VER, $PMTK705, $PQVERNO), changes its output rate,
sentences and (nominal) baud when told, and forgets everything on a power cycle unless saved.

The same protocol rules as the Swift twins in Sources/Hardware (SimulatedUbloxReceiver,
SimulatedMediaTekReceiver); docs/receivers.md describes the commands. QEMU's socket chardev carries
bytes at any speed, so the baud rate is only recorded here: what the line speed does to the bytes is
tested on a pty (Tests/PuckdTests/Device/Components/ReceiverConfigurationTests). Standard library only.
"""
import struct

MODELS = ("ublox-m8", "mtk3339", "l76b")
STANDARD_BAUDS = (4800, 9600, 14400, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
# UBX class 0xF0 message ids of the NMEA sentences (CFG-MSG) and MediaTek PMTK314 field indexes.
UBX_NMEA_IDS = {0x00: "GGA", 0x01: "GLL", 0x02: "GSA", 0x03: "GSV", 0x04: "RMC", 0x05: "VTG", 0x06: "GRS",
                0x07: "GST", 0x08: "ZDA", 0x09: "GBS", 0x0A: "DTM", 0x0D: "GNS", 0x0F: "VLW"}
PMTK314_FIELDS = {0: "GLL", 1: "RMC", 2: "VTG", 3: "GGA", 4: "GSA", 5: "GSV", 6: "GRS", 7: "GST", 17: "ZDA"}
UBX_GNSS_IDS = {0: "gps", 1: "sbas", 2: "galileo", 3: "beidou", 5: "qzss", 6: "glonass"}
MAJOR = {"gps", "glonass", "galileo", "beidou"}


def nmea(body):
    """'$BODY*HH\\r\\n' with the XOR checksum of BODY."""
    s = 0
    for c in body.encode("ascii"):
        s ^= c
    return f"${body}*{s:02X}\r\n".encode("ascii")


def ubx(cls, mid, payload=b""):
    frame = bytes([cls, mid]) + struct.pack("<H", len(payload)) + payload
    a = b = 0
    for x in frame:
        a = (a + x) & 0xFF
        b = (b + a) & 0xFF
    return b"\xb5\x62" + frame + bytes([a, b])


class ReceiverTwin:
    def __init__(self, model, log):
        if model not in MODELS:
            raise SystemExit(f"feeder: unknown --twin {model}; known: {', '.join(MODELS)}")
        self.model = model
        self.log = log
        self.saved = None
        self.acks = self.naks = self.commands = self.garbage = self.power_cycles = 0
        self.inbuf = b""
        self.config = self.factory()

    def factory(self):
        if self.model == "ublox-m8":
            return {"baud": 9600, "period_ms": 1000, "sentences": {"GGA", "GLL", "GSA", "GSV", "RMC", "VTG"},
                    "constellations": {"gps", "glonass", "sbas", "qzss"}}
        gnss = {"gps"} if self.model == "mtk3339" else {"gps", "beidou", "qzss"}
        return {"baud": 9600, "period_ms": 1000, "sentences": {"GGA", "GSA", "GSV", "RMC", "VTG"}, "constellations": gnss}

    # --- what it sends -----------------------------------------------------------------------
    def filter_epoch(self, data):
        """The epoch's sentences the receiver is set to send (types by their last three letters)."""
        out = []
        for line in data.split(b"\r\n"):
            if len(line) >= 6 and line[:1] == b"$" and line[3:6].decode("ascii", "replace") in self.config["sentences"]:
                out.append(line + b"\r\n")
        return b"".join(out)

    def start_up_text(self):
        if self.model == "ublox-m8":
            lines = ["u-blox AG - www.u-blox.com", "HW UBX-M8030 00080000", "ROM CORE 3.01 (107888)",
                     "FWVER=SPG 3.01", "PROTVER=18.00", "MOD=CAM-M8C-0", "GPS;GLO;GAL;BDS", "SBAS;IMES;QZSS"]
            return b"".join(nmea("GNTXT,01,01,02," + t) for t in lines)
        return nmea("PMTK011,MTKGPS") + nmea("PMTK010,001")

    def power_cycle(self):
        self.config = dict(self.saved) if self.saved else self.factory()
        self.config["sentences"] = set(self.config["sentences"])
        self.config["constellations"] = set(self.config["constellations"])
        self.inbuf = b""
        self.power_cycles += 1
        return self.start_up_text()

    def status_text(self):
        c = self.config
        return (f"model={self.model} period_ms={c['period_ms']} baud={c['baud']} "
                f"sentences={','.join(sorted(c['sentences']))} constellations={','.join(sorted(c['constellations']))} "
                f"commands={self.commands} acks={self.acks} naks={self.naks} garbage={self.garbage} "
                f"saved={'yes' if self.saved else 'no'} power_cycles={self.power_cycles}")

    # --- what it reads -----------------------------------------------------------------------
    def receive(self, data):
        """Bytes from the guest; returns the replies to send at once."""
        self.inbuf += data
        replies = b""
        while self.inbuf:
            if self.inbuf[:1] == b"\xb5":
                if len(self.inbuf) < 2:
                    break
                if self.inbuf[1:2] != b"\x62":
                    self.inbuf = self.inbuf[1:]
                    continue
                if len(self.inbuf) < 8:
                    break
                length = struct.unpack_from("<H", self.inbuf, 4)[0]
                if len(self.inbuf) < 8 + length:
                    break
                frame, self.inbuf = self.inbuf[:8 + length], self.inbuf[8 + length:]
                if ubx(frame[2], frame[3], frame[6:6 + length]) != frame:
                    self.garbage += 1
                    continue
                if self.model == "ublox-m8":
                    replies += self.ubx_command(frame[2], frame[3], frame[6:6 + length])
            elif self.inbuf[:1] == b"$":
                end = self.inbuf.find(b"\n")
                if end < 0:
                    if len(self.inbuf) > 200:
                        self.inbuf = b""
                    break
                line, self.inbuf = self.inbuf[:end].rstrip(b"\r"), self.inbuf[end + 1:]
                text = line.decode("ascii", "replace")
                if "*" not in text or nmea(text[1:text.index("*")]).rstrip(b"\r\n") != line:
                    self.garbage += 1
                    continue
                if self.model != "ublox-m8":
                    replies += self.pmtk_command(text[1:text.index("*")])
            else:
                self.inbuf = self.inbuf[1:]
        return replies

    def answer_ubx(self, cls, mid, ok):
        if ok:
            self.acks += 1
        else:
            self.naks += 1
        return ubx(0x05, 0x01 if ok else 0x00, bytes([cls, mid]))

    def ubx_command(self, cls, mid, p):
        self.commands += 1
        c = self.config
        if (cls, mid) == (0x0A, 0x04) and not p:
            sw, hw = b"ROM CORE 3.01 (107888)", b"00080000"
            ext = [b"FWVER=SPG 3.01", b"PROTVER=18.00", b"MOD=CAM-M8C-0", b"GPS;GLO;GAL;BDS"]
            return ubx(0x0A, 0x04, sw.ljust(30, b"\0") + hw.ljust(10, b"\0") + b"".join(e.ljust(30, b"\0") for e in ext))
        if cls != 0x06:
            return b""
        if mid == 0x08 and len(p) == 6:                                   # CFG-RATE
            meas, nav, _ = struct.unpack("<HHH", p)
            if meas < 25 or nav < 1:
                return self.answer_ubx(cls, mid, False)
            c["period_ms"] = meas
            return self.answer_ubx(cls, mid, True)
        if mid == 0x00 and len(p) == 20:                                  # CFG-PRT
            baud = struct.unpack_from("<I", p, 8)[0]
            if baud not in STANDARD_BAUDS:
                return self.answer_ubx(cls, mid, False)
            if p[0] == 1:
                c["baud"] = baud
            return self.answer_ubx(cls, mid, True)
        if mid == 0x01 and len(p) in (3, 8):                              # CFG-MSG
            name = UBX_NMEA_IDS.get(p[1])
            if p[0] != 0xF0 or name is None:
                return self.answer_ubx(cls, mid, False)
            rate = p[2] if len(p) == 3 else p[3]
            (c["sentences"].add if rate else c["sentences"].discard)(name)
            return self.answer_ubx(cls, mid, True)
        if mid == 0x3E and len(p) >= 4 and len(p) == 4 + 8 * p[3]:         # CFG-GNSS
            systems = set(c["constellations"])
            for i in range(p[3]):
                name = UBX_GNSS_IDS.get(p[4 + 8 * i])
                if name:
                    (systems.add if p[4 + 8 * i + 4] & 1 else systems.discard)(name)
            if len(systems & MAJOR) > 3 or not systems & {"gps", "glonass", "beidou"}:
                return self.answer_ubx(cls, mid, False)
            c["constellations"] = systems
            return self.answer_ubx(cls, mid, True)
        if mid == 0x09 and len(p) in (12, 13):                            # CFG-CFG
            clear, save, load = struct.unpack_from("<III", p, 0)
            if clear:
                self.saved = None
            if save:
                self.saved = {k: (set(v) if isinstance(v, set) else v) for k, v in c.items()}
            if load and self.saved:
                self.power_cycle()
            return self.answer_ubx(cls, mid, True)
        return self.answer_ubx(cls, mid, False)                          # CFG-VALSET and the rest: M8 NAKs

    def ack(self, command, flag):
        if flag == 3:
            self.acks += 1
        else:
            self.naks += 1
        return nmea(f"PMTK001,{command},{flag}")

    def pmtk_command(self, body):
        self.commands += 1
        c = self.config
        if body == "PQVERNO,R":
            return nmea("PQVERNO,R,L76BNR02A01S,2016/09/09,10:19") if self.model == "l76b" else b""
        if not body.startswith("PMTK") or len(body) < 7 or not body[4:7].isdigit():
            return b""
        number = int(body[4:7])
        fields = body[8:].split(",") if len(body) > 7 else []
        try:
            values = [int(f) for f in fields]
        except ValueError:
            return self.ack(number, 0)
        if number == 220:
            if len(values) != 1 or not 100 <= values[0] <= 10000:
                return self.ack(220, 0)
            c["period_ms"] = values[0]
            return self.ack(220, 3)
        if number == 251:
            rate = 9600 if values == [0] else (values[0] if len(values) == 1 else -1)
            if rate in (4800, 9600, 14400, 19200, 38400, 57600, 115200):
                c["baud"] = rate                                          # at once, no reply
            return b""
        if number == 314:
            if values == [-1]:
                c["sentences"] = set(self.factory()["sentences"])
                return self.ack(314, 3)
            if len(values) != 19:
                return self.ack(314, 0)
            c["sentences"] = {name for index, name in PMTK314_FIELDS.items() if values[index] > 0}
            return self.ack(314, 3)
        if number == 353:
            if len(values) not in (2, 5):
                return self.ack(353, 0)
            wanted = {n for n, v in zip(("gps", "glonass", "galileo", "galileo-full", "beidou"), values) if v == 1}
            wanted.discard("galileo-full")
            receivable = {"gps", "beidou"}
            if self.model == "mtk3339" or not wanted or not wanted <= receivable:
                return self.ack(353, 1)
            c["constellations"] = (c["constellations"] - MAJOR) | wanted
            return self.ack(353, 3)
        if number in (313, 352):
            if len(values) != 1 or values[0] not in (0, 1):
                return self.ack(number, 0)
            system, on = ("sbas", values[0] == 1) if number == 313 else ("qzss", values[0] == 0)
            (c["constellations"].add if on else c["constellations"].discard)(system)
            return self.ack(number, 3)
        if number == 605:
            if self.model == "mtk3339":
                return nmea("PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0")
            return nmea("PMTK705,AXN_3.8_3333_16090900,0000,Quectel-L76B,1.0")
        return self.ack(number, 1)
