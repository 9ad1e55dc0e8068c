import Angles

/// The heading of the last few seconds, one entry every `spacingNanoseconds`: a GNSS fix describes
/// the vehicle's velocity at the fix's own time, which can be up to a receiver period before the fix
/// arrives (an epoch closed on a quiet line or by the next epoch), so its course is compared with the
/// heading of that moment. Fixed size, no allocation.
public struct HeadingHistory: Sendable {
    private var times = InlineArray<32, Int64>(repeating: Int64.min)
    private var headings = InlineArray<32, Double>(repeating: 0)
    private var newest = -1

    /// Time between two entries, nanoseconds (32 entries: 6.4 s).
    public static let spacingNanoseconds: Int64 = 200_000_000

    public init() {}

    /// True when an entry is due at `now` (the spacing since the last one has passed).
    @inline(__always)
    public func isDue(atNanoseconds now: Int64) -> Bool {
        newest < 0 || now &- times[newest] >= HeadingHistory.spacingNanoseconds || now < times[newest]
    }

    /// Records the heading (degrees) at `now`, when an entry is due.
    @inline(__always)
    public mutating func record(headingDegrees: Double, atNanoseconds now: Int64) {
        guard isDue(atNanoseconds: now) else { return }
        newest = (newest + 1) & 31
        times[newest] = now
        headings[newest] = headingDegrees
    }

    /// Forgets everything (a restart, a gap).
    public mutating func reset() { self = HeadingHistory() }

    /// The heading at `time`, degrees, interpolated between the entries around it (the shorter way
    /// round); nil when `time` is older than the history or more than the spacing after its last entry.
    public func headingDegrees(atNanoseconds time: Int64) -> Double? {
        guard newest >= 0 else { return nil }
        var later = newest
        if time >= times[later] {
            // Newer than the last entry: that entry, while it is younger than the spacing.
            return time - times[later] <= HeadingHistory.spacingNanoseconds ? headings[later] : nil
        }
        for _ in 0..<31 {
            let earlier = (later + 31) & 31
            let t0 = times[earlier]
            if t0 == Int64.min || t0 > times[later] { return nil }
            if time >= t0 {
                let f = Double(time - t0) / Double(times[later] - t0)
                return Angle.wrap360(headings[earlier] + Angle.wrap180(headings[later] - headings[earlier]) * f)
            }
            later = earlier
        }
        return nil
    }
}
