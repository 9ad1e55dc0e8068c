#if canImport(Glibc)
import Angles
import Glibc
#endif
import CMallocCounter
import IMU
import Heading

/// `make bench` figures for the heading provider: filter throughput (samples/s, allocations), the ten
/// BROAD ground-truth trials (heading and inclination RMSE, accuracy coverage) next to the three peers
/// run in the same `make bench` (VQF, Fusion, Madgwick: `scripts/broad_peers.py` writes `peersPath`),
/// the Fusion example-data checks and the GNSS-aided synthetic drive. Reads the fixtures from
/// `Tests/Fixtures/imu/` (run from the repository root; needs `xz`).
func runHeadingBench(_ arguments: [String]) {
    print("== heading ==")
    let directory = "Tests/Fixtures/imu/broad/"
    let trials = [
        "02_undisturbed_slow_rotation_B", "07_undisturbed_fast_rotation_B", "10_undisturbed_slow_translation_A",
        "15_undisturbed_fast_translation_A", "16_undisturbed_fast_translation_B", "25_disturbed_tapping_B",
        "27_disturbed_phone_vibration_B", "30_disturbed_stationary_magnet_C", "32_disturbed_attached_magnet_1cm",
        "35_disturbed_attached_magnet_4cm",
    ]
    var records: [[IMUCSVRecord]] = []
    for name in trials {
        guard let r = loadIMUFixture(directory + name + ".csv.xz") else {
            print("heading bench: cannot read \(directory)\(name).csv.xz: run `make bench` from the repository root with xz installed")
            return
        }
        records.append(r)
    }
    guard let fusion = loadIMUFixture("Tests/Fixtures/imu/fusion-example/sensor_data.csv.xz") else {
        print("heading bench: cannot read Tests/Fixtures/imu/fusion-example/sensor_data.csv.xz")
        return
    }
    benchThroughput(records[1])
    print("")
    benchBROAD(trials, records, peers: arguments.first.map(readPeers) ?? [:])
    benchFusionExample(fusion)
    benchVehicleDrive()
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

func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(1, width - s.count)) }

func num(_ v: Double, _ width: Int) -> String {
    let scaled = (v * 100).rounded()
    let text = "\(Int(scaled) / 100).\(String(repeating: "0", count: abs(Int(scaled) % 100) < 10 ? 1 : 0))\(abs(Int(scaled) % 100))"
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
