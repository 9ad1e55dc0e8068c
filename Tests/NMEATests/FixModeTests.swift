import Testing
@testable import NMEA

/// The fix mode follows gpsd's rules (`FixModeRules`, docs/nmea-epochs.md §2). Each case is a stream
/// that was fed to gpsdecode 3.22 (gpsd-clients 3.22-4.1+deb12u1): the expected modes are its TPV
/// modes, epoch by epoch (gpsdecode reports no TPV for the first epoch; there the expectation is the
/// same rule). The logs that show the rules in real receivers are `mtk-3301` and the GGA-every-Nth
/// logs of Tests/Fixtures/nmea/derived, scored in `ReplayCorpusTests`.
@Suite struct FixModeTests {
    static func time(_ s: Int) -> String { "1200\(format2(s)).00" }
    static func rmc(_ s: Int) -> String { "$GPRMC,\(time(s)),A,4807.0380,N,01131.0000,E,1.0,45.0,050826,,,A" }
    static func gga(_ s: Int, satellites: Int = 8, altitude: String = "545.4") -> String {
        "$GPGGA,\(time(s)),4807.0380,N,01131.0000,E,1,\(format2(satellites)),0.9,\(altitude),M,46.9,M,,"
    }
    static func gsa(_ fixType: Int, satellites: Int = 8) -> String {
        let used = (1...12).map { $0 <= satellites ? format2($0) : "" }.joined(separator: ",")
        return "$GPGSA,A,\(fixType),\(used),1.5,0.8,1.2"
    }

    static func modes(_ bodies: [String]) -> [FixMode] {
        assemble(bodies).fixes.map(\.mode)
    }

    @Test func gsaSaying2DDoesNotDowngradeAGGAAltitudeFrom4OrMoreSatellites() {
        // GGA 3D (altitude, ≥ 4 satellites) then GSA 2D: the merged 3D fix stays (an altitude is held).
        #expect(Self.modes((0..<6).flatMap { [Self.rmc($0), Self.gga($0), Self.gsa(2)] }) == Array(repeating: .threeD, count: 6))
        #expect(Self.modes((0..<6).flatMap { [Self.rmc($0), Self.gga($0, satellites: 5), Self.gsa(2, satellites: 5)] })
                == Array(repeating: .threeD, count: 6))
        #expect(Self.modes((0..<6).flatMap { [Self.rmc($0), Self.gga($0, satellites: 4), Self.gsa(2, satellites: 4)] })
                == Array(repeating: .threeD, count: 6))
        // GSA first: the GGA after it decides.
        #expect(Self.modes((0..<6).flatMap { [Self.rmc($0), Self.gsa(2), Self.gga($0)] }) == Array(repeating: .threeD, count: 6))
    }

    @Test func anRMCAfterAGGAWithAnAltitudeIs3D() {
        // MTK's held altitude: GGA from 3 satellites is 2D, the RMC after it sees an altitude (mtk-3301).
        #expect(Self.modes((0..<6).flatMap { [Self.gga($0, satellites: 3), Self.rmc($0)] }) == Array(repeating: .threeD, count: 6))
        // Without the RMC the 3-satellite GGA stays 2D.
        #expect(Self.modes([Self.rmc(0)] + (0..<6).map { Self.gga($0, satellites: 3) }) == Array(repeating: .twoD, count: 6))
    }

    @Test func rmcOnlyCyclesKeep3DAndTheAltitude() throws {
        // GGA every 2nd cycle: gpsd keeps 3D through the RMC-only cycles (the fix before was 3D).
        let bodies = (0..<8).flatMap { $0 % 2 == 0 ? [Self.rmc($0), Self.gga($0)] : [Self.rmc($0)] }
        let fixes = assemble(bodies).fixes
        #expect(fixes.map(\.mode) == Array(repeating: .threeD, count: 8))
        // The altitude of the GGA cycle is held (and flagged) in the RMC-only cycle after it.
        #expect(fixes[0].altitudeMSLMeters == 545.4 && !fixes[0].altitudeHeld)
        #expect(fixes[1].altitudeMSLMeters == 545.4 && fixes[1].altitudeHeld && fixes[1].geoidSeparationMeters == 46.9)
        // GGA and GSA every 4th cycle, GSA with 3 satellites between: still 3D.
        let sparse = (0..<10).flatMap { $0 % 4 == 0 ? [Self.rmc($0), Self.gga($0), Self.gsa(3)] : [Self.rmc($0), Self.gsa(3, satellites: 3)] }
        #expect(Self.modes(sparse) == Array(repeating: .threeD, count: 10))
    }

    @Test func aHeldAltitudeExpires() {
        // A GGA once, then RMC only: 3D as gpsd has it, but the altitude only for 5 s.
        let fixes = assemble([Self.rmc(0), Self.gga(0)] + (1..<9).map { Self.rmc($0) }).fixes
        #expect(fixes.allSatisfy { $0.mode == .threeD })
        #expect(fixes[5].altitudeMSLMeters == 545.4 && fixes[5].altitudeHeld)
        #expect(fixes[6].altitudeMSLMeters == nil && !fixes[6].altitudeHeld)
    }

    @Test func aMerged3DFixIsNotDowngradedWhileAnAltitudeIsHeld() {
        // gpsd's "don't downgrade" rule looks at the merged fix before the new cycle clears it: after a 3D
        // epoch, a 3-satellite GGA and one without an altitude are still reported 3D (gpsdecode agrees).
        #expect(Self.modes([Self.rmc(0), Self.gga(0), Self.gga(1, satellites: 3), Self.gga(2, altitude: "")])
                == [.threeD, .threeD, .threeD])
        // Without a 3D fix before, the same GGA is 2D.
        #expect(Self.modes([Self.rmc(0), Self.gga(0, satellites: 3), Self.gga(1, altitude: "")]) == [.twoD, .twoD])
    }

    @Test func whereThisDiffersFromGpsdOnPurpose() {
        // An RMC-only receiver whose GSA, after the RMC, says 2D with 5 satellites: gpsdecode reports 3D,
        // because it reports at its cycle ender, the RMC, which took 3D from the previous GSA's satellite
        // count; the GSA that follows says 2D and no altitude was ever sent. puckd takes the cycle as the
        // receiver ends it: 2D.
        #expect(Self.modes((0..<6).flatMap { [Self.rmc($0), Self.gsa(2, satellites: 5)] }) == Array(repeating: .twoD, count: 6))
    }
}
