/// Phase of a continuous gesture.
public enum GesturePhase: UInt8, Sendable, Equatable {
    case began
    case changed
    case ended
}

/// A user gesture on the map. Deltas are incremental (since the previous event of the gesture).
///
/// Effects (tracking.md 6, 10.11, 11.2), by who owns the camera:
/// - MapLibre modes: pan → `none`; rotate → heading/course drop to `follow`; pinch, tilt, double tap,
///   two-finger tap keep the mode and are anchored at the puck; a touch while the first fly is in
///   state Began → `none`.
/// - ArcGIS modes: any gesture that changes the viewpoint → `off`.
/// - Mapbox viewport (`transitionsToIdleUponUserInteraction`): any pan/pinch/rotate/tilt began, double
///   tap or two-finger tap → idle (reason userInteraction), interrupting a running transition.
public enum Gesture: Sendable, Equatable {
    /// A finger touched the map (UIKit `touchesBegan`).
    case touchDown
    /// One-finger drag by (x, y) points.
    case pan(GesturePhase, translationXPoints: Double, translationYPoints: Double)
    /// Pinch: zoom change (log2 of the scale change) about `focus`.
    case pinch(GesturePhase, zoomDelta: Double, focus: ScreenPoint)
    /// Two-finger rotation by degrees (clockwise on screen = map bearing decreases) about `focus`.
    case rotate(GesturePhase, rotationDegrees: Double, focus: ScreenPoint)
    /// Two-finger vertical drag: pitch change, degrees.
    case tilt(GesturePhase, pitchDeltaDegrees: Double)
    /// Double tap: zoom in by 1 about the point (0.3 s).
    case doubleTap(at: ScreenPoint)
    /// Two-finger tap: zoom out by 1 about the point (0.3 s).
    case twoFingerTap(at: ScreenPoint)
}
