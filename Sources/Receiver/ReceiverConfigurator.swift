/// Configures a GPS receiver over its serial line: recognizes it, sends the commands of its family for
/// what `ReceiverSettings` asks, checks each against its acknowledgement with a timeout and retries,
/// switches the line speed (receiver first, then the port, then verifies NMEA at the new speed and
/// falls back if none comes), and starts again when the port reopens or the receiver restarts.
///
/// Pure: it takes the sentences and UBX frames the receiver sent, byte counts and the monotonic time,
/// and says what to do next (`poll`): write `command`, change the port's speed, or nothing. It never
/// reads a clock or touches a device; it allocates nothing. The device logs `popEvent()`s and shows
/// `status`.
public struct ReceiverConfigurator: Sendable {
    /// Timeouts and counts (nanoseconds of the monotonic clock).
    public struct Timing: Sendable, Equatable {
        /// Wait for an acknowledgement (u-blox and MediaTek answer within a second; a 9600-baud line
        /// busy with NMEA can hold a reply back a few hundred milliseconds more).
        public var replyNanoseconds: Int64 = 1_500_000_000
        /// Tries per command (the first and the retries).
        public var attempts = 3
        /// After a line-speed command: time for its bytes to leave (computed) plus this.
        public var switchSettleNanoseconds: Int64 = 100_000_000
        /// Wait for NMEA after changing the port's speed.
        public var verifyNanoseconds: Int64 = 3_000_000_000
        /// Valid sentences that prove a line speed (and that the receiver is there before a run).
        public var sentencesToVerify = 2
        /// No valid sentence for this long while bytes arrive: the line speed was lost.
        public var linkLossNanoseconds: Int64 = 5_000_000_000
        /// NMEA after a silence at least this long (and three periods): configure again.
        public var restartSilenceNanoseconds: Int64 = 3_000_000_000

        public init() {}
    }

    /// What the device should do now.
    public enum Action: Sendable, Equatable {
        case none
        /// Write `command` to the receiver, then call `commandWritten`.
        case write
        /// Set the port's line speed to this (bits per second), then call `portBaudRateChanged` (or
        /// `portBaudRateFailed`).
        case setPortBaudRate(Int)
    }

    public let settings: ReceiverSettings
    public var timing: Timing
    /// The receiver, the outcomes and the counters.
    public internal(set) var status = ReceiverStatus()
    /// The command to write when `poll` returns `.write`.
    public internal(set) var command = CommandBytes()

    var events = ReceiverEventQueue()
    var phase = Phase.listening
    /// The port's speed is hunted by auto-baud: the configurator does not hunt on link loss.
    let autoBaud: Bool
    /// The port's speed before this configurator changed it ([gps] baud).
    let baseBaudRate: Int
    // The link.
    var validSentences = 0
    var validAtMark = 0
    var lastValidNanoseconds: Int64 = .min
    /// The link watchdog counts from here: the last valid sentence or the last change of speed.
    var watchSinceNanoseconds: Int64 = .min
    var bytesSinceValid = 0
    // The current command.
    var setting = ReceiverSetting.baud
    var part = 0
    var attempt = 0
    var deadlineNanoseconds: Int64 = .max
    var needsWrite = false
    var expected = ExpectedReply.nothing
    var partsApplied = 0
    var partsRefused = 0
    var partsSilent = 0
    var switchFromBaudRate = 0
    var baudAcknowledged = false
    var probeAttempts = 0
    var runStartedNanoseconds: Int64 = 0
    /// The family the run's commands were chosen for.
    var assumedFamily: ReceiverFamily?

    enum Phase: Equatable {
        case off, listening, waitingForLink, probing, awaitingReply, awaitingSwitch, verifyingNew, verifyingOld, done
    }

    /// A configurator for a port now at `portBaudRate`. `writable` false (file, TCP, gpsd) or
    /// `configure = never` keeps it listening only; `autoBaud` when `[gps] baud = auto` hunts the speed.
    public init(settings: ReceiverSettings, portBaudRate: Int, writable: Bool = true, autoBaud: Bool = false,
                timing: Timing = Timing()) {
        self.settings = settings
        self.timing = timing
        self.autoBaud = autoBaud
        baseBaudRate = portBaudRate
        status.settings = settings
        status.portBaudRate = portBaudRate
        if let family = settings.family { status.identity.learn(family, evidence: .configuration) }
        if settings.mode == .never || !writable {
            phase = .off
            status.phase = .off
            status.offReason = settings.mode == .never ? .configuredNever : .sourceNotWritable
        }
        resetOutcomes()
    }

    /// The next event to log, if any.
    public mutating func popEvent() -> ReceiverEvent? { events.pop() }

    /// When `poll` next has something to do (monotonic ns; `Int64.max` = only on input).
    public var nextDeadlineNanoseconds: Int64 {
        needsWrite ? .min : deadlineNanoseconds
    }

    // MARK: inputs

    /// The port opened (first time or after a reconnect) at `portBaudRate`: configure (again).
    public mutating func portOpened(portBaudRate: Int, nowNanoseconds now: Int64) {
        status.portBaudRate = portBaudRate
        validSentences = 0
        lastValidNanoseconds = .min
        watchSinceNanoseconds = now
        bytesSinceValid = 0
        beginRun(.portOpened, nowNanoseconds: now)
    }

    /// `count` bytes arrived from the receiver.
    public mutating func observeBytes(_ count: Int, nowNanoseconds now: Int64) {
        bytesSinceValid &+= count
    }

    /// A sentence arrived (bytes from `$` to before `*`); `verified` when its checksum matched.
    public mutating func observe(sentence: UnsafeRawBufferPointer, verified: Bool, nowNanoseconds now: Int64) {
        let clue = ReceiverRecognizer.observe(sentence: sentence, into: &status.identity)
        if verified { noteValid(now) }
        if let reply = ReceiverReply.from(sentence: sentence) { handle(reply, now) }
        handle(clue, now)
    }

    /// A UBX frame with a valid checksum arrived.
    public mutating func observe(ubx message: UBXMessageID, payload: UnsafeRawBufferPointer, nowNanoseconds now: Int64) {
        let clue = ReceiverRecognizer.observe(ubx: message, payload: payload, into: &status.identity)
        noteValid(now)
        if let reply = ReceiverReply.from(ubx: message, payload: payload) { handle(reply, now) }
        handle(clue, now)
    }

    /// The device wrote `written` of `command.count` bytes (fewer, or a failure as 0, counts).
    public mutating func commandWritten(_ written: Int, nowNanoseconds now: Int64) {
        status.counters.commandsSent &+= 1
        status.counters.bytesWritten &+= UInt64(max(0, written))
        if written < command.count { status.counters.writeFailures &+= 1 }
    }

    /// Auto-baud (or anything but this configurator) moved the port to `rate`.
    public mutating func portBaudRateChanged(_ rate: Int, nowNanoseconds now: Int64) {
        guard rate != status.portBaudRate else { return }
        status.portBaudRate = rate
        validAtMark = validSentences
        watchSinceNanoseconds = now
    }

    /// The port refused the speed asked for (a UART without it): give that setting up.
    public mutating func portBaudRateFailed(nowNanoseconds now: Int64) {
        guard phase == .verifyingNew else { return }
        status.portBaudRate = switchFromBaudRate
        finishSetting(.refused, now)
    }

    // MARK: the next action

    /// What to do at `now`.
    public mutating func poll(nowNanoseconds now: Int64) -> Action {
        if let action = watchLink(now) { return action }
        switch phase {
        case .off, .listening, .done:
            return .none
        case .waitingForLink:
            guard validSentences - validAtMark >= timing.sentencesToVerify else { return .none }
            startProbeOrSteps(now)
            return writeIfNeeded(now)
        case .probing, .awaitingReply:
            if needsWrite { return writeIfNeeded(now) }
            if now >= deadlineNanoseconds { timeout(now) }
            return writeIfNeeded(now)
        case .awaitingSwitch:
            guard now >= deadlineNanoseconds else { return .none }
            phase = .verifyingNew
            status.phase = .verifyingBaud
            switchFromBaudRate = status.portBaudRate
            deadlineNanoseconds = now + timing.verifyNanoseconds
            baudAcknowledged = false
            return switchPort(to: settings.baudRate ?? status.portBaudRate, now)
        case .verifyingNew:
            if baudAcknowledged || validSentences - validAtMark >= timing.sentencesToVerify {
                events.push(.baudSwitched(from: switchFromBaudRate, to: status.portBaudRate))
                finishSetting(.applied, now)
                return writeIfNeeded(now)
            }
            guard now >= deadlineNanoseconds else { return .none }
            phase = .verifyingOld
            deadlineNanoseconds = now + timing.verifyNanoseconds
            return switchPort(to: switchFromBaudRate, now)
        case .verifyingOld:
            if validSentences - validAtMark >= timing.sentencesToVerify {
                events.push(.baudFellBack(tried: settings.baudRate ?? 0, back: status.portBaudRate))
                finishSetting(.refused, now)
                return writeIfNeeded(now)
            }
            guard now >= deadlineNanoseconds else { return .none }
            finishSetting(.noAnswer, now)
            return writeIfNeeded(now)
        }
    }

    /// Changes the port's speed (the device does it on the returned action).
    mutating func switchPort(to rate: Int, _ now: Int64) -> Action {
        status.portBaudRate = rate
        status.counters.baudChanges &+= 1
        validAtMark = validSentences
        watchSinceNanoseconds = now
        return .setPortBaudRate(rate)
    }

    private mutating func writeIfNeeded(_ now: Int64) -> Action {
        guard needsWrite else { return .none }
        needsWrite = false
        if phase == .probing {
            ReceiverFamily.CommandSet.encodeProbe(for: status.identity.family, into: &command)
            expected = .identity
            deadlineNanoseconds = now + timing.replyNanoseconds
            return .write
        }
        let set = (status.identity.family ?? .ublox(generation: 0)).commandSet
        expected = set.encode(setting, part: part, settings: settings, into: &command)
        if setting == .baud {
            // Switch once the command has left the UART: 10 bits a byte at the old speed, plus margin.
            let bits = Int64(command.count) * 10
            deadlineNanoseconds = now + bits * 1_000_000_000 / Int64(max(1, status.portBaudRate))
                + timing.switchSettleNanoseconds
            phase = .awaitingSwitch
            baudAcknowledged = false
        } else {
            deadlineNanoseconds = now + timing.replyNanoseconds
        }
        return .write
    }
}
