import Glibc
import IMU
import Heading
import Testing
import TestSupport

/// The x-io Fusion example recording (`Tests/Fixtures/imu/fusion-example/sensor_data.csv.xz`),
/// decompressed with `xz` into a temporary file for `[sim] imu_log` (the device reads plain CSV), and
/// the heading filter's own output on it: what `puckd heading replay` computes from the same rows.
final class RecordedIMUFixture {
    static let fixture = "imu/fusion-example/sensor_data.csv.xz"
    /// The plain CSV file.
    let path: String

    init() throws {
        let bytes = try #require(Fixtures.xzBytes(Self.fixture), "\(Self.fixture) unreadable (is xz installed?)")
        path = try #require(Fixtures.temporaryFile(named: "sensor_data.csv", contents: bytes))
    }

    deinit {
        unlink(path)
        rmdir(String(path[..<path.lastIndex(of: "/")!]))
    }

    /// One reference row: recording time and the orientation's heading, roll and pitch, degrees.
    struct Reference {
        var timeSeconds: Double
        var magneticHeadingDegrees: Double
        var rollDegrees: Double
        var pitchDegrees: Double
    }

    /// Parses `puckd heading replay` output (`time_s,qw,qx,qy,qz,heading_mag_deg,heading_accuracy_deg`).
    static func references(fromReplayCSV text: String) -> [Reference] {
        var rows: [Reference] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").compactMap { Double($0) }
            guard f.count == 7 else { continue }
            let q = Quaternion(w: f[1], x: f[2], y: f[3], z: f[4])
            rows.append(Reference(timeSeconds: f[0], magneticHeadingDegrees: f[5], rollDegrees: q.rollDegrees,
                                  pitchDegrees: q.pitchDegrees))
        }
        return rows
    }

    /// The reference rows with recording times in `from ... to`, seconds.
    static func window(_ rows: [Reference], from: Double, to: Double) -> ArraySlice<Reference> {
        var lo = 0, hi = rows.count
        while lo < hi { let mid = (lo + hi) / 2; if rows[mid].timeSeconds < from { lo = mid + 1 } else { hi = mid } }
        var end = lo
        while end < rows.count && rows[end].timeSeconds <= to { end += 1 }
        return rows[lo..<end]
    }

    /// Smallest angular distance between `a` and `b`, degrees (0 ... 180).
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        let d = (a - b).truncatingRemainder(dividingBy: 360)
        let w = d < 0 ? d + 360 : d
        return min(w, 360 - w)
    }
}
