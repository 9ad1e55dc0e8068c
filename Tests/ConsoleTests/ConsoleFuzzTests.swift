import Testing
import TestSupport
import NMEA
import IMU
import Heading
import Tracking
@testable import Console

/// Seeded fuzzing (SplitMix64, as the NMEA fuzz test): random and mutated bytes into sessions, random
/// states into every renderer. Never a crash; output always within its buffers; the byte accounting
/// always adds up; JSON stays valid whatever the values.
struct ConsoleFuzzTests {

    /// Bytes a terminal or a script might send, weighted toward the interesting ones.
    static func randomBytes(_ rng: inout SeededRandom, count: Int) -> [UInt8] {
        let pieces: [[UInt8]] = [Array("\u{1B}[A".utf8), Array("\u{1B}[B".utf8), Array("\u{1B}[C".utf8),
                                 Array("\u{1B}[D".utf8), Array("\u{1B}[3~".utf8), Array("\u{1B}OH".utf8),
                                 Array("\u{1B}[1;5C".utf8), Array("\u{1B}[".utf8), [0x1B], [0x09], [0x0D], [0x0A],
                                 [0x0D, 0x0A], [0x03], [0x04], [0x15], [0x7F], [0x08], [0x17], [0x0B], [0x0C]]
        var bytes: [UInt8] = []
        while bytes.count < count {
            switch rng.below(10) {
            case 0...4: bytes.append(UInt8(0x20 + rng.below(95)))
            case 5...7: bytes.append(contentsOf: pieces[rng.below(pieces.count)])
            case 8: bytes.append(UInt8(truncatingIfNeeded: rng.next()))
            case 9 where rng.below(3) == 0: bytes.append(contentsOf: Self.watchLine(&rng))
            default: bytes.append(contentsOf: Array(ConsoleJSONTests.script[rng.below(ConsoleJSONTests.script.count)].utf8) + [0x0A])
            }
        }
        return bytes
    }

    /// `watch VIEW HZ` for a random view and rate.
    static func watchLine(_ rng: inout SeededRandom) -> [UInt8] {
        let views = ["status", "gps", "sats", "heading", "puck", "camera", "leds", "stats", "events"]
        return Array("watch \(views[rng.below(views.count)]) \(1 + rng.below(60))\n".utf8)
    }

    /// Valid command lines with 1…4 mutations: bit flips, deletions, duplicated runs, inserted control
    /// bytes and escape sequences, truncation.
    static func mutatedScript(_ rng: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<(1 + rng.below(8)) {
            var line = Array(ConsoleJSONTests.script[rng.below(ConsoleJSONTests.script.count)].utf8)
            if rng.below(3) == 0 { bytes += Self.watchLine(&rng) }
            for _ in 0..<(1 + rng.below(4)) where !line.isEmpty {
                switch rng.below(6) {
                case 0: line[rng.below(line.count)] ^= UInt8(1 << rng.below(8))
                case 1: line.remove(at: rng.below(line.count))
                case 2:
                    let from = rng.below(line.count)
                    line.insert(contentsOf: line[from..<min(line.count, from + rng.below(20))], at: rng.below(line.count))
                case 3: line.insert(UInt8(rng.below(32)), at: rng.below(line.count + 1))
                case 4: line.insert(contentsOf: Array("\u{1B}[\(rng.below(30))~".utf8), at: rng.below(line.count + 1))
                default: line.removeLast(rng.below(line.count))
                }
            }
            bytes += line + (rng.below(4) == 0 ? [0x0D, 0x0A] : [0x0A])
        }
        return bytes
    }

    /// Feeds `bytes` in random chunks, replying, ticking and sometimes draining; checks the invariants.
    static func drive(_ bytes: [UInt8], _ rng: inout SeededRandom, interactive: Bool, state: ConsoleState) -> (ok: Bool, frames: Int64) {
        var options = ConsoleOptions(interactive: interactive)
        options.outputCapacity = rng.below(2) == 0 ? 2048 : 65_536
        options.replyCapacity = rng.below(3) == 0 ? 1024 : 32_768
        options.terminalRows = 3 + rng.below(40)
        var session = ConsoleSession(options: options)
        var drained: Int64 = 0
        var now: Int64 = 0
        var ok = true
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let end = min(raw.count, offset + 1 + rng.below(64))
                let chunk = UnsafeRawBufferPointer(rebasing: raw[offset..<end])
                var i = 0
                while let command = session.feed(chunk, from: &i) {
                    if rng.below(8) == 0 {
                        session.replyFailure(to: command, message: "refused by the fuzzer")
                    } else if rng.below(8) != 0 {
                        session.reply(to: command, state: state)
                    }   // else: no reply at all
                }
                offset = end
                now += Int64(rng.below(40_000_000))
                session.tick(nowNanoseconds: now, state: state)
                if rng.below(3) != 0 {
                    drained += Int64(session.pendingOutputCount)
                    session.consumeOutput(rng.below(2) == 0 ? session.pendingOutputCount : rng.below(session.pendingOutputCount + 1))
                    drained -= Int64(session.pendingOutputCount)
                }
                if session.pendingOutputCount > options.outputCapacity { ok = false }
                if session.counters.bytesOut != drained + Int64(session.pendingOutputCount) { ok = false }
                if !interactive && session.withPendingOutput({ $0.contains(0x1B) }) { ok = false }
            }
        }
        if session.counters.bytesIn != Int64(bytes.count) { ok = false }
        if let c = session.endOfInput() { session.reply(to: c, state: state) }
        return (ok, session.counters.watchFrames)
    }

    @Test func randomBytesNeverBreakTheSession() {
        var rng = SeededRandom(state: 0x5EED_C0DE)
        let state = ConsoleTestState.realistic
        var failures = 0
        var frames: Int64 = 0
        for iteration in 0..<1500 {
            let bytes = Self.randomBytes(&rng, count: 1 + rng.below(1500))
            let r = Self.drive(bytes, &rng, interactive: iteration % 2 == 0, state: state)
            if !r.ok { failures += 1 }
            frames += r.frames
        }
        #expect(failures == 0)
        #expect(frames > 100)
    }

    @Test func mutatedCommandScriptsNeverBreakTheSession() {
        var rng = SeededRandom(state: 0x5EED_0006)
        let realistic = ConsoleTestState.realistic
        let empty = ConsoleState()
        var failures = 0
        var frames: Int64 = 0
        for iteration in 0..<3000 {
            var bytes = Self.mutatedScript(&rng)
            if iteration % 3 == 0 { bytes = Array("json on\n".utf8) + bytes }
            let r = iteration % 4 == 0 ? Self.drive(bytes, &rng, interactive: iteration % 2 == 0, state: empty)
                : Self.drive(bytes, &rng, interactive: iteration % 2 == 0, state: realistic)
            if !r.ok { failures += 1 }
            frames += r.frames
        }
        #expect(failures == 0)
        #expect(frames > 100)
    }

    // MARK: renderers

    static func randomDouble(_ rng: inout SeededRandom, scale: Double) -> Double {
        switch rng.below(12) {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -.infinity
        case 3: return 1e300 * (rng.below(2) == 0 ? 1 : -1)
        case 4: return 0
        case 5: return -0.0
        default: return (Double(rng.below(2_000_001)) / 1_000_000 - 1) * scale
        }
    }

    static func randomText(_ rng: inout SeededRandom) -> ConsoleText {
        let bytes = (0..<rng.below(140)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        return bytes.withUnsafeBytes { ConsoleText(bytes: $0) }
    }

    static func randomState(_ rng: inout SeededRandom) -> ConsoleState {
        var s = ConsoleTestState.realistic
        var fix = Fix(timeOfDayNanoseconds: Int64(rng.below(86_400_000)) * 1_000_000)
        fix.mode = FixMode(rawValue: UInt8(1 + rng.below(3)))!
        fix.quality = FixQuality(rawValue: UInt8(rng.below(9)))!
        fix.utcNanoseconds = rng.below(4) == 0 ? nil : Int64(bitPattern: rng.next())
        fix.latitudeDegrees = rng.below(5) == 0 ? nil : randomDouble(&rng, scale: 90)
        fix.longitudeDegrees = randomDouble(&rng, scale: 180)
        fix.altitudeMSLMeters = randomDouble(&rng, scale: 1e4)
        fix.geoidSeparationMeters = randomDouble(&rng, scale: 100)
        fix.speedMetersPerSecond = randomDouble(&rng, scale: 100)
        fix.courseDegrees = randomDouble(&rng, scale: 360)
        fix.hdop = randomDouble(&rng, scale: 50)
        fix.horizontalAccuracyMeters = randomDouble(&rng, scale: 1e3)
        fix.errorEllipse = ErrorEllipse(rangeRMSMeters: randomDouble(&rng, scale: 10), semiMajorMeters: randomDouble(&rng, scale: 10))
        fix.satellitesUsed = rng.below(2) == 0 ? nil : Int(bitPattern: UInt(truncatingIfNeeded: rng.next()))
        fix.differentialStationID = rng.below(2) == 0 ? nil : rng.below(1024)
        s.fix = fix
        var sky = SkyView()
        for _ in 0..<rng.below(110) {
            let c = Constellation.allCases[rng.below(Constellation.allCases.count)]
            sky.append(SatelliteInView(identity: SatelliteIdentity(constellation: c, svid: UInt16(rng.below(400)), prn: UInt16(rng.below(600))),
                                       elevationDegrees: rng.below(3) == 0 ? nil : Int8(truncatingIfNeeded: rng.next()),
                                       azimuthDegrees: UInt16(truncatingIfNeeded: rng.next()), snr: UInt8(truncatingIfNeeded: rng.next()),
                                       used: rng.below(2) == 0))
        }
        s.skyView = sky
        if var h = s.heading {
            h.magneticHeadingDegrees = randomDouble(&rng, scale: 360)
            h.trueHeadingDegrees = randomDouble(&rng, scale: 360)
            h.headingAccuracyDegrees = randomDouble(&rng, scale: 180)
            h.rollDegrees = randomDouble(&rng, scale: 180)
            h.timestampNanoseconds = Int64(bitPattern: rng.next())
            s.heading = rng.below(5) == 0 ? nil : h
        }
        if var t = s.tracking {
            t.camera.zoom = randomDouble(&rng, scale: 30)
            t.camera.bearingDegrees = randomDouble(&rng, scale: 360)
            t.camera.center.latitudeDegrees = randomDouble(&rng, scale: 90)
            t.camera.viewportTransitionProgress = randomDouble(&rng, scale: 1)
            t.camera.viewportStatus = [.idle, .state(.overview), .transition(.immediate, to: .followPuck)][rng.below(3)]
            t.puck.horizontalAccuracyMeters = randomDouble(&rng, scale: 100)
            t.puck.bearingDegrees = randomDouble(&rng, scale: 360)
            t.puck.style = [.dot, .course, .approximate][rng.below(3)]
            t.puck.haloScale = randomDouble(&rng, scale: 2)
            if rng.below(2) == 0 { t.bearing = nil } else if t.bearing != nil {
                t.bearing!.degrees = randomDouble(&rng, scale: 360)
                t.bearing!.accuracyDegrees = randomDouble(&rng, scale: 90)
            }
            s.tracking = rng.below(6) == 0 ? nil : t
        }
        s.device.nowNanoseconds = Int64(bitPattern: rng.next())
        s.device.uptimeNanoseconds = Int64(bitPattern: rng.next())
        s.device.fixReceivedNanoseconds = Int64(bitPattern: rng.next())
        s.device.board = randomText(&rng)
        s.device.lastCalibrationResult = randomText(&rng)
        s.device.faults.removeAll()
        for _ in 0..<rng.below(12) { s.device.faults.append(ConsoleFault(source: "imu", reason: randomText(&rng))) }
        for _ in 0..<rng.below(200) { s.device.counters.append("fuzz.counter", Int64(bitPattern: rng.next())) }
        for _ in 0..<rng.below(80) { s.device.config.set(key: randomText(&rng), value: randomText(&rng), isDefault: rng.below(2) == 0) }
        s.device.calibration = [.idle, .magnetometer(coverageFraction: randomDouble(&rng, scale: 1), samples: rng.below(5000),
                                                     elapsedNanoseconds: Int64(bitPattern: rng.next())),
                                .gyroscope(stillSeconds: randomDouble(&rng, scale: 5), requiredSeconds: 2)][rng.below(3)]
        return s
    }

    /// Renders every view (text and JSON) of `state` into `out`, each JSON object on its own line.
    static func renderAll(_ state: ConsoleState, json: Bool, to out: inout OutputBuffer) {
        let console = ConsoleSessionCounters()
        let views: [(inout OutputBuffer) -> Void] = json ? [
            { StatusView.appendJSON(state, to: &$0) },
            { GPSView.appendJSON(state.fix, receivedNanoseconds: state.device.fixReceivedNanoseconds, nowNanoseconds: state.device.nowNanoseconds, to: &$0) },
            { SatellitesView.appendJSON(state.skyView, to: &$0) },
            { HeadingView.appendJSON(state.heading, calibration: state.magnetometerCalibration, bearing: state.tracking?.bearing, device: state.device, to: &$0) },
            { PuckView.appendJSON(state.tracking, to: &$0) },
            { CameraView.appendJSON(state.tracking, to: &$0) },
            { LEDsView.appendJSON(state.device, to: &$0) },
            { StatsView.appendJSON(state, console: console, to: &$0) },
            { EventsView.appendJSON(state.events, count: 64, to: &$0) },
            { ConfigView.appendJSON(state.device, key: nil, to: &$0) },
        ] : [
            { StatusView.appendText(state, to: &$0) },
            { GPSView.appendText(state.fix, receivedNanoseconds: state.device.fixReceivedNanoseconds, nowNanoseconds: state.device.nowNanoseconds, to: &$0) },
            { SatellitesView.appendText(state.skyView, to: &$0) },
            { HeadingView.appendText(state.heading, calibration: state.magnetometerCalibration, bearing: state.tracking?.bearing, device: state.device, to: &$0) },
            { PuckView.appendText(state.tracking, to: &$0) },
            { CameraView.appendText(state.tracking, to: &$0) },
            { LEDsView.appendText(state.device, to: &$0) },
            { StatsView.appendText(state, console: console, to: &$0) },
            { EventsView.appendText(state.events, count: 64, to: &$0) },
            { ConfigView.appendText(state.device, key: nil, to: &$0) },
        ]
        for view in views {
            view(&out)
            if json { out.append(UInt8(ascii: "\n")) }
        }
    }

    @Test func renderersStayWithinTheirBuffersForAnyState() {
        var rng = SeededRandom(state: 0x5EED_0007)
        var overflowed = 0
        for _ in 0..<400 {
            let state = Self.randomState(&rng)
            for json in [false, true] {
                let capacity = 16 + rng.below(40_000)
                var out = OutputBuffer(capacity: capacity)
                Self.renderAll(state, json: json, to: &out)
                #expect(out.count <= capacity)
                if out.overflowed { overflowed += 1 }
            }
        }
        #expect(overflowed > 50)   // the small buffers were really exercised
    }

    @Test func jsonIsValidForAnyState() throws {
        var rng = SeededRandom(state: 0x5EED_0008)
        var text = ""
        var lines = 0
        for _ in 0..<150 {
            let state = Self.randomState(&rng)
            var out = OutputBuffer(capacity: 262_144)
            Self.renderAll(state, json: true, to: &out)
            let overflowed = out.overflowed
            #expect(!overflowed)
            text += out.string
            lines += 10
        }
        let values = try #require(pythonJSON(text, ["len(rows)", "all(isinstance(r, dict) and 'reply' in r for r in rows)"]))
        #expect(values == ["\(lines)", "True"])
    }
}
