import Glibc
import TestSupport
import Testing
@testable import Hardware

/// The gpsd client against a real gpsd 3.22 (Debian `gpsd`) that the test starts on a loopback
/// port with a pseudo-terminal as its device, fed a corpus log through the pty master.
///
/// What gpsd really does with what it is fed (asserted below for two logs; the whole corpus was
/// run once through the same marker protocol with a Python harness while writing this):
/// - it forwards each NMEA sentence byte for byte, with the line ending the receiver used (CRLF
///   or bare LF), in order: 16 of the 22 corpus logs come out identical;
/// - it drops sentences whose checksum is wrong (firefly-II: 23 GGA with bad checksums), lines
///   that are not NMEA (gp-320fw cold-boot garbage, the JSON lines inside skytraq's log), and,
///   unexplained, the valid `$HEHDT`/`$HEROT` of saab-r4 (24 lines); it strips junk before a `$`
///   (beidou-bd's leading space) and extracts a sentence that collided with another (isync);
/// - while it still hunts for the speed and protocol right after opening the device it flushes
///   the input (tcflush on each speed change), so the test first sends marker sentences until one
///   comes through, and only then feeds the log, followed by a final marker.
@Suite(.serialized) struct GpsdSourceTests {
    struct Session {
        let pty: PseudoTerminal
        let gpsd: GpsdDaemon
    }

    static let fastRetry = ReconnectPolicy(initialDelayNanoseconds: 50_000_000, maximumDelayNanoseconds: 200_000_000)

    func start() throws -> Session {
        try #require(GpsdDaemon.isInstalled, "gpsd is not installed: run scripts/apt-ensure gpsd (make test does)")
        let pty = try #require(PseudoTerminal())
        let gpsd = try #require(GpsdDaemon(device: pty.slavePath))
        return Session(pty: pty, gpsd: gpsd)
    }

    /// Connects (retrying while gpsd starts up) and sends markers until gpsd forwards one.
    func synchronize(_ source: inout GpsdSource, _ session: Session) -> Bool {
        var marker = 0
        var lastWrite: Int64 = 0
        let synced = pump(&source, timeoutSeconds: 30, feed: {
            session.pty.drain()
            let now = monotonicNanoseconds()
            if now - lastWrite >= 200_000_000 {  // one marker per 200 ms: gpsd may still be hunting
                _ = session.pty.write(textSentence("puckd sync \(marker)"), from: 0)
                marker += 1
                lastWrite = now
            }
            return true
        }) { c, _ in lines(c.bytes).contains { $0.contains("puckd sync") } }
        return lines(synced.bytes).contains { $0.contains("puckd sync") }
    }

    /// Feeds `log` and an end marker; returns every byte gpsd forwarded before the end marker.
    func feed(_ log: [UInt8], through source: inout GpsdSource, _ session: Session) -> [UInt8] {
        let input = log + textSentence("puckd end")
        var offset = 0
        let collected = pump(&source, timeoutSeconds: 60, feed: {
            session.pty.drain()
            offset = session.pty.write(input, from: offset)
            return offset < input.count
        }) { c, _ in lines(c.bytes).contains { $0.contains("puckd end") } }
        // Everything after the last sync marker and before the end marker.
        var bytes = collected.bytes
        if let end = find(Array("$GPTXT,01,01,02,puckd end".utf8), in: bytes) { bytes = Array(bytes[..<end]) }
        while let sync = find(Array("puckd sync".utf8), in: bytes) {
            let next = bytes[sync...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            bytes = Array(bytes[next...])
        }
        return bytes
    }

    func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    @Test func forwardsACleanLogByteForByte() throws {
        let session = try start()
        defer { session.gpsd.stop() }
        let log = try #require(Fixtures.bytes("nmea/gpsd/quectel-l76k-nmea.nmea"))
        var source = GpsdSource(host: "127.0.0.1", port: session.gpsd.port, policy: Self.fastRetry)
        #expect(synchronize(&source, session), "gpsd log:\n\(session.gpsd.log)")
        let forwarded = feed(log, through: &source, session)
        #expect(forwarded == log, "gpsd log:\n\(session.gpsd.log)")
        // gpsd's VERSION, DEVICES and WATCH replies were seen and dropped.
        #expect(source.jsonLinesSkipped >= 3)
        let counters = source.counters
        #expect(counters.opens >= 1)
        #expect(counters.bytesRead >= UInt64(log.count))
    }

    @Test func dropsSentencesWithBadChecksumsAndKeepsTheRestInOrder() throws {
        let session = try start()
        defer { session.gpsd.stop() }
        let log = try #require(Fixtures.bytes("nmea/gpsd/firefly-II.nmea"))
        var source = GpsdSource(host: "127.0.0.1", port: session.gpsd.port, policy: Self.fastRetry)
        #expect(synchronize(&source, session), "gpsd log:\n\(session.gpsd.log)")
        let fed = lines(log)
        let got = lines(feed(log, through: &source, session))
        let expected = fed.filter(hasValidChecksum)
        #expect(got == expected)
        #expect(fed.count - expected.count == 23)  // the firefly-II GGA sentences with bad checksums
    }

    @Test func reportsGpsdGoingAwayAndComesBackWhenItReturns() throws {
        let session = try start()
        var source = GpsdSource(host: "127.0.0.1", port: session.gpsd.port, policy: Self.fastRetry)
        #expect(synchronize(&source, session))
        session.gpsd.stop()
        let down = pump(&source) { c, _ in c.errors.count >= 2 }
        let kinds = down.errors.map(\.error.kind)
        #expect(kinds.first == .connectionClosed || kinds.first == .connectionReset)
        #expect(kinds.dropFirst().first == .connectionRefused)
        #expect(down.errors.first?.error.message.hasPrefix("gpsd at 127.0.0.1:\(session.gpsd.port) ") == true)
        #expect(down.errors.dropFirst().first?.error.message == "gpsd is not listening on 127.0.0.1:\(session.gpsd.port) (ECONNREFUSED): start it (sudo systemctl start gpsd.socket) or correct the host and port; puckd retries with backoff.")
        #expect(source.counters.opens == 1)
        #expect(source.counters.errors(.connectionRefused) >= 1)

        // gpsd restarts on the same port: the source reconnects on its own and data flows again.
        let again = try #require(GpsdDaemon(device: session.pty.slavePath, port: session.gpsd.port))
        defer { again.stop() }
        #expect(synchronize(&source, Session(pty: session.pty, gpsd: again)), "gpsd log:\n\(again.log)")
        let counters = source.counters
        #expect(counters.opens == 2)
        #expect(counters.reconnects == 1)
    }
}
