/// Per-property delays and durations of Mapbox's `DefaultViewportTransition` (tracking.md 10.9), seconds.
///
/// Zooming in (target zoom > current): centre d/500 s (d = screen distance in points, ≤ 3 s) at 0;
/// zoom |Δz|/2.2 s (≤ 3 s) at centre/2; bearing 1.8 s at max(zoomEnd − 1.8, 0); pitch and padding
/// 1.2 s at max(zoomEnd − 1.2 + 0.1, 0). Zooming out or equal: centre 1.0 @ 0.8, zoom 1.8 @ 0,
/// bearing 1.2 @ 0.6, pitch 1.0 @ 0, padding 1.2 @ 0. When the longest delay + duration exceeds
/// `maxDuration` (3.5 s) every delay and duration is scaled by maxDuration / longest.
/// Every property eases in and out.
public struct DefaultTransitionPlan: Sendable, Equatable {
    /// (delay, duration) per property, seconds.
    public var centerDelaySeconds, centerDurationSeconds: Double
    public var zoomDelaySeconds, zoomDurationSeconds: Double
    public var bearingDelaySeconds, bearingDurationSeconds: Double
    public var pitchDelaySeconds, pitchDurationSeconds: Double
    public var paddingDelaySeconds, paddingDurationSeconds: Double

    /// The plan for a move of `centerDistancePoints` on screen from `currentZoom` to `targetZoom`.
    public init(centerDistancePoints: Double, currentZoom: Double, targetZoom: Double,
                maxDurationSeconds: Double = 3.5) {
        if targetZoom > currentZoom {
            centerDurationSeconds = min(centerDistancePoints / 500, 3)
            centerDelaySeconds = 0
            zoomDurationSeconds = min(abs(targetZoom - currentZoom) / 2.2, 3)
            zoomDelaySeconds = centerDurationSeconds / 2
            let zoomEnd = zoomDelaySeconds + zoomDurationSeconds
            bearingDurationSeconds = 1.8
            bearingDelaySeconds = max(zoomEnd - 1.8, 0)
            pitchDurationSeconds = 1.2
            pitchDelaySeconds = max(zoomEnd - 1.2 + 0.1, 0)
            paddingDurationSeconds = 1.2
            paddingDelaySeconds = pitchDelaySeconds
        } else {
            centerDurationSeconds = 1.0; centerDelaySeconds = 0.8
            zoomDurationSeconds = 1.8; zoomDelaySeconds = 0
            bearingDurationSeconds = 1.2; bearingDelaySeconds = 0.6
            pitchDurationSeconds = 1.0; pitchDelaySeconds = 0
            paddingDurationSeconds = 1.2; paddingDelaySeconds = 0
        }
        let longest = totalSeconds
        if longest > maxDurationSeconds && longest > 0 {
            let k = maxDurationSeconds / longest
            centerDelaySeconds *= k; centerDurationSeconds *= k
            zoomDelaySeconds *= k; zoomDurationSeconds *= k
            bearingDelaySeconds *= k; bearingDurationSeconds *= k
            pitchDelaySeconds *= k; pitchDurationSeconds *= k
            paddingDelaySeconds *= k; paddingDurationSeconds *= k
        }
    }

    /// Longest delay + duration, seconds.
    public var totalSeconds: Double {
        // Pairwise: the variadic max(_:_:_:…) builds an array (a heap allocation).
        max(max(max(centerDelaySeconds + centerDurationSeconds, zoomDelaySeconds + zoomDurationSeconds),
                max(bearingDelaySeconds + bearingDurationSeconds, pitchDelaySeconds + pitchDurationSeconds)),
            paddingDelaySeconds + paddingDurationSeconds)
    }
}
