import Testing
@testable import NMEA

@Suite struct CivilDateTests {
    @Test(arguments: [
        (1970, 1, 1, 0), (2000, 3, 1, 11_017), (2019, 4, 7, 17_993), (2026, 8, 5, 20_670), (1969, 12, 31, -1),
    ] as [(Int64, Int64, Int64, Int64)])
    func roundTrip(year: Int64, month: Int64, day: Int64, days: Int64) {
        #expect(CivilDate.daysSinceEpoch(year: year, month: month, day: day) == days)
        let back = CivilDate.fromDaysSinceEpoch(days)
        #expect(back.year == year && back.month == month && back.day == day)
    }
}
