import IMU
import Heading
import TestSupport

/// One trial's figures of a peer filter (`scripts/broad_peers.py`), degrees.
struct PeerFigures {
    var vqf: (heading: Double, inclination: Double)
    var fusion: (heading: Double, inclination: Double)
    var madgwick: (heading: Double, inclination: Double)
    var best: Double { min(vqf.heading, fusion.heading, madgwick.heading) }
}

/// `broad_peers.py` output: `NAME vqf_h vqf_i fusion_h fusion_i madgwick_h madgwick_i n` per line.
func readPeers(_ path: String) -> [String: PeerFigures] {
    var out: [String: PeerFigures] = [:]
    guard let bytes = Fixtures.readFile(path) else {
        print("heading bench: no peer figures in \(path) (scripts/broad_peers.py did not run)")
        return out
    }
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
        let fields = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard fields.count >= 7 else { continue }
        let v = fields[1...6].compactMap { Double($0) }
        guard v.count == 6 else { continue }
        out[String(fields[0])] = PeerFigures(vqf: (v[0], v[1]), fusion: (v[2], v[3]), madgwick: (v[4], v[5]))
    }
    return out
}

/// The ten-trial table: puckd (defaults) next to the peers, the ratio to the best peer, the goals.
func benchBROAD(_ trials: [String], _ records: [[IMUCSVRecord]], peers: [String: PeerFigures]) {
    print("BROAD, ten trials, one configuration (the defaults); BROAD metric, RMSE in degrees (heading / inclination);")
    print("peers run in this make bench (scripts/broad_peers.py): VQF 2.1.2, Fusion (imufusion 1.3.3), Madgwick (ahrs 0.4.0)")
    print(pad("trial", 35) + pad("puckd", 15) + pad("VQF", 15) + pad("Fusion", 15) + pad("Madgwick", 15)
          + pad("best peer", 11) + "puckd/best  covered")
    var sums = [Double](repeating: 0, count: 8)
    var worst = 0.0, covered = 0, scored = 0
    for (name, trial) in zip(trials, records) {
        var estimator = HeadingEstimator(calibration: .identity)
        var heading = ErrorStatistics(), inclination = ErrorStatistics()
        var trialCovered = 0
        for r in trial {
            estimator.update(r.sample)
            guard r.movement == true, let reference = r.referenceOrientation else { continue }
            let e = OrientationError.headingAndInclination(estimate: estimator.filter.orientation, reference: reference)
            heading.add(e.headingDegrees)
            inclination.add(e.inclinationDegrees)
            if let a = estimator.headingAccuracyDegrees, e.headingDegrees <= a { trialCovered += 1 }
        }
        covered += trialCovered
        scored += heading.count
        let p = peers[name]
        let pair = { (h: Double, i: Double) in num(h, 6) + " /" + num(i, 5) + "  " }
        var line = pad(name, 35) + pair(heading.rms, inclination.rms)
        if let p {
            line += pair(p.vqf.heading, p.vqf.inclination) + pair(p.fusion.heading, p.fusion.inclination)
                + pair(p.madgwick.heading, p.madgwick.inclination) + num(p.best, 9) + num(heading.rms / p.best, 12)
            worst = max(worst, heading.rms / p.best)
            for (k, v) in [p.vqf.heading, p.vqf.inclination, p.fusion.heading, p.fusion.inclination,
                           p.madgwick.heading, p.madgwick.inclination].enumerated() { sums[2 + k] += v }
        } else {
            line += pad("(no peers)", 71)
        }
        sums[0] += heading.rms
        sums[1] += inclination.rms
        print(line + num(100 * Double(trialCovered) / Double(max(1, heading.count)), 8) + " %")
    }
    let n = Double(trials.count)
    var mean = pad("mean", 35)
    for k in stride(from: 0, to: 8, by: 2) { mean += num(sums[k] / n, 6) + " /" + num(sums[k + 1] / n, 5) + "  " }
    print(mean + pad("", 21) + num(100 * Double(covered) / Double(max(1, scored)), 8) + " %")
    if sums[2] > 0 {
        print("puckd mean heading / VQF's: " + num(sums[0] / sums[2], 0) + " (goal ≤ 0.9); worst trial / its best peer: "
              + num(worst, 0) + " (goal ≤ 1.5); mean inclination " + num(sums[1] / n, 0) + "° (goal ≤ 1.0°)")
    }
}

/// The GNSS-aided synthetic drive (`SyntheticDrive`): heading error with and without the course.
func benchVehicleDrive() {
    let drive = SyntheticDrive()
    let (aided, unaided) = drive.compareAiding()
    print("")
    print("Synthetic town drive (\(drive.samples.count / 100) s at 100 Hz, 1 Hz RMC+GGA through NMEAPipeline, a vehicle-fixed "
          + "disturbance growing to \(Int(SyntheticDrive.disturbancePeakMicrotesla)) µT and back):")
    print("heading error, degrees             RMSE   p95    max   RMSE disturbed   RMSE standing/reversing")
    for (label, s) in [("with GNSS course aiding", aided), ("without (course_speed_mps = 0)", unaided)] {
        print(pad("  " + label, 35) + num(s.all.rms, 5) + num(s.all.percentile(95), 6) + num(s.all.maximum, 7)
              + num(s.disturbed.rms, 12) + num(s.standingOrReversing.rms, 20))
    }
    let miss = aided.learnedOffsetAtPeak - aided.disturbanceAtPeak
    print("courses used \(aided.coursesUsed); at the disturbance's peak the learned offset misses it by "
          + num((miss.x * miss.x + miss.y * miss.y).squareRoot(), 0) + " µT horizontally (of "
          + num(SyntheticDrive.disturbancePeakMicrotesla, 0) + " µT)")
}
