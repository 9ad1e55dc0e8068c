#if canImport(Glibc)
import Glibc
#endif
import CMallocCounter
import NMEA
import IMU
import Heading
import Tracking
import Console

/// `make bench` figures for the console: CPU ns per `status` render (text and JSON), per `sats` JSON
/// reply, per in-place `watch status 60` frame (render + VT100 framing + drain), and per command line
/// typed on a scripted session (parse + reply). The state is the allocation test's: the last fix and
/// the richest sky view (43 signals) of the u-blox NEO-M9N log in `Tests/Fixtures` (run from the
/// repository root), a tracking core following it, a heading, LEDs, faults, counters, config.
/// Times are this thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`). Figures only; nothing is asserted.
func runConsoleBench() {
    print("== console ==")
    guard let state = consoleBenchState() else {
        print("console bench: cannot read Tests/Fixtures/nmea/gpsd/ublox-neo-m9n-nmea.nmea (run from the repository root)")
        return
    }
    print("state: \(state.skyView.count) satellite signals, fix \(state.fix != nil ? "yes" : "no"), heading, puck, camera")
    var out = OutputBuffer(capacity: 65_536)

    let renders = 200_000
    var (ns, allocations) = measure(renders) { StatusView.appendText(state, to: &out); out.removeAll() }
    StatusView.appendText(state, to: &out)
    print("status render, text:  \(fmt(ns)) ns  (\(out.count) bytes, \(allocations) allocations)")
    out.removeAll()
    (ns, allocations) = measure(renders) { StatusView.appendJSON(state, to: &out); out.removeAll() }
    StatusView.appendJSON(state, to: &out)
    print("status render, JSON:  \(fmt(ns)) ns  (\(out.count) bytes, \(allocations) allocations)")
    out.removeAll()
    (ns, allocations) = measure(renders / 4) { SatellitesView.appendJSON(state.skyView, to: &out); out.removeAll() }
    SatellitesView.appendJSON(state.skyView, to: &out)
    print("sats render, JSON:    \(fmt(ns)) ns  (\(out.count) bytes, \(allocations) allocations)")
    out.removeAll()

    // watch status 60 on a terminal: one frame per 60 Hz tick, drained like the device would.
    var session = ConsoleSession(options: ConsoleOptions(interactive: true))
    let watch = Array("watch status 60\r".utf8)
    watch.withUnsafeBytes { raw in
        var offset = 0
        while let c = session.feed(raw, from: &offset) { session.reply(to: c, state: state) }
    }
    var now: Int64 = 0
    let frames = 200_000
    let bytesBefore = session.counters.bytesOut
    (ns, allocations) = measure(frames) {
        session.tick(nowNanoseconds: now, state: state)
        session.consumeOutput(session.pendingOutputCount)
        now += 16_666_667
    }
    let perFrame = (session.counters.bytesOut - bytesBefore) / Int64(frames)
    print("watch status 60 frame: \(fmt(ns)) ns  (\(perFrame) bytes, \(session.counters.watchFrames) frames, \(allocations) allocations)")
    print("  = \(fmt(ns * 60 / 1e3)) µs of CPU per second at 60 frames/s")

    // A command line on a scripted session: parse, reply, drain.
    var scripted = ConsoleSession(options: ConsoleOptions(interactive: false))
    let line = Array("viewport follow zoom=15.5 pitch=30 bearing=course immediate\n".utf8)
    (ns, allocations) = line.withUnsafeBytes { raw in
        measure(renders) {
            var offset = 0
            while let c = scripted.feed(raw, from: &offset) { scripted.reply(to: c, state: state) }
            scripted.consumeOutput(scripted.pendingOutputCount)
        }
    }
    print("command line (parse + reply): \(fmt(ns)) ns  (\(allocations) allocations)")
}

/// Runs `body` `n` times after a warm-up; returns CPU ns per run and the heap allocations seen.
private func measure(_ n: Int, _ body: () -> Void) -> (Double, UInt64) {
    for _ in 0..<min(n, 1000) { body() }
    let allocationsBefore = mc_thread_allocations()
    let start = threadNanoseconds()
    var i = 0
    while i < n { body(); i += 1 }
    let elapsed = threadNanoseconds() - start
    return (Double(elapsed) / Double(n), mc_thread_allocations() &- allocationsBefore)
}

private func threadNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

private func fmt(_ v: Double) -> String {
    let tenths = Int((v * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

/// The benchmark state (see `runConsoleBench`).
private func consoleBenchState() -> ConsoleState? {
    guard let bytes = readWholeFile("Tests/Fixtures/nmea/gpsd/ublox-neo-m9n-nmea.nmea") else { return nil }
    var state = ConsoleState()
    state.loadGPS(fromRecordedLog: bytes)
    guard var core = try? TrackingCore() else { return nil }
    core.setShowsUserLocation(true, atNanoseconds: 0)
    if let fix = state.fix { core.updateLocation(fix, atNanoseconds: 500_000_000) }
    core.setTrackingMode(.followWithHeading, animated: false, atNanoseconds: 600_000_000)
    core.updateHeading(HeadingSample(timeNanoseconds: 700_000_000, trueHeadingDegrees: 271.3, magneticHeadingDegrees: 268.1,
                                     headingAccuracyDegrees: 4))
    core.tick(atNanoseconds: 2_000_000_000)
    state.update(from: core)
    while let e = core.popEvent() { state.events.record(e) }
    state.heading = HeadingEstimate(timestampNanoseconds: 1_990_000_000, magneticHeadingDegrees: 268.1, trueHeadingDegrees: 271.3,
                                    declinationDegrees: 3.2, rollDegrees: 1.25, pitchDegrees: -0.5, orientation: .identity,
                                    headingAccuracyDegrees: 4, calibrationState: .calibrated, calibrationNeeded: false,
                                    magnetometer: .accepted)
    state.device.version = "bench"
    state.device.board = ConsoleText("sim")
    state.device.nowNanoseconds = 2_000_000_000
    state.device.fixReceivedNanoseconds = 1_800_000_000
    state.device.sources.set(ConsoleSource(name: "gps", description: ConsoleText("/dev/ttyAMA0 9600 baud"), state: "connected", isHealthy: true))
    state.device.sources.set(ConsoleSource(name: "imu", description: ConsoleText("LSM9DS1 on /dev/i2c-1 0x6a"), state: "running", isHealthy: true))
    state.device.leds.append(ConsoleLED(name: "fix", isOn: true, pattern: "on: 3D fix", line: 17))
    state.device.leds.append(ConsoleLED(name: "mode", isOn: false, pattern: "4 short blinks every 2 s", line: 27))
    state.device.faults.append(ConsoleFault(source: "gpio", reason: ConsoleText("permission denied on /dev/gpiochip0; add puckd to the gpio group")))
    state.device.counters.append("loop.ticks", 123_456)
    state.device.config.set(key: ConsoleText("gps.device"), value: ConsoleText("/dev/ttyAMA0"), isDefault: false)
    return state
}

private func readWholeFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { if errno == EINTR { continue }; return nil }
        if n == 0 { return out }
        out.append(contentsOf: chunk[0..<n])
    }
}
