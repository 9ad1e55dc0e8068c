import Angles
import Glibc
import TrackLog

/// Which positions an uplink reports (the `[uplink]` rate keys, as trackers do it): every fix, or a
/// fix once `interval_s` passed since the last one reported, or once it moved `min_distance_m`, or once
/// its heading turned more than `heading_change_deg`. A zero setting never triggers; all zero = every fix.
public struct UplinkRateFilter: Sendable {
    public var intervalSeconds: Double
    public var minimumDistanceMeters: Double
    public var headingChangeDegrees: Double
    private var last: (utc: Int64, lat: Double, lon: Double, heading: Double?)?

    public init(intervalSeconds: Double = 0, minimumDistanceMeters: Double = 0, headingChangeDegrees: Double = 0) {
        self.intervalSeconds = intervalSeconds
        self.minimumDistanceMeters = minimumDistanceMeters
        self.headingChangeDegrees = headingChangeDegrees
    }

    public var reportsEveryFix: Bool { intervalSeconds <= 0 && minimumDistanceMeters <= 0 && headingChangeDegrees <= 0 }

    /// Forget the last reported fix (the next one is reported).
    public mutating func reset() { last = nil }

    /// True when `record` is to be reported; it then becomes the reference for the next decision.
    public mutating func accepts(_ record: TrackRecord) -> Bool {
        let heading = record.heading.degrees ?? record.courseDegrees
        let utc = record.utcNanoseconds ?? 0
        guard !reportsEveryFix, let previous = last else {
            last = (utc, record.latitudeDegrees, record.longitudeDegrees, heading)
            return true
        }
        var report = false
        if intervalSeconds > 0 && Double(utc - previous.utc) >= intervalSeconds * 1e9 { report = true }
        if minimumDistanceMeters > 0 &&
            Self.distanceMeters(previous.lat, previous.lon, record.latitudeDegrees, record.longitudeDegrees) >= minimumDistanceMeters {
            report = true
        }
        if headingChangeDegrees > 0, let a = previous.heading, let b = heading,
           abs(Angle.shortestDelta(from: a, to: b)) > headingChangeDegrees {
            report = true
        }
        if report { last = (utc, record.latitudeDegrees, record.longitudeDegrees, heading) }
        return report
    }

    /// Equirectangular distance: exact enough below a few km, which is where a rate threshold lives.
    static func distanceMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let meanLatitude = (lat1 + lat2) / 2 * Angle.radiansPerDegree
        let x = Angle.shortestDelta(from: lon1, to: lon2) * Angle.radiansPerDegree * cos(meanLatitude)
        let y = (lat2 - lat1) * Angle.radiansPerDegree
        return (x * x + y * y).squareRoot() * 6_371_008.8
    }
}
