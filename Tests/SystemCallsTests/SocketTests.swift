import Glibc
import SystemCalls
import Testing
import TestSupport

/// The socket layer against the kernel: a TCP listener on a free loopback port, accept, send and
/// receive without waiting, the peer's close; a Unix listener replacing a stale socket file but never
/// another file; the epoll set's tokens; a datagram connect to a bound socket and to a missing one.
@Suite struct SocketTests {
    static func scratch() -> String { Fixtures.temporaryDirectory(prefix: "puckd-socket") }

    @Test func tcpListenAcceptSendReceiveAndClose() throws {
        let listener = try Socket.listen(.ipv4(address: (127, 0, 0, 1), port: 0))
        defer { Socket.close(listener) }
        let port = try #require(Socket.boundPort(listener))
        #expect(port != 0)
        let (none, nothing) = Socket.accept(listener)
        #expect(none == nil && nothing == .wouldBlock)

        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let rc = try SocketAddress.ipv4(address: (127, 0, 0, 1), port: port).withSockaddr { connect(client, $0, $1) }
        #expect(rc == 0)
        var accepted: FileDescriptor?
        for _ in 0..<100 where accepted == nil {
            let (fd, outcome) = Socket.accept(listener)
            if fd == nil { #expect(outcome == .wouldBlock); usleep(10_000) }
            accepted = fd
        }
        let server = try #require(accepted)
        defer { Socket.close(server) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)
        defer { buffer.deallocate() }
        #expect(Socket.receive(server, into: buffer) == .wouldBlock)
        _ = "?VERSION;".withCString { send(client, $0, 9, 0) }
        var got = SocketOutcome.wouldBlock
        for _ in 0..<100 where got == .wouldBlock { got = Socket.receive(server, into: buffer); usleep(1000) }
        #expect(got == .processed(9))
        #expect(String(decoding: UnsafeRawBufferPointer(rebasing: buffer[0..<9]), as: UTF8.self) == "?VERSION;")
        let sent = "{}\r\n".utf8CString.withUnsafeBytes { Socket.send(server, UnsafeRawBufferPointer(rebasing: $0[0..<4])) }
        #expect(sent == .processed(4))
        close(client)
        var end = SocketOutcome.wouldBlock
        for _ in 0..<100 where end == .wouldBlock { end = Socket.receive(server, into: buffer); usleep(1000) }
        #expect(end == .closed)
    }

    @Test func unixListenerReplacesAStaleSocketButNoOtherFile() throws {
        let dir = Self.scratch()
        defer { _ = runProcess(["rm", "-rf", dir]) }
        let path = dir + "/gpsd.sock"
        let first = try Socket.listen(.unix(path: path))
        Socket.close(first)                                     // the file stays, as after a crash
        let second = try Socket.listen(.unix(path: path), unixMode: 0o660)
        defer { Socket.close(second); Socket.unlinkSocket(path) }
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o660)
        let plain = dir + "/plain"
        close(open(plain, O_WRONLY | O_CREAT, 0o644))
        #expect(throws: Errno.fileExists) { _ = try Socket.listen(.unix(path: plain)) }
        #expect(throws: Errno(rawValue: ENAMETOOLONG)) {
            _ = try Socket.listen(.unix(path: "/" + String(repeating: "x", count: 200)))
        }
    }

    @Test func theEpollSetReturnsTokensWithTheirEvents() throws {
        let epoll = try EventPoll.create()
        defer { Socket.close(epoll) }
        let listener = try Socket.listen(.ipv6(address: try #require(SocketAddress.ipv6Bytes("::1")), port: 0))
        defer { Socket.close(listener) }
        #expect(EventPoll.control(epoll, .add, listener, writable: false, token: 0xABCD_0000_0001))
        var tokens = [UInt64](repeating: 0, count: 4)
        var events = [UInt32](repeating: 0, count: 4)
        #expect(EventPoll.ready(epoll, tokens: &tokens, events: &events, capacity: 4) == 0)
        let client = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let port = try #require(Socket.boundPort(listener))
        _ = try SocketAddress.ipv6(address: SocketAddress.ipv6Bytes("::1")!, port: port).withSockaddr { connect(client, $0, $1) }
        var n = 0
        for _ in 0..<100 where n == 0 { n = EventPoll.ready(epoll, tokens: &tokens, events: &events, capacity: 4); usleep(1000) }
        #expect(n == 1 && tokens[0] == 0xABCD_0000_0001 && events[0] & EventPoll.readable != 0)
        #expect(EventPoll.control(epoll, .remove, listener, writable: false, token: 0))
        #expect(SocketAddress.ipv6Bytes("not an address") == nil)
    }

    @Test func aDatagramConnectsToABoundSocketOnly() throws {
        let dir = Self.scratch()
        defer { _ = runProcess(["rm", "-rf", dir]) }
        let path = dir + "/refclock.sock"
        guard case .failure(let missing) = Socket.connectDatagram(path) else { Issue.record("connected to nothing"); return }
        #expect(missing == .noSuchFileOrDirectory)
        let bound = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(bound) }
        _ = try SocketAddress.unix(path: path).withSockaddr { bind(bound, $0, $1) }
        guard case .success(let fd) = Socket.connectDatagram(path) else { Issue.record("no connect"); return }
        defer { Socket.close(fd) }
        let sent = [UInt8](repeating: 7, count: 40).withUnsafeBytes { Socket.send(fd, $0) }
        #expect(sent == .processed(40))
        var datagram = [UInt8](repeating: 0, count: 64)
        #expect(datagram.withUnsafeMutableBytes { recv(bound, $0.baseAddress, $0.count, 0) } == 40 && datagram[39] == 7)
    }
}
