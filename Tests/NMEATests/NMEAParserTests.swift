import Testing
@testable import NMEA

/// Parses a sentence body (`$…` without checksum).
func parse(_ body: String) -> ParsedSentence {
    Array(body.utf8).withUnsafeBufferPointer { NMEAParser.parse($0) }
}

func expectFailure(_ body: String, _ kind: SentenceKind, _ reason: ParseFailure,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(parse(body).message == .invalid(kind, reason), sourceLocation: sourceLocation)
}

@Suite struct NMEAParserTests {
    @Test func gga() throws {
        let p = parse("$GNGGA,092725.00,4717.11399,N,00833.91590,E,4,08,1.01,499.6,M,48.0,M,1.2,0031")
        #expect(p.talker == Talker(0x47, 0x4E))
        guard case .gga(let g) = p.message else { Issue.record("not GGA: \(p.message)"); return }
        #expect(g.time == UTCTimeOfDay(hour: 9, minute: 27, second: 25))
        #expect(abs(try #require(g.latitudeDegrees) - (47 + 17.11399 / 60)) < 1e-12)
        #expect(abs(try #require(g.longitudeDegrees) - (8 + 33.91590 / 60)) < 1e-12)
        #expect(g.quality == .rtkFixed && g.satellitesUsed == 8 && g.hdop == 1.01)
        #expect(g.altitudeMSLMeters == 499.6 && g.geoidSeparationMeters == 48.0)
        #expect(g.differentialAgeSeconds == 1.2 && g.differentialStationID == 31)
    }

    @Test func emptyFieldsAreAbsentNotZero() {
        guard case .gga(let g) = parse("$GPGGA,,,,,,0,,,,M,,M,,").message else { Issue.record("not GGA"); return }
        #expect(g.time == nil && g.latitudeDegrees == nil && g.satellitesUsed == nil && g.hdop == nil)
        #expect(g.altitudeMSLMeters == nil && g.geoidSeparationMeters == nil && g.quality == .invalid)
    }

    @Test func southernAndWesternHemispheres() throws {
        guard case .rmc(let r) = parse("$GPRMC,081836,A,3751.65,S,14507.36,W,000.0,360.0,130998,011.3,E").message
        else { Issue.record("not RMC"); return }
        #expect(abs(try #require(r.latitudeDegrees) + (37 + 51.65 / 60)) < 1e-12)
        #expect(abs(try #require(r.longitudeDegrees) + (145 + 7.36 / 60)) < 1e-12)
        #expect(r.courseDegrees == 0)                              // 360 is north
        #expect(r.magneticVariationDegrees == 11.3)
    }

    /// Minutes with 8 decimals keep every digit: the fixed-point result equals the exact rational value
    /// to within one unit in the last place of a Double.
    @Test func eightDecimalMinutesKeepEveryDigit() throws {
        guard case .gga(let g) = parse("$GPGGA,132820.60,4134.49821229,N,09345.03351845,W,2,09,1.0,278.020,M,-31.442,M,7.6,0133").message
        else { Issue.record("not GGA"); return }
        let lat = try #require(g.latitudeDegrees), lon = try #require(g.longitudeDegrees)
        // 41° 34.49821229' = 41 + 3449821229 / (60 × 10^8)
        #expect(abs(lat - (41 + 3_449_821_229.0 / 6e9)) <= lat.ulp)
        #expect(abs(lon + (93 + 4_503_351_845.0 / 6e9)) <= lon.ulp)
        // Two positions one digit apart in the 8th decimal (1.85 µm of latitude) stay distinct.
        guard case .gga(let h) = parse("$GPGGA,132820.60,4134.49821230,N,09345.03351845,W,2,09,1.0,278.020,M,-31.442,M,7.6,0133").message
        else { Issue.record("not GGA"); return }
        #expect(try #require(h.latitudeDegrees) > lat)
    }

    @Test func rmcWithModeAndVariationWest() throws {
        guard case .rmc(let r) = parse("$GNRMC,055234.000,A,4739.71890,N,12219.58362,W,1.50,286.35,050826,3.5,W,D,V").message
        else { Issue.record("not RMC"); return }
        #expect(r.isValid && r.mode == .differential)
        #expect(abs(try #require(r.speedMetersPerSecond) - 1.5 * 1852 / 3600) < 1e-12)
        #expect(r.date == NMEADate(year: 26, month: 8, day: 5, hasCentury: false))
        #expect(r.magneticVariationDegrees == -3.5)
    }

    @Test func rmcStatusVoidIsNotValid() {
        guard case .rmc(let r) = parse("$GPRMC,235947.004,V,,,,,0.000,0.00,050180,,,N").message
        else { Issue.record("not RMC"); return }
        #expect(!r.isValid && r.mode == .notValid && r.latitudeDegrees == nil)
    }

    @Test func mtkPolePlaceholderIsNoPosition() {
        // MTK's "no fix" placeholder 89°60' is not a latitude: the position reads as absent.
        guard case .gga(let g) = parse("$GPGGA,235946.005,8960.000000,N,00000.000000,E,0,0,,137.000,M,13.000,M,,").message
        else { Issue.record("not GGA"); return }
        #expect(g.latitudeDegrees == nil && g.longitudeDegrees == nil && g.quality == .invalid)
        // Any other minute value of 60 or more is out of range.
        expectFailure("$GPGGA,235946.005,4860.000000,N,00000.000000,E,1,5,,137.000,M,13.000,M,,", .gga, .outOfRange)
        expectFailure("$GPGGA,235946.005,8961.000000,N,00000.000000,E,1,5,,137.000,M,13.000,M,,", .gga, .outOfRange)
    }

    @Test func gll() {
        guard case .gll(let g) = parse("$GNGLL,4739.71890,N,12219.58362,W,055234.200,A,A").message
        else { Issue.record("not GLL"); return }
        #expect(g.isValid && g.mode == .autonomous && g.time == UTCTimeOfDay(hour: 5, minute: 52, second: 34, nanosecond: 200_000_000))
        // Old GLL without time and status.
        guard case .gll(let old) = parse("$GPGLL,4916.45,N,12311.12,W").message else { Issue.record("not GLL"); return }
        #expect(old.time == nil && !old.isValid && old.latitudeDegrees != nil)
    }

    @Test func vtg() throws {
        guard case .vtg(let v) = parse("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A").message
        else { Issue.record("not VTG"); return }
        #expect(v.courseTrueDegrees == 54.7 && v.courseMagneticDegrees == 34.4 && v.mode == .autonomous)
        #expect(abs(try #require(v.speedMetersPerSecond) - 5.5 * 1852 / 3600) < 1e-12)
        // Speed only in km/h.
        guard case .vtg(let k) = parse("$GPVTG,,T,,M,,N,36.0,K").message else { Issue.record("not VTG"); return }
        #expect(k.speedMetersPerSecond == 10 && k.courseTrueDegrees == nil)
    }

    @Test func gsaWithSystemID() {
        guard case .gsa(let g) = parse("$GNGSA,A,3,13,16,21,15,10,29,27,20,,,,,1.05,0.64,0.83,4").message
        else { Issue.record("not GSA"); return }
        #expect(g.fixType == 3 && g.usedCount == 8 && g.used[0] == 13 && g.used[7] == 20)
        #expect(g.pdop == 1.05 && g.hdop == 0.64 && g.vdop == 0.83 && g.systemID == 4)
        guard case .gsa(let old) = parse("$GPGSA,A,2,21,28,08,,,,,,,,,,3.05,2.88,1.00").message
        else { Issue.record("not GSA"); return }
        #expect(old.fixType == 2 && old.usedCount == 3 && old.systemID == nil)
    }

    @Test func gsaNavior24Satellites() {
        guard case .gsa(let g) = parse("$GPGSA,A,3,27,23,13,07,25,,,,,,,,,,,,,,,,,,,,07.9,06.0,05.2").message
        else { Issue.record("not GSA"); return }
        #expect(g.usedCount == 5 && g.pdop == 7.9 && g.vdop == 5.2)
    }

    @Test func gsvWithSignalID() {
        guard case .gsv(let g) = parse("$GAGSV,3,1,09,02,00,179,,04,09,321,,07,11,134,11,11,10,227,,7").message
        else { Issue.record("not GSV"); return }
        #expect(g.totalSentences == 3 && g.sentenceNumber == 1 && g.satellitesInView == 9 && g.count == 4)
        #expect(g.signalID == 7)
        #expect(g.satellites[2] == {
            var s = GSVSatellite(); s.number = 7; s.elevationDegrees = 11; s.azimuthDegrees = 134; s.snr = 11; return s
        }())
        #expect(g.satellites[0].snr == nil)
    }

    @Test func gsvShortLastSentence() {
        guard case .gsv(let g) = parse("$GPGSV,3,3,11,24,24,310,18,06,07,167,19,13,37,229,").message
        else { Issue.record("not GSV"); return }
        #expect(g.count == 3 && g.signalID == nil && g.satellites[2].snr == nil)
    }

    @Test func gst() {
        guard case .gst(let g) = parse("$GNGST,223745.00,17,1.4,0.98,61,1.2,1.1,2.4").message
        else { Issue.record("not GST"); return }
        #expect(g.ellipse.rangeRMSMeters == 17 && g.ellipse.semiMajorMeters == 1.4 && g.ellipse.orientationDegrees == 61)
        #expect(g.ellipse.latitudeSigmaMeters == 1.2 && g.ellipse.longitudeSigmaMeters == 1.1 && g.ellipse.altitudeSigmaMeters == 2.4)
    }

    @Test func zda() {
        guard case .zda(let z) = parse("$GPZDA,160012.71,11,03,2004,-05,30").message else { Issue.record("not ZDA"); return }
        #expect(z.date == NMEADate(year: 2004, month: 3, day: 11, hasCentury: true))
        #expect(z.time == UTCTimeOfDay(hour: 16, minute: 0, second: 12, nanosecond: 710_000_000))
        #expect(z.localZoneOffsetMinutes == -330)
    }

    @Test func gns() {
        guard case .gns(let g) = parse("$GPGNS,224749.00,3333.4268304,N,11153.3538273,W,DNN,19,0.6,406.110,-26.294,6.0,0138,S").message
        else { Issue.record("not GNS"); return }
        #expect(g.mode == .differential && g.anySystemValid && g.navigationStatusValid)
        #expect(g.satellitesUsed == 19 && g.altitudeMSLMeters == 406.110 && g.differentialStationID == 138)
        guard case .gns(let n) = parse("$GNGNS,120213.000,5957.0062,N,01100.6429,E,NNN,00,,,,,,V").message
        else { Issue.record("not GNS"); return }
        #expect(!n.anySystemValid && !n.navigationStatusValid)
    }

    @Test func headings() {
        guard case .hdt(let h) = parse("$HEHDT,341.8,T").message else { Issue.record("not HDT"); return }
        #expect(h.headingDegrees == 341.8)
        guard case .ths(let t) = parse("$GNTHS,77.52,A").message else { Issue.record("not THS"); return }
        #expect(t.headingDegrees == 77.52 && t.isValid)
        guard case .ths(let v) = parse("$GNTHS,,V").message else { Issue.record("not THS"); return }
        #expect(!v.isValid && v.headingDegrees == nil)
    }

    @Test(arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "QZ", "GI", "IN", "HE"])
    func anyTalker(_ talker: String) {
        let p = parse("$\(talker)GGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        guard case .gga = p.message else { Issue.record("\(talker): \(p.message)"); return }
        let bytes = Array(talker.utf8)
        #expect(p.talker == Talker(bytes[0], bytes[1]))
    }

    @Test func proprietaryEncapsulatedAndUnknownAreSkippedNotErrors() {
        #expect(parse("$PMTK001,604,3").message == .proprietary)
        #expect(parse("$PASHR,204132.000,010.51,T,+00.39,-00.79,-00.84,0.151,0.075,0.555,1,0").message == .proprietary)
        #expect(parse("!AIVDM,1,1,,B,13aGhtw0R<OJf=6LgQ?Ad1FF05`L,0").message == .encapsulated)
        #expect(parse("$GPGBS,223745.00,1.1,0.9,2.0,,,,").message == .other)
        #expect(parse("$GPTXT,01,01,02,ANTSTATUS=OK").message == .other)
    }

    @Test func malformedSentences() {
        expectFailure("$GPN,00000.0000,E,0,00,0.0,,M,,M,,", .other, .malformedAddress)
        expectFailure("$gpgga,1", .other, .malformedAddress)
        expectFailure("$GPGGA,123519,4807.038,N,01131.000,E,1,08", .gga, .tooFewFields)
        expectFailure("$GPRMC,235955.00,V,0000.0000,,,N", .rmc, .tooFewFields)
        expectFailure("$GPGGA,12a519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", .gga, .malformedField)
        expectFailure("$GPGGA,123519,4807.038,Q,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", .gga, .malformedField)
        expectFailure("$GPGSA,A,1,,,,", .gsa, .tooFewFields)
    }

    @Test func rangeChecks() {
        expectFailure("$GPGGA,123519,9107.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", .gga, .outOfRange)
        expectFailure("$GPGGA,123519,4807.038,N,18131.000,E,1,08,0.9,545.4,M,46.9,M,,", .gga, .outOfRange)
        expectFailure("$GPGGA,253519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", .gga, .outOfRange)
        expectFailure("$GPGGA,123519,4807.038,N,01131.000,E,9,08,0.9,545.4,M,46.9,M,,", .gga, .outOfRange)
        expectFailure("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,231394,003.1,W", .rmc, .outOfRange)
        expectFailure("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,300294,003.1,W", .rmc, .outOfRange)
        expectFailure("$GPRMC,123519,A,4807.038,N,01131.000,E,-22.4,084.4,230394,003.1,W", .rmc, .outOfRange)
        expectFailure("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,361.0,230394,003.1,W", .rmc, .outOfRange)
        expectFailure("$GPGSV,1,1,01,36,91,156,51", .gsv, .outOfRange)
        expectFailure("$GPZDA,160012.71,11,13,2004,00,00", .zda, .outOfRange)
    }

    @Test func leapSecondOnlyAtTheEndOfTheDay() {
        guard case .gga(let g) = parse("$GPGGA,235960.50,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,").message
        else { Issue.record("not GGA"); return }
        #expect(g.time?.isLeapSecond == true && g.time?.nanoseconds == 86_400_500_000_000)
        expectFailure("$GPGGA,123560,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", .gga, .outOfRange)
    }

    @Test func satelliteNumbering() {
        let gp = Talker(0x47, 0x50), gl = Talker(0x47, 0x4C), gb = Talker(0x47, 0x42), gn = Talker(0x47, 0x4E)
        #expect(SatelliteNumbering.identify(number: 5, talker: gp) == SatelliteIdentity(constellation: .gps, svid: 5, prn: 5))
        #expect(SatelliteNumbering.identify(number: 46, talker: gp) == SatelliteIdentity(constellation: .sbas, svid: 133, prn: 133))
        #expect(SatelliteNumbering.identify(number: 73, talker: gl) == SatelliteIdentity(constellation: .glonass, svid: 9, prn: 73))
        #expect(SatelliteNumbering.identify(number: 13, talker: gb) == SatelliteIdentity(constellation: .beidou, svid: 13, prn: 413))
        #expect(SatelliteNumbering.identify(number: 13, talker: gn, systemID: 3) == SatelliteIdentity(constellation: .galileo, svid: 13, prn: 313))
        #expect(SatelliteNumbering.identify(number: 82, talker: gn) == SatelliteIdentity(constellation: .glonass, svid: 18, prn: 82))
        #expect(SatelliteNumbering.identify(number: 0, talker: gp) == nil)
        #expect(SatelliteNumbering.identify(number: 110, talker: gp) == nil)
    }
}
