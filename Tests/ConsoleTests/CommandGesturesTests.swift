import Angles
import Testing
import NMEA
import Tracking
@testable import Console

/// Gesture commands applied to a real `TrackingCore` through `CommandGestures`, and the session's
/// acknowledgement read back from the core afterwards (what a device loop does).
struct CommandGesturesTests {
    /// A core following a fix in follow mode at zoom 15.
    func followingCore() -> TrackingCore {
        var core = try! TrackingCore()
        var fix = Fix(timeOfDayNanoseconds: 0)
        fix.mode = .threeD
        fix.latitudeDegrees = 52.5219
        fix.longitudeDegrees = 13.4132
        fix.horizontalAccuracyMeters = 5
        core.setCamera(CameraOptions(center: GeoCoordinate(latitudeDegrees: 52.5219, longitudeDegrees: 13.4132), zoom: 15),
                       durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation(fix, atNanoseconds: 1_000_000)
        core.setTrackingMode(.follow, animated: false, atNanoseconds: 2_000_000)
        core.tick(atNanoseconds: 2_000_000_000)
        return core
    }

    /// Applies `line` like the device: parse, gestures into the core, tick, reply from a fresh snapshot.
    func apply(_ line: String, to core: inout TrackingCore, at t: Int64) -> String {
        let d = ConsoleDriver(interactive: false, state: ConsoleState())
        d.autoReply = false
        d.type(line + "\n")
        guard let command = d.commands.first,
              let gestures = CommandGestures.gestures(for: command, camera: core.camera) else { return "no gestures" }
        for i in 0..<gestures.count { core.handleGesture(gestures[i], atNanoseconds: t) }
        core.tick(atNanoseconds: t + 1_000_000)
        d.state.update(from: core)
        d.session.reply(to: command, state: d.state)
        return d.drain()
    }

    @Test func zoomAndPitchAreAbsolute() {
        var core = followingCore()
        #expect(apply("zoom 12.5", to: &core, at: 3_000_000_000).contains("zoom 12.50"))
        #expect(abs(core.camera.zoom - 12.5) < 1e-9)
        #expect(core.trackingMode == .follow)                       // a pinch keeps the mode
        #expect(apply("pitch 30", to: &core, at: 4_000_000_000).contains("pitch 30.0\u{00B0}"))
        #expect(abs(core.camera.pitchDegrees - 30) < 1e-9)
        // Beyond the configured limits the core clamps, and the reply says what it did.
        #expect(apply("zoom 25", to: &core, at: 5_000_000_000).contains("zoom 22.00"))
        #expect(apply("pitch 85", to: &core, at: 6_000_000_000).contains("pitch 60.0\u{00B0}"))
    }

    @Test func panEndsTrackingAndRotateTurnsTheMap() {
        var core = followingCore()
        let before = core.camera.center
        let reply = apply("pan 100 0", to: &core, at: 3_000_000_000)
        #expect(core.trackingMode == TrackingMode.none)
        #expect(core.camera.center.longitudeDegrees < before.longitudeDegrees)   // content dragged right: the west comes into view
        #expect(reply.hasSuffix("mode none\n"))
        let bearing = core.camera.bearingDegrees
        #expect(apply("rotate 30", to: &core, at: 4_000_000_000).hasPrefix("camera "))
        #expect(abs(Angle.wrap360(bearing - 30) - core.camera.bearingDegrees) < 1e-6)   // clockwise on screen: bearing decreases
    }

    @Test func onlyGestureCommandsMakeGestures() {
        let camera = followingCore().camera
        #expect(CommandGestures.gestures(for: .view(.status), camera: camera) == nil)
        let pan = CommandGestures.gestures(for: .pan(dxPoints: 3, dyPoints: -4), camera: camera)
        #expect(pan?.count == 3)
        #expect(pan?[1] == .pan(.changed, translationXPoints: 3, translationYPoints: -4))
    }
}
