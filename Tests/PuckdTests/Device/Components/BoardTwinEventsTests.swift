import Testing
@testable import Puckd

/// The board twin reports what the simulated world did in a wake-up through its own `service`
/// result, so the router reads the GPS pty in the wake-up its epoch was written (DEVELOPERS.md, "The
/// loop's parts": the simulated board plugs in behind the same protocol, no hooks in the loop).
@Suite struct BoardTwinEventsTests {
    @Test func gpsBytesWrittenIsReportedExactlyWhenTheReceiverWrites() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        var writes = 0, reported = 0, mismatches = 0
        for _ in 0..<2000 {                                      // 2 s of the 10 Hz drive, 1 ms a wake-up
            h.now += 1_000_000
            let before = h.board.receiver.bytesSent
            let events = h.device.board.service(nowNanoseconds: h.now, ready: .none)
            let wrote = h.board.receiver.bytesSent != before
            if wrote { writes += 1 }
            if events.contains(.gpsBytesWritten) { reported += 1 }
            if wrote != events.contains(.gpsBytesWritten) { mismatches += 1 }
        }
        #expect(writes >= 15, "the drive's epochs were written (\(writes))")
        #expect(reported == writes && mismatches == 0)
    }

    @Test func hardwareReportsNothing() {
        let twin = BoardTwin(nil)
        #expect(twin.service(nowNanoseconds: 1_000_000_000, ready: .all).isEmpty)
    }
}
