import SystemCalls
import CBundledData
import Configuration
import Controls
import Hardware
import Heading

/// The simulated board `puckd run --board sim` runs on: a GPS receiver replaying a log over a pty
/// (`SimulatedReceiver`), the register-level IMU twin (`SimulatedIMU`) moved by `SimulatedMotion` or,
/// with `[sim] imu_log`, replaying a recorded IMU (`SimulatedIMURecording`), and the GPIO twin
/// (`SimulatedGPIO`) with the board profile's lines, whose button a console command presses. The device loop calls `service` each wake-up and `prepareIMU` before reading the IMU.
public final class SimulatedBoard {
    /// What the log is, for the start-up report ("the bundled drive (…)" or the file's path).
    public let logDescription: String
    public let receiver: SimulatedReceiver
    public let motion: SimulatedMotion
    /// The IMU twin (nil when `[sim] imu = none`).
    public let imu: SimulatedIMU?
    /// The recorded IMU the twin replays (`[sim] imu_log`); nil: the twin follows `motion`.
    public let imuRecording: SimulatedIMURecording?
    public let gpio: SimulatedGPIO
    /// The receiver's PPS output on the GPIO twin (`[pps] line`; nil without one or with `[pps] device`).
    public private(set) var pps: SimulatedPPS?
    /// Button line offsets (primary, secondary; -1 = none).
    private var buttonOffsets: InlineArray<2, Int>
    private var releaseAt: InlineArray<2, Int64> = .init(repeating: .max)
    /// The GPIO twin's line wired to the IMU twin's INT1 (`[imu] interrupt_line`), nil without one.
    public let imuInterruptOffset: UInt32?
    /// The level the twin drives on that line (INT1: high while the FIFO holds its watermark).
    public private(set) var imuInterruptHigh = false
    /// Presses made through `press`.
    public private(set) var pressCount = 0

    /// How long the simulated hand holds a short and a long press, nanoseconds.
    public static let shortPressNanoseconds: Int64 = 150_000_000
    public static let longPressExtraNanoseconds: Int64 = 300_000_000

    /// Largest NMEA log the simulated receiver replays, bytes (it is held in memory).
    static let maximumLogBytes = 256 << 20

    /// Builds the board from the `[sim]` and `[gpio]` settings, starting the replay at `startNanoseconds`.
    public init(configuration: PuckdConfiguration, startNanoseconds: Int64) throws(SimulatedBoardError) {
        let settings = configuration.sim
        let maximumGap = Int64(settings.maximumGapSeconds * 1e9)
        let log: UnsafeRawBufferPointer
        let owned: Bool
        if settings.gpsLog.isEmpty {
            log = UnsafeRawBufferPointer(start: bundled_drive_bytes(), count: bundled_drive_count())
            owned = false
            logDescription = "the bundled drive (gpsd's nmea-rtk log: 10 Hz, course turning through the whole circle)"
        } else {
            // The log's bytes as they are (garbage and non-UTF-8 bytes included: the framer must see them).
            let bytes: [UInt8]
            do throws(WholeFile.Failure) {
                bytes = try WholeFile.read(settings.gpsLog, limitBytes: Self.maximumLogBytes)
            } catch {
                let reason = switch error {
                case .cannotOpen(let code): "cannot open it (" + code.message + "): check [sim] gps_log or --gps"
                case .notRegular: "not a regular file (a device, directory or pipe); give the path of an NMEA log file"
                case .cannotRead(let code): "cannot read it (" + code.message + ")"
                case .tooLarge: "larger than 256 MiB: give a shorter log"
                case .untrusted(let why): why
                }
                throw SimulatedBoardError(message: "cannot replay " + settings.gpsLog + ": " + reason)
            }
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
            copy.copyBytes(from: bytes)
            log = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[0..<bytes.count])
            owned = true
            logDescription = settings.gpsLog
        }
        let schedule = SimulatedReplaySchedule(log: log, maximumGapNanoseconds: maximumGap)
        if schedule.epochs.isEmpty {
            if owned { log.deallocate() }
            throw SimulatedBoardError(message: logDescription + " holds no NMEA epochs (no GGA, RMC, GLL, GNS or ZDA "
                + "sentence with a time): give an NMEA 0183 log")
        }
        do throws(SimulatedReceiverError) {
            receiver = try SimulatedReceiver.open(log: log, takesOwnership: owned, schedule: schedule, loop: settings.loop,
                                                  startNanoseconds: startNanoseconds)
        } catch {
            throw SimulatedBoardError(message: error.message)
        }
        motion = SimulatedMotion(schedule: schedule, startNanoseconds: startNanoseconds, loop: settings.loop)
        if let board = settings.imu.board {
            let twin = SimulatedIMU(board: board)
            twin.bus.logsWrites = false
            imu = twin
        } else {
            imu = nil
        }
        if settings.imuLog.isEmpty {
            imuRecording = nil
        } else if imu == nil {
            throw SimulatedBoardError(message: "[sim] imu_log = " + settings.imuLog + " needs a simulated IMU to play it, "
                + "but [sim] imu = none: choose a board (e.g. sim.imu=berryimu-v3) or clear imu_log")
        } else {
            do throws(SimulatedIMURecordingError) {
                imuRecording = try SimulatedIMURecording.load(path: settings.imuLog, startNanoseconds: startNanoseconds,
                                                              loop: settings.loop)
            } catch {
                throw SimulatedBoardError(message: error.message)
            }
        }
        gpio = SimulatedGPIO(label: "puckd-sim", lineCount: 54, historyCapacity: 512)
        buttonOffsets = [configuration.gpio.button ?? -1, configuration.gpio.button2 ?? -1]
        if let line = configuration.imu.interruptLine, line >= 0, line < gpio.lineCount, imu != nil {
            imuInterruptOffset = UInt32(line)
            gpio.drive(UInt32(line), high: false, atNanoseconds: startNanoseconds)   // INT1 idles low
        } else {
            imuInterruptOffset = nil
        }
        let ppsDevice = configuration.pps.device
        if let line = configuration.pps.line, line >= 0, line < gpio.lineCount, ppsDevice.isEmpty || ppsDevice == "none" {
            pps = SimulatedPPS(offset: UInt32(line))
            pps?.plan(after: receiver)
        }
    }

    /// The earliest time the board needs a wake-up for (next epoch, a button release, the IMU's
    /// FIFO reaching its watermark with INT1 wired), monotonic ns.
    /// Read on every wake-up: two-argument `min`s (the variadic one allocates its array).
    public var deadlineNanoseconds: Int64 {
        min(min(min(receiver.deadlineNanoseconds, pps?.deadlineNanoseconds ?? .max), min(releaseAt[0], releaseAt[1])),
            imuInterruptDeadlineNanoseconds)
    }

    /// The board's deadlines that must be met on time (all of `deadlineNanoseconds` but the PPS
    /// pulse's fall): the next epoch, the pulse's rise (read before the epoch's sentences, which pair
    /// with it), a button release, INT1 at the watermark, monotonic ns.
    public var promptDeadlineNanoseconds: Int64 {
        min(min(min(receiver.deadlineNanoseconds, pps?.riseNanoseconds ?? .max), min(releaseAt[0], releaseAt[1])),
            imuInterruptDeadlineNanoseconds)
    }

    /// When the PPS pulse falls (.max: no pulse high). The edge is stamped with this time whenever the
    /// board is serviced after it, and the pairing reads rising edges only, so it may come late.
    public var ppsFallNanoseconds: Int64 { pps?.fallNanoseconds ?? .max }

    /// When the IMU twin's FIFO reaches its watermark, so INT1 rises (its conversion's time): .max
    /// without a wired INT1, while the line is already high, or before the program routed INT1_FTH.
    public var imuInterruptDeadlineNanoseconds: Int64 {
        guard imuInterruptOffset != nil, !imuInterruptHigh, let imu, imu.primary.fifoInterruptEnabled,
              let conversions = imu.primary.conversionsToWatermark else { return .max }
        if conversions == 0 { return 0 }
        if let imuRecording { return imuRecording.dueNanoseconds(ofRowAhead: conversions) ?? .max }
        return imu.primaryConversionNanoseconds(ahead: conversions) ?? .max
    }

    /// Sends due epochs (each whole second's PPS pulse before it), releases held buttons and, when the
    /// IMU's FIFO reached its watermark, raises its INT1 line. Returns true when it raised that line
    /// (the line's event is queued: the loop can read the burst in this wake-up).
    @discardableResult
    public func service(nowNanoseconds now: Int64) -> Bool {
        serviceReceiverAndButtons(nowNanoseconds: now)
        guard imuInterruptOffset != nil, !imuInterruptHigh, imuInterruptDeadlineNanoseconds <= now else { return false }
        prepareIMU(nowNanoseconds: now)
        return imuInterruptHigh
    }

    private func serviceReceiverAndButtons(nowNanoseconds now: Int64) {
        if pps != nil && now - receiver.deadlineNanoseconds <= 1_000_000_000 {
            // One epoch at a time, so that each whole second's pulse rises before its sentences.
            var sent = 0
            while sent < 32 {
                pps!.service(gpio, nowNanoseconds: now)
                guard receiver.deadlineNanoseconds <= now else { break }
                receiver.service(nowNanoseconds: receiver.deadlineNanoseconds)
                pps!.plan(after: receiver)
                sent += 1
            }
            pps!.service(gpio, nowNanoseconds: now)
        } else {
            receiver.service(nowNanoseconds: now)
            pps?.plan(after: receiver)
        }
        var i = 0
        while i < 2 {
            if releaseAt[i] <= now {
                gpio.release(UInt32(buttonOffsets[i]), atNanoseconds: releaseAt[i])
                releaseAt[i] = .max
            }
            i += 1
        }
    }

    /// Lets the IMU chips convert the true motion up to `now` (at their own data rates), or present
    /// the recorded samples due by `now` (sample by sample, at the recording's pace).
    /// With INT1 wired, its line then follows the FIFO (raised stamped at the watermark's conversion).
    public func prepareIMU(nowNanoseconds now: Int64) {
        guard let imu else { return }
        let crossing = imuInterruptDeadlineNanoseconds
        if let imuRecording {
            imuRecording.present(upToNanoseconds: now, to: imu)
        } else {
            let motion = self.motion
            imu.advance(toNanoseconds: now) { motion.sample(atNanoseconds: $0) }
        }
        updateIMUInterrupt(risenAtNanoseconds: crossing, nowNanoseconds: now)
    }

    /// The loop has read the IMU at `now`: INT1 falls when the read took the FIFO below its watermark.
    public func imuWasRead(atNanoseconds now: Int64) {
        updateIMUInterrupt(risenAtNanoseconds: now, nowNanoseconds: now)
    }

    private func updateIMUInterrupt(risenAtNanoseconds crossing: Int64, nowNanoseconds now: Int64) {
        guard let offset = imuInterruptOffset, let imu else { return }
        let high = imu.primary.interrupt1High
        if high == imuInterruptHigh { return }
        imuInterruptHigh = high
        gpio.drive(offset, high: high, atNanoseconds: high && crossing > 0 ? min(crossing, now) : now)
    }

    /// Presses `button` now, as a hand would: held for a short press, or `longPressNanoseconds` plus a
    /// margin for a long one. Returns false when that button is not configured or still held.
    public func press(_ button: ButtonID, long: Bool, longPressNanoseconds: Int64, nowNanoseconds now: Int64) -> Bool {
        let i = button == .primary ? 0 : 1
        guard buttonOffsets[i] >= 0, releaseAt[i] == .max else { return false }
        gpio.press(UInt32(buttonOffsets[i]), atNanoseconds: now)
        releaseAt[i] = now + (long ? longPressNanoseconds + Self.longPressExtraNanoseconds : Self.shortPressNanoseconds)
        pressCount += 1
        return true
    }

    /// True when the IMU moves by itself for a calibration (the generated motion; a recording plays on).
    public var movesForCalibration: Bool { imuRecording == nil }

    /// Starts the calibration motion (the simulated person turns the board through all orientations).
    public func startCalibrationMotion(nowNanoseconds now: Int64, durationNanoseconds: Int64) {
        motion.startTumble(atNanoseconds: now, durationNanoseconds: durationNanoseconds)
    }
}

/// The simulated board could not be built.
public struct SimulatedBoardError: Error, Sendable, Equatable {
    public var message: String
}
