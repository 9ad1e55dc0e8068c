/// The recent track for the overview: a fixed ring of world-unit positions (oldest overwritten).
struct TrackHistory: Sendable {
    /// Positions kept.
    static let capacity = 256
    private var points: InlineArray<256, MercatorPoint> = .init(repeating: MercatorPoint(x: 0, y: 0))
    private var head = 0
    private(set) var count = 0
    /// Changes whenever a point is added (the overview refits when it changes).
    private(set) var version: UInt64 = 0
    private(set) var last: GeoCoordinate? = nil
    /// The newest point (kept apart so reading it does not copy the ring).
    private var newest = MercatorPoint(x: 0, y: 0)

    /// Bounding box of the stored points (x unwrapped round the newest point), kept up to date on add.
    private var boxMin = MercatorPoint(x: 0, y: 0)
    private var boxMax = MercatorPoint(x: 0, y: 0)

    /// Adds `coordinate` when it is at least `spacingMeters` from the last point added.
    mutating func add(_ coordinate: GeoCoordinate, spacingMeters: Double) {
        if let last, WebMercator.distanceMeters(last, coordinate) < spacingMeters { return }
        let p = WebMercator.project(coordinate)
        var overwritten = false
        if count == Self.capacity {
            points[head] = p
            head = (head + 1) % Self.capacity
            overwritten = true
        } else {
            points[(head + count) % Self.capacity] = p
            count += 1
        }
        last = coordinate
        newest = p
        version &+= 1
        if overwritten || count == 1 { recomputeBox() } else { extendBox(with: p) }
    }

    /// Forgets the track.
    mutating func removeAll() {
        head = 0
        count = 0
        last = nil
        version &+= 1
    }

    /// Bounding box of the track plus `extra` (unwrapped round the newest point), or nil when empty.
    @inline(__always)
    func bounds(including extra: MercatorPoint?) -> (min: MercatorPoint, max: MercatorPoint)? {
        guard count > 0 else {
            guard let e = extra else { return nil }
            return (e, e)
        }
        var lo = boxMin, hi = boxMax
        if var e = extra {
            let reference = newest.x
            if e.x - reference > 0.5 { e.x -= 1 } else if e.x - reference < -0.5 { e.x += 1 }
            lo = MercatorPoint(x: min(lo.x, e.x), y: min(lo.y, e.y))
            hi = MercatorPoint(x: max(hi.x, e.x), y: max(hi.y, e.y))
        }
        return (lo, hi)
    }

    private mutating func extendBox(with p: MercatorPoint) {
        // Unwrap the box round the newest point when the newest point crossed the antimeridian.
        var x = p.x
        let mid = (boxMin.x + boxMax.x) / 2
        if x - mid > 0.5 { x -= 1 } else if x - mid < -0.5 { x += 1 }
        if x != p.x { recomputeBox(); return }
        boxMin = MercatorPoint(x: min(boxMin.x, x), y: min(boxMin.y, p.y))
        boxMax = MercatorPoint(x: max(boxMax.x, x), y: max(boxMax.y, p.y))
    }

    private mutating func recomputeBox() {
        let ref = newest
        var lo = ref, hi = ref
        var i = 0
        while i < count {
            let p = points[(head + i) % Self.capacity]
            var x = p.x
            if x - ref.x > 0.5 { x -= 1 } else if x - ref.x < -0.5 { x += 1 }
            lo.x = min(lo.x, x); hi.x = max(hi.x, x)
            lo.y = min(lo.y, p.y); hi.y = max(hi.y, p.y)
            i += 1
        }
        boxMin = lo
        boxMax = hi
    }
}
