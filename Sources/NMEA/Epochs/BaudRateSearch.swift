/// Finds the baud rate of a serial GPS, as gpsd does: listen at one rate, keep it once valid
/// checksummed sentences arrive, otherwise move to the next rate of the list.
///
/// Pure: the caller feeds the bytes to a `SentenceFramer`, then calls `observe` with the framer and
/// the monotonic time; the decision says whether to keep the port's rate or reopen it at
/// `tryNext(baud:)` (resetting the framer is optional: `observe` notices a reset framer by its
/// `resetCount`). Rules (times in nanoseconds of `CLOCK_MONOTONIC`):
/// - **Lock** when `sentencesToLock` sentences with a verified checksum arrived at this rate.
/// - **Give up on a rate** after `listenNanoseconds` (2.5 s: a 1 Hz receiver sends 2 bursts) without
///   locking, or earlier once `garbageBytesToGiveUp` bytes of noise and dropped sentences arrived with
///   no valid sentence (a wrong rate turns everything into noise quickly).
/// - **No data** (not a single byte during `listenNanoseconds`): stay, state `silent`; switching rates
///   cannot help a receiver that sends nothing.
/// - **Lose lock** when a locked rate produces noise but no valid sentence for `lockLossNanoseconds`
///   (the receiver was reconfigured or swapped): the search resumes at the next rate.
public struct BaudRateSearch: Sendable {
    /// gpsd-like order: the common defaults first (9600 modern, 4800 NMEA standard), then faster.
    public static let defaultCandidates: [Int] = [9600, 4800, 38400, 115200, 57600, 19200, 230400, 460800, 921600]

    /// What to do with the port.
    public enum Decision: Sendable, Equatable {
        /// Keep the current rate (locked, still listening, or silent).
        case keep
        /// Reopen the port at this rate.
        case tryNext(baud: Int)
    }

    /// Where the search stands.
    public enum State: Sendable, Equatable {
        /// Listening at `currentBaud`, not decided yet.
        case searching
        /// Valid sentences arrive at `currentBaud`.
        case locked
        /// No bytes at all at `currentBaud` (receiver off, unplugged or not sending).
        case silent
    }

    public var sentencesToLock = 3
    public var listenNanoseconds: Int64 = 2_500_000_000
    public var garbageBytesToGiveUp = 600
    public var lockLossNanoseconds: Int64 = 5_000_000_000

    public private(set) var state = State.searching
    /// Rates tried since the search (re)started, including the current one.
    public private(set) var attempts = 1
    /// Complete passes over the candidate list without locking.
    public private(set) var fullCycles = 0

    private var candidates: InlineArray<16, Int32> = .init(repeating: 0)
    private var candidateCount = 0
    private var index = 0
    private var started: Int64
    private var lastValid: Int64
    private var baseValid = 0
    private var baseNoise = 0
    private var baseBytes = 0
    private var seenResets = 0

    /// A search starting at the first candidate at monotonic time `nowNanoseconds`.
    /// `candidates` (1...16 rates) defaults to `defaultCandidates`.
    public init(candidates: [Int] = BaudRateSearch.defaultCandidates, nowNanoseconds: Int64) {
        precondition(!candidates.isEmpty && candidates.count <= 16, "BaudRateSearch needs 1...16 candidate rates")
        for (i, rate) in candidates.enumerated() { self.candidates[i] = Int32(rate) }
        candidateCount = candidates.count
        started = nowNanoseconds
        lastValid = nowNanoseconds
    }

    /// The rate the port should be at.
    public var currentBaud: Int { Int(candidates[index]) }

    /// Decides from what `framer` has counted (since it was created or reset) at `nowNanoseconds`.
    public mutating func observe(_ framer: borrowing SentenceFramer, nowNanoseconds now: Int64) -> Decision {
        let counters = framer.counters
        if framer.resetCount != seenResets {
            seenResets = framer.resetCount                     // a reset framer: all it counted is new
            baseValid = 0
            baseNoise = 0
            baseBytes = 0
        }
        let valid = counters.sentencesDelivered - counters.uncheckedSentences
        let noise = counters.garbageBytes + counters.droppedBytes
        let newValid = valid - baseValid
        let newNoise = noise - baseNoise
        let newBytes = counters.bytes - baseBytes

        if state == .locked {
            if newValid > 0 {
                lastValid = now
                rebase(counters)
                return .keep
            }
            if newNoise > 0 && now - lastValid >= lockLossNanoseconds { return advance(counters, now) }
            return .keep
        }
        if newValid >= sentencesToLock {
            state = .locked
            lastValid = now
            rebase(counters)
            return .keep
        }
        if newValid == 0 && newNoise >= garbageBytesToGiveUp { return advance(counters, now) }
        if now - started >= listenNanoseconds {
            if newBytes == 0 {
                state = .silent
                started = now                                  // keep listening; check again later
                return .keep
            }
            return advance(counters, now)
        }
        if newBytes > 0 && state == .silent { state = .searching }
        return .keep
    }

    /// The port was set to `baud` by something else (the receiver configurator switched receiver and
    /// port): continue from there as locked, so the search resumes only when that rate stops giving
    /// valid sentences. A rate not among the candidates takes the current candidate's slot.
    public mutating func adopt(baud: Int, framer: borrowing SentenceFramer, nowNanoseconds now: Int64) {
        var i = 0
        while i < candidateCount && Int(candidates[i]) != baud { i += 1 }
        if i == candidateCount { candidates[index] = Int32(clamping: baud) } else { index = i }
        state = .locked
        lastValid = now
        started = now
        rebase(framer.counters)
        seenResets = framer.resetCount
    }

    private mutating func advance(_ counters: FramerCounters, _ now: Int64) -> Decision {
        index += 1
        if index == candidateCount {
            index = 0
            fullCycles += 1
        }
        attempts += 1
        state = .searching
        started = now
        lastValid = now
        rebase(counters)
        return .tryNext(baud: currentBaud)
    }

    private mutating func rebase(_ counters: FramerCounters) {
        baseValid = counters.sentencesDelivered - counters.uncheckedSentences
        baseNoise = counters.garbageBytes + counters.droppedBytes
        baseBytes = counters.bytes
    }
}
