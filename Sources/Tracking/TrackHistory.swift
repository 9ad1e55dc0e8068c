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

    /// Adds `coordinate` when it is at least `spacingMeters` from the last point added.
    mutating func add(_ coordinate: GeoCoordinate, spacingMeters: Double) {
        if let last, WebMercator.distanceMeters(last, coordinate) < spacingMeters { return }
        let p = WebMercator.project(coordinate)
        if count == Self.capacity {
            points[head] = p
            head = (head + 1) % Self.capacity
        } else {
            points[(head + count) % Self.capacity] = p
            count += 1
        }
        last = coordinate
        version &+= 1
    }

    /// Forgets the track.
    mutating func removeAll() {
        head = 0
        count = 0
        last = nil
        version &+= 1
    }

    /// Bounding box of the track plus `extra` (unwrapped round the newest point), or nil when empty.
    func bounds(including extra: MercatorPoint?) -> (min: MercatorPoint, max: MercatorPoint)? {
        var reference: MercatorPoint? = extra
        if reference == nil && count > 0 { reference = points[(head + count - 1) % Self.capacity] }
        guard let ref = reference else { return nil }
        var minX = ref.x, maxX = ref.x, minY = ref.y, maxY = ref.y
        var i = 0
        while i < count {
            let p = points[(head + i) % Self.capacity]
            var x = p.x
            if x - ref.x > 0.5 { x -= 1 } else if x - ref.x < -0.5 { x += 1 }
            minX = min(minX, x); maxX = max(maxX, x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
            i += 1
        }
        return (MercatorPoint(x: minX, y: minY), MercatorPoint(x: maxX, y: maxY))
    }
}
