import IMU

/// Collects raw magnetometer samples during a calibration run (the user turns the board through all
/// orientations), reports the coverage of directions as it goes, and fits the calibration.
///
/// Storage is allocated once in `init` (`capacity` samples) and never grows; `add(_:)` allocates
/// nothing. To keep the fit balanced, each of the 32 coverage bins keeps at most capacity/32 samples
/// and a sample closer than `minimumSpacingMicrotesla` to the previously kept one is skipped (a board
/// held still adds one sample, not thousands). Bins are taken around the running centre of the
/// samples' bounding box, a good estimate of the hard iron once a few directions are in.
public struct MagnetometerCalibrationRun: Sendable {
    /// Coverage a fit needs, fraction of the 32 bins.
    public static let minimumCoverage = 0.5
    /// Samples a fit needs.
    public static let minimumSamples = 50

    /// Maximum samples kept.
    public let capacity: Int
    /// Skip samples closer than this to the last kept one, µT.
    public var minimumSpacingMicrotesla: Double = 1.0
    private var samples: [Vector3]
    /// Samples kept so far.
    public private(set) var count = 0
    /// Samples offered so far (kept or not).
    public private(set) var offered = 0
    private var perBin = InlineArray<32, Int>(repeating: 0)
    private var lo = Vector3.zero, hi = Vector3.zero
    private var last = Vector3.zero

    /// A run keeping up to `capacity` samples (default 1024, 24 KB).
    public init(capacity: Int = 1024) {
        self.capacity = max(64, capacity)
        samples = [Vector3](repeating: .zero, count: self.capacity)
    }

    /// Forgets all samples (keeps the storage).
    public mutating func reset() {
        count = 0
        offered = 0
        perBin = InlineArray<32, Int>(repeating: 0)
    }

    /// Running centre estimate (bounding-box centre), µT.
    public var provisionalCenter: Vector3 { count == 0 ? .zero : (lo + hi) * 0.5 }

    /// Offers a raw sample (µT); returns true when it was kept.
    @discardableResult
    public mutating func add(_ raw: Vector3) -> Bool {
        offered &+= 1
        guard raw.isFinite, count < capacity else { return false }
        if count > 0 && (raw - last).length < minimumSpacingMicrotesla { return false }
        if count == 0 {
            lo = raw
            hi = raw
        } else {
            lo = Vector3(min(lo.x, raw.x), min(lo.y, raw.y), min(lo.z, raw.z))
            hi = Vector3(max(hi.x, raw.x), max(hi.y, raw.y), max(hi.z, raw.z))
        }
        let bin = CalibrationCoverage.bin(of: raw - provisionalCenter)
        guard perBin[bin] < capacity / CalibrationCoverage.binCount else { return false }
        perBin[bin] += 1
        samples[count] = raw
        count += 1
        last = raw
        return true
    }

    /// Coverage of the kept samples around the current centre estimate, 0...1.
    public var coverageFraction: Double { coverage(around: provisionalCenter, transform: nil).fraction }

    /// Fits the calibration. `expectedFieldMicrotesla` (e.g. WMM total intensity at the place) scales
    /// the result to the true field; the gyro bias and time are recorded in the calibration.
    public func fit(expectedFieldMicrotesla: Double? = nil, gyroBiasRadiansPerSecond: Vector3? = nil,
                    utcNanoseconds: Int64? = nil) throws(MagnetometerCalibrationError) -> MagnetometerCalibration {
        guard count >= MagnetometerCalibrationRun.minimumSamples else {
            throw .tooFewSamples(count: count, needed: MagnetometerCalibrationRun.minimumSamples)
        }
        let rough = coverageFraction
        guard rough >= MagnetometerCalibrationRun.minimumCoverage else {
            throw .insufficientCoverage(fraction: rough, needed: MagnetometerCalibrationRun.minimumCoverage)
        }
        let n = count
        let result = try samples.withUnsafeBufferPointer { (all) throws(MagnetometerCalibrationError) -> EllipsoidFit.Result in
            try EllipsoidFit.fit(UnsafeBufferPointer(rebasing: all[0..<n]), expectedFieldMicrotesla: expectedFieldMicrotesla)
        }
        let final = coverage(around: result.center, transform: result.transform).fraction
        guard final >= MagnetometerCalibrationRun.minimumCoverage else {
            throw .insufficientCoverage(fraction: final, needed: MagnetometerCalibrationRun.minimumCoverage)
        }
        return MagnetometerCalibration(hardIronMicrotesla: result.center, softIronRow0: result.transform.row(0),
                                       softIronRow1: result.transform.row(1), softIronRow2: result.transform.row(2),
                                       fieldMicrotesla: result.radiusMicrotesla, coverageFraction: final,
                                       residualFraction: result.residualFraction, sampleCount: n,
                                       gyroBiasRadiansPerSecond: gyroBiasRadiansPerSecond, utcNanoseconds: utcNanoseconds)
    }

    private func coverage(around center: Vector3, transform: SymmetricMatrix3?) -> CalibrationCoverage {
        var coverage = CalibrationCoverage()
        for i in 0..<count {
            let d = samples[i] - center
            coverage.add(direction: transform.map { $0.multiply(d) } ?? d)
        }
        return coverage
    }
}
