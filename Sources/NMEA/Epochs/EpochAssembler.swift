/// Groups parsed sentences into receiver cycles and turns each cycle into one `Fix`.
///
/// A cycle ("epoch") is the set of sentences carrying the same UTC time of day. A timed sentence
/// (GGA, RMC, GLL, GNS, ZDA) with a different time opens the next epoch; untimed sentences (GSA, VTG,
/// HDT, THS, GSV) belong to the epoch of the timed sentence before them; GST joins the open epoch when
/// its time matches. Merge rules: `EpochAccumulator`; the fix mode follows gpsd (`FixModeRules`).
///
/// An epoch closes at the first of:
/// - its learned cycle ender (`CycleEnderLearner`): the receiver's last sentence of a cycle, learned
///   from the cycles before (from the third epoch of a fixed cycle on); the fix is out the moment that
///   sentence is in, no cycle late;
/// - a quiet line (only when the caller tells the time, `noteLineActivity`): no byte for
///   `quietCloseFraction` of the receiver's period since the last one (`closeIfQuiet`, at
///   `quietDeadlineNanoseconds`); while the receiver's cycle is still being learned (the first cycles
///   after start), the end of the burst: no byte for a few character times at the line's speed
///   (`lineCharacterNanoseconds`) after the last read;
/// - the next epoch's first timed sentence (the fallback, always), or `finish`.
/// A sentence that arrives for an epoch already closed changes nothing and is counted
/// (`AssemblerCounters.sentencesAfterClose`). Why, and measured on gpsd's corpus: docs/nmea-epochs.md §1.
///
/// Dates: RMC (valid) or ZDA date of the epoch, else the last known date carried across midnight;
/// two-digit years and GPS week rollovers per `UTCDateResolver`. Accuracy: `AccuracyModel`.
///
/// When an epoch carries no speed (no RMC/VTG, e.g. 10 Hz GGA between 1 Hz RMCs), speed and course
/// are derived from the previous epoch's position (Vincenty distance / time difference), as gpsd does,
/// and flagged `speedAndCourseDerived`: only when both epochs have a fix and they are 0 < Δt ≤
/// `maximumDerivationIntervalNanoseconds` apart. Course is derived only at ≥ `minimumSpeedForCourse`
/// (below that, position noise decides the direction).
///
/// Allocation-free: every completed epoch is handed to the caller's `onFix` and kept in `lastFix`.
public struct EpochAssembler: Sendable {
    /// Tunables, with their defaults.
    public struct Configuration: Sendable, Equatable {
        public var dates = UTCDateResolver()
        public var accuracy = AccuracyModel()
        /// Longest interval over which speed is derived from two positions, nanoseconds (10 s).
        public var maximumDerivationIntervalNanoseconds: Int64 = 10_000_000_000
        /// Slowest derived speed for which a course is derived too, m/s.
        public var minimumSpeedForCourse = 0.5
        /// Close an epoch at its learned cycle ender; false leaves it to the quiet line and the next epoch.
        public var closesAtCycleEnder = true
        /// Close an open epoch when the line has been quiet for this fraction of the receiver's period
        /// after its last byte (0: never). gpsd takes 0.25 of the cycle as a transmission pause.
        public var quietCloseFraction = 0.25
        /// The shortest quiet time that closes an epoch, nanoseconds (20 ms: USB receivers deliver in
        /// 1 ms frames, a UART at 9600 baud needs 1 ms a byte).
        public var minimumQuietNanoseconds: Int64 = 20_000_000
        /// The time of one character on the receiver's line, nanoseconds (`characterNanoseconds(baud:)`;
        /// 0: unknown). While no cycle ender has been learned yet (`CycleEnderLearner.isLearning`: the
        /// first two cycles after start) an epoch closes at the end of its burst: no byte for as long as
        /// the last read's bytes took on the line plus `burstEndCharacters` (see `quietDeadlineNanoseconds`).
        /// 0 turns this off (the quiet fraction decides; a quiet fraction of 0 turns it off too).
        public var lineCharacterNanoseconds: Int64 = 0
        /// The shortest burst-end wait while learning, nanoseconds (1.5 ms: a USB-serial bridge hands
        /// over what it has every 1 ms frame, however few characters that took on the line).
        public var minimumBurstEndNanoseconds: Int64 = 1_500_000
        /// The longest the burst-end wait grows to after cut epochs, nanoseconds (250 ms: a quarter of
        /// a 1 Hz cycle, the quiet line of a learned receiver).
        public var maximumBurstEndNanoseconds: Int64 = 250_000_000
        /// A 3D fix in an epoch without an altitude of its own (the RMC-only cycles of a receiver that
        /// sends GGA every 2nd or 4th cycle) keeps the altitude of a 3D epoch at most this long before,
        /// flagged `altitudeHeld`, nanoseconds (5 s).
        public var altitudeHoldNanoseconds: Int64 = 5_000_000_000
        public init() {}
    }

    /// Consecutive epochs further apart than this count as a gap (2 s).
    public static let gapThresholdNanoseconds: Int64 = 2_000_000_000

    public var configuration: Configuration
    /// The most recently completed epoch.
    public internal(set) var lastFix = Fix(timeOfDayNanoseconds: 0)
    public internal(set) var counters = AssemblerCounters()

    /// The most recent complete set of GSV sentences, with used flags from the latest GSA.
    public var skyView: SkyView { sky.published }
    /// What is known of the receiver's cycle: its period and the ender predicted for the open epoch.
    public var cycle: CycleEnderLearner { learner }

    enum EpochState { case none, open, closed }

    var acc = EpochAccumulator(timeOfDay: UTCTimeOfDay(nanoseconds: 0))
    /// `.open`: `acc` collects the epoch; `.closed`: `acc`'s epoch was completed early (ender or quiet
    /// line) and its time is kept to recognize late sentences; `.none`: before the first timed sentence.
    var state = EpochState.none
    /// The closed epoch was closed at its predicted ender (a late sentence then means a wrong prediction).
    var closedAtEnder = false
    var hasPrevious = false
    private var knownDay: Int64?
    private var knownDayTime: Int64 = 0
    /// GSA satellites of the open epoch (`usedSets[usedIndex]`) and of the latest epoch that had GSA.
    var usedSets: InlineArray<2, UsedSatellites> = .init(repeating: UsedSatellites())
    var usedIndex = 0
    var sky = SkyViewBuilder()
    var learner = CycleEnderLearner()
    var modeRules = FixModeRules()
    /// Monotonic time of the last byte the caller fed, when it tells the time.
    var lastActivityNanoseconds: Int64?
    /// The characters the burst-end wait covers after that read: its bytes (capped) plus
    /// `burstEndCharacters`; the cap when it ended inside a sentence.
    var burstEndWaitCharacters: Int64 = 0
    /// The closed epoch was closed by the burst end while learning (a late sentence then means it was cut).
    var closedAtBurstEnd = false
    /// A late sentence of a burst-end close came in the read being fed: `noteLineActivity` measures its pause.
    var cutPending = false
    /// The last read before the burst-end close, and the first read after it (the pause is between them).
    var lastReadBeforeBurstClose: Int64 = 0
    var firstReadAfterBurstClose: Int64?
    /// The longest pause inside a cycle that cut a learning epoch, nanoseconds (0: none yet).
    public internal(set) var longestCuttingPauseNanoseconds: Int64 = 0
    /// The altitude of the last 3D epoch that had one, for `altitudeHoldNanoseconds`.
    var heldAltitude: (msl: Double, separation: Double?, utc: Int64?, timeOfDay: Int64)?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Feeds one parsed sentence; calls `onFix` for each epoch this completes (the open one when a new
    /// epoch begins; the new one too when this sentence is its learned ender).
    public mutating func consume(_ sentence: borrowing ParsedSentence, _ onFix: (borrowing Fix) -> Void) {
        let talker = sentence.talker
        var inOpenEpoch = false
        var systemID = 0
        switch sentence.message {
        case .gga(let g):
            inOpenEpoch = placeTimed(g.time, onFix)
            if inOpenEpoch { acc.merge(g, talker: talker) }
            modeRules.gga(g, talker: talker.second)
        case .rmc(let r):
            inOpenEpoch = placeTimed(r.time, onFix)
            if inOpenEpoch { acc.merge(r) }
            modeRules.rmc(r)
        case .gll(let g):
            inOpenEpoch = placeTimed(g.time, onFix)
            if inOpenEpoch { acc.merge(g) }
            modeRules.gll(g)
        case .gns(let g):
            inOpenEpoch = placeTimed(g.time, onFix)
            if inOpenEpoch { acc.merge(g, talker: talker) }
            modeRules.gns(g)
        case .zda(let z):
            if let time = z.time {
                inOpenEpoch = placeTimed(time, onFix)
                if inOpenEpoch, let d = z.date { acc.date = d }
            }
            modeRules.zda(z)
        case .gst(let g):
            if state != .none, let time = g.time, acc.timeOfDay == time {
                inOpenEpoch = placeUntimed()
                if inOpenEpoch { acc.ellipse = g.ellipse }
            } else {
                counters.unmatchedErrorStatistics += 1
            }
            modeRules.otherSentence()
        case .gsa(let g):
            inOpenEpoch = placeUntimed()
            if inOpenEpoch { acc.merge(g, talker: talker, used: &usedSets[usedIndex]) }
            modeRules.gsa(g, talker: talker.second)
            systemID = g.systemID ?? 0
        case .vtg(let v):
            inOpenEpoch = placeUntimed()
            if inOpenEpoch { acc.merge(v) }
            modeRules.otherSentence()
        case .hdt(let h):
            inOpenEpoch = placeUntimed()
            if inOpenEpoch { acc.mergeHeading(h.headingDegrees) }
            modeRules.otherSentence()
        case .ths(let t):
            if t.isValid {
                inOpenEpoch = placeUntimed()
                if inOpenEpoch { acc.mergeHeading(t.headingDegrees) }
            }
            modeRules.otherSentence()
        case .gsv(let g):
            switch sky.add(g, talker: talker, used: usedSets[1 - usedIndex]) {
            case .ok: break
            case .sequenceError: counters.satelliteSequenceErrors += 1
            case .published: counters.skyViews += 1
            }
            modeRules.otherSentence()
            return
        case .proprietary, .other, .invalid:
            modeRules.otherSentence()
            return
        case .encapsulated:
            return
        }
        if learner.note(CycleEnder.signature(kind: sentence.kind, talker: talker, systemID: systemID)), inOpenEpoch,
           configuration.closesAtCycleEnder {
            counters.epochsClosedAtCycleEnder += 1
            complete(onFix)
            closedAtEnder = true
        }
    }

    /// Ends the stream: completes the open epoch.
    public mutating func finish(_ onFix: (borrowing Fix) -> Void) {
        guard state == .open else { return }
        counters.epochsClosedByNextEpoch += 1
        complete(onFix)
    }

    /// Tells the assembler that `byteCount` bytes arrived at `now` (monotonic nanoseconds; one read),
    /// the last of them inside a sentence or not: the quiet-line close counts from the last such time.
    /// Callers without a clock (replay) never call it.
    public mutating func noteLineActivity(nowNanoseconds now: Int64, byteCount: Int = 0, endsInsideSentence: Bool = false) {
        if cutPending {
            // The reads before and after the close were this far apart: a pause inside the cycle.
            let pause = (firstReadAfterBurstClose ?? now) - lastReadBeforeBurstClose
            longestCuttingPauseNanoseconds = max(longestCuttingPauseNanoseconds, pause)
            counters.epochsCutWhileLearning += 1
            cutPending = false
        } else if closedAtBurstEnd && firstReadAfterBurstClose == nil {
            firstReadAfterBurstClose = now
        }
        lastActivityNanoseconds = now
        let chunk = endsInsideSentence ? EpochAssembler.burstChunkCapBytes : min(max(byteCount, 0), EpochAssembler.burstChunkCapBytes)
        burstEndWaitCharacters = Int64(chunk + EpochAssembler.burstEndCharacters)
    }

    /// When the open epoch closes for a quiet line (monotonic ns, see `closeIfQuiet`); nil when nothing
    /// waits: no open epoch, no period learned yet (and no `lineCharacterNanoseconds` while learning),
    /// the quiet close off, or never told the time.
    ///
    /// While learning, the burst's end: a read of n bytes means the bytes come in chunks of about n
    /// (a UART's receive FIFO, a USB adapter's packets, a writer's sentences), each n characters after
    /// the one before, so the line has gone quiet when n + `burstEndCharacters` character times pass
    /// without a byte (n at most `burstChunkCapBytes`, and that cap when the read ended inside a
    /// sentence: more of it is on its way), and never less than `minimumBurstEndNanoseconds`. A writer
    /// that pauses longer inside a cycle cuts it once: a sentence of the closed epoch still comes, and
    /// from then on the wait is at least twice the longest such pause (`longestCuttingPauseNanoseconds`,
    /// at most `maximumBurstEndNanoseconds`). docs/nmea-epochs.md §1, its second item (a quiet line).
    public var quietDeadlineNanoseconds: Int64? {
        guard state == .open, let last = lastActivityNanoseconds else { return nil }
        if configuration.lineCharacterNanoseconds > 0 && configuration.quietCloseFraction > 0 && learner.isLearning {
            return last + burstEndWaitNanoseconds
        }
        guard learner.periodNanoseconds > 0, configuration.quietCloseFraction > 0 else { return nil }
        let quiet = Int64(configuration.quietCloseFraction * Double(learner.periodNanoseconds))
        return last + max(quiet, configuration.minimumQuietNanoseconds)
    }

    /// How long the line must be quiet after the last read to end a learning epoch's burst, nanoseconds.
    var burstEndWaitNanoseconds: Int64 {
        let characters = burstEndWaitCharacters * configuration.lineCharacterNanoseconds
        let grown = min(2 * longestCuttingPauseNanoseconds, configuration.maximumBurstEndNanoseconds)
        return max(characters, configuration.minimumBurstEndNanoseconds, grown)
    }

    /// Characters of silence after a read's own bytes that end a burst while learning (16: a UART's
    /// receive FIFO interrupts on a timeout of about 4 characters; the rest is the kernel's delivery).
    public static let burstEndCharacters = 16
    /// The largest read counted as one delivery chunk, bytes: NMEA 0183's longest sentence (82 with
    /// `$` and CR LF), more than a UART FIFO (16–64) or a full-speed USB packet (64) holds; a late reader
    /// or a writer of whole cycles hands over more at once, and waiting longer would not tell more.
    public static let burstChunkCapBytes = 82

    /// The time of one character at `baud` (8N1: 10 bits), nanoseconds: 21 701 at 460800, 1 041 666 at 9600.
    public static func characterNanoseconds(baud: Int) -> Int64 {
        10 * 1_000_000_000 / Int64(max(baud, 300))
    }

    /// Completes the open epoch when the line has been quiet until `now` (`quietDeadlineNanoseconds`).
    public mutating func closeIfQuiet(nowNanoseconds now: Int64, _ onFix: (borrowing Fix) -> Void) {
        guard let deadline = quietDeadlineNanoseconds, now >= deadline else { return }
        counters.epochsClosedByQuietLine += 1
        let atBurstEnd = learner.isLearning
        complete(onFix)
        closedAtBurstEnd = atBurstEnd
        lastReadBeforeBurstClose = lastActivityNanoseconds ?? now
        firstReadAfterBurstClose = nil
    }

    // MARK: epoch boundaries

    /// Places a sentence stamped `time`: a different time completes the open epoch and opens the next
    /// one. Returns true when the sentence belongs to the open epoch (false: no time, or its epoch was
    /// already closed; both counted).
    private mutating func placeTimed(_ time: UTCTimeOfDay?, _ onFix: (borrowing Fix) -> Void) -> Bool {
        guard let time else {
            counters.sentencesWithoutTime += 1
            return false
        }
        if state != .none && acc.timeOfDay == time { return placeUntimed() }
        if state == .open {
            counters.epochsClosedByNextEpoch += 1
            complete(onFix)
        }
        if sky.publishIfComplete(used: usedSets[1 - usedIndex]) { counters.skyViews += 1 }
        acc = EpochAccumulator(timeOfDay: time)
        state = .open
        closedAtBurstEnd = false
        learner.beginCycle(timeOfDayNanoseconds: time.nanoseconds)
        return true
    }

    /// Places a sentence of the current epoch: true while it is open; counted when it already closed
    /// or none began yet.
    private mutating func placeUntimed() -> Bool {
        switch state {
        case .open: return true
        case .closed:
            counters.sentencesAfterClose += 1
            if closedAtEnder {
                learner.noteWrongEnder()
                closedAtEnder = false
            }
            if closedAtBurstEnd {
                cutPending = true
                closedAtBurstEnd = false
            }
        case .none: counters.sentencesBeforeFirstEpoch += 1
        }
        return false
    }

    /// Completes the open epoch into `lastFix` and hands it out.
    private mutating func complete(_ onFix: (borrowing Fix) -> Void) {
        completeOpenEpoch()
        state = .closed
        closedAtEnder = false
        closedAtBurstEnd = false
        onFix(lastFix)
    }

    /// Nanoseconds from `a` to `b`: by UTC when both are dated, else by time of day across midnight.
    public static func interval(from a: borrowing Fix, to b: borrowing Fix) -> Int64 {
        interval(fromUTC: a.utcNanoseconds, timeOfDay: a.timeOfDayNanoseconds,
                 toUTC: b.utcNanoseconds, timeOfDay: b.timeOfDayNanoseconds)
    }

    /// The same from the two epochs' times alone: UTC nanoseconds when both have a date, else the
    /// time-of-day difference taken across midnight the short way, nanoseconds.
    public static func interval(fromUTC ua: Int64?, timeOfDay ta: Int64, toUTC ub: Int64?, timeOfDay tb: Int64) -> Int64 {
        if let ua, let ub { return ub - ua }
        var d = tb - ta
        if d < -43_200_000_000_000 { d += 86_400_000_000_000 } else if d > 43_200_000_000_000 { d -= 86_400_000_000_000 }
        return d
    }

    /// The open epoch's day (days since 1970): its own date, else the last known date carried across midnight.
    mutating func resolveDay() -> Int64? {
        let time = acc.timeOfDay.nanoseconds
        if let date = acc.date, let resolved = configuration.dates.days(for: date) {
            let days = resolved.days
            if resolved.rolloverCorrections > 0 { counters.weekRolloverCorrections += 1 }
            knownDay = days
            knownDayTime = time
            return days
        }
        guard var day = knownDay else { return nil }
        let delta = time - knownDayTime                    // both times of day: bounded
        // ±1 per epoch: a hostile stream can walk the day far; utcNanoseconds refuses it past 2262.
        if delta < -43_200_000_000_000 { day &+= 1 } else if delta > 43_200_000_000_000 { day &-= 1 }
        knownDay = day
        knownDayTime = time
        return day
    }
}
