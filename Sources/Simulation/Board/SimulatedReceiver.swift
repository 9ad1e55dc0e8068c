import SystemCalls

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

    private let master: FileDescriptor
    private let slaveHold: FileDescriptor
    private let log: UnsafeRawBufferPointer
    private let ownsLog: Bool
    private var next = 0

    private init(master: FileDescriptor, slaveHold: FileDescriptor, slavePath: String, log: UnsafeRawBufferPointer, ownsLog: Bool,
                 schedule: SimulatedReplaySchedule, loop: Bool, startNanoseconds: Int64) {
        self.master = master
        self.slaveHold = slaveHold
        self.slavePath = slavePath
        self.log = log
        self.ownsLog = ownsLog
        self.schedule = schedule
        self.loop = loop
        self.startNanoseconds = startNanoseconds
        deadlineNanoseconds = schedule.epochs.isEmpty ? .max : startNanoseconds + schedule.epochs[0].offsetNanoseconds
    }

    deinit {
        try? master.close()
        try? slaveHold.close()
        if ownsLog { log.deallocate() }
    }

    /// Opens a pty pair and prepares the replay of `log` from `startNanoseconds`. With `takesOwnership` the
    /// receiver deallocates `log` (allocated with `UnsafeMutableRawBufferPointer.allocate`); otherwise
    /// `log` must outlive the receiver (the bundled drive).
    public static func open(log: UnsafeRawBufferPointer, takesOwnership: Bool, schedule: SimulatedReplaySchedule,
                            loop: Bool, startNanoseconds: Int64) throws(SimulatedReceiverError) -> SimulatedReceiver {
        let pty: (master: FileDescriptor, slavePath: String)
        do throws(Errno) { pty = try FileDescriptor.openPseudoTerminal() } catch {
            if takesOwnership { log.deallocate() }
            throw SimulatedReceiverError(operation: "opening a pseudo-terminal", error: error)
        }
        // Keep the slave open ourselves (so the pty never hangs up while puckd reopens it) and raw (no echo).
        let hold: FileDescriptor
        do throws(Errno) {
            hold = try FileDescriptor.open(pty.slavePath, .readWrite, options: [.noControllingTerminal, .closeOnExec])
        } catch {
            try? pty.master.close()
            if takesOwnership { log.deallocate() }
            throw SimulatedReceiverError(operation: "opening " + pty.slavePath, error: error)
        }
        if var settings = try? hold.terminalSettings() {
            settings.makeRaw()
            try? hold.setTerminalSettings(settings)
        }
        try? pty.master.setNonBlocking(true)
        return SimulatedReceiver(master: pty.master, slaveHold: hold, slavePath: pty.slavePath, log: log,
                                 ownsLog: takesOwnership, schedule: schedule, loop: loop, startNanoseconds: startNanoseconds)
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
            let bytes = UnsafeRawBufferPointer(rebasing: log[epoch.start..<epoch.end])
            var written = 0
            if case .processed(let n) = master.writeOutcome(bytes) { written = n }
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
    public var error: Errno

    public var message: String {
        operation + " failed (" + error.message + "): the simulated board needs /dev/ptmx "
            + "and /dev/pts (mount devpts)"
    }
}
