#!/usr/bin/env python3
"""Makes a repository fixture from a BROAD trial CSV (as converted by the data set's curator):
keeps the 15 columns the heading tests and the bench read (drops ref_yaw_enu_deg and
ref_heading_mag_deg, both derived from ref_q*), rounds the reference quaternion to 5 decimals
(0.001 degrees, far below the motion-capture accuracy) and drops the rows after the last scored
(movement = 1) row: the filter is causal, so no score changes. Sensor columns are copied verbatim.
usage: trim_trial.py IN.csv OUT.csv"""
import csv, sys

with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))
header, data = rows[0], rows[1:]
movement = header.index("movement")
last = max(i for i, r in enumerate(data) if r[movement] == "1")
with open(sys.argv[2], "w", newline="") as out:
    out.write(",".join(header[:15]) + "\n")
    for r in data[: last + 1]:
        q = ["nan" if v == "nan" else ("%.5f" % float(v)).rstrip("0").rstrip(".") for v in r[10:14]]
        out.write(",".join(r[:10] + q + [r[14]]) + "\n")
