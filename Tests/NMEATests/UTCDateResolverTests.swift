import Testing
@testable import NMEA

/// Receiver dates resolved against a pivot (live receivers) or against the log itself (recordings):
/// old logs keep their dates, rollover losses are repaired, and the two-digit-year window moves with
/// the pivot.
@Suite struct UTCDateResolverTests {
    static func day(_ y: Int64, _ m: Int64, _ d: Int64) -> Int64 { CivilDate.daysSinceEpoch(year: y, month: m, day: d) }
    static func rmc(_ yy: Int, _ m: Int, _ d: Int) -> NMEADate { NMEADate(year: yy, month: m, day: d, hasCentury: false) }
    static func zda(_ y: Int, _ m: Int, _ d: Int) -> NMEADate { NMEADate(year: y, month: m, day: d, hasCentury: true) }

    /// The bug of the fixed 2017 floor: a real 2016 date became 2036 and 2080/2100 became 2019.
    @Test func aRecordingKeepsItsOldDates() throws {
        var r = UTCDateResolver()
        #expect(r.days(for: Self.rmc(16, 12, 31))?.days == Self.day(2016, 12, 31))
        var fresh = UTCDateResolver()
        #expect(fresh.days(for: Self.rmc(99, 8, 22))?.days == Self.day(1999, 8, 22))
        var zda = UTCDateResolver()
        #expect(zda.days(for: Self.zda(2005, 3, 1))?.days == Self.day(2005, 3, 1))
    }

    /// Through the default pipeline (what `puckd replay` runs): before, the fixed 2017 floor moved
    /// 2016-12-31 to 2036-08-16 and 1985 to 2024.
    @Test func theReplayPipelineKeepsOldDates() {
        for (body, expected) in [("$GPRMC,120000.00,A,4829.0005,N,00022.0016,E,0.1,,311216,,,A", utc(2016, 12, 31, 12)),
                                 ("$GPRMC,120000.00,A,4829.0005,N,00022.0016,E,0.1,,150185,,,A", utc(1985, 1, 15, 12))] {
            let (fixes, p) = assemble([body])
            #expect(fixes.first?.utcNanoseconds == expected)
            #expect(p.assembler.counters.weekRolloverCorrections == 0)
        }
    }

    @Test func theWindowMovesWithThePivot() throws {
        var in2075 = UTCDateResolver(policy: .live(pivotDays: Self.day(2075, 1, 1)))
        #expect(in2075.days(for: Self.rmc(80, 6, 1))?.days == Self.day(2080, 6, 1))
        var in2095 = UTCDateResolver(policy: .live(pivotDays: Self.day(2095, 1, 1)))
        #expect(in2095.days(for: Self.rmc(0, 1, 1))?.days == Self.day(2100, 1, 1))
        // A four-digit year after the pivot is taken as sent.
        var in2026 = UTCDateResolver(policy: .live(pivotDays: Self.day(2026, 12, 1)))
        #expect(in2026.days(for: Self.zda(2080, 6, 1))?.days == Self.day(2080, 6, 1))
    }

    /// A live receiver that lost a rollover reports 1024 weeks (or a multiple) early: after a 2026
    /// build, 2007-05-20 is 2026-12-XX's rollover and 1987-09-… two rollovers.
    @Test func liveDatesBeforeThePivotLostARollover() throws {
        let pivot = Self.day(2026, 12, 1)
        var r = UTCDateResolver(policy: .live(pivotDays: pivot))
        let early = Self.day(2027, 3, 1) - UTCDateResolver.weekRolloverDays
        let (y, m, d) = CivilDate.fromDaysSinceEpoch(early)
        let resolvedValue = r.days(for: Self.zda(Int(y), Int(m), Int(d)))
        let resolved = try #require(resolvedValue)
        #expect(resolved.days == Self.day(2027, 3, 1) && resolved.rolloverCorrections == 1)
        var twice = UTCDateResolver(policy: .live(pivotDays: pivot))
        let twoEarly = CivilDate.fromDaysSinceEpoch(Self.day(2027, 3, 1) - 2 * UTCDateResolver.weekRolloverDays)
        let twoValue = twice.days(for: Self.zda(Int(twoEarly.year), Int(twoEarly.month), Int(twoEarly.day)))
        let two = try #require(twoValue)
        #expect(two.days == Self.day(2027, 3, 1) && two.rolloverCorrections == 2)
        // On and after the pivot: untouched, for the whole 1024 weeks.
        var after = UTCDateResolver(policy: .live(pivotDays: pivot))
        #expect(after.days(for: Self.zda(2026, 12, 1))?.rolloverCorrections == 0)
        #expect(after.days(for: Self.zda(2046, 7, 1))?.days == Self.day(2046, 7, 1))
    }

    /// gpsd's `gp-320fw-2019-04-07-coldboot` log: 2019-04-07, then the cold-booted receiver says
    /// 1999-08-22: the log's own earlier date repairs it; a small step back (another log) stays.
    @Test func aRecordingIsCorrectedByItsOwnEarlierDates() throws {
        var r = UTCDateResolver()
        #expect(r.days(for: Self.rmc(19, 4, 7))?.days == Self.day(2019, 4, 7))
        let repairedValue = r.days(for: Self.rmc(99, 8, 22))
        let repaired = try #require(repairedValue)
        #expect(repaired.days == Self.day(2019, 4, 7) && repaired.rolloverCorrections == 1)
        #expect(r.days(for: Self.rmc(15, 1, 1))?.days == Self.day(2015, 1, 1))   // 4 years back: a real date
    }

    /// Live: one far-future date (a glitch) does not drag the following ones along.
    @Test func aLiveGlitchMovesNothingElse() throws {
        var r = UTCDateResolver(policy: .live(pivotDays: Self.day(2026, 12, 1)))
        #expect(r.days(for: Self.zda(2190, 1, 1))?.days == Self.day(2190, 1, 1))
        #expect(r.days(for: Self.zda(2027, 3, 1))?.days == Self.day(2027, 3, 1))
    }

    @Test func beforeTheGPSEpochIsARollover() throws {
        var r = UTCDateResolver()
        let resolvedValue = r.days(for: Self.rmc(80, 1, 5))               // MTK's power-on 1980-01-05
        let resolved = try #require(resolvedValue)
        #expect(resolved.days == Self.day(1980, 1, 5) + UTCDateResolver.weekRolloverDays)
    }

    /// Every resolved date stays below 2262 (nanoseconds in Int64), whatever the pivot and input.
    @Test func resultsStayInRange() throws {
        var late = UTCDateResolver(policy: .live(pivotDays: Self.day(2200, 12, 31)))
        let resolvedValue = late.days(for: Self.rmc(81, 1, 1))
        let resolved = try #require(resolvedValue)
        #expect(resolved.days < UTCDateResolver.latestDays)
        var far = UTCDateResolver(policy: .live(pivotDays: Int64.max / 2))
        #expect((far.days(for: Self.zda(1980, 1, 6))?.days ?? 0) < UTCDateResolver.latestDays)
        #expect(UTCDateResolver.utcNanoseconds(days: UTCDateResolver.latestDays, timeOfDayNanoseconds: 0) == nil)
        #expect(UTCDateResolver.utcNanoseconds(days: -1, timeOfDayNanoseconds: 0) == nil)
        #expect(UTCDateResolver.utcNanoseconds(days: 0, timeOfDayNanoseconds: 5) == 5)
    }

    /// Through the assembler: a stream that walks the carried day across midnight again and again
    /// (no date sentence) stops being dated instead of overflowing nanoseconds (it trapped before).
    @Test func aDayCarriedAcrossMidnightForeverStaysInRange() throws {
        // One epoch every 11 h 59 min: each wrap past midnight carries the day on by one.
        var bodies = ["$GPZDA,000000.00,01,01,2200,00,00"]
        var minutes = 0
        for _ in 0..<60_000 {
            minutes = (minutes + 719) % 1440
            let hhmm = (minutes / 60) * 100 + minutes % 60
            let time = String(repeating: "0", count: 4 - String(hhmm).count) + String(hhmm) + "00.00"
            bodies.append("$GPGGA," + time + ",4807.0380,N,01131.0000,E,1,09,0.8,10.0,M,0.0,M,,")
        }
        let (fixes, p) = assemble(bodies)
        #expect(fixes.count == 60_001)
        #expect(p.assembler.counters.epochsWithoutDate > 0)
        #expect(fixes.allSatisfy { ($0.utcNanoseconds ?? 0) >= 0 })
    }

    @Test func theAssemblerCountsRolloverCorrections() throws {
        var configuration = EpochAssembler.Configuration()
        configuration.dates = UTCDateResolver(policy: .live(pivotDays: Self.day(2019, 4, 7)))
        let (fixes, p) = assemble([
            "$GPRMC,000231.42,A,4829.0005,N,00022.0016,E,0.16,212.28,220899,,,A",      // 1999-08-22
            "$GPRMC,000232.00,A,4829.0005,N,00022.0016,E,0.16,212.28,070419,,,A",      // 2019-04-07: fine
        ], configuration: configuration)
        #expect(fixes[0].utcNanoseconds == utc(2019, 4, 7, 0, 2, 31, ms: 420))
        #expect(fixes[1].utcNanoseconds == utc(2019, 4, 7, 0, 2, 32))
        #expect(p.assembler.counters.weekRolloverCorrections == 1)
    }
}
