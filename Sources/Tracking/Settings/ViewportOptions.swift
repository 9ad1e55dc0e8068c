/// How the follow-puck camera bearing is chosen (Mapbox `FollowPuckViewportStateBearing`, tracking.md 10.7).
public enum FollowPuckBearing: Sendable, Equatable {
    /// A fixed bearing, degrees.
    case constant(Double)
    /// The puck's heading (the bearing fallback chain); unchanged while none is available.
    case heading
    /// The course; unchanged while no valid course is available.
    case course
}

/// Mapbox `FollowPuckViewportStateOptions` (tracking.md 10.7). Each nil field means "do not touch".
/// Defaults are the UIKit ones: zoom **16.35**, pitch **45**, bearing `.heading`, padding nil (v11).
/// (SwiftUI `.followPuck` uses bearing `.constant(0)` and pitch 0 — tracking.md Q7; pass them explicitly.)
public struct FollowPuckOptions: Sendable, Equatable {
    public var zoom: Double?
    public var pitchDegrees: Double?
    public var bearing: FollowPuckBearing?
    public var padding: EdgeInsets?

    public init(zoom: Double? = 16.35, pitchDegrees: Double? = 45, bearing: FollowPuckBearing? = .heading,
                padding: EdgeInsets? = nil) {
        self.zoom = zoom
        self.pitchDegrees = pitchDegrees
        self.bearing = bearing
        self.padding = padding
    }
}

/// What the overview fits.
public enum OverviewGeometry: Sendable, Equatable {
    /// The recent track (the last `TrackHistory.capacity` positions, spaced by
    /// `overviewTrackSpacingMeters`), including the current position.
    case recentTrack
    /// A box given by two opposite corners.
    case boundingBox(southWest: GeoCoordinate, northEast: GeoCoordinate)
}

/// Mapbox `OverviewViewportStateOptions` (tracking.md 10.8): geometryPadding zero, bearing **0**, pitch **0**,
/// padding nil (untouched), maxZoom nil (camera maximum), animation **1 s** linear (0 = jump).
public struct OverviewOptions: Sendable, Equatable {
    public var geometry: OverviewGeometry
    public var geometryPadding: EdgeInsets
    public var bearingDegrees: Double?
    public var pitchDegrees: Double?
    public var padding: EdgeInsets?
    public var maxZoom: Double?
    public var animationDurationSeconds: Double

    public init(geometry: OverviewGeometry = .recentTrack, geometryPadding: EdgeInsets = .zero,
                bearingDegrees: Double? = 0, pitchDegrees: Double? = 0, padding: EdgeInsets? = nil,
                maxZoom: Double? = nil, animationDurationSeconds: Double = 1) {
        self.geometry = geometry
        self.geometryPadding = geometryPadding
        self.bearingDegrees = bearingDegrees
        self.pitchDegrees = pitchDegrees
        self.padding = padding
        self.maxZoom = maxZoom
        self.animationDurationSeconds = animationDurationSeconds
    }
}

/// A viewport state to go to.
public enum ViewportTarget: Sendable, Equatable {
    case followPuck(FollowPuckOptions)
    case overview(OverviewOptions)

    var kind: ViewportStateKind {
        switch self {
        case .followPuck: return .followPuck
        case .overview: return .overview
        }
    }
}

/// A programmatic camera change; nil fields are kept (MapLibre `setCamera`, `setCenterCoordinate`,
/// `setZoomLevel`, `setDirection`; mbgl `CameraOptions`).
public struct CameraOptions: Sendable, Equatable {
    public var center: GeoCoordinate?
    public var zoom: Double?
    public var bearingDegrees: Double?
    public var pitchDegrees: Double?
    public var padding: EdgeInsets?

    public init(center: GeoCoordinate? = nil, zoom: Double? = nil, bearingDegrees: Double? = nil,
                pitchDegrees: Double? = nil, padding: EdgeInsets? = nil) {
        self.center = center
        self.zoom = zoom
        self.bearingDegrees = bearingDegrees
        self.pitchDegrees = pitchDegrees
        self.padding = padding
    }
}
