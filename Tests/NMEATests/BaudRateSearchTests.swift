import Testing
import TestSupport
@testable import NMEA

@Suite struct BaudRateSearchTests {
    static let second: Int64 = 1_000_000_000
    static let burst = Array((checksummed("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\r\n"
        + checksummed("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W") + "\r\n").utf8)

    /// What a UART at the wrong rate delivers: bytes, but no line of valid NMEA.
    static func noise(_ n: Int, seed: UInt64) -> [UInt8] {
        var rng = SeededRandom(state: seed)
        return (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next() | 0x80) }
    }

    @Test func startsAtTheGpsdLikeOrder() {
        #expect(BaudRateSearch.defaultCandidates.prefix(7) == [9600, 4800, 38400, 115200, 57600, 19200, 230400])
        let search = BaudRateSearch(nowNanoseconds: 0)
        #expect(search.currentBaud == 9600 && search.state == .searching)
    }

    @Test func locksOnValidSentences() {
        var search = BaudRateSearch(nowNanoseconds: 0)
        var framer = SentenceFramer()
        Self.burst.withUnsafeBytes { framer.feed($0) { _, _ in } }
        #expect(search.observe(framer, nowNanoseconds: Self.second / 2) == .keep)
        #expect(search.state == .searching)                          // 2 of 3 sentences so far
        Self.burst.withUnsafeBytes { framer.feed($0) { _, _ in } }
        #expect(search.observe(framer, nowNanoseconds: Self.second) == .keep)
        #expect(search.state == .locked && search.currentBaud == 9600)
    }

    @Test func noiseMovesOnEarlyAndTheListWraps() {
        var search = BaudRateSearch(nowNanoseconds: 0)
        var framer = SentenceFramer()
        var now: Int64 = 0
        var tried: [Int] = [search.currentBaud]
        for round in 0..<10 {
            Self.noise(700, seed: UInt64(round)).withUnsafeBytes { framer.feed($0) { _, _ in } }
            now += Self.second / 4
            if case .tryNext(let baud) = search.observe(framer, nowNanoseconds: now) {
                tried.append(baud)
                if round % 2 == 0 { framer.reset() }                 // resetting is optional
            }
        }
        #expect(tried == [9600, 4800, 38400, 115200, 57600, 19200, 230400, 460800, 921600, 9600, 4800])
        #expect(search.fullCycles == 1 && search.attempts == 11)
    }

    @Test func givesUpAfterTheListenWindowWithoutValidSentences() {
        var search = BaudRateSearch(nowNanoseconds: 0)
        var framer = SentenceFramer()
        Self.noise(100, seed: 1).withUnsafeBytes { framer.feed($0) { _, _ in } }
        #expect(search.observe(framer, nowNanoseconds: 2 * Self.second) == .keep)
        #expect(search.observe(framer, nowNanoseconds: 3 * Self.second) == .tryNext(baud: 4800))
    }

    @Test func silentPortStays() {
        var search = BaudRateSearch(nowNanoseconds: 0)
        let framer = SentenceFramer()
        #expect(search.observe(framer, nowNanoseconds: 3 * Self.second) == .keep)
        #expect(search.state == .silent && search.currentBaud == 9600)
        #expect(search.observe(framer, nowNanoseconds: 10 * Self.second) == .keep)
    }

    @Test func lockIsLostWhenOnlyNoiseArrives() {
        var search = BaudRateSearch(nowNanoseconds: 0)
        var framer = SentenceFramer()
        for _ in 0..<2 { Self.burst.withUnsafeBytes { framer.feed($0) { _, _ in } } }
        _ = search.observe(framer, nowNanoseconds: Self.second)
        #expect(search.state == .locked)
        Self.noise(2000, seed: 3).withUnsafeBytes { framer.feed($0) { _, _ in } }
        #expect(search.observe(framer, nowNanoseconds: 3 * Self.second) == .keep)
        #expect(search.observe(framer, nowNanoseconds: 6 * Self.second) == .tryNext(baud: 4800))
        #expect(search.state == .searching)
    }

    @Test func uncheckedSentencesDoNotLock() {
        var search = BaudRateSearch(nowNanoseconds: 0)
        var framer = SentenceFramer()
        let unchecked = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,\r\n".utf8)
        for _ in 0..<5 { unchecked.withUnsafeBytes { framer.feed($0) { _, _ in } } }
        _ = search.observe(framer, nowNanoseconds: Self.second)
        #expect(search.state == .searching)
    }
}
