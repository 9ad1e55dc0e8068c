/// Where the configuration of the receiver stands, for the console (`status`, `gps`, `stats`) and the
/// log: the receiver's identity, what was asked, each setting's outcome and the command counters.
/// A value of fixed size: the device copies it into the console state.
public struct ReceiverStatus: Sendable {
    /// What the configurator is doing.
    public enum Phase: UInt8, Sendable, Equatable {
        /// `[gps] configure = never`, or the source cannot be written (file, TCP, gpsd).
        case off
        /// Nothing to configure: puckd only listens (and recognizes the receiver if it says who it is).
        case listening
        /// Waiting for NMEA at the port's rate before sending anything.
        case waitingForReceiver
        /// Asking the receiver who it is.
        case identifying
        /// Sending commands and checking their acknowledgements.
        case configuring
        /// Switched the line speed; checking that NMEA arrives at the new one.
        case verifyingBaud
        /// Every command was answered or given up on.
        case done
        /// No reply identified the receiver: nothing was sent.
        case unrecognized

        public var name: StaticString {
            switch self {
            case .off: "off"
            case .listening: "listening"
            case .waitingForReceiver: "waiting for NMEA"
            case .identifying: "identifying"
            case .configuring: "configuring"
            case .verifyingBaud: "verifying the baud rate"
            case .done: "configured"
            case .unrecognized: "not recognized"
            }
        }
    }

    /// Why configuration is off, when it is.
    public enum OffReason: UInt8, Sendable, Equatable {
        case none
        /// `[gps] configure = never`.
        case configuredNever
        /// The source is a file, standard input, TCP or gpsd: nothing to write to.
        case sourceNotWritable

        public var name: StaticString {
            switch self {
            case .none: ""
            case .configuredNever: "[gps] configure = never"
            case .sourceNotWritable: "the source cannot be written (file, TCP or gpsd)"
            }
        }
    }

    public var phase = Phase.listening
    public var offReason = OffReason.none
    /// Who the receiver is.
    public var identity = ReceiverIdentity()
    /// What was asked.
    public var settings = ReceiverSettings()
    /// The outcome of each setting, indexed by `ReceiverSetting.rawValue`.
    public var outcomes: [5 of ReceiverOutcome] = .init(repeating: .notAsked)
    /// Sentence types a u-blox refused (CFG-MSG NAK), when `sentences` is partly applied.
    public var refusedSentences = NMEASentenceSet()
    /// The MediaTek flag of the last refusal (0 invalid, 1 unsupported, 2 failed), -1 for UBX-ACK-NAK.
    public var lastRefusalFlag = -1
    /// The port's line speed as configured now, bits per second.
    public var portBaudRate = 0
    /// How long the last complete run took, from the port opening (or the restart) to the last reply,
    /// nanoseconds; 0 before the first.
    public var lastRunNanoseconds: Int64 = 0
    /// Command counters.
    public var counters = ReceiverCounters()

    public init() {}

    /// The outcome of `setting`.
    public func outcome(_ setting: ReceiverSetting) -> ReceiverOutcome { outcomes[Int(setting.rawValue)] }

    /// True when some setting was not applied.
    public var hasProblem: Bool {
        for i in 0..<ReceiverSetting.count where outcomes[i].isProblem { return true }
        return phase == .unrecognized && settings.wantsChanges
    }
}

/// What the configurator sent and got back.
public struct ReceiverCounters: Sendable, Equatable {
    /// Configuration runs started (port opened, receiver restarted, link restored).
    public var runs: UInt64 = 0
    /// Runs that reached the end.
    public var completedRuns: UInt64 = 0
    /// Commands written (retries and probes included).
    public var commandsSent: UInt64 = 0
    /// Bytes written to the receiver.
    public var bytesWritten: UInt64 = 0
    /// Writes that failed or were cut short.
    public var writeFailures: UInt64 = 0
    /// UBX-ACK-ACK and `$PMTK001 … 3` replies matched to a command.
    public var acknowledged: UInt64 = 0
    /// UBX-ACK-NAK and `$PMTK001 … 0/1/2` replies matched to a command.
    public var refused: UInt64 = 0
    /// Replies that matched no command waiting (late, or for another program's command).
    public var unexpectedReplies: UInt64 = 0
    /// Waits for a reply that ended without one.
    public var timeouts: UInt64 = 0
    /// Commands sent again after a timeout.
    public var retries: UInt64 = 0
    /// Port line-speed changes made for the receiver (switches, fall-backs, link-loss hunting).
    public var baudChanges: UInt64 = 0
    /// Restarts of the receiver seen (its start-up text).
    public var receiverRestarts: UInt64 = 0

    public init() {}
}

/// Something the device should say once in its log.
public enum ReceiverEvent: Sendable, Equatable {
    /// The receiver's identity became known or changed.
    case recognized
    /// No reply identified the receiver; nothing is sent.
    case notRecognized
    /// A configuration run starts.
    case configuring(ReceiverReconfigureReason)
    /// A setting got its outcome in this run.
    case outcome(ReceiverSetting, ReceiverOutcome)
    /// The receiver and the port now run at `to` (was `from`).
    case baudSwitched(from: Int, to: Int)
    /// No NMEA at `tried`: the port went back to `back`, where NMEA arrives.
    case baudFellBack(tried: Int, back: Int)
    /// No valid NMEA for a while at `from`, noise only: the port tries `to` (the receiver may have lost
    /// power and forgotten its line speed).
    case linkLost(from: Int, to: Int)
    /// The run ended.
    case finished
}

/// Why a configuration run starts.
public enum ReceiverReconfigureReason: UInt8, Sendable, Equatable {
    /// The port opened (first start or a reconnect).
    case portOpened
    /// The receiver announced a restart (power loss or reset): it forgot what it was told.
    case receiverRestarted
    /// NMEA came back after a silence or after the line speed was lost.
    case linkRestored
    /// The receiver turned out to be another family than assumed.
    case familyChanged

    public var name: StaticString {
        switch self {
        case .portOpened: "the port opened"
        case .receiverRestarted: "the receiver restarted"
        case .linkRestored: "NMEA came back after a silence"
        case .familyChanged: "the receiver is another family than assumed"
        }
    }
}

/// A fixed queue of events for the device to log (the oldest is dropped when full, and counted).
struct ReceiverEventQueue: Sendable {
    private var slots = InlineArray<16, ReceiverEvent>(repeating: .finished)
    private var head = 0
    private(set) var count = 0
    private(set) var dropped: UInt64 = 0

    mutating func push(_ event: ReceiverEvent) {
        if count == 16 {
            head = (head + 1) % 16
            count -= 1
            dropped &+= 1
        }
        slots[(head + count) % 16] = event
        count += 1
    }

    mutating func pop() -> ReceiverEvent? {
        guard count > 0 else { return nil }
        let e = slots[head]
        head = (head + 1) % 16
        count -= 1
        return e
    }
}
