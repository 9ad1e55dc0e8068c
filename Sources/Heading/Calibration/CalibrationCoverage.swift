import IMU

/// How much of the sphere of field directions a calibration run has seen: 32 equal-area bins (four
/// bands of equal height in z — equal area on a sphere, Archimedes — times eight 45° sectors).
/// A bin counts as covered with at least `minimumSamplesPerBin` samples.
public struct CalibrationCoverage: Sendable {
    /// Number of bins.
    public static let binCount = 32
    /// Samples a bin needs to count as covered.
    public static let minimumSamplesPerBin = 2

    /// Samples seen per bin.
    public private(set) var counts = InlineArray<32, UInt16>(repeating: 0)

    public init() {}

    /// The bin of a direction (need not be normalised; zero vectors fall into bin 0).
    @inline(__always)
    public static func bin(of direction: Vector3) -> Int {
        let n = direction.length
        guard n > 0, n.isFinite else { return 0 }      // NaN or infinite: bin 0 (Int(NaN) would trap)
        let z = direction.z / n                         // −1…1: the band below is 0…3
        let band = min(3, max(0, Int(((z + 1) * 2).rounded(.down))))
        var sector = 0
        // Eight sectors by sign tests and |x| vs |y| (no trigonometry).
        let x = direction.x, y = direction.y
        if y >= 0 {
            if x >= 0 { sector = x >= y ? 0 : 1 } else { sector = -x <= y ? 2 : 3 }
        } else {
            if x < 0 { sector = -x >= -y ? 4 : 5 } else { sector = x <= -y ? 6 : 7 }
        }
        return band * 8 + sector
    }

    /// Adds a direction; returns its bin.
    @discardableResult
    public mutating func add(direction: Vector3) -> Int {
        let b = CalibrationCoverage.bin(of: direction)
        if counts[b] < UInt16.max { counts[b] += 1 }
        return b
    }

    /// Bins with at least `minimumSamplesPerBin` samples.
    public var coveredBins: Int {
        var n = 0
        for i in 0..<CalibrationCoverage.binCount where counts[i] >= UInt16(CalibrationCoverage.minimumSamplesPerBin) {
            n += 1
        }
        return n
    }

    /// Covered fraction of the sphere, 0...1.
    public var fraction: Double { Double(coveredBins) / Double(CalibrationCoverage.binCount) }
}
