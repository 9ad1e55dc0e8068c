/// Learns which sentence ends a receiver's cycle, so that `EpochAssembler` can close an epoch the
/// moment its last sentence arrives instead of one cycle later, when the next epoch begins.
///
/// gpsd's idea (`driver_nmea0183.c`: the timed sentence seen just before a new cycle becomes a "cycle
/// ender"), made stricter, because a wrong ender cuts sentences off an epoch:
/// - The *ender* of a cycle is its last sentence that carries fix data (GGA RMC GLL GNS ZDA GST GSA
///   VTG HDT THS; GSV, proprietary and unknown sentences never count), told apart by kind, talker,
///   GSA system ID and occurrence: the second of two identical `GNGSA` is not the first.
/// - Cycles are numbered by their UTC time divided by the receiver's period (the spacing of epoch
///   times), and a cycle's ender is predicted from the cycle `P` before it, for the smallest pattern
///   length `P` ≤ `maximumPatternLength` that held over the last `max(2P, requiredStretch)` cycles,
///   all of them seen. A fixed cycle is learned after two epochs (P = 1, so the third closes at its
///   ender); a receiver whose cycles differ in a pattern (GGA every other cycle) is learned per place
///   in the pattern once it repeated twice.
/// - A cycle at a whole second in a faster stream is predicted only from a stretch that reaches back
///   to the previous whole second: receivers that send some sentences once a second (10 Hz GGA, RMC
///   and ZDA at the second) put them there, so a pattern seen only between whole seconds says nothing
///   about them.
/// - A prediction that turns out wrong (`noteWrongEnder`: data after the predicted ender, as at the
///   first whole second of a 10 Hz GGA stream with a 1 Hz RMC) costs that epoch its late sentences and
///   raises `requiredStretch` to the whole history for the rest of the session, so that only patterns
///   that held over 32 cycles are trusted from then on.
/// - Anything else that breaks the pattern (a lost sentence, a new talker, a new rate) stops
///   predictions until a pattern holds again: the epoch then closes the old way, when the next one
///   begins (or when the line goes quiet, on a device).
///
/// Pure and allocation-free: fixed tables, no clock (cycles are told their time of day).
/// The rules and why: docs/nmea-epochs.md §1 (its first item, the learned cycle ender).
public struct CycleEnderLearner: Sendable {
    /// Cycles remembered, and so the longest stretch a pattern must hold over.
    public static let historyCapacity = 32
    /// The longest pattern of cycles learned (two repetitions fill the history).
    public static let maximumPatternLength = 16
    /// Distinct sentences counted per cycle; a cycle with more has no usable ender.
    static let signatureCapacity = 24

    /// The receiver's period (smallest spacing of epoch times seen since the last change), ns; 0 until
    /// two epochs were seen.
    public private(set) var periodNanoseconds: Int64 = 0
    /// The ender predicted for the current cycle (`CycleEnder.none` when there is none).
    public private(set) var predicted = CycleEnder.none
    /// Predicted enders that were followed by more of their cycle (`noteWrongEnder`).
    public private(set) var wrongPredictions = 0
    /// How many cycles in a row a pattern must have held to be trusted: 2 at first, the whole history
    /// after a wrong prediction.
    public private(set) var requiredStretch = 2
    /// Cycles begun since the last reset, and whether any of them had a predicted ender: while none
    /// had (`isLearning`), the receiver's cycle is not known at all.
    public private(set) var cyclesSeen = 0
    public private(set) var hasPredicted = false

    /// True from a reset until the first predicted ender, for at most `historyCapacity` cycles (a
    /// receiver whose cycle never shows a pattern stops counting as new).
    public var isLearning: Bool { !hasPredicted && cyclesSeen <= Self.historyCapacity }

    /// One remembered cycle: its number (`Int64.min`: none) and its ender.
    private struct Observation: Sendable {
        var index: Int64 = .min
        var ender = CycleEnder.none
    }

    /// The last `historyCapacity` cycles, by cycle number modulo the capacity.
    private var history: InlineArray<32, Observation> = .init(repeating: Observation())
    private var signatures: InlineArray<24, UInt32> = .init(repeating: 0)
    private var occurrences: InlineArray<24, UInt8> = .init(repeating: 0)
    private var signatureCount = 0
    private var tableOverflowed = false
    /// The last eligible sentence of the current cycle so far.
    private var lastEnder = CycleEnder.none
    private var cycleTime: Int64?

    public init() {}

    /// Starts the cycle stamped `timeOfDayNanoseconds`: records the previous cycle's ender, updates the
    /// period, and predicts this cycle's ender.
    public mutating func beginCycle(timeOfDayNanoseconds time: Int64) {
        if let previous = cycleTime {
            updatePeriod(from: previous, to: time)
            if periodNanoseconds > 0 { record(lastEnder, at: index(of: previous)) }
        }
        cycleTime = time
        signatureCount = 0
        tableOverflowed = false
        lastEnder = .none
        predicted = periodNanoseconds > 0
            ? predict(for: index(of: time), wholeSecond: isWholeSecondInFasterStream(time)) : .none
        if cyclesSeen < Int.max { cyclesSeen += 1 }
        if predicted != .none { hasPredicted = true }
    }

    /// Counts one sentence of the current cycle (`signature` from `CycleEnder.signature`, nil for a
    /// sentence that carries no fix data). Returns true when it is the predicted ender.
    public mutating func note(_ signature: UInt32?) -> Bool {
        guard let signature, cycleTime != nil else { return false }
        var occurrence: UInt8 = 0
        var i = 0
        while i < signatureCount {
            if signatures[i] == signature {
                if occurrences[i] < 255 { occurrences[i] += 1 }
                occurrence = occurrences[i]
                break
            }
            i += 1
        }
        if occurrence == 0 {
            if signatureCount < Self.signatureCapacity {
                signatures[signatureCount] = signature
                occurrences[signatureCount] = 1
                signatureCount += 1
                occurrence = 1
            } else {
                tableOverflowed = true
            }
        }
        lastEnder = tableOverflowed ? .none : CycleEnder(signature: signature, occurrence: occurrence)
        return lastEnder != .none && lastEnder == predicted
    }

    /// The predicted ender was not the last sentence of its cycle: trust only patterns that held over
    /// the whole history from now on.
    public mutating func noteWrongEnder() {
        wrongPredictions += 1
        requiredStretch = Self.historyCapacity
    }

    /// Forgets everything (a new receiver, a reconnect).
    public mutating func reset() {
        self = CycleEnderLearner()
    }

    // MARK: history

    private func index(of time: Int64) -> Int64 {
        (time + periodNanoseconds / 2) / periodNanoseconds
    }

    @inline(__always)
    private static func slot(_ index: Int64) -> Int {
        Int(((index % Int64(historyCapacity)) + Int64(historyCapacity)) % Int64(historyCapacity))
    }

    private mutating func record(_ ender: CycleEnder, at index: Int64) {
        history[Self.slot(index)] = Observation(index: index, ender: ender)
    }

    /// Cycle `index`'s ender, nil when it is not remembered. (Read through a span: subscripting the
    /// stored array from a borrowed `self` copies all of it.)
    @inline(__always)
    private static func observation(_ history: Span<Observation>, _ index: Int64) -> CycleEnder? {
        let o = history[slot(index)]
        return o.index == index ? o.ender : nil
    }

    private mutating func clearHistory() {
        history = .init(repeating: Observation())
    }

    /// Epoch spacing: the first one sets the period; a multiple of it (a dropped epoch) or a gap of more
    /// than 2 s keeps it; anything else is a new rate and clears the history. Time going backwards (a
    /// receiver restart, a replayed log starting over) clears the history too.
    private mutating func updatePeriod(from previous: Int64, to time: Int64) {
        var d = time - previous
        if d < -43_200_000_000_000 { d += 86_400_000_000_000 } else if d > 43_200_000_000_000 { d -= 86_400_000_000_000 }
        guard d > 0 else {
            clearHistory()
            return
        }
        guard d <= EpochAssembler.gapThresholdNanoseconds else { return }
        if periodNanoseconds == 0 {
            periodNanoseconds = d
            return
        }
        let multiple = (d + periodNanoseconds / 2) / periodNanoseconds
        if multiple >= 1 && abs(d - multiple * periodNanoseconds) <= periodNanoseconds / 10 { return }
        periodNanoseconds = d
        clearHistory()
    }

    /// The ender of cycle `n - P` for the smallest pattern length `P` that held over the last
    /// `max(2P, requiredStretch)` cycles; `.none` when no pattern does. (`mutating` only so that self
    /// is passed by address.)
    private mutating func predict(for n: Int64, wholeSecond: Bool) -> CycleEnder {
        let cyclesPerSecond = wholeSecond ? 1_000_000_000 / periodNanoseconds : 0
        let span = history.span
        var p: Int64 = 1
        while p <= Int64(Self.maximumPatternLength) {
            let stretch = max(2 * p, Int64(requiredStretch), cyclesPerSecond)
            if stretch > Int64(Self.historyCapacity) { break }
            if Self.holds(span, p, before: n, stretch: stretch), let source = Self.observation(span, n - p) {
                return source
            }
            p += 1
        }
        return .none
    }

    /// True for a cycle at a whole second when the period divides a second into at most
    /// `historyCapacity` cycles.
    private func isWholeSecondInFasterStream(_ time: Int64) -> Bool {
        let period = periodNanoseconds
        guard period < 1_000_000_000, 1_000_000_000 % period == 0,
              1_000_000_000 / period <= Int64(Self.historyCapacity) else { return false }
        let offset = time % 1_000_000_000
        return offset < period / 2 || offset > 1_000_000_000 - period / 2
    }

    /// True when the `stretch` cycles before `n` were all seen and each equals the one `p` before it.
    @inline(__always)
    private static func holds(_ history: Span<Observation>, _ p: Int64, before n: Int64, stretch: Int64) -> Bool {
        var m = n - stretch
        while m < n {
            guard let a = observation(history, m) else { return false }
            if m - p >= n - stretch, let b = observation(history, m - p), a != b { return false }
            m += 1
        }
        return true
    }
}

/// Which sentence ends a cycle: its signature (kind, talker, GSA system ID) and which occurrence of
/// that signature in the cycle it is (1 = the first).
public struct CycleEnder: Sendable, Equatable {
    public var signature: UInt32
    public var occurrence: UInt8

    public init(signature: UInt32, occurrence: UInt8) {
        self.signature = signature
        self.occurrence = occurrence
    }

    /// No ender (a cycle without fix sentences, or none learned).
    public static let none = CycleEnder(signature: 0, occurrence: 0)

    /// The signature of a sentence of `kind` (a decoded one) that can end a cycle, nil for a kind that
    /// cannot (GSV, proprietary, AIS, unknown types, and sentences that failed to parse: `.invalid` is
    /// not passed). `systemID`: GSA's NMEA 4.10 system ID, else 0.
    @inline(__always)
    public static func signature(kind: SentenceKind, talker: Talker, systemID: Int) -> UInt32? {
        switch kind {
        case .gga, .rmc, .gll, .gns, .zda, .gst, .vtg, .hdt, .ths, .gsa: break
        case .gsv, .proprietary, .encapsulated, .other: return nil
        }
        return UInt32(kind.rawValue + 1) << 24 | UInt32(talker.first) << 16 | UInt32(talker.second) << 8
            | (UInt32(truncatingIfNeeded: systemID) & 0xFF)
    }
}
