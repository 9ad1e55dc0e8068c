#if canImport(Glibc)
import Glibc
#endif

/// GNSS course over ground as a heading measurement for a vehicle: while it drives at least
/// `courseAidingSpeedMetersPerSecond` with a yaw rate (gyro heading change between two fixes) of at
/// most `courseAidingYawRateDegreesPerSecond`, its course is where its forward axis points — a
/// measurement no magnet, steel body or wiring disturbs. Each such fix corrects the heading with the
/// Kalman gain of its variance `courseNoiseDegrees`² (`HeadingVariance`); meanwhile the magnetometer does not correct the
/// heading but its offset against the course is learned (`magneticOffsetRadians`, time constant
/// `magneticOffsetTimeConstantSeconds`) and applied once the aiding stops.
///
/// Standstill, slow driving and turns keep today's rules (magnetometer and gyro). A course that
/// differs from the heading by nearly 180° is a reversing vehicle and is ignored; any other difference
/// beyond `courseRejectionDegrees` is ignored too (a skid, a multipath course), unless it persists for
/// `courseRecoverySeconds` of aiding conditions — then the heading is what is wrong and the course
/// resets it. Assumes the board's x axis points forward along the vehicle (the mounting orientation).
public struct CourseAiding: Sendable, Equatable {
    /// The magnetometer's heading offset learned against the course, radians: the bearing of the
    /// measured field minus magnetic north (subtracted from every magnetometer innovation).
    public private(set) var magneticOffsetRadians = 0.0
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
    /// The previous fix's heading and time (the yaw rate between fixes).
    private var previousHeadingDegrees = 0.0, previousNanoseconds = Int64.min
    /// The innovation of the last used course, for the accuracy model (taken once).
    private var pendingInnovationDegrees: Double? = nil
    private var offsetCoefficient = LowPassCoefficient()

    /// How long after the last used course the aiding counts as active, nanoseconds.
    public static let holdNanoseconds: Int64 = 3_000_000_000
    /// Longest interval between two fixes over which the yaw rate is measured, nanoseconds.
    public static let maximumIntervalNanoseconds: Int64 = 2_500_000_000

    public init() {}

    /// The magnetometer offset, degrees.
    public var magneticOffsetDegrees: Double { magneticOffsetRadians * Angle.degreesPerRadian }

    /// True while a course corrected the heading within `holdNanoseconds`.
    @inline(__always)
    public func isAiding(atNanoseconds now: Int64, configuration c: AHRSConfiguration) -> Bool {
        lastUsedNanoseconds != Int64.min && now &- lastUsedNanoseconds <= CourseAiding.holdNanoseconds
            && c.courseAidingSpeedMetersPerSecond > 0
    }

    /// One fix's course (degrees from magnetic north) and speed (m/s) against the filter's heading at
    /// `now`; returns course minus heading, degrees, when the course is to correct the heading (nil
    /// otherwise; `lastUseWasRecovery` says whether the heading should be reset to it).
    public mutating func observe(courseDegrees course: Double, speedMetersPerSecond speed: Double,
                                 headingDegrees heading: Double, timestampNanoseconds now: Int64,
                                 configuration c: AHRSConfiguration) -> Double? {
        let previous = previousNanoseconds, previousHeading = previousHeadingDegrees
        previousNanoseconds = now
        previousHeadingDegrees = heading
        guard c.courseAidingSpeedMetersPerSecond > 0, course.isFinite, speed.isFinite,
              speed >= c.courseAidingSpeedMetersPerSecond else {
            disagreeingSeconds = 0
            return nil
        }
        let interval = now &- previous
        guard previous != Int64.min, interval > 0, interval <= CourseAiding.maximumIntervalNanoseconds else { return nil }
        let seconds = Double(interval) * 1e-9
        guard abs(Angle.wrap180(heading - previousHeading)) <= c.courseAidingYawRateDegreesPerSecond * seconds else {
            return nil
        }
        let difference = Angle.wrap180(course - heading)
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
        disagreeingSeconds += seconds
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

    /// Learns the magnetometer offset from one accepted reading's innovation (field bearing minus the
    /// course-aided heading, radians) over `dt` seconds; the running mean until one time constant
    /// has passed.
    @inline(__always)
    public mutating func learnMagneticOffset(innovationRadians: Double, dt: Double, configuration c: AHRSConfiguration) {
        let tau = c.magneticOffsetTimeConstantSeconds
        magneticOffsetSeconds += dt
        var k = offsetCoefficient.value(dt: dt, tau: tau)
        if magneticOffsetSeconds < tau { k = max(k, dt / magneticOffsetSeconds) }
        magneticOffsetRadians += remainder(innovationRadians - magneticOffsetRadians, 2 * Double.pi) * k
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
        lastUsedNanoseconds = Int64.min
        disagreeingSeconds = 0
        pendingInnovationDegrees = nil
    }
}
