import Testing
@testable import NMEA

/// Runs sentence bodies (checksums added) through the whole pipeline; returns fixes and the pipeline.
func assemble(_ bodies: [String], configuration: EpochAssembler.Configuration = .init())
    -> (fixes: [Fix], pipeline: NMEAPipeline) {
    var pipeline = NMEAPipeline(configuration: configuration)
    var fixes: [Fix] = []
    let text = bodies.map { checksummed($0) + "\r\n" }.joined()
    Array(text.utf8).withUnsafeBytes { raw in pipeline.feed(raw) { fixes.append(copy $0) } }
    pipeline.finish { fixes.append(copy $0) }
    return (fixes, pipeline)
}

/// Days since 1970 for a date, in nanoseconds.
func utc(_ year: Int64, _ month: Int64, _ day: Int64, _ h: Int64 = 0, _ m: Int64 = 0, _ s: Int64 = 0,
         ms: Int64 = 0) -> Int64 {
    (CivilDate.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + h * 3600 + m * 60 + s) * 1_000_000_000
        + ms * 1_000_000
}

@Suite struct EpochAssemblerTests {
    @Test func oneFixPerCycleMergingEverySentence() throws {
        let (fixes, p) = assemble([
            "$GNRMC,120000.00,A,4807.0380,N,01131.0000,E,10.0,45.0,050826,2.0,E,A",
            "$GNVTG,45.0,T,43.0,M,10.0,N,18.5,K,A",
            "$GNGGA,120000.00,4807.0380,N,01131.0000,E,1,09,0.8,545.4,M,46.9,M,,",
            "$GNGSA,A,3,01,02,03,04,05,06,,,,,,,1.5,0.8,1.2,1",
            "$GNGSA,A,3,65,66,67,,,,,,,,,,1.5,0.8,1.2,2",
            "$GNGST,120000.00,2.0,1.5,1.0,30.0,1.2,0.9,2.1",
            "$GNZDA,120000.00,05,08,2026,00,00",
            "$HEHDT,91.5,T",
            "$GNRMC,120001.00,A,4807.0390,N,01131.0010,E,10.0,45.0,050826,2.0,E,A",
        ])
        #expect(fixes.count == 2)
        let f = fixes[0]
        #expect(f.utcNanoseconds == utc(2026, 8, 5, 12))
        #expect(f.mode == .threeD && f.quality == .gps)
        #expect(abs(try #require(f.latitudeDegrees) - (48 + 7.038 / 60)) < 1e-12)
        #expect(f.altitudeMSLMeters == 545.4 && f.geoidSeparationMeters == 46.9)
        #expect(try #require(f.altitudeEllipsoidMeters) == 545.4 + 46.9)
        #expect(abs(try #require(f.speedMetersPerSecond) - 10 * 1852 / 3600) < 1e-12 && f.courseDegrees == 45)
        #expect(!f.speedAndCourseDerived && f.magneticVariationDegrees == 2)
        #expect(f.satellitesUsed == 9 && f.hdop == 0.8 && f.vdop == 1.2 && f.pdop == 1.5)
        #expect(f.trueHeadingDegrees == 91.5)
        #expect(f.accuracySource == .gst && f.horizontalAccuracyMeters == (1.2 * 1.2 + 0.9 * 0.9).squareRoot())
        #expect(f.verticalAccuracyMeters == 2.1)
        #expect(p.assembler.counters.epochs == 2 && p.assembler.counters.epochsWithFix == 2)
    }

    @Test func dopAccuracyUsesGpsdUERE() throws {
        let (fixes, _) = assemble([
            "$GPGGA,120000.00,4807.0380,N,01131.0000,E,1,09,0.8,545.4,M,46.9,M,,",
            "$GPGSA,A,3,01,02,03,04,05,06,,,,,,,1.5,0.8,1.2",
            "$GPGGA,120001.00,4807.0380,N,01131.0000,E,2,09,0.8,545.4,M,46.9,M,,",
            "$GPGSA,A,2,01,02,03,04,05,06,,,,,,,1.5,0.8,1.2",
        ])
        #expect(fixes[0].accuracySource == .dop)
        #expect(abs(try #require(fixes[0].horizontalAccuracyMeters) - 0.8 * 19) < 1e-12)
        #expect(abs(try #require(fixes[0].verticalAccuracyMeters) - 1.2 * 23) < 1e-12)
        // DGPS: gpsd's differential UERE; 2D: no vertical estimate.
        #expect(fixes[1].mode == .twoD && fixes[1].quality == .dgps)
        #expect(abs(try #require(fixes[1].horizontalAccuracyMeters) - 0.8 * 4.75) < 1e-12)
        #expect(fixes[1].verticalAccuracyMeters == nil)
    }

    @Test func noFixSentencesGiveNoPosition() {
        let (fixes, _) = assemble([
            "$GPGGA,000001.00,4807.0380,N,01131.0000,E,0,00,,,M,,M,,",
            "$GPRMC,000002.00,V,4807.0380,N,01131.0000,E,,,050826,,,N",
            "$GPGGA,000003.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
            "$GPGSA,A,1,,,,,,,,,,,,,,,",
            "$GPGGA,000004.00,4807.0380,N,01131.0000,E,1,02,0.9,545.4,M,46.9,M,,",
        ])
        #expect(fixes.count == 4)
        for f in fixes {
            #expect(f.mode == .noFix && f.quality == .invalid && f.latitudeDegrees == nil && !f.hasPosition)
        }
    }

    @Test func duplicateGGAFromSeveralTalkersSumSatellites() {
        let (fixes, _) = assemble([
            "$GPGGA,020935.000,4404.1351,N,12118.8556,W,1,08,0.9,1123.9,M,-19.6,M,,0000",
            "$GLGGA,020935.000,4404.1351,N,12118.8556,W,1,02,0.9,1123.9,M,-19.6,M,,0000",
            "$GNRMC,020935.000,A,4404.1351,N,12118.8556,W,0.04,359.11,050219,,,A",
            "$GNGGA,020936.000,4404.1351,N,12118.8556,W,1,12,0.9,1123.9,M,-19.6,M,,0000",
            "$GPGGA,020936.000,4404.1351,N,12118.8556,W,1,08,0.9,1123.9,M,-19.6,M,,0000",
        ])
        #expect(fixes.count == 2)
        #expect(fixes[0].satellitesUsed == 10)                     // GP 8 + GL 2
        #expect(fixes[1].satellitesUsed == 12)                     // a combined GN count wins
        #expect(fixes[0].mode == .threeD)
    }

    @Test func dateLineCrossingAndDerivedSpeed() throws {
        // Eastbound across the antimeridian at 40° S, 0.006' of longitude (8.5 m) per second, no RMC/VTG.
        let (fixes, p) = assemble([
            "$GPRMC,235959.00,A,4000.0000,S,17959.9950,E,,,311226,,,A",
            "$GPGGA,000000.00,4000.0000,S,17959.9990,W,1,09,0.8,10.0,M,0.0,M,,",
            "$GPGGA,000001.00,4000.0000,S,17959.9930,W,1,09,0.8,10.0,M,0.0,M,,",
        ])
        #expect(fixes.count == 3)
        #expect(fixes[1].utcNanoseconds == utc(2027, 1, 1))     // the date rolls over at midnight
        let lon = try #require(fixes[1].longitudeDegrees)
        #expect(lon < -179.9999 && lon > -180)
        // 0.0050' + 0.0010' = 0.006' of longitude at 40° S in 1 s: 8.5 m/s heading east, not 360° around.
        let speed = try #require(fixes[1].speedMetersPerSecond)
        #expect(fixes[1].speedAndCourseDerived && speed > 8.4 && speed < 8.6)
        #expect(abs(try #require(fixes[1].courseDegrees) - 90) < 0.1)
        #expect(fixes[2].speedAndCourseDerived)
        #expect(abs(try #require(fixes[2].courseDegrees) - 90) < 0.1)
        #expect(p.assembler.counters.derivedVelocities == 2)
        // The epoch with an RMC (even without a speed value) is not derived: it has no predecessor.
        #expect(!fixes[0].speedAndCourseDerived)
    }

    @Test func derivedSpeedMatchesVincenty() throws {
        // 10 m/s north: 1 s apart, latitude 0.0053996' (10 m) apart at the equator.
        let (fixes, _) = assemble([
            "$GPRMC,120000.00,A,0000.000000,N,00000.000000,E,,,050826,,,A",
            "$GPGGA,120000.00,0000.000000,N,00000.000000,E,1,09,0.8,10.0,M,0.0,M,,",
            "$GPGGA,120001.00,0000.005400,N,00000.000000,E,1,09,0.8,10.0,M,0.0,M,,",
            "$GPGGA,120011.00,0000.010800,N,00000.000000,E,1,09,0.8,10.0,M,0.0,M,,",    // 10 s later: still derived
            "$GPGGA,120022.00,0000.016200,N,00000.000000,E,1,09,0.8,10.0,M,0.0,M,,",    // 11 s later: too long
        ])
        let expected = Geodesy.inverse(latitude1: 0, longitude1: 0, latitude2: 0.0054 / 60, longitude2: 0).distanceMeters
        #expect(abs(try #require(fixes[1].speedMetersPerSecond) - expected) < 1e-9)
        #expect(abs(expected - 9.95) < 0.05 && fixes[1].courseDegrees == 0)
        #expect(abs(try #require(fixes[2].speedMetersPerSecond) - expected / 10) < 1e-9)
        #expect(fixes[2].courseDegrees == 0 && fixes[2].speedAndCourseDerived)
        #expect(fixes[3].speedMetersPerSecond == nil && !fixes[3].speedAndCourseDerived)
    }

    @Test func slowDerivedSpeedHasNoCourse() {
        let (fixes, _) = assemble([
            "$GPGGA,120000.00,0000.000000,N,00000.000000,E,1,09,0.8,10.0,M,0.0,M,,",
            "$GPGGA,120001.00,0000.000100,N,00000.000000,E,1,09,0.8,10.0,M,0.0,M,,",
        ])
        #expect(fixes[1].speedAndCourseDerived && fixes[1].speedMetersPerSecond != nil && fixes[1].courseDegrees == nil)
    }

    @Test func leapSecond() throws {
        // The last leap second was 2016-12-31T23:59:60Z; 2016 is before the default rollover floor.
        var configuration = EpochAssembler.Configuration()
        configuration.dates.rolloverFloorDays = CivilDate.daysSinceEpoch(year: 2010, month: 1, day: 1)
        let (fixes, _) = assemble([
            "$GPRMC,235959.00,A,4807.0380,N,01131.0000,E,0.0,,311216,,,A",
            "$GPRMC,235960.00,A,4807.0380,N,01131.0000,E,0.0,,311216,,,A",
            "$GPGGA,000000.00,4807.0380,N,01131.0000,E,1,09,0.8,10.0,M,0.0,M,,",
            "$GPRMC,000001.00,A,4807.0380,N,01131.0000,E,0.0,,010117,,,A",
        ], configuration: configuration)
        #expect(fixes.count == 4)
        #expect(!fixes[0].isLeapSecond && fixes[1].isLeapSecond)
        #expect(fixes[1].timeOfDayNanoseconds == 86_400_000_000_000)
        // POSIX time: 23:59:60 shares its value with the following 00:00:00.
        #expect(fixes[1].utcNanoseconds == utc(2017, 1, 1))
        #expect(fixes[2].utcNanoseconds == utc(2017, 1, 1))       // no date sentence: carried over midnight
        #expect(fixes[3].utcNanoseconds == utc(2017, 1, 1, 0, 0, 1))
    }

    @Test func weekRolloverIsCorrected() {
        let (fixes, p) = assemble([
            "$GPRMC,000231.42,A,4829.0005,N,00022.0016,E,0.16,212.28,220899,,,A",      // 1999-08-22
            "$GPZDA,120000.00,06,04,2002,00,00",                                         // 2002-04-06
            "$GPRMC,000232.00,A,4829.0005,N,00022.0016,E,0.16,212.28,070419,,,A",      // 2019-04-07: fine
        ])
        #expect(fixes[0].utcNanoseconds == utc(2019, 4, 7, 0, 2, 31, ms: 420))
        #expect(fixes[1].utcNanoseconds == utc(2021, 11, 20, 12))
        #expect(fixes[2].utcNanoseconds == utc(2019, 4, 7, 0, 2, 32))
        #expect(p.assembler.counters.weekRolloverCorrections == 2)
    }

    @Test func twoDigitYearsPivotAt1980() {
        var raw = EpochAssembler.Configuration()
        raw.dates.rolloverFloorDays = 0                            // no rollover correction: see the pivot
        let (fixes, _) = assemble([
            "$GPRMC,120000.00,A,4829.0005,N,00022.0016,E,0.1,,010180,,,A",
            "$GPRMC,120001.00,A,4829.0005,N,00022.0016,E,0.1,,311299,,,A",
            "$GPRMC,120002.00,A,4829.0005,N,00022.0016,E,0.1,,010100,,,A",
            "$GPRMC,120003.00,A,4829.0005,N,00022.0016,E,0.1,,311279,,,A",
        ], configuration: raw)
        #expect(fixes.map(\.utcNanoseconds) == [utc(1980, 1, 1, 12), utc(1999, 12, 31, 12, 0, 1),
                                                 utc(2000, 1, 1, 12, 0, 2), utc(2079, 12, 31, 12, 0, 3)])
    }

    @Test func invalidRMCDateIsIgnored() {
        // A receiver without a fix sends its power-on default date (MTK: 1980-01-05).
        let (fixes, _) = assemble([
            "$GPRMC,081433.591,V,,,,,0.000,0.00,050180,,,N",
            "$GPGGA,081434.000,5212.982135,N,00653.101394,E,1,5,2.88,102.907,M,47.093,M,,",
        ])
        #expect(fixes.allSatisfy { $0.utcNanoseconds == nil })
    }

    @Test func timeGoingBackwardsAndGaps() {
        let (fixes, p) = assemble([
            "$GPRMC,120010.00,A,4807.0380,N,01131.0000,E,,,050826,,,A",
            "$GPGGA,120011.00,4807.0380,N,01131.0000,E,1,09,0.8,10.0,M,0.0,M,,",
            "$GPGGA,120009.00,4807.0390,N,01131.0000,E,1,09,0.8,10.0,M,0.0,M,,",      // 2 s back
            "$GPGGA,120030.00,4807.0400,N,01131.0000,E,1,09,0.8,10.0,M,0.0,M,,",      // 21 s gap
        ])
        #expect(fixes.count == 4)
        #expect(fixes[2].utcNanoseconds == utc(2026, 8, 5, 12, 0, 9))
        #expect(!fixes[2].speedAndCourseDerived && !fixes[3].speedAndCourseDerived)
        #expect(p.assembler.counters.timeWentBackwards == 1 && p.assembler.counters.gaps == 1)
    }

    @Test func midnightWithoutDateSentence() {
        let (fixes, _) = assemble([
            "$GPRMC,235959.50,A,4807.0380,N,01131.0000,E,,,281226,,,A",
            "$GPGGA,000000.00,4807.0380,N,01131.0000,E,1,09,0.8,10.0,M,0.0,M,,",
            "$GPGGA,235959.90,4807.0380,N,01131.0000,E,1,09,0.8,10.0,M,0.0,M,,",      // back across midnight
        ])
        #expect(fixes.map(\.utcNanoseconds) == [utc(2026, 12, 28, 23, 59, 59, ms: 500), utc(2026, 12, 29),
                                                 utc(2026, 12, 28, 23, 59, 59, ms: 900)])
    }

    @Test func untimedSentencesBeforeTheFirstEpochAreCounted() {
        let (fixes, p) = assemble(["$GPGSA,A,3,01,02,03,04,,,,,,,,,1.5,0.8,1.2", "$GPVTG,45.0,T,,M,1.0,N,,K,A",
                                   "$GPGGA,,,,,,0,,,,M,,M,,"])
        #expect(fixes.isEmpty)
        #expect(p.assembler.counters.sentencesBeforeFirstEpoch == 2 && p.assembler.counters.sentencesWithoutTime == 1)
    }

    @Test func skyView() {
        let (_, p) = assemble([
            "$GNGGA,120000.00,4807.0380,N,01131.0000,E,1,05,0.8,10.0,M,0.0,M,,",
            "$GNGSA,A,3,05,12,,,,,,,,,,,1.5,0.8,1.2,1",
            "$GNGSA,A,3,73,,,,,,,,,,,,1.5,0.8,1.2,2",
            "$GNGSA,A,3,13,07,,,,,,,,,,,1.5,0.8,1.2,4",
            "$GPGSV,2,1,05,05,40,083,46,12,17,308,41,19,07,344,,20,22,228,45,1",
            "$GPGSV,2,2,05,25,10,010,30,1",
            "$GPGSV,1,1,02,05,40,083,40,12,17,308,38,8",
            "$GLGSV,1,1,01,73,59,049,31,1",
            "$GBGSV,1,1,02,13,19,043,17,07,38,127,33,1",
            "$GNGGA,120001.00,4807.0380,N,01131.0000,E,1,05,0.8,10.0,M,0.0,M,,",
        ])
        let sky = p.assembler.skyView
        #expect(sky.count == 10 && sky.distinctSatellites == 8 && sky.usedSatellites == 5)
        #expect(sky[0].identity == SatelliteIdentity(constellation: .gps, svid: 5, prn: 5) && sky[0].used)
        #expect(sky[0].elevationDegrees == 40 && sky[0].azimuthDegrees == 83 && sky[0].snr == 46 && sky[0].signalID == 1)
        #expect(sky[2].used == false && sky[2].snr == nil)
        #expect(sky[5].signalID == 8 && sky[5].identity.svid == 5)
        #expect(sky[7].identity == SatelliteIdentity(constellation: .glonass, svid: 9, prn: 73) && sky[7].used)
        #expect(sky[8].identity == SatelliteIdentity(constellation: .beidou, svid: 13, prn: 413) && sky[8].used)
        #expect(p.assembler.lastFix.satellitesInView == 8)
    }

    @Test func skyViewCapacityIsFixed() {
        var bodies = ["$GNGGA,120000.00,4807.0380,N,01131.0000,E,1,05,0.8,10.0,M,0.0,M,,"]
        for part in 1...20 {               // 20 GPS sentences × 4 + 5 GLONASS × 4 = 100 entries
            bodies.append("$GPGSV,20,\(part),80,01,40,083,46,02,17,308,41,03,07,344,30,04,22,228,45")
        }
        for part in 1...5 {
            bodies.append("$GLGSV,5,\(part),20,65,40,083,46,66,17,308,41,67,07,344,30,68,22,228,45")
        }
        bodies.append("$GNGGA,120001.00,4807.0380,N,01131.0000,E,1,05,0.8,10.0,M,0.0,M,,")
        let (_, p) = assemble(bodies)
        #expect(p.assembler.skyView.count == SkyView.capacity && p.assembler.skyView.droppedEntries == 4)
    }

    @Test func gsvOutOfSequenceIsCounted() {
        let (_, p) = assemble([
            "$GPGGA,120000.00,4807.0380,N,01131.0000,E,1,05,0.8,10.0,M,0.0,M,,",
            "$GPGSV,3,2,09,05,40,083,46,12,17,308,41,19,07,344,,20,22,228,45",
        ])
        #expect(p.assembler.counters.satelliteSequenceErrors == 1)
    }

    @Test func headingFromTHSUnlessInvalid() {
        let (fixes, _) = assemble([
            "$GNGGA,120000.00,4807.0380,N,01131.0000,E,1,05,0.8,10.0,M,0.0,M,,",
            "$GNTHS,77.52,A",
            "$GNGGA,120001.00,4807.0380,N,01131.0000,E,1,05,0.8,10.0,M,0.0,M,,",
            "$GNTHS,12.00,V",
        ])
        #expect(fixes[0].trueHeadingDegrees == 77.52 && fixes[1].trueHeadingDegrees == nil)
    }
}
