import Testing
import TestSupport
@testable import NMEA

/// A fix and the line (0-based) whose bytes completed it.
struct Closing {
    var fix: Fix
    var line: Int
}

/// Feeds `text` line by line, as a serial port would deliver it; returns when each fix came out.
func closings(_ text: [UInt8], configuration: EpochAssembler.Configuration = .init())
    -> (closings: [Closing], lines: [String], pipeline: NMEAPipeline) {
    var pipeline = NMEAPipeline(configuration: configuration)
    var result: [Closing] = []
    let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
    for (index, line) in lines.enumerated() {
        line.withUnsafeBytes { raw in pipeline.feed(raw) { result.append(Closing(fix: copy $0, line: index)) } }
    }
    pipeline.finish { result.append(Closing(fix: copy $0, line: lines.count)) }
    return (result, lines.map { String(decoding: $0, as: UTF8.self) }, pipeline)
}

/// Sentence bodies (checksums added) as one text.
func nmea(_ bodies: [String]) -> [UInt8] {
    Array(bodies.map { checksummed($0) + "\r\n" }.joined().utf8)
}

/// The fix with `satellitesInView` cleared (an epoch closed before its GSV carries the previous view).
func withoutSky(_ fix: Fix) -> Fix {
    var f = fix
    f.satellitesInView = nil
    return f
}

/// Epoch closing (docs/nmea-epochs.md §1): at the learned cycle ender, never later than the next epoch,
/// never cutting a sentence off a fix.
@Suite struct CycleEnderTests {
    @Test func uBloxCycleClosesAtItsLastFixSentenceFromTheThirdEpoch() throws {
        // u-blox NEO-M9N at 1 Hz: RMC VTG GGA GSA×4 GSV×13 GLL GST ZDA GBS. ZDA is the last sentence with
        // fix data (GBS is not decoded), so from the third epoch on the fix is out the moment ZDA is in.
        let log = try #require(Fixtures.bytes("nmea/gpsd/ublox-neo-m9n-nmea.nmea"))
        let (out, lines, pipeline) = closings(log)
        try #require(out.count == 61)
        for (k, c) in out.enumerated() where c.line < lines.count {
            let line = lines[c.line]
            if k < 2 {
                #expect(line.hasPrefix("$GNRMC"), "epoch \(k) closes when the next begins")
            } else {
                #expect(line.hasPrefix("$GNZDA"), "epoch \(k) closed at \(line)")
                let time = String(line.split(separator: ",")[1])
                #expect(Int64(Double(time.prefix(6).suffix(2))! * 1e9) == c.fix.timeOfDayNanoseconds % 60_000_000_000)
            }
        }
        let counters = pipeline.assembler.counters
        #expect(counters.epochsClosedAtCycleEnder == 59 && counters.epochsClosedByNextEpoch == 2)
        #expect(counters.sentencesAfterClose == 0 && pipeline.assembler.cycle.periodNanoseconds == 1_000_000_000)
    }

    @Test func closingAtTheEnderNeverChangesAFixOfTheCorpus() throws {
        // Every log of gpsd's corpus: the fixes are those of the next-epoch rule (but for the sky view of
        // an epoch that closes before its GSV), no sentence arrives after its epoch closed, and most
        // epochs close at their ender.
        var late = 0, atEnder = 0, epochs = 0
        var off = EpochAssembler.Configuration()
        off.closesAtCycleEnder = false
        for name in Fixtures.files(in: "nmea/gpsd", suffix: ".nmea") {
            let log = try #require(Fixtures.bytes("nmea/gpsd/" + name))
            let early = closings(log)
            let late1 = closings(log, configuration: off)
            #expect(early.closings.map { withoutSky($0.fix) } == late1.closings.map { withoutSky($0.fix) }, "\(name)")
            #expect(late1.pipeline.assembler.counters.epochsClosedAtCycleEnder == 0)
            late += early.pipeline.assembler.counters.sentencesAfterClose
            atEnder += early.pipeline.assembler.counters.epochsClosedAtCycleEnder
            epochs += early.pipeline.assembler.counters.epochs
            // Never later: each fix is out no later than with the next-epoch rule.
            for (a, b) in zip(early.closings, late1.closings) { #expect(a.line <= b.line, "\(name)") }
        }
        #expect(late == 0)
        #expect(epochs > 700 && atEnder * 10 > epochs * 8, "\(atEnder) of \(epochs) epochs closed at their ender")
    }

    @Test func tenHertzGGAWithOneHertzRMCIsLearnedPerPlaceInTheSecond() throws {
        // gpsd's rst39 (Septentrio): GGA every 0.1 s; HDT, ZDA and RMC follow the GGA of each whole second.
        // A whole-second epoch must not close at its GGA: its RMC speed would be lost.
        let log = try #require(Fixtures.bytes("nmea/gpsd/rst39.nmea"))
        let (out, lines, pipeline) = closings(log)
        var checked = 0
        for c in out where c.fix.timeOfDayNanoseconds % 1_000_000_000 == 0 && c.line < lines.count {
            let stamp = String(format2(Int(c.fix.timeOfDayNanoseconds / 1_000_000_000 % 60))) + ".00,A"
            guard lines.contains(where: { $0.hasPrefix("$GPRMC") && $0.contains(stamp) }) else { continue }
            #expect(!c.fix.speedAndCourseDerived, "\(c.fix.timeOfDayNanoseconds): RMC speed kept")
            #expect(!lines[c.line].hasPrefix("$GPHDT") && !lines[c.line].hasPrefix("$GPZDA"))
            checked += 1
        }
        #expect(checked >= 3)
        let counters = pipeline.assembler.counters
        #expect(counters.sentencesAfterClose == 0 && pipeline.assembler.cycle.wrongPredictions == 0)
        #expect(counters.epochsClosedAtCycleEnder >= 30, "the 10-epoch pattern is learned after two seconds")
        #expect(pipeline.assembler.cycle.periodNanoseconds == 100_000_000)
    }

    @Test func aWrongPredictionIsCountedAndMakesTheLearningStricter() throws {
        func cycle(_ s: Int, vtg: Bool) -> [String] {
            ["$GPGGA,12\(format2(s / 60))\(format2(s % 60)).00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,"]
                + (vtg ? ["$GPVTG,90.0,T,,M,20.0,N,37.0,K,A"] : [])
        }
        var bodies: [String] = []
        for s in 0..<3 { bodies += cycle(s, vtg: false) }
        for s in 3..<40 { bodies += cycle(s, vtg: true) }   // a VTG is switched on: its cycle was closed at GGA
        let (out, lines, pipeline) = closings(nmea(bodies))
        let assembler = pipeline.assembler
        #expect(assembler.counters.sentencesAfterClose == 1 && assembler.cycle.wrongPredictions == 1)
        #expect(assembler.cycle.requiredStretch == CycleEnderLearner.historyCapacity)
        // Epoch 3 went out at its GGA, without the VTG's course; later epochs have it.
        #expect(out[3].line == 3 && out[3].fix.courseDegrees == nil && out[3].fix.speedAndCourseDerived)
        #expect(out[4].fix.courseDegrees == 90 && !out[4].fix.speedAndCourseDerived)
        // Then a pattern must hold over 32 cycles: epochs 4…34 close when the next begins, 35… at the VTG.
        for k in 4..<35 { #expect(lines[out[k].line].hasPrefix("$GPGGA"), "epoch \(k)") }
        for k in 35..<39 { #expect(lines[out[k].line].hasPrefix("$GPVTG"), "epoch \(k)") }
    }

    @Test func aNewTalkerIsLearnedAgain() throws {
        // nmea-rtk (10 Hz GGA+RMC) switches between GN and GP talkers four times. After a switch two epochs
        // close when the next begins; from the third on they close at their own RMC again, but for a whole
        // second, which waits until the pattern reaches back to the previous whole second.
        let log = try #require(Fixtures.bytes("nmea/gpsd/nmea-rtk.nmea"))
        let (out, lines, pipeline) = closings(log)
        /// "GN" and the time field of an RMC line, nil for any other line.
        func rmc(_ line: String) -> (talker: Substring, time: Int64)? {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 1, fields[0].hasSuffix("RMC"), let t = Double(fields[1]) else { return nil }
            let seconds = Int64(t / 10_000) * 3600 + Int64(t / 100) % 100 * 60
            return (fields[0].dropFirst().prefix(2), seconds * 1_000_000_000 + Int64((t.truncatingRemainder(dividingBy: 100) * 100).rounded()) * 10_000_000)
        }
        var talkerAt: [Int64: Substring] = [:]
        for line in lines { if let r = rmc(line) { talkerAt[r.time] = r.talker } }
        var sinceSwitch = 0
        var switches = 0
        for k in 1..<out.count - 1 {
            let time = out[k].fix.timeOfDayNanoseconds
            if talkerAt[time] != talkerAt[out[k - 1].fix.timeOfDayNanoseconds] {
                switches += 1
                sinceSwitch = 0
            }
            let closedAtOwnRMC = rmc(lines[out[k].line])?.time == time
            let wholeSecond = time % 1_000_000_000 == 0
            if k >= 10 && sinceSwitch >= 2 && (!wholeSecond || sinceSwitch >= 10) {
                #expect(closedAtOwnRMC, "epoch \(k), \(sinceSwitch) after a talker switch")
            }
            sinceSwitch += 1
        }
        #expect(switches == 4)
        #expect(pipeline.assembler.counters.sentencesAfterClose == 0)
    }

    @Test func theSecondOfTwoIdenticalGSAEndsTheCycle() {
        // SiRF-style: two GNGSA without a system ID; the cycle ends at the second.
        var bodies: [String] = []
        for s in 0..<5 {
            bodies += ["$GPGGA,1200\(format2(s)).00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
                       "$GNGSA,A,3,01,02,03,04,,,,,,,,,1.9,1.1,1.5",
                       "$GNGSA,A,3,65,66,67,68,,,,,,,,,1.8,1.0,1.4"]
        }
        let (out, lines, pipeline) = closings(nmea(bodies))
        #expect(out.count == 5 && pipeline.assembler.counters.epochsClosedAtCycleEnder == 3)
        for k in 2..<5 {
            #expect(out[k].line == 3 * k + 2 && lines[out[k].line].contains(",65,66,"))
            #expect(out[k].fix.hdop == 1.0 && out[k].fix.pdop == 1.8)      // the second GSA is in the fix
        }
    }

    @Test func aNewRateForgetsThePattern() {
        var bodies: [String] = []
        for s in 0..<4 { bodies.append("$GPGGA,1200\(format2(s)).00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,") }
        for tenth in 0..<10 {
            bodies.append("$GPGGA,120004.\(tenth)0,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,")
        }
        let (_, _, pipeline) = closings(nmea(bodies))
        #expect(pipeline.assembler.cycle.periodNanoseconds == 100_000_000)
        #expect(pipeline.assembler.counters.sentencesAfterClose == 0)
    }

    @Test func aQuietLineClosesAnEpochWhoseEnderDidNotCome() throws {
        // A device tells the time: after the second epoch the period (1 s) is known, and an epoch closes
        // when the line has been quiet for a quarter of it. Late sentences change nothing and are counted.
        let second: Int64 = 1_000_000_000
        var pipeline = NMEAPipeline()
        var fixes: [Fix] = []
        func feed(_ bodies: [String], at t: Int64) {
            nmea(bodies).withUnsafeBytes { raw in pipeline.feed(raw, nowNanoseconds: t) { fixes.append(copy $0) } }
        }
        feed(["$GPRMC,120000.00,A,4807.0380,N,01131.0000,E,1.0,45.0,050826,,,A"], at: 0)
        #expect(pipeline.deadlineNanoseconds == nil, "no period known yet")
        feed(["$GPRMC,120001.00,A,4807.0380,N,01131.0000,E,1.0,45.0,050826,,,A"], at: second)
        #expect(fixes.count == 1 && pipeline.deadlineNanoseconds == second + second / 4)
        pipeline.closeIfQuiet(nowNanoseconds: second + second / 4 - 1) { fixes.append(copy $0) }
        #expect(fixes.count == 1)
        pipeline.closeIfQuiet(nowNanoseconds: second + second / 4) { fixes.append(copy $0) }
        #expect(fixes.count == 2 && fixes[1].timeOfDayNanoseconds == 43_201 * second)
        #expect(pipeline.deadlineNanoseconds == nil, "nothing open")
        feed(["$GPVTG,90.0,T,,M,20.0,N,37.0,K,A"], at: second + second / 2)   // late for 12:00:01
        #expect(fixes.count == 2 && fixes[1].courseDegrees == 45)
        let counters = pipeline.assembler.counters
        #expect(counters.sentencesAfterClose == 1 && counters.epochsClosedByQuietLine == 1)
        #expect(pipeline.assembler.cycle.wrongPredictions == 0, "a quiet close is no prediction")
        // The quiet time never goes below 20 ms (10 Hz: 25 ms; 50 Hz would be 5 ms).
        var fast = NMEAPipeline()
        for (i, t) in ["120000.00", "120000.02"].enumerated() {
            nmea(["$GPRMC,\(t),A,4807.0380,N,01131.0000,E,1.0,45.0,050826,,,A"]).withUnsafeBytes { raw in
                fast.feed(raw, nowNanoseconds: Int64(i) * 20_000_000) { _ in }
            }
        }
        let fastDeadline = fast.deadlineNanoseconds
        #expect(fastDeadline == 40_000_000, "\(String(describing: fastDeadline)), period \(fast.assembler.cycle.periodNanoseconds)")
    }

    @Test func whileLearningTheBurstsEndClosesTheEpoch() throws {
        // The first cycles after start have no learned ender: with `lineCharacterNanoseconds` set (the
        // device sets it from the baud), the epoch closes when the line has been quiet for the last
        // read's bytes plus 16 character times, at least 1.5 ms (not 5 ms, not a cycle late); a read that ended inside
        // a sentence waits 82 + 16 characters (the longest sentence). Once an ender is predicted, the quarter-period quiet
        // line is the fallback again.
        let second: Int64 = 1_000_000_000
        var configuration = EpochAssembler.Configuration()
        configuration.lineCharacterNanoseconds = EpochAssembler.characterNanoseconds(baud: 460_800)
        #expect(configuration.lineCharacterNanoseconds == 21_701)
        #expect(EpochAssembler.characterNanoseconds(baud: 9600) == 1_041_666)
        var pipeline = NMEAPipeline(configuration: configuration)
        var fixes: [Fix] = []
        func cycle(_ s: Int, at t: Int64) {
            let time = "1200\(format2(s)).00"
            nmea(["$GPRMC,\(time),A,4807.0380,N,01131.0000,E,1.0,45.0,050826,,,A"]).withUnsafeBytes { raw in
                pipeline.feed(raw, nowNanoseconds: t) { fixes.append(copy $0) }
            }
            // The GGA in two reads, the first ending inside the sentence.
            let gga = nmea(["$GPGGA,\(time),4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,"])
            let learning = pipeline.assembler.cycle.isLearning
            gga.withUnsafeBytes { raw in
                pipeline.feed(UnsafeRawBufferPointer(rebasing: raw[0..<20]), nowNanoseconds: t + 100_000) { fixes.append(copy $0) }
                if learning { #expect(pipeline.deadlineNanoseconds == t + 100_000 + 98 * 21_701, "inside a sentence: the cap") }
                pipeline.feed(UnsafeRawBufferPointer(rebasing: raw[20...]), nowNanoseconds: t + 200_000) { fixes.append(copy $0) }
            }
            if learning { #expect(pipeline.deadlineNanoseconds == t + 200_000 + max(Int64(gga.count - 20 + 16) * 21_701, 1_500_000), "at least the 1.5 ms floor") }
        }
        let quiet = { (t: Int64) in t + 200_000 + max(Int64(nmea(["$GPGGA,120000.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,"]).count - 20 + 16) * 21_701, 1_500_000) }
        cycle(0, at: 0)
        #expect(pipeline.assembler.cycle.isLearning)
        pipeline.closeIfQuiet(nowNanoseconds: quiet(0) - 1) { fixes.append(copy $0) }
        #expect(fixes.isEmpty)
        pipeline.closeIfQuiet(nowNanoseconds: quiet(0)) { fixes.append(copy $0) }
        #expect(fixes.count == 1 && fixes[0].altitudeMSLMeters == 545.4, "the whole first cycle, GGA included")
        #expect(quiet(0) < 2_000_000, "at 460800 baud the first fix is out within 2 ms of the last byte")
        cycle(1, at: second)
        pipeline.closeIfQuiet(nowNanoseconds: quiet(second)) { fixes.append(copy $0) }
        #expect(fixes.count == 2)
        cycle(2, at: 2 * second)                  // the third cycle closes at its learned ender (GGA)
        #expect(fixes.count == 3 && !pipeline.assembler.cycle.isLearning)
        #expect(pipeline.assembler.counters.epochsClosedByQuietLine == 2)
        #expect(pipeline.assembler.counters.epochsClosedAtCycleEnder == 1)
        #expect(pipeline.assembler.counters.sentencesAfterClose == 0)
        // Learned: an epoch whose ender does not come waits for the quarter-period quiet line.
        nmea(["$GPRMC,120003.00,A,4807.0380,N,01131.0000,E,1.0,45.0,050826,,,A"]).withUnsafeBytes { raw in
            pipeline.feed(raw, nowNanoseconds: 3 * second) { fixes.append(copy $0) }
        }
        #expect(pipeline.deadlineNanoseconds == 3 * second + second / 4)
        // Off (replay, and the default): nothing waits before a period is known.
        var off = NMEAPipeline()
        nmea(["$GPRMC,120000.00,A,4807.0380,N,01131.0000,E,1.0,45.0,050826,,,A"]).withUnsafeBytes { raw in
            off.feed(raw, nowNanoseconds: 0) { _ in }
        }
        #expect(off.deadlineNanoseconds == nil)
    }

    @Test func withoutTimesNothingWaitsForAQuietLine() throws {
        let log = try #require(Fixtures.bytes("nmea/gpsd/mt3339.nmea"))
        var pipeline = NMEAPipeline()
        log.withUnsafeBytes { raw in pipeline.feed(UnsafeRawBufferPointer(rebasing: raw[0..<raw.count / 2])) { _ in } }
        #expect(pipeline.deadlineNanoseconds == nil && pipeline.assembler.counters.epochsClosedByQuietLine == 0)
    }
}

/// Two digits.
func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
