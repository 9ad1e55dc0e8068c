/// Gives the samples of FIFO bursts their times: the newest sample of a burst was converted at most
/// one output-data period before the read, and consecutive samples are one period apart. The period
/// starts at the chip's nominal rate and is then measured (read time over samples counted since the
/// anchor, after at least 2 s), because a chip's real rate differs from the nominal by up to a few
/// per cent; the measurement replaces it only when it differs by more than its own resolution.
///
/// Each burst's newest sample is placed one measured period after the previous burst's newest times
/// the count, kept inside (read − period, read]: spacing stays exact while the read times jitter, and
/// the error is at most one period when the chip's rate drifts. After `restart` (an overrun, a
/// re-initialization) the next burst is anchored at its read time. Pure and allocation-free.
public struct IMUSampleClock: Sendable {
    /// The chip's nominal sample period, nanoseconds.
    public let nominalPeriodNanoseconds: Double
    /// The period in use (nominal until measured), nanoseconds.
    public private(set) var periodNanoseconds: Double
    /// Time given to the newest sample so far (nil before the first burst or after `restart`).
    public private(set) var newestNanoseconds: Int64?
    private var anchorReadNanoseconds: Int64 = 0
    private var samplesSinceAnchor = 0
    /// The part of a nanosecond by which the newest sample's exact time is later than
    /// `newestNanoseconds` (a period is not whole nanoseconds: rounding each burst's step would move
    /// the time line by up to half a nanosecond a burst).
    private var newestFraction = 0.0
    /// Shortest span of reads over which the period is measured, nanoseconds.
    public static let measurementSpanNanoseconds: Int64 = 2_000_000_000
    /// How far the measured period may be from the nominal (a chip's rate tolerance, generously).
    public static let periodTolerance = 0.1

    /// A clock for a chip converting at `outputDataRateHertz`.
    public init(outputDataRateHertz: Double) {
        nominalPeriodNanoseconds = 1e9 / outputDataRateHertz
        periodNanoseconds = nominalPeriodNanoseconds
    }

    /// Forgets the time line (the next burst is anchored at its read time) but keeps the period.
    public mutating func restart() {
        newestNanoseconds = nil
        samplesSinceAnchor = 0
        newestFraction = 0
    }

    /// The time of the `index`-th of `count` samples (oldest 0) of a burst read at `readNanoseconds`.
    /// Call `place(count:readNanoseconds:)` first.
    @inline(__always)
    public func time(ofSample index: Int, count: Int) -> Int64 {
        let newest = newestNanoseconds ?? 0
        return newest - Int64((Double(count - 1 - index) * periodNanoseconds).rounded())
    }

    /// Places a burst of `count` samples read at `readNanoseconds`; afterwards `time(ofSample:count:)`
    /// gives each sample's time.
    public mutating func place(count: Int, readNanoseconds read: Int64) {
        guard count > 0 else { return }
        guard let previous = newestNanoseconds else {
            newestNanoseconds = read
            anchorReadNanoseconds = read
            samplesSinceAnchor = 0
            newestFraction = 0
            return
        }
        samplesSinceAnchor += count
        let span = read - anchorReadNanoseconds
        if span >= IMUSampleClock.measurementSpanNanoseconds {
            // Each read is late by less than one period, so the measured period is off by less than
            // period / samples: it replaces the one in use only when it differs by more than twice that.
            let measured = Double(span) / Double(samplesSinceAnchor)
            let resolution = periodNanoseconds / Double(samplesSinceAnchor)
            let low = nominalPeriodNanoseconds * (1 - IMUSampleClock.periodTolerance)
            let high = nominalPeriodNanoseconds * (1 + IMUSampleClock.periodTolerance)
            if abs(measured - periodNanoseconds) > 2 * resolution { periodNanoseconds = min(max(measured, low), high) }
        }
        let step = Double(count) * periodNanoseconds + newestFraction
        let whole = step.rounded(.down)
        var newest = previous + Int64(whole)
        newestFraction = step - whole
        let earliest = read - Int64(periodNanoseconds.rounded())
        if newest > read { newest = read; newestFraction = 0 }
        if newest < earliest { newest = earliest; newestFraction = 0 }
        newestNanoseconds = newest
    }

    /// After `place`: the `sample`-th of `count` samples (oldest 0) is known to have been converted at
    /// `atNanoseconds`, the kernel's timestamp of the watermark interrupt's edge; the burst's times are
    /// moved onto it. Ignored when that sample is not in the burst or the time is not before the read
    /// (a stale edge): the placed times stand.
    public mutating func anchor(sample: Int, count: Int, atNanoseconds edge: Int64, readNanoseconds read: Int64) {
        guard sample >= 0, sample < count, edge <= read else { return }
        let newest = edge + Int64((Double(count - 1 - sample) * periodNanoseconds).rounded())
        guard newest <= read, newest > read - Int64((Double(count) * periodNanoseconds).rounded()) else { return }
        newestNanoseconds = newest
        newestFraction = 0
    }
}
