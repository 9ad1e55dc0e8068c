import IMU
import Heading

/// A magnetometer calibration run inside the device loop: started by a button (or the console), it
/// collects raw magnetometer samples in a `MagnetometerCalibrationRun` (storage allocated once, at
/// start-up), checks the coverage twice a second, and fits when enough directions are covered; it
/// gives up after the configured timeout saying how far it got.
public struct DeviceCalibration: Sendable {
    /// What a check found.
    public enum Outcome: Sendable, Equatable {
        /// Still collecting (or not running).
        case collecting
        /// Fitted: apply and save this calibration.
        case fitted(MagnetometerCalibration)
        /// The fit failed or the time ran out; the reason says how far it got.
        case failed(MagnetometerCalibrationError?, coverageFraction: Double)
    }

    /// Coverage at which the fit is tried (the heading module's "good calibration" level).
    public let goalCoverageFraction: Double
    /// True while collecting.
    public private(set) var isRunning = false
    /// When the run started and when it gives up, monotonic nanoseconds.
    public private(set) var startedAtNanoseconds: Int64 = 0
    public private(set) var deadlineNanoseconds: Int64 = 0
    /// Coverage at the last check, fraction.
    public private(set) var coverageFraction = 0.0
    private var run = MagnetometerCalibrationRun()
    private var nextCheckNanoseconds: Int64 = 0
    private static let checkIntervalNanoseconds: Int64 = 500_000_000

    public init(goalCoverageFraction: Double) {
        self.goalCoverageFraction = max(MagnetometerCalibrationRun.minimumCoverage, goalCoverageFraction)
    }

    /// Starts (or restarts) a run at `now` that gives up after `timeoutNanoseconds`.
    public mutating func start(nowNanoseconds now: Int64, timeoutNanoseconds: Int64) {
        run.reset()
        isRunning = true
        coverageFraction = 0
        startedAtNanoseconds = now
        deadlineNanoseconds = now + timeoutNanoseconds
        nextCheckNanoseconds = now + Self.checkIntervalNanoseconds
    }

    /// Stops without a result.
    public mutating func cancel() { isRunning = false }

    /// Samples collected so far.
    public var sampleCount: Int { run.count }

    /// `calibrate stop`: ends the run now and fits what was collected when it is enough (at least the
    /// minimum coverage and samples); otherwise fails saying how far it got.
    public mutating func finishNow(expectedFieldMicrotesla: Double?, gyroBias: Vector3?) -> Outcome {
        guard isRunning else { return .collecting }
        isRunning = false
        coverageFraction = run.coverageFraction
        do throws(MagnetometerCalibrationError) {
            return .fitted(try run.fit(expectedFieldMicrotesla: expectedFieldMicrotesla, gyroBiasRadiansPerSecond: gyroBias))
        } catch {
            return .failed(error, coverageFraction: coverageFraction)
        }
    }

    /// Offers a raw magnetometer sample (board frame, µT) at `now`; returns the outcome of a check when
    /// one was due.
    public mutating func add(_ raw: Vector3, nowNanoseconds now: Int64, expectedFieldMicrotesla: Double?,
                             gyroBias: Vector3?) -> Outcome {
        guard isRunning else { return .collecting }
        run.add(raw)
        guard now >= nextCheckNanoseconds else { return .collecting }
        nextCheckNanoseconds = now + Self.checkIntervalNanoseconds
        coverageFraction = run.coverageFraction
        if coverageFraction >= goalCoverageFraction && run.count >= MagnetometerCalibrationRun.minimumSamples {
            isRunning = false
            do throws(MagnetometerCalibrationError) {
                return .fitted(try run.fit(expectedFieldMicrotesla: expectedFieldMicrotesla, gyroBiasRadiansPerSecond: gyroBias))
            } catch {
                return .failed(error, coverageFraction: coverageFraction)
            }
        }
        if now >= deadlineNanoseconds {
            isRunning = false
            return .failed(nil, coverageFraction: coverageFraction)
        }
        return .collecting
    }
}
