/// Why the user could not be located.
public enum LocationFailureReason: UInt8, Sendable, Equatable {
    /// Authorization was denied (kCLErrorDenied): tracking stops, the puck is removed (tracking.md 6, 7.4).
    case authorizationDenied
    /// The receiver lost its position (a fix without a position after one with).
    case locationUnknown
}

/// Location authorization status (CLAuthorizationStatus, reduced to what the core distinguishes).
public enum AuthorizationStatus: UInt8, Sendable, Equatable {
    case notDetermined
    /// Denied or restricted: no location is used.
    case denied
    /// Authorized (when-in-use or always).
    case authorized
}

/// Location accuracy authorization (CLAccuracyAuthorization).
public enum AccuracyAuthorization: UInt8, Sendable, Equatable {
    case full
    /// Approximate location: outputs are coarsened (see `ReducedAccuracy`).
    case reduced
}

/// Identifies one request (tracking-mode change, viewport transition, camera command) whose
/// completion is reported with `TrackingEvent.completed`. Zero is never issued.
public struct CompletionToken: Sendable, Equatable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// Why the viewport status changed (Mapbox `ViewportStatusChangeReason`, tracking.md 10.11).
public enum ViewportChangeReason: UInt8, Sendable, Equatable {
    case idleRequested
    case transitionStarted
    case transitionSucceeded
    case transitionFailed
    case userInteraction
}

/// Something that happened, in the order the SDK delegates would see it.
public enum TrackingEvent: Sendable, Equatable {
    /// showsUserLocation turned on (`mapViewWillStartLocatingUser`).
    case willStartLocatingUser
    /// showsUserLocation turned off (`mapViewDidStopLocatingUser`).
    case didStopLocatingUser
    /// The stored location's position or course changed (`mapView:didUpdateUserLocation:`).
    case didUpdateUserLocation
    /// Locating failed (`mapView:didFailToLocateUserWithError:`).
    case didFailToLocateUser(LocationFailureReason)
    /// The tracking mode changed (`mapView:didChangeUserTrackingMode:animated:`).
    case didChangeTrackingMode(TrackingMode, animated: Bool)
    /// Authorization or accuracy authorization changed (`didChangeLocationManagerAuthorization`).
    case didChangeAuthorization(AuthorizationStatus, AccuracyAuthorization)
    /// The request `token` finished; `success` is false when it was interrupted or refused
    /// (MapLibre completion handlers, Mapbox `completion(Bool)`).
    case completed(CompletionToken, success: Bool)
    /// The viewport status changed (Mapbox `ViewportStatusObserver`, only on a real change).
    case didChangeViewportStatus(ViewportStatus, reason: ViewportChangeReason)
}

/// An event with the monotonic time it happened, nanoseconds.
public struct TimedTrackingEvent: Sendable, Equatable {
    public var timeNanoseconds: Int64
    public var event: TrackingEvent

    public init(timeNanoseconds: Int64, event: TrackingEvent) {
        self.timeNanoseconds = timeNanoseconds
        self.event = event
    }
}

/// A fixed-capacity FIFO of events (64). When full, the **oldest** event is dropped and
/// `overflowCount` counts it, so a slow reader sees the newest events and knows how many it lost.
public struct EventRing: Sendable {
    /// Number of events the ring holds.
    public static let capacity = 64
    private var slots: InlineArray<64, TimedTrackingEvent> =
        .init(repeating: TimedTrackingEvent(timeNanoseconds: 0, event: .didUpdateUserLocation))
    private var head = 0
    /// Events waiting to be read.
    public private(set) var count = 0
    /// Events dropped because the ring was full, since start.
    public private(set) var overflowCount: UInt64 = 0

    public init() {}

    /// Appends an event (dropping the oldest when full).
    public mutating func push(_ event: TrackingEvent, at timeNanoseconds: Int64) {
        if count == Self.capacity {
            head = (head + 1) % Self.capacity
            count -= 1
            overflowCount &+= 1
        }
        slots[(head + count) % Self.capacity] = TimedTrackingEvent(timeNanoseconds: timeNanoseconds, event: event)
        count += 1
    }

    /// Removes and returns the oldest event.
    public mutating func pop() -> TimedTrackingEvent? {
        if count == 0 { return nil }
        let event = slots[head]
        head = (head + 1) % Self.capacity
        count -= 1
        return event
    }

    /// The `index`-th waiting event (0 = oldest), without removing it.
    public func peek(_ index: Int) -> TimedTrackingEvent? {
        if index < 0 || index >= count { return nil }
        return slots[(head + index) % Self.capacity]
    }

    /// Drops every waiting event.
    public mutating func removeAll() {
        head = 0
        count = 0
    }
}
