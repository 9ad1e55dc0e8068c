import Angles

/// Linear smoothing of the puck position and accuracy between fixes, restarted from the current
/// value on each new fix (tracking.md 8.9, 10.5, 13.1). Positions are interpolated in world units along the
/// shortest way round the world.
struct PuckMotion: Sendable {
    private(set) var hasValue = false
    private var from = MercatorPoint(x: 0, y: 0)
    private var to = MercatorPoint(x: 0, y: 0)
    private var fromAccuracy: Double? = nil
    private var toAccuracy: Double? = nil
    private var startNanoseconds: Int64 = 0
    private var durationNanoseconds: Int64 = 0

    /// Position (world units, x wrapped to 0..<1) and accuracy at `now`.
    func value(at now: Int64) -> (point: MercatorPoint, accuracyMeters: Double?) {
        let t = durationNanoseconds > 0
            ? min(1, max(0, Double(now - startNanoseconds) / Double(durationNanoseconds))) : 1
        if t >= 1 { return (wrapped(to), toAccuracy) }
        let p = MercatorPoint(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t)
        var accuracy: Double? = nil
        if let a = fromAccuracy, let b = toAccuracy { accuracy = a + (b - a) * t } else { accuracy = toAccuracy }
        return (wrapped(p), accuracy)
    }

    /// True while moving at `now`.
    func isMoving(at now: Int64) -> Bool { hasValue && now < startNanoseconds + durationNanoseconds }

    /// Moves to `target` over `durationNanoseconds` from wherever the puck is at `now`
    /// (0 = place at once).
    mutating func move(to target: MercatorPoint, accuracyMeters: Double?, at now: Int64, durationNanoseconds: Int64) {
        if !hasValue || durationNanoseconds <= 0 {
            hasValue = true
            from = target
            to = target
            fromAccuracy = accuracyMeters
            toAccuracy = accuracyMeters
            startNanoseconds = now
            self.durationNanoseconds = 0
            return
        }
        let current = value(at: now)
        from = current.point
        fromAccuracy = current.accuracyMeters
        var end = target
        if end.x - from.x > 0.5 { end.x -= 1 } else if end.x - from.x < -0.5 { end.x += 1 }
        to = end
        toAccuracy = accuracyMeters
        startNanoseconds = now
        self.durationNanoseconds = durationNanoseconds
    }

    /// Forgets the position.
    mutating func reset() { hasValue = false }

    private func wrapped(_ p: MercatorPoint) -> MercatorPoint {
        var x = p.x
        if x >= 1 { x -= 1 } else if x < 0 { x += 1 }
        return MercatorPoint(x: x, y: p.y)
    }
}

/// Shortest-arc linear smoothing of an angle (puck heading/course), tracking.md 10.5 / 12.7: 350° → 10°
/// passes through 0°, never through 180°.
struct BearingMotion: Sendable {
    private(set) var hasValue = false
    private var from = 0.0
    private var to = 0.0
    private var startNanoseconds: Int64 = 0
    private var durationNanoseconds: Int64 = 0

    /// Angle at `now`, degrees 0..<360 (nil before the first value).
    func value(at now: Int64) -> Double? {
        guard hasValue else { return nil }
        let t = durationNanoseconds > 0
            ? min(1, max(0, Double(now - startNanoseconds) / Double(durationNanoseconds))) : 1
        return Angle.wrap360(from + (to - from) * t)
    }

    /// Target angle (where the motion ends), degrees 0..<360.
    var target: Double? { hasValue ? Angle.wrap360(to) : nil }

    /// True while turning at `now`.
    func isMoving(at now: Int64) -> Bool { hasValue && now < startNanoseconds + durationNanoseconds }

    /// Turns to `target` over `durationNanoseconds` along the shortest arc from the value at `now`.
    mutating func turn(to target: Double, at now: Int64, durationNanoseconds: Int64) {
        guard let current = value(at: now), durationNanoseconds > 0 else {
            hasValue = true
            from = Angle.wrap360(target)
            to = from
            startNanoseconds = now
            self.durationNanoseconds = 0
            return
        }
        from = current
        to = current + Angle.shortestDelta(from: current, to: target)
        startNanoseconds = now
        self.durationNanoseconds = durationNanoseconds
    }

    /// Forgets the angle.
    mutating func reset() { hasValue = false }
}
