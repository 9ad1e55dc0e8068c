import Console
import NMEA
import Testing
@testable import Puckd

/// The GPS link's `LoopComponent` side: its deadline is the open epoch's quiet-line close, and
/// servicing it there closes the epoch and hands the fix back as an event (docs/nmea-epochs.md §1),
/// not through a call into the router.
@Suite struct GPSLinkComponentTests {
    @Test func theQuietLineDeadlineClosesTheEpochAsAnEvent() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        var epochs = EpochAssembler.Configuration()
        epochs.lineCharacterNanoseconds = EpochAssembler.characterNanoseconds(baud: 9600)   // as Device sets it
        let link = GPSLink(h.device.configuration.gps, epochs: epochs, output: h.device.output,
                           console: nil, nowNanoseconds: 0)
        #expect(link.deadlineNanoseconds == nil, "no open epoch, no deadline")
        let epoch = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n"
            + "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"
        var routedByFeed = 0
        Array(epoch.utf8).withUnsafeBytes { bytes in
            link.feed(bytes, nowNanoseconds: 1_000_000_000) { _ in routedByFeed += 1 }
        }
        #expect(routedByFeed == 0, "its cycle ender is not learned yet: the epoch stays open")
        let deadline = try #require(link.deadlineNanoseconds)
        #expect(!link.service(nowNanoseconds: deadline - 1, ready: .none).epochClosed)
        #expect(link.fixes == 0 && link.lastFix == nil)
        let events = link.service(nowNanoseconds: deadline, ready: .none)
        #expect(events.epochClosed)
        #expect(link.fixes == 1 && link.lastFixNanoseconds == deadline)
        let fix = try #require(link.lastFix)
        #expect(fix.hasPosition && abs((fix.latitudeDegrees ?? 0) - 48.1173) < 1e-4)
        var table = ConsoleCounterTable()
        link.appendStats(to: &table)
        #expect(table.value("gps.fixes") == 1)
    }
}
