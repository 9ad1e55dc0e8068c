#!/usr/bin/env python3
"""`make bench` (scripts/bench heading): the three peer filters of the heading filter on BROAD trials,
run here and now, scored with the BROAD metric (docs/heading.md):

  VQF 2.1.2 (pip vqf; default parameters, 9D output), x-io Fusion (pip imufusion 1.3.3; Bias + AHRS,
  gain 0.5, gyroscope range 2000 dps, acceleration and magnetic rejection 10 deg, timeout 5 s, ENU)
  and Madgwick (pip ahrs 0.4.0; default MARG gain 0.041, seeded with a TRIAD attitude, NWU -> ENU).

usage: broad_peers.py TRIAL.csv[.xz] ...
prints one line per trial: NAME vqf_heading vqf_incl fusion_heading fusion_incl madgwick_heading
madgwick_incl scored_samples (degrees)."""
import io
import lzma
import os
import sys

import numpy as np


def load(path):
    raw = lzma.open(path).read() if path.endswith(".xz") else open(path, "rb").read()
    header = raw.split(b"\n", 1)[0].decode().strip().split(",")
    data = np.loadtxt(io.BytesIO(raw), delimiter=",", skiprows=1)
    col = {name: i for i, name in enumerate(header)}
    pick = lambda *names: np.ascontiguousarray(data[:, [col[n] for n in names]])
    return (float(np.median(np.diff(data[:, col["time_s"]]))),
            pick("gyr_x_rad_s", "gyr_y_rad_s", "gyr_z_rad_s"), pick("acc_x_m_s2", "acc_y_m_s2", "acc_z_m_s2"),
            pick("mag_x_uT", "mag_y_uT", "mag_z_uT"), pick("ref_qw", "ref_qx", "ref_qy", "ref_qz"),
            data[:, col["movement"]] > 0)


def qmul(a, b):
    w1, x1, y1, z1 = a.T
    w2, x2, y2, z2 = b.T
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], axis=1)


def score(q, reference, movement):
    """BROAD: e = q_est * inv(q_ref); heading 2 atan(|e_z/e_w|), inclination 2 acos(sqrt(e_w^2+e_z^2))."""
    sel = movement & np.isfinite(reference).all(axis=1)
    qe = q[sel] / np.linalg.norm(q[sel], axis=1, keepdims=True)
    qr = reference[sel] / np.linalg.norm(reference[sel], axis=1, keepdims=True)
    e = qmul(qe, qr * np.array([1.0, -1.0, -1.0, -1.0]))
    e /= np.linalg.norm(e, axis=1, keepdims=True)
    heading = np.degrees(2 * np.arctan(np.abs(e[:, 3] / e[:, 0])))
    inclination = np.degrees(2 * np.arccos(np.clip(np.sqrt(e[:, 0] ** 2 + e[:, 3] ** 2), 0, 1)))
    return np.sqrt(np.mean(heading ** 2)), np.sqrt(np.mean(inclination ** 2)), int(sel.sum())


def run_vqf(dt, gyr, acc, mag):
    from vqf import VQF
    return VQF(dt).updateBatch(gyr, acc, mag)["quat9D"]


def run_fusion(dt, gyr, acc, mag):
    import imufusion
    rate = 1 / dt
    bias = imufusion.Bias().set_settings(imufusion.BiasSettings(sample_rate=rate))
    settings = imufusion.AhrsSettings(sample_rate=rate, gain=0.5, gyroscope_range=2000,
                                      acceleration_rejection=10, magnetic_rejection=10, rejection_timeout=5)
    settings.convention = imufusion.CONVENTION_ENU   # the constructor keyword is ignored in 1.3.3
    ahrs = imufusion.Ahrs().set_settings(settings)
    out = np.empty((len(gyr), 4))
    degrees, g = np.degrees(gyr), acc / 9.81
    for i in range(len(gyr)):
        ahrs.update(bias.update(degrees[i]), g[i], mag[i])
        out[i] = ahrs.get_quaternion()
    return out


def run_madgwick(dt, gyr, acc, mag):
    from ahrs import Quaternion
    from ahrs.filters import Madgwick
    up = acc[0] / np.linalg.norm(acc[0])
    west = np.cross(up, mag[0])
    west /= np.linalg.norm(west)
    q = np.empty((len(gyr), 4))
    q[0] = Quaternion(dcm=np.vstack([np.cross(west, up), west, up])).to_array()   # NWU
    madgwick = Madgwick(frequency=1 / dt)
    for i in range(1, len(gyr)):
        q[i] = madgwick.updateMARG(q[i - 1], gyr[i], acc[i], mag[i])
    return qmul(np.tile([np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)], (len(q), 1)), q)   # NWU -> ENU


for path in sys.argv[1:]:
    dt, gyr, acc, mag, reference, movement = load(path)
    name = os.path.basename(path).split(".")[0]
    figures = []
    for run in (run_vqf, run_fusion, run_madgwick):
        h, i, n = score(run(dt, gyr, acc, mag), reference, movement)
        figures += [h, i]
    print(name, " ".join("%.3f" % f for f in figures), n, flush=True)
