import SystemCalls
import Glibc
import TestSupport
import Testing
@testable import Hardware

/// The TCP client against real loopback sockets made in the test.
@Suite struct TCPSourceTests {
    static let fastRetry = ReconnectPolicy(initialDelayNanoseconds: 20_000_000, maximumDelayNanoseconds: 80_000_000)

    @Test func receivesEverythingThenReconnectsAfterTheServerCloses() throws {
        let log = try #require(Fixtures.bytes("nmea/gpsd/hemi.nmea"))
        let first = Array(log[..<10_000]), second = Array(log[10_000...])
        let server = try #require(LoopbackListener())
        var source = TCPSource(host: "127.0.0.1", port: server.port, policy: Self.fastRetry)
        #expect(source.subject == "127.0.0.1:\(server.port)")

        // Session 1: the server sends in odd-sized pieces, then closes (FIN).
        var client: Int32 = -1, offset = 0
        let one = pump(&source, feed: {
            if client < 0, let accepted = server.acceptNow() { client = accepted }
            if client >= 0 && offset < first.count {
                offset = sendSome(client, first, from: offset, atMost: 1 + offset % 613)
                if offset == first.count { close(client) }
            }
            return offset < first.count
        }) { c, _ in !c.errors.isEmpty }
        #expect(one.bytes == first)
        let closed = try #require(one.errors.first)
        #expect(closed.error.kind == .connectionClosed)
        #expect(closed.error.message == "127.0.0.1:\(server.port) closed the connection: the server stopped or dropped this client; puckd reconnects with backoff.")
        #expect(closed.statusAfter == .waitingToReconnect(retryAtNanoseconds: closed.nowNanoseconds + 20_000_000))

        // Session 2: the source comes back by itself; the rest of the log arrives.
        client = -1
        offset = 0
        let two = pump(&source, feed: {
            if client < 0, let accepted = server.acceptNow() { client = accepted }
            if client >= 0 && offset < second.count { offset = sendSome(client, second, from: offset) }
            return offset < second.count
        }) { c, _ in c.bytes.count >= second.count || !c.errors.isEmpty }
        defer { close(client) }
        #expect(two.errors.isEmpty)
        #expect(two.bytes == second)
        let counters = source.counters
        #expect(counters.opens == 2)
        #expect(counters.reconnects == 1)
        #expect(counters.errors(.connectionClosed) == 1)
        #expect(counters.totalErrors == 1)
        #expect(counters.bytesRead == UInt64(log.count))
    }

    @Test func refusedPortIsAClearErrorRetriedWithBackoff() throws {
        let closedPort = try #require(LoopbackListener(listening: false))
        var source = TCPSource(host: "127.0.0.1", port: closedPort.port, policy: Self.fastRetry)
        let collected = pump(&source) { c, _ in c.errors.count >= 3 }
        #expect(collected.errors.map(\.error.kind) == [.connectionRefused, .connectionRefused, .connectionRefused])
        #expect(collected.errors[0].error.message == "nothing is listening on 127.0.0.1:\(closedPort.port) (ECONNREFUSED): start the NMEA server (phone app or network receiver) or correct the host and port; puckd retries with backoff.")
        let delays = collected.errors.map { entry -> Int64 in
            guard case .waitingToReconnect(let at) = entry.statusAfter else { return -1 }
            return at - entry.nowNanoseconds
        }
        #expect(delays == [20_000_000, 40_000_000, 80_000_000])
        #expect(source.counters.opens == 0)
    }

    @Test func resetIsReported() throws {
        let server = try #require(LoopbackListener())
        var source = TCPSource(host: "127.0.0.1", port: server.port, policy: Self.fastRetry)
        var client: Int32 = -1
        let sentence = Array("$GPZDA,201530.00,04,07,2002,00,00*60\r\n".utf8)
        let collected = pump(&source, feed: {
            if client < 0, let accepted = server.acceptNow() {
                client = accepted
                _ = sendSome(client, sentence, from: 0)
            }
            return client < 0
        }) { c, _ in
            if c.bytes.count == sentence.count && client >= 0 {
                resetConnection(client)
                client = -2
            }
            return !c.errors.isEmpty
        }
        #expect(collected.bytes == sentence)
        #expect(collected.errors.first?.error.kind == .connectionReset)
        #expect(collected.errors.first?.error.message.hasPrefix("127.0.0.1:\(server.port) broke the connection (ECONNRESET): ") == true)
    }

    @Test func aSilentConnectionIsDroppedAndRetried() throws {
        let server = try #require(LoopbackListener())
        var source = TCPSource(host: "127.0.0.1", port: server.port, policy: Self.fastRetry,
                               silenceTimeoutNanoseconds: 150_000_000)
        var clients: [Int32] = []
        defer { clients.forEach { close($0) } }
        let collected = pump(&source, feed: {
            if let accepted = server.acceptNow() { clients.append(accepted) }
            return false
        }) { c, _ in c.errors.count >= 2 }
        #expect(collected.errors.map(\.error.kind) == [.silent, .silent])
        #expect(collected.errors[0].error.message == "127.0.0.1:\(server.port) sent nothing for 0.15 s: the connection looks dead or the receiver stopped talking; puckd reconnects with backoff.")
        #expect(source.counters.opens == 2)
    }

    @Test func aConnectThatNeverCompletesTimesOut() throws {
        // A listener whose accept queue is full drops SYNs, so the connect stays in progress.
        let server = try #require(LoopbackListener(backlog: 0))
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(filler) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        address.sin_port = server.port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        var source = TCPSource(host: "127.0.0.1", port: server.port, policy: Self.fastRetry,
                               connectTimeoutNanoseconds: 200_000_000)
        let collected = pump(&source) { c, _ in !c.errors.isEmpty }
        #expect(collected.errors.first?.error.kind == .connectTimedOut)
        #expect(collected.errors.first?.error.message == "no answer from 127.0.0.1:\(server.port) within 0.2 s: check that the host is up and that no firewall drops the port; puckd retries with backoff.")
    }

    @Test func pollRequestFollowsTheConnection() throws {
        let server = try #require(LoopbackListener())
        var source = TCPSource(host: "127.0.0.1", port: server.port, policy: Self.fastRetry)
        #expect(source.pollRequest == .wake(atNanoseconds: .min))
        var scratch = [UInt8](repeating: 0, count: 64)
        _ = try scratch.withUnsafeMutableBytes { try source.read(into: $0, nowNanoseconds: 1_000) }
        let request = source.pollRequest
        switch source.status {
        case .open:
            #expect(request.events == .readable)
            #expect(request.deadlineNanoseconds == 1_000 + 30_000_000_000)  // the silence timeout
        case .connecting:
            #expect(request.events == .writable)
            #expect(request.deadlineNanoseconds == 1_000 + 10_000_000_000)  // the connect timeout
        default:
            Issue.record("unexpected status \(source.status)")
        }
        #expect(request.fileDescriptor != nil)
    }
}
