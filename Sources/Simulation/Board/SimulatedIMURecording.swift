import SystemCalls
import Configuration
import Console
import Glibc
import Hardware
import Heading
import IMU

/// A recorded IMU stream (`[sim] imu_log`: a BROAD or x-io Fusion CSV file) that the simulated board's
/// chips replay instead of the motion generated from the drive.
///
/// The whole file is read and parsed at start-up (`load`) by the same `IMUCSVParser` that
/// `puckd heading replay` uses, so the units are converted the same way: Fusion's deg/s and g become
/// rad/s and m/s² (g = 9.80665 m/s²), µT stay µT; BROAD is already SI. Each row is presented, at its
/// recorded time after `startNanoseconds` (the board's start), to every chip of the `SimulatedIMU` as
/// the host-frame truth: the chips quantise it to their configured scales and raise data-ready, the
/// driver reads it back through the registers. A row without a magnetometer value (NaN) leaves the
/// magnetometer without new data. With `loop`, the recording starts again one mean sample period
/// after its last row; without, the chips get no new data after the end (the device then reports the
/// IMU's data timeout, as with an IMU that stops converting). `present` allocates nothing.
public final class SimulatedIMURecording {
    /// The file, as configured.
    public let path: String
    /// The detected format.
    public let format: IMUCSVFormat
    /// Number of rows (samples).
    public var sampleCount: Int { samples.count }
    /// Time of the last row after the first, nanoseconds.
    public let durationNanoseconds: Int64
    /// One lap when looping: the duration plus one mean sample period, nanoseconds.
    public let lapNanoseconds: Int64
    /// Start again at the end.
    public let loop: Bool
    /// When the first row is presented (the board's start), monotonic nanoseconds.
    public let startNanoseconds: Int64
    /// Samples presented so far (every lap counted).
    public private(set) var presentedCount = 0
    /// Times the recording started again from its first row.
    public private(set) var lapCount = 0

    /// The rows in SI units, timestamps relative to the first row, nanoseconds.
    private let samples: [IMUSample]
    private var nextIndex = 0
    /// Monotonic time of the current lap's first row, nanoseconds.
    private var lapStartNanoseconds: Int64

    public init(path: String, format: IMUCSVFormat, samples: [IMUSample], startNanoseconds: Int64, loop: Bool) {
        self.path = path
        self.format = format
        self.samples = samples
        self.startNanoseconds = startNanoseconds
        self.loop = loop
        let duration = samples[samples.count - 1].timestampNanoseconds
        durationNanoseconds = duration
        lapNanoseconds = duration + (samples.count > 1 ? max(1, duration / Int64(samples.count - 1)) : 10_000_000)
        lapStartNanoseconds = startNanoseconds
    }

    /// Mean sample rate of the recording, hertz (0 for a single row).
    public var meanRateHertz: Double {
        durationNanoseconds > 0 ? Double(samples.count - 1) / (Double(durationNanoseconds) / 1e9) : 0
    }

    /// The recorded sample `index` (SI units, timestamp relative to the first row).
    public func sample(_ index: Int) -> IMUSample { samples[index] }

    /// Presents to `imu`, in order, every row whose recorded time has come by `now` (monotonic ns).
    /// After a stall longer than a lap, whole laps are skipped rather than presented.
    public func present(upToNanoseconds now: Int64, to imu: SimulatedIMU) {
        let count = samples.count
        // now is the monotonic clock and a lap at most a year (load): these sums cannot overflow.
        if loop && now - lapStartNanoseconds > 2 * lapNanoseconds {
            let laps = (now - lapStartNanoseconds) / lapNanoseconds - 1
            lapStartNanoseconds += laps * lapNanoseconds
            lapCount += Int(laps)
            nextIndex = 0
        }
        while true {
            if nextIndex == count {
                guard loop, lapStartNanoseconds + lapNanoseconds <= now else { return }
                nextIndex = 0
                lapStartNanoseconds += lapNanoseconds
                lapCount += 1
            }
            let due = lapStartNanoseconds + samples[nextIndex].timestampNanoseconds
            if due > now { return }
            var truth = samples[nextIndex]
            truth.timestampNanoseconds = due
            imu.present(truth)
            presentedCount += 1
            nextIndex += 1
        }
    }

    /// When the `rows`-th row still to present (1: the next) is due, monotonic ns; nil past the end of
    /// a recording that does not loop.
    public func dueNanoseconds(ofRowAhead rows: Int) -> Int64? {
        guard rows > 0 else { return nil }
        var index = nextIndex + rows - 1, lapStart = lapStartNanoseconds
        if index >= samples.count {
            guard loop else { return nil }
            lapStart += Int64(index / samples.count) * lapNanoseconds
            index %= samples.count
        }
        return lapStart + samples[index].timestampNanoseconds
    }

    /// The recording time (seconds after the first row) that plays at `time` (monotonic ns), or nil
    /// after the end of a recording that does not loop.
    public func recordingSeconds(atNanoseconds time: Int64) -> Double? {
        var t = time - startNanoseconds
        if t < 0 { t = 0 }
        if loop { t %= lapNanoseconds } else if t > durationNanoseconds { return nil }
        return Double(t) / 1e9
    }

    /// "PATH: 13514 samples over 135.3 s (100.0 Hz mean), x-io Fusion CSV (deg/s, g, µT)", for the start-up report.
    public var summary: String {
        path + ": " + String(samples.count) + " samples over " + DecimalText.string(Double(durationNanoseconds) / 1e9, digits: 1)
            + " s (" + DecimalText.string(meanRateHertz, digits: 1) + " Hz mean), "
            + (format == .fusion ? "x-io Fusion CSV (deg/s, g, µT converted to SI)" : "BROAD CSV (rad/s, m/s², µT)")
    }
}

/// Reading an IMU log failed: `message` names the file (and line) and says what to do.
public struct SimulatedIMURecordingError: Error, Sendable, Equatable {
    public var message: String
}

extension SimulatedIMURecording {
    /// Largest IMU log accepted, bytes (a BROAD trial is ≈ 9 MB).
    public static let maximumFileBytes = 256 << 20
    /// Longest time a recording may span, seconds (a year): laps and their sums stay far inside Int64.
    public static let maximumSpanSeconds = 31_536_000.0

    /// Reads and parses `path` (start-up only: allocates). Throws with the file and line on a bad row,
    /// a header of neither format, rows out of time order, or a file without rows.
    public static func load(path: String, startNanoseconds: Int64, loop: Bool) throws(SimulatedIMURecordingError)
        -> SimulatedIMURecording {
        let bytes = try readAll(path)
        var parser: IMUCSVParser? = nil
        var samples: [IMUSample] = []
        samples.reserveCapacity(bytes.count / 64)
        var firstTime = 0.0, previousTime = -Double.infinity
        var lineStart = 0, lineNumber = 0
        var i = 0
        while i <= bytes.count {
            guard i == bytes.count || bytes[i] == UInt8(ascii: "\n") else { i += 1; continue }
            lineNumber += 1
            let end = i
            let start = lineStart
            lineStart = i + 1
            i += 1
            if end == start && end == bytes.count { break }
            let result: Result<IMUCSVRecord?, IMUCSVError> = bytes.withUnsafeBytes { all in
                let line = UnsafeRawBufferPointer(rebasing: all[start..<end])
                do throws(IMUCSVError) {
                    if parser == nil {
                        parser = try IMUCSVParser(header: line)
                        return .success(nil)
                    }
                    return .success(try parser!.parse(line: line))
                } catch {
                    return .failure(error)
                }
            }
            let record: IMUCSVRecord?
            switch result {
            case .success(let r): record = r
            case .failure(let error):
                if case .unrecognizedHeader = error {
                    throw SimulatedIMURecordingError(message: path + ":1: " + error.message)
                }
                throw SimulatedIMURecordingError(message: path + ":" + String(lineNumber) + ": " + error.message)
            }
            guard let record else { continue }
            if samples.isEmpty { firstTime = record.timeSeconds }
            guard record.timeSeconds > previousTime else {
                throw SimulatedIMURecordingError(message: path + ":" + String(lineNumber) + ": the time "
                    + String(record.timeSeconds) + " s is not after the previous row's " + String(previousTime)
                    + " s: sort the rows by time and remove repeated rows")
            }
            previousTime = record.timeSeconds
            // Both times are within ±4e9 s (IMUCSVParser), so the span fits Int64 nanoseconds; spans
            // longer than a year are refused, which keeps every lap sum below 2^62 ns.
            let span = record.timeSeconds - firstTime
            guard span <= maximumSpanSeconds else {
                throw SimulatedIMURecordingError(message: path + ":" + String(lineNumber) + ": the time "
                    + String(record.timeSeconds) + " s is " + String(span) + " s after the first row's "
                    + String(firstTime) + " s: a recording may span at most a year (31 536 000 s); fix the time "
                    + "column (seconds) or split the file")
            }
            var sample = record.sample
            sample.timestampNanoseconds = Int64((span * 1e9).rounded())
            samples.append(sample)
        }
        guard parser != nil else {
            throw SimulatedIMURecordingError(message: path + " is empty: give a BROAD or x-io Fusion IMU CSV file")
        }
        guard !samples.isEmpty else {
            throw SimulatedIMURecordingError(message: path + " has a header but no sample rows: give a recording "
                + "with at least one row")
        }
        return SimulatedIMURecording(path: path, format: parser!.format, samples: samples,
                                     startNanoseconds: startNanoseconds, loop: loop)
    }

    private static func readAll(_ path: String) throws(SimulatedIMURecordingError) -> [UInt8] {
        let bytes: [UInt8]
        do throws(WholeFile.Failure) {
            bytes = try WholeFile.read(path, limitBytes: maximumFileBytes)
        } catch {
            let message = switch error {
            case .cannotOpen(let code):
                "cannot open the IMU log " + path + " (" + code.message
                    + "): check [sim] imu_log; it takes a BROAD or x-io Fusion CSV file (decompress .xz files first)"
            case .notRegular: "the IMU log " + path + " is not a regular file: give the path of a CSV file"
            case .cannotRead(let code): "cannot read the IMU log " + path + " (" + code.message + ")"
            case .tooLarge: "the IMU log " + path + " is larger than 256 MiB: give a shorter recording"
            case .untrusted(let why): "the IMU log " + path + " is " + why
            }
            throw SimulatedIMURecordingError(message: message)
        }
        if bytes.count >= 6 && bytes[0] == 0xFD && bytes[1] == 0x37 && bytes[2] == 0x7A {
            throw SimulatedIMURecordingError(message: "the IMU log " + path + " is xz-compressed: decompress it "
                + "first (xz -dk " + path + ") and give the .csv file")
        }
        return bytes
    }
}
