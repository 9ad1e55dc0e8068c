import Controls
import Simulation

/// The world around the board as a loop component: nothing on real hardware; on `--board sim` the
/// simulated board (its receiver writing epochs into the GPS pty, the IMU chips' motion or recording,
/// the hand that presses buttons and turns the board for a calibration). The router services it like
/// any other part and routes to it what the real world would see (a calibration asks the person to
/// move the board, an IMU read samples the motion), so the loop has no simulation hooks. It has no
/// descriptor of its own (the simulated receiver writes into the GPS source's pty) and is serviced on
/// every wake-up; its deadline (the next epoch, PPS edge or button release) wakes the loop for it.
enum BoardTwin: LoopComponent {
    /// What the twin did in one wake-up that the real world would have woken the loop for: the
    /// router reads the GPS pty and the IMU's INT1 edge in this wake-up, as their readable descriptors
    /// would wake it at once. Everything else the twin does reaches the loop through the GPS pty, the
    /// I2C bus and the GPIO twin. Always empty on hardware.
    struct Events: OptionSet {
        let rawValue: UInt8
        /// The simulated receiver wrote bytes into the GPS pty (an epoch).
        static let gpsBytesWritten = Events(rawValue: 1 << 0)
        /// The twin raised the IMU's INT1 line (`[imu] interrupt_line`) at its FIFO watermark.
        static let imuLineRose = Events(rawValue: 1 << 1)
    }

    case hardware
    case simulated(SimulatedBoard)

    init(_ board: SimulatedBoard?) {
        self = board.map { .simulated($0) } ?? .hardware
    }

    /// The simulated board's next epoch, PPS edge or button release; nil on hardware.
    var deadlineNanoseconds: Int64? {
        guard case .simulated(let board) = self else { return nil }
        let next = board.deadlineNanoseconds
        return next == .max ? nil : next
    }

    /// The simulated board's deadlines that must be met on time (all but the PPS pulse's fall); nil on hardware.
    var promptDeadlineNanoseconds: Int64? {
        guard case .simulated(let board) = self else { return nil }
        let next = board.promptDeadlineNanoseconds
        return next == .max ? nil : next
    }

    /// When the simulated PPS pulse falls: a deadline that may be met late (its edge keeps its time); nil
    /// on hardware or with the pulse low.
    var lateDeadlineNanoseconds: Int64? {
        guard case .simulated(let board) = self else { return nil }
        let next = board.ppsFallNanoseconds
        return next == .max ? nil : next
    }

    /// Sends the simulated receiver's due epochs, releases held buttons, raises the IMU's INT1 line at
    /// its FIFO watermark; says which of the first and the last it did.
    func service(nowNanoseconds now: Int64, ready: PollReadiness) -> Events {
        guard case .simulated(let board) = self else { return [] }
        let bytesBefore = board.receiver.bytesSent
        var events: Events = board.service(nowNanoseconds: now) ? .imuLineRose : []
        if board.receiver.bytesSent != bytesBefore { events.insert(.gpsBytesWritten) }
        return events
    }

    /// The IMU was read at `now`: the simulated INT1 line falls when the FIFO dropped below its watermark.
    func imuWasRead(atNanoseconds now: Int64) {
        guard case .simulated(let board) = self else { return }
        board.imuWasRead(atNanoseconds: now)
    }

    /// The IMU is read at `now`: the simulated chips convert the motion (or present the recording) up to it.
    func imuWillBeRead(atNanoseconds now: Int64) {
        guard case .simulated(let board) = self else { return }
        board.prepareIMU(nowNanoseconds: now)
    }

    /// What a calibration asks of the person holding the board.
    enum CalibrationMove {
        /// Turn it through all orientations (magnetometer) for up to the duration.
        case tumble
        /// Keep it still (gyroscope) for the duration.
        case holdStill
    }

    /// A calibration started at `now`: the simulated hand moves (or holds) the board. Returns the note the
    /// log line ends with on the simulated board ("the simulated board does so by itself"), nil on hardware.
    func calibrationStarted(_ move: CalibrationMove, nowNanoseconds now: Int64, durationNanoseconds: Int64) -> StaticString? {
        guard case .simulated(let board) = self else { return nil }
        switch move {
        case .tumble:
            board.startCalibrationMotion(nowNanoseconds: now, durationNanoseconds: durationNanoseconds)
            return board.movesForCalibration ? " (the simulated board does so by itself)"
                                              : " (the simulated IMU replays its recording and does not move for it)"
        case .holdStill:
            board.motion.startStill(atNanoseconds: now, durationNanoseconds: durationNanoseconds)
            return board.movesForCalibration ? " (the simulated board holds still by itself)"
                                              : " (the simulated IMU replays its recording and does not hold still for it)"
        }
    }

    /// The console's `press`: the simulated hand presses a button; the reason it cannot, or nil.
    func press(_ button: ButtonID, long: Bool, longPressNanoseconds: Int64, nowNanoseconds now: Int64) -> StaticString? {
        guard case .simulated(let board) = self else {
            return "only the simulated board (--board sim) has buttons the console can press; press the real button"
        }
        if long && longPressNanoseconds == 0 { return "long presses are off ([gpio] long_press_ms = 0)" }
        if !board.press(button, long: long, longPressNanoseconds: longPressNanoseconds, nowNanoseconds: now) {
            return button == .secondary ? "no second button configured ([gpio] button2), or it is still held"
                : "no button configured ([gpio] button), or it is still held"
        }
        return nil
    }

    /// The `gpio` source row's state when a chip is open.
    var gpioState: StaticString {
        if case .simulated = self { return "simulated" }
        return "open"
    }

    /// The start-up report's lines of the twin: the replayed log (before the GPS line).
    func receiverReportLine(loops: Bool) -> String? {
        guard case .simulated(let board) = self else { return nil }
        let s = board.receiver.schedule
        var text = "gps: simulated receiver on " + board.receiver.slavePath + ", replaying " + board.logDescription
            + ": \(s.epochs.count) epochs at recorded pace, " + Device.seconds(s.lapNanoseconds) + " s a lap"
        if s.compressedGapCount > 0 {
            let pauses = Double(s.removedNanoseconds) / 1e9 + Double(s.compressedGapCount) * Double(s.maximumGapNanoseconds) / 1e9
            text += "; \(s.compressedGapCount) pause(s) of the recording (" + Device.decimal(pauses, 1)
                + " s) compressed to " + Device.seconds(s.maximumGapNanoseconds) + " s each"
        }
        return text + (loops ? "; looping" : "; once")
    }

    /// The report's line on what moves the simulated IMU (after the IMU line).
    var imuReportLine: String? {
        guard case .simulated(let board) = self else { return nil }
        if let recording = board.imuRecording {
            return "imu: the simulated chips replay the recorded IMU " + recording.summary
                + "; sample by sample at recorded pace from start-up, quantised by the chips; "
                + (recording.loop ? "looping" : "once (no new data after its end)")
        }
        let m = board.motion
        return "imu: simulated motion from the replayed fixes: heading follows the course, level board, "
            + "WMM2025 field at " + Device.decimal(m.fieldLatitudeDegrees, 4) + " " + Device.decimal(m.fieldLongitudeDegrees, 4)
            + " (" + Device.decimal(m.fieldEastNorthUpMicrotesla.length, 1) + " µT, declination "
            + Device.decimal(m.declinationDegrees, 2) + "°), a little noise"
    }

    /// The last log line on the simulated board: the level of each LED line at exit (nil on hardware).
    func exitLine(leds: [(String, Int)]) -> String? {
        guard case .simulated(let board) = self else { return nil }
        var text = "sim: LED lines at exit:"
        for (name, offset) in leds {
            text += " " + name + " " + String(offset) + (board.gpio.isPhysicallyHigh(UInt32(offset)) ? " high" : " low")
        }
        return text
    }
}
