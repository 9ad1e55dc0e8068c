/// Groups parsed sentences into receiver cycles and turns each cycle into one `Fix`.
///
/// A cycle ("epoch") is the set of sentences carrying the same UTC time of day. A timed sentence
/// (GGA, RMC, GLL, GNS, ZDA) with a different time completes the open epoch and opens the next one;
/// untimed sentences (GSA, VTG, HDT, THS, GSV) belong to the epoch of the timed sentence before them;
/// GST joins the open epoch when its time matches. Merge rules: `EpochAccumulator`.
/// Dates: RMC (valid) or ZDA date of the epoch, else the last known date carried across midnight;
/// two-digit years and GPS week rollovers per `UTCDateResolver`. Accuracy: `AccuracyModel`.
///
/// When an epoch carries no speed (no RMC/VTG, e.g. 10 Hz GGA between 1 Hz RMCs), speed and course
/// are derived from the previous epoch's position (Vincenty distance / time difference), as gpsd does,
/// and flagged `speedAndCourseDerived`: only when both epochs have a fix and they are 0 < Δt ≤
/// `maximumDerivationIntervalNanoseconds` apart. Course is derived only at ≥ `minimumSpeedForCourse`
/// (below that, position noise decides the direction).
///
/// Allocation-free: `consume` returns true when it completed an epoch, which is then in `lastFix`.
public struct EpochAssembler: Sendable {
    /// Tunables, with their defaults.
    public struct Configuration: Sendable, Equatable {
        public var dates = UTCDateResolver()
        public var accuracy = AccuracyModel()
        /// Longest interval over which speed is derived from two positions, nanoseconds (10 s).
        public var maximumDerivationIntervalNanoseconds: Int64 = 10_000_000_000
        /// Slowest derived speed for which a course is derived too, m/s.
        public var minimumSpeedForCourse = 0.5
        public init() {}
    }

    /// Consecutive epochs further apart than this count as a gap (2 s).
    public static let gapThresholdNanoseconds: Int64 = 2_000_000_000

    public var configuration: Configuration
    /// The most recently completed epoch (valid after `consume`/`finish` returned true).
    public private(set) var lastFix = Fix(timeOfDayNanoseconds: 0)
    public private(set) var counters = AssemblerCounters()

    /// The most recent complete set of GSV sentences, with used flags from the latest GSA.
    public var skyView: SkyView { sky.published }

    private var acc = EpochAccumulator(timeOfDay: UTCTimeOfDay(nanoseconds: 0))
    private var hasOpenEpoch = false
    private var hasPrevious = false
    private var knownDay: Int64?
    private var knownDayTime: Int64 = 0
    /// GSA satellites of the open epoch (`usedSets[usedIndex]`) and of the latest epoch that had GSA.
    private var usedSets: InlineArray<2, UsedSatellites> = .init(repeating: UsedSatellites())
    private var usedIndex = 0
    private var sky = SkyViewBuilder()

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Feeds one parsed sentence. Returns true when this completed an epoch (now in `lastFix`).
    public mutating func consume(_ sentence: borrowing ParsedSentence) -> Bool {
        let talker = sentence.talker
        switch sentence.message {
        case .gga(let g):
            let done = beginTimed(g.time)
            if hasOpenEpoch && acc.timeOfDay == g.time { acc.merge(g, talker: talker) }
            return done
        case .rmc(let r):
            let done = beginTimed(r.time)
            if hasOpenEpoch && acc.timeOfDay == r.time { acc.merge(r) }
            return done
        case .gll(let g):
            let done = beginTimed(g.time)
            if hasOpenEpoch && acc.timeOfDay == g.time { acc.merge(g) }
            return done
        case .gns(let g):
            let done = beginTimed(g.time)
            if hasOpenEpoch && acc.timeOfDay == g.time { acc.merge(g, talker: talker) }
            return done
        case .zda(let z):
            guard let time = z.time else { return false }
            let done = beginTimed(time)
            if let d = z.date { acc.date = d }
            return done
        case .gst(let g):
            if hasOpenEpoch, let time = g.time, acc.timeOfDay == time { acc.ellipse = g.ellipse }
            else { counters.unmatchedErrorStatistics += 1 }
        case .gsa(let g):
            if hasOpenEpoch { acc.merge(g, talker: talker, used: &usedSets[usedIndex]) }
            else { counters.sentencesBeforeFirstEpoch += 1 }
        case .vtg(let v):
            if hasOpenEpoch { acc.merge(v) } else { counters.sentencesBeforeFirstEpoch += 1 }
        case .hdt(let h):
            if hasOpenEpoch { acc.mergeHeading(h.headingDegrees) } else { counters.sentencesBeforeFirstEpoch += 1 }
        case .ths(let t):
            if !t.isValid { break }
            if hasOpenEpoch { acc.mergeHeading(t.headingDegrees) } else { counters.sentencesBeforeFirstEpoch += 1 }
        case .gsv(let g):
            switch sky.add(g, talker: talker, used: usedSets[1 - usedIndex]) {
            case .ok: break
            case .sequenceError: counters.satelliteSequenceErrors += 1
            case .published: counters.skyViews += 1
            }
        case .proprietary, .encapsulated, .other, .invalid:
            break
        }
        return false
    }

    /// Ends the stream: completes the open epoch. Returns true when that produced a `lastFix`.
    public mutating func finish() -> Bool {
        guard hasOpenEpoch else { return false }
        completeOpenEpoch()
        hasOpenEpoch = false
        return true
    }

    // MARK: epoch boundaries

    /// Prepares the open epoch for a sentence stamped `time`: a different time completes the open
    /// epoch (returning true) and opens a new one. A missing time is counted and changes nothing.
    private mutating func beginTimed(_ time: UTCTimeOfDay?) -> Bool {
        guard let time else {
            counters.sentencesWithoutTime += 1
            return false
        }
        if hasOpenEpoch && acc.timeOfDay == time { return false }
        let completed = hasOpenEpoch
        if completed { completeOpenEpoch() }
        acc = EpochAccumulator(timeOfDay: time)
        hasOpenEpoch = true
        return completed
    }

    // MARK: completing an epoch

    /// Turns the open epoch into `lastFix`.
    private mutating func completeOpenEpoch() {
        if usedSets[usedIndex].count > 0 {
            usedIndex = 1 - usedIndex                      // the open epoch's set becomes the latest
            usedSets[usedIndex].removeAll()
        }
        if sky.publishIfComplete(used: usedSets[1 - usedIndex]) { counters.skyViews += 1 }

        let previousUTC = lastFix.utcNanoseconds
        let previousTime = lastFix.timeOfDayNanoseconds
        let previousLatitude = lastFix.hasPosition ? lastFix.latitudeDegrees : nil
        let previousLongitude = lastFix.longitudeDegrees

        lastFix = Fix(timeOfDayNanoseconds: acc.timeOfDay.nanoseconds)
        lastFix.isLeapSecond = acc.timeOfDay.isLeapSecond
        if let day = resolveDay(),
           let utc = UTCDateResolver.utcNanoseconds(days: day, timeOfDayNanoseconds: acc.timeOfDay.nanoseconds) {
            lastFix.utcNanoseconds = utc
        } else { counters.epochsWithoutDate += 1 }

        if acc.hasFix {
            let satellites = acc.satellitesUsed
            switch acc.gsaFixType {
            case 3: lastFix.mode = .threeD
            case 2: lastFix.mode = .twoD
            default: lastFix.mode = acc.altitudeMSL != nil && (satellites ?? 4) >= 4 ? .threeD : .twoD
            }
            lastFix.quality = acc.quality ?? acc.modeQuality ?? .gps
            lastFix.latitudeDegrees = acc.latitude
            lastFix.longitudeDegrees = acc.longitude
            lastFix.altitudeMSLMeters = acc.altitudeMSL
            lastFix.geoidSeparationMeters = acc.geoidSeparation
            lastFix.speedMetersPerSecond = acc.speed
            lastFix.courseDegrees = acc.course
            lastFix.magneticVariationDegrees = acc.magneticVariation
            lastFix.differentialAgeSeconds = acc.differentialAge
            lastFix.differentialStationID = acc.differentialStation
        }
        lastFix.trueHeadingDegrees = acc.heading
        lastFix.hdop = acc.hdop ?? acc.ggaHDOP
        lastFix.vdop = acc.vdop
        lastFix.pdop = acc.pdop
        lastFix.satellitesUsed = acc.satellitesUsed
        lastFix.satellitesInView = counters.skyViews > 0 ? sky.publishedDistinctSatellites : nil
        lastFix.errorEllipse = acc.ellipse
        configuration.accuracy.apply(to: &lastFix)

        if hasPrevious {
            let dt = Self.interval(fromUTC: previousUTC, timeOfDay: previousTime,
                                   toUTC: lastFix.utcNanoseconds, timeOfDay: lastFix.timeOfDayNanoseconds)
            if dt < 0 { counters.timeWentBackwards += 1 }
            if dt > Self.gapThresholdNanoseconds { counters.gaps += 1 }
            if lastFix.hasPosition, lastFix.speedMetersPerSecond == nil,
               let lat1 = previousLatitude, let lon1 = previousLongitude,
               dt > 0, dt <= configuration.maximumDerivationIntervalNanoseconds {
                deriveVelocity(fromLatitude: lat1, longitude: lon1, intervalNanoseconds: dt)
            }
        }
        hasPrevious = true
        counters.epochs += 1
        if lastFix.mode != .noFix { counters.epochsWithFix += 1 }
    }

    private mutating func deriveVelocity(fromLatitude lat1: Double, longitude lon1: Double, intervalNanoseconds: Int64) {
        guard let lat2 = lastFix.latitudeDegrees, let lon2 = lastFix.longitudeDegrees else { return }
        let (distance, bearing) = Geodesy.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
        let speed = distance / (Double(intervalNanoseconds) / 1e9)
        guard speed.isFinite, speed <= 10_000 else { return }
        lastFix.speedMetersPerSecond = speed
        if lastFix.courseDegrees == nil, speed >= configuration.minimumSpeedForCourse {
            lastFix.courseDegrees = bearing
        }
        lastFix.speedAndCourseDerived = true
        counters.derivedVelocities += 1
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
    private mutating func resolveDay() -> Int64? {
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
