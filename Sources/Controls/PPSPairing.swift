import GPIO

/// Limits of the PPS pairing, in nanoseconds.
public struct PPSPairingSettings: Sendable, Equatable {
    /// A whole-second fix pairs with the last pulse only if it was received at most this long after it
    /// (default 950 ms; receivers send the sentences of second S 50–500 ms after the pulse of S).
    public var maximumSentenceLatencyNanoseconds: Int64 = 950_000_000
    /// A pulse interval counts as regular when within this of a whole number of seconds (default 100 ms).
    public var intervalToleranceNanoseconds: Int64 = 100_000_000

    public init() {}
}

/// A pulse paired with the UTC second it marks.
public struct PPSPairedPulse: Sendable, Equatable {
    /// The pulse's rising edge on the local clock, nanoseconds (monotonic for GPIO edges, realtime for
    /// the kernel PPS device).
    public var pulseNanoseconds: Int64
    /// The UTC second the pulse marks, nanoseconds since 1970 (a multiple of 1 s).
    public var utcNanoseconds: Int64
    /// UTC minus the local clock at the pulse: add it to a local time to get UTC.
    public var clockOffsetNanoseconds: Int64
    /// How long after the pulse the fix of that second arrived (receiver + serial latency).
    public var sentenceLatencyNanoseconds: Int64
}

/// Running PPS figures: counts, the local clock's rate error against the GPS second, and pulse jitter.
public struct PPSStatistics: Sendable, Equatable {
    /// Pulses seen.
    public var pulseCount = 0
    /// Pulses paired with a fix.
    public var pairedCount = 0
    /// Pulses no fix claimed before the next pulse.
    public var unpairedPulseCount = 0
    /// Whole-second fixes with no pulse within the latency window.
    public var unpairedFixCount = 0
    /// Pulses missing from the train (an interval of n seconds counts n − 1).
    public var missedPulseCount = 0
    /// Pulses at an interval that is no whole number of seconds (noise on the line, receiver restart).
    public var irregularPulseCount = 0
    /// The last pairing, if any.
    public var lastPairing: PPSPairedPulse?
    /// One-second intervals measured.
    public var intervalCount = 0
    /// Mean of (interval − 1 s) over one-second intervals, nanoseconds: the local clock's rate error in
    /// parts per billion (positive = local clock fast).
    public var rateErrorPartsPerBillion: Double = 0
    /// Standard deviation of the one-second intervals, nanoseconds (pulse-to-pulse jitter; √2 × the jitter
    /// of a single edge when edges jitter independently).
    public var intervalJitterNanoseconds: Double { intervalCount > 1 ? (m2 / Double(intervalCount - 1)).squareRoot() : 0 }

    var m2: Double = 0

    public init() {}
}

/// Pairs PPS rising edges with the next whole-second fix to find the offset between UTC and the local
/// clock, and measures the pulse train. Pure: times in, figures out, no allocation.
///
/// Rule: the pulse marks the start of UTC second S and the receiver's sentences for S follow it, so a fix
/// with UTC exactly S received within `maximumSentenceLatencyNanoseconds` after the last unpaired pulse
/// pairs with it. Pulse and reception times must come from the same clock (monotonic for GPIO edge
/// events, CLOCK_REALTIME for `/dev/pps0`, whose offset is then the system clock's error).
/// An irregular pulse is counted and becomes the new reference, so the train resynchronises at once.
public struct PPSPairing: Sendable {
    /// Limits.
    public let settings: PPSPairingSettings
    /// Figures so far.
    public private(set) var statistics = PPSStatistics()
    private var lastPulseNanoseconds: Int64?
    private var pendingPulseNanoseconds: Int64?

    public init(settings: PPSPairingSettings = PPSPairingSettings()) {
        self.settings = settings
    }

    /// Records a rising edge at `timeNanoseconds` (local clock).
    public mutating func pulse(atNanoseconds timeNanoseconds: Int64) {
        statistics.pulseCount += 1
        if pendingPulseNanoseconds != nil { statistics.unpairedPulseCount += 1 }
        pendingPulseNanoseconds = timeNanoseconds
        defer { lastPulseNanoseconds = timeNanoseconds }
        guard let last = lastPulseNanoseconds else { return }
        let interval = timeNanoseconds &- last
        // Kernel timestamps (0 … 2^62): a wrapped or absurd interval is irregular, never arithmetic.
        guard interval > 0, interval < 1 << 62 else {
            statistics.irregularPulseCount += 1
            return
        }
        let seconds = (interval + 500_000_000) / 1_000_000_000
        let deviation = interval - seconds * 1_000_000_000
        if seconds < 1 || abs(deviation) > settings.intervalToleranceNanoseconds {
            statistics.irregularPulseCount += 1
            return
        }
        if seconds > 1 {
            statistics.missedPulseCount += Int(seconds - 1)
            return
        }
        // Welford's running mean and variance of the one-second interval error.
        statistics.intervalCount += 1
        let x = Double(deviation)
        let delta = x - statistics.rateErrorPartsPerBillion
        statistics.rateErrorPartsPerBillion += delta / Double(statistics.intervalCount)
        statistics.m2 += delta * (x - statistics.rateErrorPartsPerBillion)
    }

    /// Records a PPS GPIO line's edge event: rising edges are pulses, falling edges (the end of the
    /// 100 ms pulse) are ignored. Request the line active-high with bias as-is or disabled.
    public mutating func edge(_ event: GPIOEdgeEvent) {
        if event.edge == .rising { pulse(atNanoseconds: event.timestampNanoseconds) }
    }

    /// Offers a fix: `utcNanoseconds` its UTC time, `receivedAtNanoseconds` when its last sentence arrived
    /// (same clock as the pulses). Returns the pairing when the fix is on a whole second and follows an
    /// unpaired pulse closely enough; fixes between whole seconds (5/10 Hz receivers) are ignored.
    public mutating func fix(utcNanoseconds: Int64, receivedAtNanoseconds: Int64) -> PPSPairedPulse? {
        if utcNanoseconds % 1_000_000_000 != 0 { return nil }
        guard let pulse = pendingPulseNanoseconds else {
            statistics.unpairedFixCount += 1
            return nil
        }
        let latency = receivedAtNanoseconds &- pulse
        if latency < 0 || latency > settings.maximumSentenceLatencyNanoseconds {
            statistics.unpairedFixCount += 1
            return nil
        }
        pendingPulseNanoseconds = nil
        let pairing = PPSPairedPulse(pulseNanoseconds: pulse, utcNanoseconds: utcNanoseconds,
                                     clockOffsetNanoseconds: utcNanoseconds &- pulse,
                                     sentenceLatencyNanoseconds: latency)
        statistics.pairedCount += 1
        statistics.lastPairing = pairing
        return pairing
    }

    /// UTC at local time `localNanoseconds` from the last pairing and the measured rate error, or nil
    /// before the first pairing.
    public func utcNanoseconds(atLocalNanoseconds localNanoseconds: Int64) -> Int64? {
        guard let last = statistics.lastPairing else { return nil }
        let elapsed = localNanoseconds &- last.pulseNanoseconds
        // The rate error is a mean of deviations within intervalToleranceNanoseconds (a fraction of a
        // second per second), so |correction| < |elapsed|: the conversion cannot trap; NaN is 0.
        let correction = Double(elapsed) * statistics.rateErrorPartsPerBillion / 1e9
        let bounded = correction.isFinite ? min(max(correction, -9e18), 9e18) : 0
        return last.utcNanoseconds &+ elapsed &- Int64(bounded.rounded())
    }
}
