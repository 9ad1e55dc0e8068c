import TestSupport
import Testing
@testable import Hardware

/// The simulated serial twin: a bit-level model of the wire between a receiver's UART and ours.
@Suite struct SimulatedSerialPortTests {
    static let log = Fixtures.bytes("nmea/gpsd/bu353s4.nmea") ?? []
    static let second: Int64 = 1_000_000_000

    /// Reads everything the port delivers up to `untilNanoseconds`, in 256-byte reads.
    func drain(_ port: inout SimulatedSerialPort, untilNanoseconds end: Int64) throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try port.read(into: $0, nowNanoseconds: end) }
            if n == 0 { return out }
            out += buffer[0..<n]
        }
    }

    @Test func matchingBaudDeliversTheBytesExactly() throws {
        var port = SimulatedSerialPort(bytes: Self.log, receiverBaudRate: 9600, baudRate: 9600)
        let out = try drain(&port, untilNanoseconds: 60 * Self.second)
        #expect(out == Self.log)
        #expect(port.framingErrors == 0)
        #expect(port.status == .finished)
    }

    @Test(arguments: [4800, 19200, 38400, 57600, 115200, 230400])
    func anyOtherBaudDeliversGarbageWithoutOneValidSentence(rate: Int) throws {
        var port = SimulatedSerialPort(bytes: Self.log, receiverBaudRate: 9600, baudRate: rate)
        let out = try drain(&port, untilNanoseconds: 60 * Self.second)
        #expect(!out.isEmpty)
        #expect(out != Self.log)
        #expect(!lines(out).contains(where: hasValidChecksum))
        #expect(port.framingErrors > 0)
        // The real log has a valid sentence on nearly every line.
        #expect(lines(Self.log).filter(hasValidChecksum).count >= 80)
    }

    @Test func switchingToTheRightRateRecoversValidSentences() throws {
        // A receiver at 38400 talking 1 Hz-style (bytes with gaps), our UART starting at 9600.
        var port = SimulatedSerialPort(bytes: Self.log, receiverBaudRate: 38400, baudRate: 9600, bytesPerSecond: 3000)
        let garbage = try drain(&port, untilNanoseconds: Self.second / 2)
        #expect(!lines(garbage).contains(where: hasValidChecksum))
        try port.setBaudRate(38400, nowNanoseconds: Self.second / 2)
        #expect(port.baudRate == 38400)
        let after = try drain(&port, untilNanoseconds: 10 * Self.second)
        // From the first byte sent after the switch on, everything arrives intact.
        let firstSlot = Int((Double(Self.second / 2) * 3000 / 1e9).rounded(.up))
        #expect(after.count == Self.log.count - firstSlot)
        #expect(Array(after) == Array(Self.log[firstSlot...]))
        #expect(lines(after).filter(hasValidChecksum).count >= 40)
    }

    @Test func bytesArriveAtTheirPaceAndPollAsksForTheNextOne() throws {
        // 10 bytes per second: byte k's stop bit is sampled at k/10 s + 9.5 bit times.
        var port = SimulatedSerialPort(bytes: Array("$GPGGA,1\r\n".utf8), receiverBaudRate: 9600, baudRate: 9600,
                                       bytesPerSecond: 10, startNanoseconds: 5 * Self.second)
        let bit = 1e9 / 9600
        let firstDone = 5 * Self.second + Int64((9.5 * bit).rounded(.up))
        #expect(port.pollRequest == .wake(atNanoseconds: firstDone))
        #expect(try drain(&port, untilNanoseconds: firstDone - 1) == [])
        #expect(try drain(&port, untilNanoseconds: firstDone) == [UInt8(ascii: "$")])
        #expect(port.pollRequest.deadlineNanoseconds == firstDone + Self.second / 10)
        #expect(try drain(&port, untilNanoseconds: 5 * Self.second + Self.second / 2).count == 4)  // bytes 1...4
        #expect(port.counters.bytesRead == 5)
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        var a = SimulatedSerialPort(bytes: Self.log, receiverBaudRate: 9600, baudRate: 57600)
        var b = SimulatedSerialPort(bytes: Self.log, receiverBaudRate: 9600, baudRate: 57600)
        let outA = try drain(&a, untilNanoseconds: 3 * Self.second)
        // b is read in many small steps of time: same result as one big step.
        var outB: [UInt8] = []
        for step in 1...300 { outB += try drain(&b, untilNanoseconds: Int64(step) * Self.second / 100) }
        #expect(outA == outB)
    }
}
