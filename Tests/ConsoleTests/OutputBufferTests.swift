import Testing
import TestSupport
@testable import Console

@Suite struct OutputBufferTests {
    @Test func integersAndDecimals() {
        var b = OutputBuffer(capacity: 256)
        b.append(int: -42); b.append(" ")
        b.append(int: Int64.min); b.append(" ")
        b.append(uint: 7, minimumDigits: 3); b.append(" ")
        b.append(47.661981666, decimals: 9); b.append(" ")
        b.append(-122.326393666, decimals: 9); b.append(" ")
        b.append(-0.0004, decimals: 3); b.append(" ")
        b.append(2.5, decimals: 0); b.append(" ")
        b.append(0.125, decimals: 2); b.append(" ")
        b.append(hex2: 0x3C)
        #expect(b.string == "-42 -9223372036854775808 007 47.661981666 -122.326393666 0.000 3 0.13 3C")
    }

    @Test func overflowIsCountedNotSilent() {
        var b = OutputBuffer(capacity: 4)
        b.append("hello")
        #expect(b.string == "hell")
        let dropped = b.droppedBytes, overflowed = b.overflowed
        #expect(dropped == 1 && overflowed)
        b.removeAll()
        let cleared = !b.overflowed && b.isEmpty
        #expect(cleared)
    }

    @Test func isoTime() {
        var b = OutputBuffer(capacity: 64)
        // 2026-08-05T05:52:34.200Z
        b.append(isoTime: 1_785_909_154_200_000_000)
        b.append(" ")
        b.append(isoTime: -1, fractionDigits: 9)   // one nanosecond before the epoch
        #expect(b.string == "2026-08-05T05:52:34.200Z 1969-12-31T23:59:59.999999999Z")
    }

    @Test func formattingAllocatesNothing() {
        var b = OutputBuffer(capacity: 1024)
        b.append(12.5, decimals: 3); b.removeAll()
        let n = allocationCount {
            for i in 0..<1000 {
                b.removeAll()
                b.append("{\"lat\":"); b.append(Double(i) * 0.001, decimals: 9)
                b.append(isoTime: Int64(i) * 1_000_000_000)
            }
        }
        #expect(n == 0)
        #expect(b.string == "{\"lat\":0.9990000001970-01-01T00:16:39.000Z")     // the last round, all of it
    }
}
