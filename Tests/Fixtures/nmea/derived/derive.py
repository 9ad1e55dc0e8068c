#!/usr/bin/env python3
"""Derives the GGA-every-Nth-cycle logs of this folder from gpsd's logs in ../gpsd.

    python3 derive.py            # writes nmea-rtk-gga-every-2nd.nmea and bu353s4-gga-gsa-every-4th.nmea

A receiver that sends RMC every cycle and GGA only every 2nd or 4th (u-blox CFG-MSG rates, MediaTek
PMTK314 frequencies): each source cycle (a new time in GGA/RMC/ZDA) keeps every sentence except the
thinned kinds (GGA; GGA and GSA), which stay only in cycles 0, N, 2N, ... Every kept line is the
original, byte for byte (checksums included). The references next to each derived log
are `gpsdecode -j < NAME.nmea | xz` by gpsd-clients 3.22-4.1+deb12u1 (Debian 12), as for ../gpsd.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DERIVED = (("nmea-rtk", 2, (b"GGA",), "nmea-rtk-gga-every-2nd"),
           ("bu353s4", 4, (b"GGA", b"GSA"), "bu353s4-gga-gsa-every-4th"))


def derive(source, every, thinned):
    out, cycle, last = [], -1, None
    for line in open(os.path.join(HERE, "..", "gpsd", source + ".nmea"), "rb").read().split(b"\n"):
        fields = line.split(b",")
        kind = fields[0][3:6]
        if kind in (b"GGA", b"RMC", b"ZDA") and len(fields) > 1 and fields[1] != last:
            cycle, last = cycle + 1, fields[1]
        if kind in thinned and cycle % every != 0:
            continue
        out.append(line)
    return b"\n".join(out)


if __name__ == "__main__":
    for source, every, thinned, name in DERIVED:
        with open(os.path.join(HERE, name + ".nmea"), "wb") as f:
            f.write(derive(source, every, thinned))
