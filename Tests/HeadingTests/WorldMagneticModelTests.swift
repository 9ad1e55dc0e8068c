import IMU
import Testing
import TestSupport
@testable import Heading

/// WMM2025 against NOAA's official test values (`Tests/Fixtures/wmm/`), the extra computed values, and
/// the compiled coefficient table against the coefficient file.
@Suite struct WorldMagneticModelTests {
    struct Row {
        var year: Double, heightKilometers: Double, latitude: Double, longitude: Double
        var x: Double, y: Double, z: Double, h: Double, f: Double, i: Double, d: Double
        var xDot: Double, yDot: Double, zDot: Double, hDot: Double, fDot: Double, iDot: Double, dDot: Double
    }

    static let official: [Row] = {
        let rows = IMUFixtures.csvRows(Fixtures.bytes("wmm/wmm2025_test_values.csv") ?? []).dropFirst()
        return rows.map { r in
            let v = r.map { Double($0) ?? .nan }
            return Row(year: v[0], heightKilometers: v[1], latitude: v[2], longitude: v[3], x: v[4], y: v[5], z: v[6],
                       h: v[7], f: v[8], i: v[9], d: v[10], xDot: v[12], yDot: v[13], zDot: v[14], hDot: v[15],
                       fDot: v[16], iDot: v[17], dDot: v[18])
        }
    }()

    @Test func allTwelveOfficialTestValues() {
        #expect(Self.official.count == 12)
        for r in Self.official {
            let e = WorldMagneticModel.wmm2025.field(latitudeDegrees: r.latitude, longitudeDegrees: r.longitude,
                                                     heightKilometers: r.heightKilometers, decimalYear: r.year)
            let place = "\(r.year) \(r.heightKilometers) km \(r.latitude), \(r.longitude)"
            // Printed to 0.01° and 0.1 nT: agreement to half a unit of the last digit (plus rounding slack).
            #expect(abs(e.declinationDegrees - r.d) <= 0.0051, "D \(e.declinationDegrees) vs \(r.d) at \(place)")
            #expect(abs(e.inclinationDegrees - r.i) <= 0.0051, "I \(e.inclinationDegrees) vs \(r.i) at \(place)")
            #expect(abs(e.northNanotesla - r.x) <= 0.051, "X \(e.northNanotesla) vs \(r.x) at \(place)")
            #expect(abs(e.eastNanotesla - r.y) <= 0.051, "Y \(e.eastNanotesla) vs \(r.y) at \(place)")
            #expect(abs(e.downNanotesla - r.z) <= 0.051, "Z \(e.downNanotesla) vs \(r.z) at \(place)")
            #expect(abs(e.horizontalNanotesla - r.h) <= 0.051, "H at \(place)")
            #expect(abs(e.totalNanotesla - r.f) <= 0.051, "F at \(place)")
            #expect(e.isWithinValidityPeriod)
        }
    }

    @Test func officialSecularVariation() {
        #expect(Self.official.count == 12)
        for r in Self.official {
            let e = WorldMagneticModel.wmm2025.field(latitudeDegrees: r.latitude, longitudeDegrees: r.longitude,
                                                     heightKilometers: r.heightKilometers, decimalYear: r.year)
            #expect(abs(e.northNanoteslaPerYear - r.xDot) <= 0.051)
            #expect(abs(e.eastNanoteslaPerYear - r.yDot) <= 0.051)
            #expect(abs(e.downNanoteslaPerYear - r.zDot) <= 0.051)
            #expect(abs(e.horizontalNanoteslaPerYear - r.hDot) <= 0.051)
            #expect(abs(e.totalNanoteslaPerYear - r.fDot) <= 0.051)
            #expect(abs(e.inclinationDegreesPerYear - r.iDot) <= 0.0051)
            #expect(abs(e.declinationDegreesPerYear - r.dDot) <= 0.0051)
        }
    }

    /// Mid-latitude places computed with pygeomag 1.1.0 (not official): D, I to 0.01°, F to 1 nT.
    @Test func extraComputedValues() {
        let rows = IMUFixtures.csvRows(Fixtures.bytes("wmm/wmm2025_extra_computed_values.csv") ?? []).dropFirst()
        #expect(rows.count == 8)
        for r in rows {
            let v = r.map { Double($0) ?? .nan }
            let e = WorldMagneticModel.wmm2025.field(latitudeDegrees: v[4], longitudeDegrees: v[5],
                                                     heightKilometers: v[3], decimalYear: v[2])
            #expect(abs(e.declinationDegrees - v[7]) < 0.01, "\(r[0]): D \(e.declinationDegrees) vs \(v[7])")
            #expect(abs(e.inclinationDegrees - v[8]) < 0.01, "\(r[0]): I")
            #expect(abs(e.totalNanotesla - v[9]) < 1, "\(r[0]): F")
        }
    }

    /// The compiled table is the coefficient file, row for row.
    @Test func compiledTableMatchesCoefficientFile() {
        let lines = String(decoding: Fixtures.bytes("wmm/WMM2025.COF") ?? [], as: UTF8.self).split(separator: "\n")
        #expect(lines.first?.split(separator: " ").first == "2025.0")
        var rows = 0
        for line in lines.dropFirst() where !line.hasPrefix("9999") {
            let f = line.split(separator: " ").compactMap { Double($0) }
            guard f.count == 6 else { continue }
            let c = WorldMagneticModel.wmm2025.coefficients(n: Int(f[0]), m: Int(f[1]))
            #expect(c.g == f[2] && c.h == f[3] && c.gDot == f[4] && c.hDot == f[5], "row n \(f[0]) m \(f[1])")
            rows += 1
        }
        #expect(rows == 90)
        #expect(WorldMagneticModel.wmm2025.epochYear == 2025.0)
    }

    @Test func decimalYearFollowsNOAAConvention() {
        // 2026-07-01T00:00:00Z: day 182 of 365 → 2026 + 181/365.
        let days = Int64(20_635)   // days since 1970 of 2026-07-01
        #expect(abs(DecimalYear.from(utcNanoseconds: days * 86_400_000_000_000) - 2026.495890) < 1e-6)
        // 2028 is a leap year: 2028-12-31T12:00Z = 2028 + 365.5/366.
        let d2028 = Int64(21_549)   // 2028-12-31
        #expect(abs(DecimalYear.from(utcNanoseconds: d2028 * 86_400_000_000_000 + 43_200_000_000_000)
                    - (2028 + 365.5 / 366)) < 1e-9)
        #expect(DecimalYear.from(utcNanoseconds: 1_735_689_600_000_000_000) == 2025.0)   // 2025-01-01
    }

    @Test func trackerGivesDeclinationFromPositionAndDate() {
        var tracker = DeclinationTracker()
        #expect(tracker.declinationDegrees == nil)
        // Boulder, 2026-07-01, 1.6 km: +7.6848° (pygeomag).
        tracker.update(latitudeDegrees: 40.015, longitudeDegrees: -105.2705, heightMeters: 1600,
                       utcNanoseconds: 20_635 * 86_400_000_000_000)
        #expect(abs((tracker.declinationDegrees ?? 0) - 7.6848) < 0.01)
        // Outside the validity period the value is still given, flagged.
        tracker.update(latitudeDegrees: 40.015, longitudeDegrees: -105.2705, heightMeters: 1600,
                       utcNanoseconds: 1_900_000_000_000_000_000)   // 2030-03
        #expect(tracker.elements?.isWithinValidityPeriod == false)
    }

    @Test func evaluationAllocatesNothing() {
        let model = WorldMagneticModel.wmm2025
        var sum = 0.0
        _ = model.field(latitudeDegrees: 1, longitudeDegrees: 2, heightKilometers: 0, decimalYear: 2026)
        let count = allocationCount {
            for i in 0..<1000 {
                sum += model.field(latitudeDegrees: Double(i % 180) - 90, longitudeDegrees: Double(i % 360),
                                   heightKilometers: 0.1, decimalYear: 2027.25).declinationDegrees
            }
        }
        #expect(count == 0)
        #expect(sum.isFinite)
    }

    @Test func polesAndBlackoutZone() {
        let north = WorldMagneticModel.wmm2025.field(latitudeDegrees: 90, longitudeDegrees: 0, heightKilometers: 0,
                                                     decimalYear: 2026)
        #expect(north.totalNanotesla.isFinite && north.declinationDegrees.isFinite)
        // Near the north magnetic pole (≈ 85.8°N, 139°E in 2026) H is small: blackout zone.
        let nearPole = WorldMagneticModel.wmm2025.field(latitudeDegrees: 85.8, longitudeDegrees: 139,
                                                        heightKilometers: 0, decimalYear: 2026)
        #expect(nearPole.isInBlackoutZone)
        #expect(!WorldMagneticModel.wmm2025.field(latitudeDegrees: 51.5, longitudeDegrees: -2.6, heightKilometers: 0,
                                                  decimalYear: 2026).isInCautionZone)
    }
}
