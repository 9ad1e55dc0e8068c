import Console
import Tracking
import TrackingScenario

/// One bounded run of a parsed scenario for `ScenarioFuzzHarness`: the output hashed, and (when
/// asked) every step — one input or one tick — checked as it is written.
struct ScenarioFuzzRun {
    /// Ticks run.
    var ticks: Int64 = 0
    /// Bytes written.
    var bytes = 0
    /// FNV-1a of the bytes written, up to `byteLimit`.
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The run stops once this many bytes are written (and hashes no more).
    var byteLimit = Int.max
    /// The first broken invariant.
    var violation: String?

    mutating func go(_ scenario: Scenario, hertz: Int, maximumTicks: Int64, checkEveryStep: Bool) {
        var runner: ScenarioRunner
        do {
            runner = try ScenarioRunner(scenario: scenario, ticksPerSecond: hertz)
        } catch {
            violation = "the core refused a configuration the parser accepted: \(error)"
            return
        }
        // One byte more than the reserve: `run` returns after every step, and a step that writes more
        // than the reserve the runner promises overflows the buffer.
        var out = OutputBuffer(capacity: checkEveryStep ? ScenarioRunner.reserveBytes + 1 : 1 << 16)
        var more = true
        while more && violation == nil && runner.tickCount < maximumTicks && bytes < byteLimit {
            let ticksBefore = runner.tickCount
            more = runner.run(into: &out)
            if out.overflowed {
                violation = "one step wrote more than the runner's reserve of \(ScenarioRunner.reserveBytes) bytes"
            } else if let problem = out.withBytes({ record($0) }) {
                violation = problem
            } else if checkEveryStep {
                if runner.tickCount > ticksBefore + 1 { violation = "a step ran more than one tick" }
                if runner.tickCount > ticksBefore {
                    let t = runner.tickTime(runner.tickCount - 1)
                    if runner.core.camera.timeNanoseconds != t || runner.core.puck.timeNanoseconds != t {
                        violation = "the tick at \(t) ns left the camera at \(runner.core.camera.timeNanoseconds) ns"
                    }
                }
                if violation == nil {
                    violation = ScenarioFuzzRun.check(runner.core.camera, runner.core.configuration)
                        ?? ScenarioFuzzRun.check(runner.core.puck)
                }
            }
            out.removeAll()
        }
        ticks = runner.tickCount
    }

    /// Hashes a step's output; it must be whole JSON-object lines (`{…}\n`).
    mutating func record(_ chunk: UnsafeRawBufferPointer) -> String? {
        if chunk.isEmpty { return nil }
        var lineStart = true
        var previous: UInt8 = 0x0A
        for b in chunk {
            if lineStart && b != UInt8(ascii: "{") { return "an output line does not start with '{'" }
            if b == 0x0A && previous != UInt8(ascii: "}") { return "an output line does not end with '}'" }
            if b < 0x20 && b != 0x0A { return "a control byte in the output" }
            lineStart = b == 0x0A
            previous = b
            if bytes < byteLimit { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
            bytes += 1
        }
        return previous == 0x0A ? nil : "a step ended in the middle of a line"
    }

    /// The camera within the ranges `CameraState` documents.
    static func check(_ c: CameraState, _ configuration: TrackingConfiguration) -> String? {
        let e = 1e-9
        if !(abs(c.center.latitudeDegrees) <= 90) || !(abs(c.center.longitudeDegrees) <= 180) { return "camera centre off the globe" }
        if !(c.zoom >= configuration.minimumZoom - e && c.zoom <= configuration.maximumZoom + e) { return "camera zoom \(c.zoom) outside the zoom limits" }
        if !(c.bearingDegrees >= 0 && c.bearingDegrees < 360) { return "camera bearing \(c.bearingDegrees) outside 0..<360" }
        if !(c.pitchDegrees >= -e && c.pitchDegrees <= configuration.maximumPitchDegrees + e) { return "camera pitch \(c.pitchDegrees) outside 0...maximum" }
        if !(c.padding.topPoints.isFinite && c.padding.leftPoints.isFinite && c.padding.bottomPoints.isFinite
             && c.padding.rightPoints.isFinite && c.anchor.xPoints.isFinite && c.anchor.yPoints.isFinite) { return "camera padding or anchor not finite" }
        if !(c.metersPerPoint > 0 && c.metersPerPoint.isFinite) { return "metres per point \(c.metersPerPoint)" }
        if !unit(c.viewportTransitionProgress) || !unit(c.animationProgress) { return "a camera progress outside 0...1" }
        return nil
    }

    /// The puck within the ranges `PuckState` documents.
    static func check(_ p: PuckState) -> String? {
        if p.hasLocation {
            if !(abs(p.coordinate.latitudeDegrees) <= 90) || !(abs(p.coordinate.longitudeDegrees) <= 180) { return "puck off the globe" }
            if !p.screenPoint.xPoints.isFinite || !p.screenPoint.yPoints.isFinite { return "puck screen point not finite" }
            // −1: a fix without an accuracy (CoreLocation's "negative = invalid"; the console prints none).
            let accuracy = p.horizontalAccuracyMeters
            if !((accuracy >= 0 && accuracy.isFinite) || accuracy == -1) { return "puck accuracy \(accuracy)" }
        }
        if let b = p.bearingDegrees, !(b >= 0 && b < 360) { return "puck bearing \(b) outside 0..<360" }
        if let b = p.bearingOnScreenDegrees, !(b >= 0 && b < 360) { return "on-screen bearing \(b) outside 0..<360" }
        if !(p.accuracyRingDiameterPoints >= 0 && p.accuracyRingDiameterPoints.isFinite) { return "ring diameter \(p.accuracyRingDiameterPoints)" }
        if !(p.pulsePhase >= 0 && p.pulsePhase < 1) { return "pulse phase \(p.pulsePhase) outside 0..<1" }
        if !unit(p.haloOpacity) || !unit(p.dotBreathOpacity) { return "an opacity outside 0...1" }
        if !(p.haloScale.isFinite && p.dotBreathScale.isFinite && p.haloDiameterPoints.isFinite
             && p.shadowOffsetPoints.isFinite && p.shadowRadiusPoints.isFinite) { return "a puck size not finite" }
        if !(p.headingFanWidthDegrees == 0 || (p.headingFanWidthDegrees >= 40 && p.headingFanWidthDegrees <= 160)) {
            return "heading fan \(p.headingFanWidthDegrees)° outside 40...160"
        }
        return nil
    }

    static func unit(_ x: Double) -> Bool { x >= 0 && x <= 1 }
}
