import IMU
import Angles

/// GNSS course over ground as a heading measurement for a vehicle: while it drives at least
/// `courseAidingSpeedMetersPerSecond` with a yaw rate (gyro heading change around the fix) of at most
/// `courseAidingYawRateDegreesPerSecond`, its course is where its forward axis points — a measurement
/// no magnet, steel body or wiring disturbs. Each such fix corrects the heading with the Kalman gain
/// of its variance `courseNoiseDegrees`² (`HeadingVariance`). Meanwhile the magnetometer does not
/// correct the heading; instead its offset is learned against the course: the field it should read,
/// given the course-aided orientation and the reference field, subtracted from the one it reads,
/// low-passed (`magneticOffsetTimeConstantSeconds`) into `magneticOffsetMicrotesla` — a vector fixed
/// to the vehicle (its steel, its wiring, a magnetised load), so it is right at every heading — and
/// subtracted from every reading, also once the aiding stops.
///
/// Standstill, slow driving and turns keep today's rules (magnetometer and gyro). A course that
/// differs from the heading by nearly 180° is a reversing vehicle and is ignored; any other difference
/// beyond `courseRejectionDegrees` is ignored too (a skid, a multipath course), unless it persists for
/// `courseRecoverySeconds` of aiding conditions — then the heading is what is wrong and the course
/// resets it. A fix may arrive up to a receiver period after its own time: its course is compared with
/// the heading of that moment (`HeadingHistory`). Assumes the board's x axis points forward along the
/// vehicle (the mounting orientation).
public struct CourseAiding: Sendable {
    /// The magnetometer's offset learned against the course (sensor frame), µT: subtracted from every
    /// reading.
    public private(set) var magneticOffsetMicrotesla = Vector3.zero
    /// Seconds of magnetometer readings the offset was learned from.
    public private(set) var magneticOffsetSeconds = 0.0
    /// Monotonic time of the last course that corrected the heading, nanoseconds (Int64.min: never).
    public private(set) var lastUsedNanoseconds = Int64.min
    /// Courses used, ignored as reversing, and ignored as outliers.
    public private(set) var usedCount = 0, reversingCount = 0, rejectedCount = 0
    /// True when the last used course reset a heading that disagreed for `courseRecoverySeconds`.
    public private(set) var lastUseWasRecovery = false
    /// Seconds the course has disagreed with the heading under aiding conditions.
    public private(set) var disagreeingSeconds = 0.0
    /// Arrival time of the previous fix, nanoseconds.
    private var previousNanoseconds = Int64.min
    /// The heading of the last seconds (the course is compared with the heading of its moment).
    private var history = HeadingHistory()
    /// The innovation of the last used course, for the accuracy model (taken once).
    private var pendingInnovationDegrees: Double? = nil
    private var offsetCoefficient = LowPassCoefficient()

    /// How long after the last used course the aiding counts as active, nanoseconds.
    public static let holdNanoseconds: Int64 = 3_000_000_000
    /// Longest interval between two fixes, and longest fix age, nanoseconds.
    public static let maximumIntervalNanoseconds: Int64 = 2_500_000_000

    public init() {}

    /// True while a course corrected the heading within `holdNanoseconds`.
    @inline(__always)
    public func isAiding(atNanoseconds now: Int64, configuration c: AHRSConfiguration) -> Bool {
        lastUsedNanoseconds != Int64.min && now &- lastUsedNanoseconds <= CourseAiding.holdNanoseconds
            && c.courseAidingSpeedMetersPerSecond > 0
    }

    /// Records the filter's heading (degrees, computed only when an entry is due) at `now` for the
    /// fixes to come.
    @inline(__always)
    public mutating func record(headingDegrees: @autoclosure () -> Double, atNanoseconds now: Int64) {
        guard history.isDue(atNanoseconds: now) else { return }
        history.record(headingDegrees: headingDegrees(), atNanoseconds: now)
    }

    /// One fix's course (degrees from magnetic north) and speed (m/s), arriving at `now` but measured
    /// `ageNanoseconds` earlier, against the filter's heading now; returns course minus the heading of
    /// the fix's moment, degrees, when the course is to correct the heading (nil otherwise;
    /// `lastUseWasRecovery` says whether the heading should be reset to it).
    public mutating func observe(courseDegrees course: Double, speedMetersPerSecond speed: Double,
                                 headingDegrees heading: Double, timestampNanoseconds now: Int64,
                                 ageNanoseconds age: Int64, configuration c: AHRSConfiguration) -> Double? {
        let previous = previousNanoseconds
        previousNanoseconds = now
        guard c.courseAidingSpeedMetersPerSecond > 0, course.isFinite, speed.isFinite,
              speed >= c.courseAidingSpeedMetersPerSecond else {
            disagreeingSeconds = 0
            return nil
        }
        let interval = now &- previous
        guard previous != Int64.min, interval > 0, interval <= CourseAiding.maximumIntervalNanoseconds,
              age >= 0, age <= CourseAiding.maximumIntervalNanoseconds,
              let atFix = history.headingDegrees(atNanoseconds: now &- age),
              let before = history.headingDegrees(atNanoseconds: now &- age &- interval) else { return nil }
        // Low yaw rate over the interval before the fix and since: the course is the heading.
        let rate = c.courseAidingYawRateDegreesPerSecond * 1e-9
        guard abs(Angle.wrap180(atFix - before)) <= rate * Double(interval),
              abs(Angle.wrap180(heading - atFix)) <= rate * Double(max(age, 100_000_000)) else { return nil }
        let difference = Angle.wrap180(course - atFix)
        let gate = min(90, c.courseRejectionDegrees)
        if abs(difference) <= gate {
            disagreeingSeconds = 0
            return use(difference, recovery: false, now: now)
        }
        if abs(difference) >= 180 - gate {
            reversingCount &+= 1
            disagreeingSeconds = 0
            return nil
        }
        rejectedCount &+= 1
        disagreeingSeconds += Double(interval) * 1e-9
        guard disagreeingSeconds >= c.courseRecoverySeconds else { return nil }
        disagreeingSeconds = 0
        return use(difference, recovery: true, now: now)
    }

    private mutating func use(_ difference: Double, recovery: Bool, now: Int64) -> Double {
        usedCount &+= 1
        lastUsedNanoseconds = now
        lastUseWasRecovery = recovery
        pendingInnovationDegrees = difference
        return difference
    }

    /// Learns the magnetometer offset from one reading (`residual` = the reading minus the field the
    /// course-aided orientation expects, µT) over `dt` seconds; the running mean until one time
    /// constant has passed.
    @inline(__always)
    public mutating func learnMagneticOffset(residualMicrotesla residual: Vector3, dt: Double,
                                             configuration c: AHRSConfiguration) {
        let tau = c.magneticOffsetTimeConstantSeconds
        magneticOffsetSeconds += dt
        var k = offsetCoefficient.value(dt: dt, tau: tau)
        if magneticOffsetSeconds < tau { k = max(k, dt / magneticOffsetSeconds) }
        magneticOffsetMicrotesla += (residual - magneticOffsetMicrotesla) * k
    }

    /// The innovation of the last used course, once (nil afterwards).
    @inline(__always)
    public mutating func takeInnovationDegrees() -> Double? {
        defer { pendingInnovationDegrees = nil }
        return pendingInnovationDegrees
    }

    /// Forgets the fix history (a filter restart); keeps the learned offset.
    public mutating func restart() {
        previousNanoseconds = Int64.min
        history.reset()
        lastUsedNanoseconds = Int64.min
        disagreeingSeconds = 0
        pendingInnovationDegrees = nil
    }
}
