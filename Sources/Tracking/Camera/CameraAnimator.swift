import Angles

/// The camera's animatable values (internal form: centre in world units, angles in degrees).
struct CameraValues: Sendable, Equatable {
    var center: MercatorPoint
    var zoom: Double
    var bearingDegrees: Double
    var pitchDegrees: Double
    var padding: EdgeInsets
}

/// What an animation group was started for; the core reacts when it finishes.
enum AnimationPurpose: UInt8, Sendable {
    case command
    case firstFly
    case followEase
    case headingEase
    case courseTargetFit
    case viewportTransition
    case overviewRefit
    case unrotate
    case zoomFloor
    case gesture
    case contentInset
}

/// A camera property that animates on its own (mbgl `Transform` per-property animations, tracking.md 3.4;
/// Mapbox per-property transition animators, tracking.md 10.9).
enum CameraChannelKind: Int, Sendable {
    case center = 0, zoom, bearing, pitch, padding
}

/// Per-property camera animations grouped by request, in fixed storage.
///
/// Starting an animation on a property that is already animating replaces that property's animation
/// and **finishes the old request at once** (its completion fires, interrupted). The MapLibre side of
/// the core cancels every request before it starts one (mbgl runs one transition, tracking.md 3.8);
/// Mapbox's default viewport transition runs its properties as separate animators with their own
/// delays (tracking.md 10.9). A request finishes normally when its end time passes. A request may
/// carry an anchor: a screen point whose ground point stays under it while zoom, bearing or pitch
/// animate (mbgl `AnimationOptions` anchor; ignored when the request moves the centre).
struct CameraAnimator: Sendable {
    struct Channel: Sendable {
        var active = false
        var groupID: UInt32 = 0
        var startNanoseconds: Int64 = 0
        var durationNanoseconds: Int64 = 0
        var curve: TimingCurve = .linear
        var fromScalar = 0.0
        var toScalar = 0.0
        var fromCenter = MercatorPoint(x: 0, y: 0)
        var toCenter = MercatorPoint(x: 0, y: 0)
        var fromPadding = EdgeInsets.zero
        var toPadding = EdgeInsets.zero
        var fly: FlyToPath? = nil
    }

    struct Group: Sendable {
        var id: UInt32 = 0
        var purpose: AnimationPurpose = .command
        var token: UInt32 = 0
        var startNanoseconds: Int64 = 0
        var endNanoseconds: Int64 = 0
        /// True for jumps and eases, whose frames keep the pitch inside the padding limit (tracking.md
        /// 5.7); false for flights.
        var clampsPitch = false
        var hasAnchor = false
        var anchor = ScreenPoint(xPoints: 0, yPoints: 0)
        var anchorGround = MercatorPoint(x: 0, y: 0)
    }

    /// A finished request, for the core to act on.
    struct Finished: Sendable {
        var id: UInt32
        var purpose: AnimationPurpose
        var token: UInt32
        var success: Bool
    }

    static let groupCapacity = 8
    private(set) var channels: InlineArray<5, Channel> = .init(repeating: Channel())
    private var groups: InlineArray<8, Group> = .init(repeating: Group())
    private var finished: InlineArray<16, Finished> =
        .init(repeating: Finished(id: 0, purpose: .command, token: 0, success: false))
    private var finishedHead = 0
    private var finishedCount = 0
    private var nextID: UInt32 = 1

    /// True while any property animates.
    @inline(__always)
    var isAnimating: Bool {
        var i = 0
        while i < 5 { if channels[i].active { return true }; i += 1 }
        return false
    }

    /// True while the property animates.
    @inline(__always)
    func isActive(_ kind: CameraChannelKind) -> Bool { channels[kind.rawValue].active }

    /// Target of an animating property (nil when it does not animate).
    @inline(__always)
    func target(_ kind: CameraChannelKind) -> Channel? {
        channels[kind.rawValue].active ? channels[kind.rawValue] : nil
    }

    /// True while a request runs whose frames keep the pitch inside the padding limit.
    var runsPitchClampingRequest: Bool {
        var i = 0
        while i < Self.groupCapacity { if groups[i].id != 0 && groups[i].clampsPitch { return true }; i += 1 }
        return false
    }

    /// Starts a request; returns its id. `durationNanoseconds` is its nominal length (a request whose
    /// properties all stay put still completes after it, as mbgl's does).
    mutating func begin(_ purpose: AnimationPurpose, token: UInt32, at now: Int64, durationNanoseconds: Int64,
                        clampsPitch: Bool = false) -> UInt32 {
        var slot = -1
        var i = 0
        while i < Self.groupCapacity { if groups[i].id == 0 { slot = i; break }; i += 1 }
        if slot < 0 {
            // Never expected (5 properties, 8 slots): finish the oldest request to make room.
            var oldest = 0
            i = 1
            while i < Self.groupCapacity { if groups[i].id < groups[oldest].id { oldest = i }; i += 1 }
            finishGroup(at: oldest, success: false)
            slot = oldest
        }
        let id = nextID
        nextID = nextID == UInt32.max ? 1 : nextID + 1
        groups[slot] = Group(id: id, purpose: purpose, token: token, startNanoseconds: now,
                             endNanoseconds: now + max(0, durationNanoseconds), clampsPitch: clampsPitch)
        return id
    }

    /// Keeps `ground` under the screen point `anchor` while request `id` runs.
    mutating func setAnchor(of id: UInt32, anchor: ScreenPoint, ground: MercatorPoint) {
        guard let slot = slotOf(id) else { return }
        groups[slot].hasAnchor = true
        groups[slot].anchor = anchor
        groups[slot].anchorGround = ground
    }

    /// Animates one property for request `id` from `from…` to `to…` starting after `delayNanoseconds`.
    mutating func animate(_ kind: CameraChannelKind, group id: UInt32, at now: Int64,
                          delayNanoseconds: Int64 = 0, durationNanoseconds: Int64, curve: TimingCurve,
                          fromScalar: Double = 0, toScalar: Double = 0,
                          fromCenter: MercatorPoint = MercatorPoint(x: 0, y: 0),
                          toCenter: MercatorPoint = MercatorPoint(x: 0, y: 0),
                          fromPadding: EdgeInsets = .zero, toPadding: EdgeInsets = .zero,
                          fly: FlyToPath? = nil) {
        cancel(kind)
        var channel = Channel()
        channel.active = true
        channel.groupID = id
        channel.startNanoseconds = now + max(0, delayNanoseconds)
        channel.durationNanoseconds = max(0, durationNanoseconds)
        channel.curve = curve
        channel.fromScalar = fromScalar
        channel.toScalar = toScalar
        channel.fromCenter = fromCenter
        channel.toCenter = toCenter
        channel.fromPadding = fromPadding
        channel.toPadding = toPadding
        channel.fly = fly
        channels[kind.rawValue] = channel
        let end = channel.startNanoseconds + channel.durationNanoseconds
        if let slot = slotOf(id), groups[slot].endNanoseconds < end { groups[slot].endNanoseconds = end }
    }

    /// Moves the target of a running property animation (Mapbox transitions follow a moving state).
    mutating func retarget(_ kind: CameraChannelKind, scalar: Double? = nil, center: MercatorPoint? = nil,
                           padding: EdgeInsets? = nil) {
        let index = kind.rawValue
        guard channels[index].active else { return }
        if let scalar { channels[index].toScalar = scalar }
        if let center { channels[index].toCenter = center }
        if let padding { channels[index].toPadding = padding }
    }

    /// Stops one property where it is; its request finishes at once as interrupted.
    mutating func cancel(_ kind: CameraChannelKind) {
        let index = kind.rawValue
        guard channels[index].active else { return }
        channels[index].active = false
        if let slot = slotOf(channels[index].groupID) { finishGroup(at: slot, success: false) }
    }

    /// Stops every animation (mbgl `cancelTransitions`); running requests finish as interrupted.
    mutating func cancelAll() {
        var i = 0
        while i < 5 { channels[i].active = false; i += 1 }
        i = 0
        while i < Self.groupCapacity { if groups[i].id != 0 { finishGroup(at: i, success: false) }; i += 1 }
    }

    /// Finishes request `id` now (interrupted) and stops its properties.
    mutating func cancelGroup(_ id: UInt32) {
        var i = 0
        while i < 5 {
            if channels[i].active && channels[i].groupID == id { channels[i].active = false }
            i += 1
        }
        if let slot = slotOf(id) { finishGroup(at: slot, success: false) }
    }

    /// True while request `id` has not finished.
    @inline(__always)
    func isRunning(_ id: UInt32) -> Bool { slotOf(id) != nil }

    /// Progress 0...1 of request `id` at `now` (1 when finished).
    @inline(__always)
    func progress(of id: UInt32, at now: Int64) -> Double {
        guard let slot = slotOf(id) else { return 1 }
        let g = groups[slot]
        let total = g.endNanoseconds - g.startNanoseconds
        if total <= 0 { return 1 }
        return min(1, max(0, Double(now - g.startNanoseconds) / Double(total)))
    }

    /// The newest running request, if any.
    @inline(__always)
    var newestRunningID: UInt32? {
        var best: UInt32 = 0
        var i = 0
        while i < Self.groupCapacity { if groups[i].id > best { best = groups[i].id }; i += 1 }
        return best == 0 ? nil : best
    }

    /// Writes every animating property's value at `now` into `values` (moving the centre of an
    /// anchored request so its ground point stays under the anchor); finished requests are queued.
    mutating func evaluate(at now: Int64, into values: inout CameraValues, size: ScreenSize) {
        var i = 0
        while i < 5 {
            if channels[i].active { evaluateChannel(i, at: now, into: &values) }
            i += 1
        }
        i = 0
        while i < Self.groupCapacity {
            if groups[i].id != 0 && groups[i].hasAnchor,
               let c = CameraGeometry.center(keeping: groups[i].anchorGround, at: groups[i].anchor, camera: values, size: size) {
                values.center = c
            }
            i += 1
        }
        i = 0
        while i < Self.groupCapacity {
            if groups[i].id != 0 && now >= groups[i].endNanoseconds && !hasActiveChannel(groups[i].id) {
                finishGroup(at: i, success: true)
            }
            i += 1
        }
    }

    /// Next finished request to act on.
    mutating func popFinished() -> Finished? {
        if finishedCount == 0 { return nil }
        let f = finished[finishedHead]
        finishedHead = (finishedHead + 1) % 16
        finishedCount -= 1
        return f
    }

    // MARK: private

    private mutating func evaluateChannel(_ index: Int, at now: Int64, into values: inout CameraValues) {
        Self.evaluate(&channels[index], kind: index, at: now, into: &values)
    }

    /// Writes one property's value at `now` (in place: a channel is too large to copy per frame).
    private static func evaluate(_ c: inout Channel, kind: Int, at now: Int64, into values: inout CameraValues) {
        let elapsed = now - c.startNanoseconds
        if elapsed < 0 { return }   // still in its delay: the property holds its current value
        let fraction = c.durationNanoseconds > 0 ? Double(elapsed) / Double(c.durationNanoseconds) : 1
        let t = c.curve.progress(fraction)
        switch kind {
        case CameraChannelKind.center.rawValue:
            if fraction >= 1 {
                values.center = c.toCenter
            } else {
                var f = t
                if c.fly != nil { f = c.fly!.evaluate(t).centerFraction }
                values.center = MercatorPoint(x: c.fromCenter.x + (c.toCenter.x - c.fromCenter.x) * f,
                                              y: c.fromCenter.y + (c.toCenter.y - c.fromCenter.y) * f)
            }
        case CameraChannelKind.zoom.rawValue:
            if fraction >= 1 {
                values.zoom = c.toScalar
            } else if c.fly != nil {
                values.zoom = c.fly!.evaluate(t).zoom
            } else {
                values.zoom = c.fromScalar + (c.toScalar - c.fromScalar) * t
            }
        case CameraChannelKind.bearing.rawValue:
            values.bearingDegrees = Angle.wrap360(c.fromScalar + (c.toScalar - c.fromScalar) * t)
        case CameraChannelKind.pitch.rawValue:
            values.pitchDegrees = c.fromScalar + (c.toScalar - c.fromScalar) * t
        default:
            values.padding = EdgeInsets.interpolate(c.fromPadding, c.toPadding, t)
        }
        if fraction >= 1 { c.active = false }
    }

    @inline(__always)
    private func hasActiveChannel(_ id: UInt32) -> Bool {
        var i = 0
        while i < 5 { if channels[i].active && channels[i].groupID == id { return true }; i += 1 }
        return false
    }

    @inline(__always)
    private func slotOf(_ id: UInt32) -> Int? {
        if id == 0 { return nil }
        var i = 0
        while i < Self.groupCapacity { if groups[i].id == id { return i }; i += 1 }
        return nil
    }

    private mutating func finishGroup(at slot: Int, success: Bool) {
        let g = groups[slot]
        groups[slot] = Group()
        if finishedCount == 16 { finishedHead = (finishedHead + 1) % 16; finishedCount -= 1 }
        finished[(finishedHead + finishedCount) % 16] = Finished(id: g.id, purpose: g.purpose, token: g.token,
                                                                 success: success)
        finishedCount += 1
    }
}
