import Tracking

/// Up to three gestures (began, changed, ended) that perform a console gesture command.
public struct ConsoleGestureSequence: Sendable, Equatable {
    private var gestures = InlineArray<3, Gesture>(repeating: .touchDown)
    /// Number of gestures (0...3).
    public private(set) var count = 0

    public init() {}

    /// The gesture at `index` (0 ..< count).
    public subscript(index: Int) -> Gesture {
        precondition(index >= 0 && index < count, "gesture index out of range")
        return gestures[index]
    }

    mutating func append(_ g: Gesture) {
        gestures[count] = g
        count += 1
    }

    public static func == (a: ConsoleGestureSequence, b: ConsoleGestureSequence) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count {
            if a.gestures[i] != b.gestures[i] { return false }
            i += 1
        }
        return true
    }
}

/// How the device performs `pan`, `rotate`, `zoom` and `pitch`: as the user gestures of the tracking
/// core (so they have the gesture rules: a pan ends tracking, a rotation drops course/heading to
/// follow, ArcGIS modes turn off, the viewport goes idle). `zoom Z` and `pitch P` are absolute: the
/// pinch/tilt delta is taken from the current camera. Pinch and rotation act about the camera anchor.
public enum CommandGestures {
    /// The gestures for `command` given the camera now, or nil when it is not a gesture command.
    public static func gestures(for command: ConsoleCommand, camera: CameraState) -> ConsoleGestureSequence? {
        var s = ConsoleGestureSequence()
        let focus = camera.anchor
        switch command {
        case .pan(let dx, let dy):
            s.append(.pan(.began, translationXPoints: 0, translationYPoints: 0))
            s.append(.pan(.changed, translationXPoints: dx, translationYPoints: dy))
            s.append(.pan(.ended, translationXPoints: 0, translationYPoints: 0))
        case .rotate(let degrees):
            s.append(.rotate(.began, rotationDegrees: 0, focus: focus))
            s.append(.rotate(.changed, rotationDegrees: degrees, focus: focus))
            s.append(.rotate(.ended, rotationDegrees: 0, focus: focus))
        case .zoom(let level):
            s.append(.pinch(.began, zoomDelta: 0, focus: focus))
            s.append(.pinch(.changed, zoomDelta: level - camera.zoom, focus: focus))
            s.append(.pinch(.ended, zoomDelta: 0, focus: focus))
        case .pitch(let degrees):
            s.append(.tilt(.began, pitchDeltaDegrees: 0))
            s.append(.tilt(.changed, pitchDeltaDegrees: degrees - camera.pitchDegrees))
            s.append(.tilt(.ended, pitchDeltaDegrees: 0))
        default:
            return nil
        }
        return s
    }
}
