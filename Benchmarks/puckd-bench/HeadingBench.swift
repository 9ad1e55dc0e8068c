#if canImport(Glibc)
import Glibc
#endif
import CMallocCounter
import Heading

/// `make bench` figures for the heading provider: filter throughput (samples/s, allocations) and the
/// BROAD ground-truth table (heading RMSE, p95, inclination RMSE, accuracy coverage) next to the
/// reference filters' numbers, plus the Fusion example-data checks. Reads the fixtures from
/// `Tests/Fixtures/imu/` (run from the repository root; needs `xz`).
func runHeadingBench() {
    print("== heading ==")
    guard let broad07 = loadIMUFixture("Tests/Fixtures/imu/broad/07_undisturbed_fast_rotation_B.csv.xz"),
          let broad30 = loadIMUFixture("Tests/Fixtures/imu/broad/30_disturbed_stationary_magnet_C.csv.xz"),
          let fusion = loadIMUFixture("Tests/Fixtures/imu/fusion-example/sensor_data.csv.xz") else {
        print("heading bench: cannot read Tests/Fixtures/imu/*.csv.xz: run `make bench` from the repository root with xz installed")
        return
    }
    benchThroughput(broad07)
    print("")
    print("BROAD trials, one configuration (defaults), metric of the BROAD paper (degrees):")
    print("trial                              filter                 heading RMSE  heading p95  incl. RMSE  acc. covers")
    for (name, records, references) in [
        ("07_undisturbed_fast_rotation_B", broad07, [("Fusion (README)", 3.02, 5.39, 2.06), ("Madgwick (README)", 7.76, 10.82, 2.49)]),
        ("30_disturbed_stationary_magnet_C", broad30, [("Fusion (README)", 14.90, 48.22, 9.94), ("Madgwick (README)", 1.64, 3.27, 3.53)]),
    ] {
        var estimator = HeadingEstimator(calibration: .identity)
        var heading = ErrorStatistics(), inclination = ErrorStatistics()
        var covered = 0
        for r in records {
            estimator.update(r.sample)
            guard r.movement == true, let reference = r.referenceOrientation else { continue }
            let e = OrientationError.headingAndInclination(estimate: estimator.filter.orientation, reference: reference)
            heading.add(e.headingDegrees)
            inclination.add(e.inclinationDegrees)
            if e.headingDegrees <= estimator.headingAccuracyDegrees { covered += 1 }
        }
        print(pad(name, 35) + pad("puckd AHRS", 23) + num(heading.rms, 13) + num(heading.percentile(95), 13)
              + num(inclination.rms, 12) + num(100 * Double(covered) / Double(max(1, heading.count)), 10) + " %")
        for (filter, rmse, p95, incl) in references {
            print(pad("", 35) + pad(filter, 23) + num(rmse, 13) + num(p95, 13) + num(incl, 12))
        }
    }
    benchFusionExample(fusion)
}

private func benchThroughput(_ records: [IMUCSVRecord]) {
    let samples = records.map(\.sample)
    let span = samples.last!.timestampNanoseconds - samples.first!.timestampNanoseconds + 3_500_000
    var estimator = HeadingEstimator(calibration: .identity)
    var filter = AHRSFilter()
    // Warm up, then time 20 passes (≈ 1 M samples) through each.
    for s in samples { estimator.update(s); filter.update(s) }
    // Best of 5 rounds of 4 passes (≈ 210 k samples each): the machine may be shared.
    let passes = 4, rounds = 5
    var published = 0
    var allocations: UInt64 = 0
    var estimatorBest = Double.infinity, filterBest = Double.infinity
    var pass: Int64 = 0
    for _ in 0..<rounds {
        let allocationsBefore = mc_thread_allocations()
        let t0 = monotonicSeconds()
        for _ in 0..<passes {
            pass += 1
            let offset = pass * span
            for i in samples.indices {
                var s = samples[i]
                s.timestampNanoseconds += offset
                if estimator.update(s) { published += 1 }
            }
        }
        let t1 = monotonicSeconds()
        allocations += mc_thread_allocations() - allocationsBefore
        for _ in 0..<passes {
            pass += 1
            let offset = pass * span
            for i in samples.indices {
                var s = samples[i]
                s.timestampNanoseconds += offset
                filter.update(s)
            }
        }
        let t2 = monotonicSeconds()
        estimatorBest = min(estimatorBest, t1 - t0)
        filterBest = min(filterBest, t2 - t1)
    }
    let n = Double(passes * samples.count)
    print("throughput (BROAD trial 07, \(Int(n)) samples per round, best of \(rounds) rounds, release build, thread CPU time):")
    print("  HeadingEstimator.update (calibration + AHRS + accuracy + publish): " + num(n / estimatorBest / 1e6, 0)
          + " M samples/s, " + num(estimatorBest / n * 1e9, 0) + " ns/sample; \(allocations) heap allocations in "
          + "\(rounds * Int(n)) samples, \(published) published (heading filter 1°)")
    print("  AHRSFilter.update alone: " + num(n / filterBest / 1e6, 0) + " M samples/s, "
          + num(filterBest / n * 1e9, 0) + " ns/sample")
}

private func benchFusionExample(_ records: [IMUCSVRecord]) {
    var estimator = HeadingEstimator(calibration: .identity)
    var before = 0.0, beforeCount = 0.0, drag = 0.0
    var headings: [Double] = []
    for r in records {
        estimator.update(r.sample)
        let h = estimator.filter.orientation.headingDegrees
        headings.append(h)
        if r.timeSeconds > 95 && r.timeSeconds < 100 { before += Angle.wrap180(h - headings[0]); beforeCount += 1 }
    }
    let base = headings[0] + before / max(1, beforeCount)
    for (i, r) in records.enumerated() where r.timeSeconds >= 100.5 && r.timeSeconds <= 116.5 {
        drag = max(drag, abs(Angle.wrap180(headings[i] - base)))
    }
    print("")
    print("Fusion example data: largest heading change during the stationary magnetic disturbance 100.5–116.5 s: "
          + num(drag, 0) + "° (limit 2°)")
    // Agreement with Fusion's own output outside its start-up and the disturbance (100–130 s).
    guard let text = readXZ("Tests/Fixtures/imu/fusion-example/fusion_ahrs_output.csv.xz") else { return }
    // Split bytes (the file has CRLF line ends, one grapheme for String).
    let rows = text.split(separator: UInt8(ascii: "\n")).dropFirst().map { String(decoding: $0, as: UTF8.self) }
    var sum = 0.0, n = 0.0
    for (i, row) in rows.enumerated() where i < records.count {
        let fields = row.split(separator: ",")
        guard fields.count > 4, let fusionHeading = Double(fields[4]) else { continue }   // heading_mag_deg
        let t = records[i].timeSeconds
        guard t > 3, t < 100 || t > 130 else { continue }
        let d = Angle.wrap180(headings[i] - fusionHeading)
        sum += d * d
        n += 1
    }
    print("Fusion example data: heading RMS difference to Fusion's output (3–100 s and 130–135 s): "
          + num((sum / max(1, n)).squareRoot(), 0) + "° over \(Int(n)) samples (limit 1.5°)")
}

private func loadIMUFixture(_ path: String) -> [IMUCSVRecord]? {
    guard let bytes = readXZ(path) else { return nil }
    return try? bytes.withUnsafeBytes { raw throws(IMUCSVError) in try IMUCSVParser.parseAll(raw).1 }
}

/// The decompressed content of an xz file (`xz -dc`), nil when unreadable.
private func readXZ(_ path: String) -> [UInt8]? {
    guard access(path, R_OK) == 0, let pipe = popen("xz -dc '\(path)'", "r") else { return nil }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, pipe) }
        if n <= 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    guard pclose(pipe) == 0 else { return nil }
    return bytes
}

/// Thread CPU time, seconds: the machine may be shared, CPU time is what the filter costs.
private func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

private func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(1, width - s.count)) }

private func num(_ v: Double, _ width: Int) -> String {
    let scaled = (v * 100).rounded()
    let text = "\(Int(scaled) / 100).\(String(repeating: "0", count: abs(Int(scaled) % 100) < 10 ? 1 : 0))\(abs(Int(scaled) % 100))"
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
