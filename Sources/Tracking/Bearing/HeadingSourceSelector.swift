import Angles
import NMEA

/// A bearing chosen by the fallback rule, with where it came from.
public struct BearingSelection: Sendable, Equatable {
    /// Which measurement it is.
    public var source: BearingSource
    /// Bearing, degrees clockwise from north (true north, except a magnetic-only IMU sample), 0..<360.
    public var degrees: Double
    /// Its accuracy, degrees (the sample's for IMU; `assumedGPSBearingAccuracyDegrees` for GPS).
    public var accuracyDegrees: Double
}

/// The bearing fallback of the tracking core, puckd's own rule (the SDKs take one compass; a board may
/// have an IMU, a GNSS true heading and a course):
///
/// 1. **IMU heading** when valid: the newest IMU sample has headingAccuracy ≥ 0, a direction (true
///    heading if ≥ 0, else magnetic — tracking.md 1.2) and is at most `imuTimeoutNanoseconds` old;
/// 2. else **GPS true heading** (NMEA HDT/THS → `Fix.trueHeadingDegrees`, or a `.gnss` heading
///    sample) from a fix at most `gpsMaxAgeNanoseconds` old;
/// 3. else **GPS course** when the fix's speed ≥ `courseMinimumSpeedMetersPerSecond` (and the fix
///    is at most `gpsMaxAgeNanoseconds` old); a threshold of 0 accepts any reported course
///    (MapLibre: validity is only "course ≥ 0", tracking.md 2.3);
/// 4. else **none**.
///
/// Pure and allocation-free; times are monotonic nanoseconds.
public struct HeadingSourceSelector: Sendable {
    /// IMU samples older than this are not used.
    public var imuTimeoutNanoseconds: Int64
    /// GPS true heading / course from fixes older than this are not used.
    public var gpsMaxAgeNanoseconds: Int64
    /// Speed from which a course counts as valid, m/s.
    public var courseMinimumSpeedMetersPerSecond: Double
    /// Accuracy reported for GPS bearings (NMEA carries none), degrees.
    public var assumedGPSAccuracyDegrees: Double

    private var imu: HeadingSample? = nil
    private var gnss: HeadingSample? = nil
    private var gpsHeadingDegrees: Double? = nil
    private var gpsHeadingTime: Int64 = 0
    private var courseDegrees: Double? = nil
    private var courseTime: Int64 = 0

    public init(imuTimeoutNanoseconds: Int64 = 10_000_000_000, gpsMaxAgeNanoseconds: Int64 = 3_000_000_000,
                courseMinimumSpeedMetersPerSecond: Double = 0.5, assumedGPSAccuracyDegrees: Double = 10) {
        self.imuTimeoutNanoseconds = imuTimeoutNanoseconds
        self.gpsMaxAgeNanoseconds = gpsMaxAgeNanoseconds
        self.courseMinimumSpeedMetersPerSecond = courseMinimumSpeedMetersPerSecond
        self.assumedGPSAccuracyDegrees = assumedGPSAccuracyDegrees
    }

    /// The fix's course if it counts as valid under `minimumSpeed` (nil = invalid, CoreLocation's −1).
    public static func validCourse(of fix: Fix, minimumSpeedMetersPerSecond minimumSpeed: Double) -> Double? {
        guard let course = fix.courseDegrees, course.isFinite, course >= 0 else { return nil }
        if minimumSpeed > 0 {
            guard let speed = fix.speedMetersPerSecond, speed >= minimumSpeed else { return nil }
        }
        return Angle.wrap360(course)
    }

    /// Records a heading sample (the newest per source wins, valid or not).
    public mutating func record(_ sample: HeadingSample) {
        switch sample.source {
        case .imu: imu = sample
        case .gnss: gnss = sample
        }
    }

    /// Records the GPS bearings a fix carries, arriving at `now`. Nil values clear the source.
    public mutating func record(_ fix: Fix, at now: Int64) {
        if let h = fix.trueHeadingDegrees, h.isFinite, h >= 0 {
            gpsHeadingDegrees = Angle.wrap360(h)
        } else {
            gpsHeadingDegrees = nil
        }
        gpsHeadingTime = now
        courseDegrees = Self.validCourse(of: fix, minimumSpeedMetersPerSecond: courseMinimumSpeedMetersPerSecond)
        courseTime = now
    }

    /// Forgets every source.
    public mutating func reset() {
        imu = nil
        gnss = nil
        gpsHeadingDegrees = nil
        courseDegrees = nil
    }

    /// The earliest time a stored source times out (the selection can change then without a new
    /// input); `Int64.max` when nothing is stored.
    public var nextExpiryNanoseconds: Int64 {
        var t = Int64.max
        if let s = imu, s.isValid { t = min(t, s.timeNanoseconds &+ imuTimeoutNanoseconds) }
        if let s = gnss, s.isValid { t = min(t, s.timeNanoseconds &+ gpsMaxAgeNanoseconds) }
        if gpsHeadingDegrees != nil { t = min(t, gpsHeadingTime &+ gpsMaxAgeNanoseconds) }
        if courseDegrees != nil { t = min(t, courseTime &+ gpsMaxAgeNanoseconds) }
        return t == Int64.max ? t : t &+ 1
    }

    /// The bearing to use at `now`. `includeCourse` false skips step 3 (reduced accuracy);
    /// `preferMagnetic` uses the IMU's magnetic heading first (ArcGIS compass reference, Q11).
    public func select(at now: Int64, includeCourse: Bool = true, preferMagnetic: Bool = false) -> BearingSelection? {
        if let s = imu, let accuracy = s.headingAccuracyDegrees, now - s.timeNanoseconds <= imuTimeoutNanoseconds,
           let direction = preferMagnetic ? s.magneticHeadingDegrees.map(Angle.wrap360) ?? s.direction : s.direction {
            return BearingSelection(source: .imuHeading, degrees: direction, accuracyDegrees: accuracy)
        }
        if let s = gnss, let accuracy = s.headingAccuracyDegrees, now - s.timeNanoseconds <= gpsMaxAgeNanoseconds,
           let direction = s.direction {
            return BearingSelection(source: .gpsTrueHeading, degrees: direction, accuracyDegrees: accuracy)
        }
        if let h = gpsHeadingDegrees, now - gpsHeadingTime <= gpsMaxAgeNanoseconds {
            return BearingSelection(source: .gpsTrueHeading, degrees: h, accuracyDegrees: assumedGPSAccuracyDegrees)
        }
        if includeCourse, let c = courseDegrees, now - courseTime <= gpsMaxAgeNanoseconds {
            return BearingSelection(source: .gpsCourse, degrees: c, accuracyDegrees: assumedGPSAccuracyDegrees)
        }
        return nil
    }
}
