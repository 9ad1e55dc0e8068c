import CLinux
import Glibc

/// A simulated GPS receiver on a pseudo-terminal: it writes a log's epochs into the pty master at the
/// times of a `SimulatedReplaySchedule`, and puckd reads the slave side with its real serial source
/// (`SerialSource`, POSIX termios), exactly as it reads a UART. Like a real receiver it does not queue
/// for a reader that is not there: what the pty cannot take is dropped and counted.
///
/// Driven by the loop's monotonic time (`service`, `deadlineNanoseconds`); never blocks, allocates
/// nothing after `open`.
public final class SimulatedReceiver {
    /// The slave device puckd opens, e.g. "/dev/pts/3".
    public let slavePath: String
    /// The schedule of epochs.
    public let schedule: SimulatedReplaySchedule
    /// Start again after the last epoch.
    public let loop: Bool
    /// Replay start, monotonic nanoseconds.
    public private(set) var startNanoseconds: Int64
    /// When the next epoch is due (Int64.max when finished).
    public private(set) var deadlineNanoseconds: Int64
    /// Epochs and bytes written, and bytes the pty could not take.
    public private(set) var epochsSent = 0
    public private(set) var bytesSent = 0
    public private(set) var bytesDropped = 0
    /// Laps started again (looping) and times the replay fell behind by over a second and resynchronised.
    public private(set) var laps = 0
    public private(set) var resynchronisations = 0

    private let masterFD: Int32
    private let slaveHoldFD: Int32
    private let log: UnsafeRawBufferPointer
    private let ownsLog: Bool
    private var next = 0

    private init(masterFD: Int32, slaveHoldFD: Int32, slavePath: String, log: UnsafeRawBufferPointer, ownsLog: Bool,
                 schedule: SimulatedReplaySchedule, loop: Bool, startNanoseconds: Int64) {
        self.masterFD = masterFD
        self.slaveHoldFD = slaveHoldFD
        self.slavePath = slavePath
        self.log = log
        self.ownsLog = ownsLog
        self.schedule = schedule
        self.loop = loop
        self.startNanoseconds = startNanoseconds
        deadlineNanoseconds = schedule.epochs.isEmpty ? .max : startNanoseconds + schedule.epochs[0].offsetNanoseconds
    }

    deinit {
        Glibc.close(masterFD)
        Glibc.close(slaveHoldFD)
        if ownsLog { log.deallocate() }
    }

    /// Opens a pty pair and prepares the replay of `log` from `startNanoseconds`. With `takesOwnership` the
    /// receiver deallocates `log` (allocated with `UnsafeMutableRawBufferPointer.allocate`); otherwise
    /// `log` must outlive the receiver (the bundled drive).
    public static func open(log: UnsafeRawBufferPointer, takesOwnership: Bool, schedule: SimulatedReplaySchedule,
                            loop: Bool, startNanoseconds: Int64) throws(SimulatedReceiverError) -> SimulatedReceiver {
        var name = [CChar](repeating: 0, count: 128)
        let master = name.withUnsafeMutableBufferPointer { clinux_pty_open($0.baseAddress!, $0.count) }
        if master < 0 {
            if takesOwnership { log.deallocate() }
            throw SimulatedReceiverError(operation: "opening a pseudo-terminal", errno: -master)
        }
        let path = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Keep the slave open ourselves (so the pty never hangs up while puckd reopens it) and raw (no echo).
        let hold = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        if hold < 0 {
            let code = errno
            Glibc.close(master)
            if takesOwnership { log.deallocate() }
            throw SimulatedReceiverError(operation: "opening " + path, errno: code)
        }
        var settings = termios()
        if tcgetattr(hold, &settings) == 0 {
            cfmakeraw(&settings)
            _ = tcsetattr(hold, TCSANOW, &settings)
        }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        return SimulatedReceiver(masterFD: master, slaveHoldFD: hold, slavePath: path, log: log, ownsLog: takesOwnership,
                                 schedule: schedule, loop: loop, startNanoseconds: startNanoseconds)
    }

    /// The schedule's index of the epoch sent next (at `deadlineNanoseconds`).
    public var nextEpochIndex: Int { next }

    /// True when a non-looping replay has sent its last epoch.
    public var finished: Bool { deadlineNanoseconds == .max }

    /// Sends every epoch due by `now`.
    public func service(nowNanoseconds now: Int64) {
        var sent = 0
        while deadlineNanoseconds <= now && sent < 32 {
            let epoch = schedule.epochs[next]
            let length = epoch.end - epoch.start
            let n = Glibc.write(masterFD, log.baseAddress! + epoch.start, length)
            let written = max(0, n)
            bytesSent += written
            bytesDropped += length - written
            epochsSent += 1
            sent += 1
            advance()
        }
        if deadlineNanoseconds != .max && now - deadlineNanoseconds > 1_000_000_000 {
            // Far behind (the process was stopped): continue from now instead of bursting.
            startNanoseconds += now - deadlineNanoseconds
            deadlineNanoseconds = now
            resynchronisations += 1
        }
    }

    private func advance() {
        next += 1
        if next == schedule.epochs.count {
            guard loop else {
                deadlineNanoseconds = .max
                return
            }
            next = 0
            laps += 1
            startNanoseconds += schedule.lapNanoseconds
        }
        deadlineNanoseconds = startNanoseconds + schedule.epochs[next].offsetNanoseconds
    }
}

/// The simulated receiver could not be set up.
public struct SimulatedReceiverError: Error, Sendable, Equatable {
    public var operation: String
    public var errno: Int32

    public var message: String {
        operation + " failed (" + String(cString: strerror(errno)) + "): the simulated board needs /dev/ptmx "
            + "and /dev/pts (mount devpts)"
    }
}
