import Glibc
import GpsdServer
import Testing
import TestSupport
@testable import Puckd

/// The console's `server` view (docs/gpsd-protocol.md §4), asked for through the console of the whole
/// simulated device with real loopback clients: where the server listens, each client's slot, peer
/// address, watch flags, queued bytes and drops, and the totals; as text, as JSON and watched.
@Suite(.serialized) struct DeviceServerViewTests {
    typealias Client = DeviceGpsdServerAllocationTests.Client

    /// The local "127.0.0.1:PORT" of a client socket (what the server sees as its peer).
    static func localName(_ fd: Int32) -> String {
        var sa = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &sa) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return "127.0.0.1:" + String(sa.sin_port.bigEndian)
    }

    @Test func theViewShowsListenersClientsAndASlowClientsDrops() throws {
        let scratch = SimulatedDeviceHarness.temporaryDirectory()
        defer { _ = runProcess(["rm", "-rf", scratch]) }
        let socketPath = scratch + "/gpsd.sock"
        let c = try ConsoleDeviceHarness(overrides: ["server.listen=127.0.0.1:0", "server.max_clients=8", "server.socket=" + socketPath],
                                         setupChanges: { setup in
            (setup.gpsdServer, setup.gpsdServerReport) = Device.openGpsdServer(setup.loaded.configuration)
        })
        defer { c.h.removeDirectory() }
        let server = try #require(c.device.gpsdServer as GpsdServer?)
        let port = try #require(server.listeners.first?.port)
        let reader = try #require(Client(port: port, request: "?WATCH={\"enable\":true,\"json\":true,\"puckd\":true,\"puckd_hz\":10};"))
        // A client on the Unix socket that asks for everything and never reads: the kernel holds at most
        // its socket buffer (net.core.wmem_default) for it, then its queue fills and reports drop.
        // Close-on-exec: a process a parallel test spawns must not inherit it, or closing it here would
        // not end the connection (the server would keep seeing the child's copy).
        let slow = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &sa.sun_path) { raw in for (i, b) in socketPath.utf8.enumerated() { raw[i] = b } }
        let rc = withUnsafePointer(to: &sa) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(slow, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard rc == 0 else { close(slow); throw POSIXError(errno) }
        var slowOpen = true
        defer { if slowOpen { close(slow) } }   // closed once: a second close could hit a parallel test's descriptor
        let request = Array("?WATCH={\"enable\":true,\"json\":true,\"nmea\":true,\"puckd\":true};".utf8)
        _ = request.withUnsafeBytes { send(slow, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let idle = try #require(Client(port: port, request: ""))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }
        for _ in 0..<400 { c.advance(by: 100_000_000); _ = reader.drain(buffer) }   // 40 s
        _ = c.take()

        let text = c.command("server")
        #expect(text.hasPrefix("listening   127.0.0.1:" + String(port) + ", " + socketPath + "\nclients     3 of 8 slots\n"), "\(text)")
        let rows = text.split(separator: "\n")
        let readerRow = try #require(rows.first { $0.contains(Self.localName(reader.fd) + " ") }, "\(text)")
        #expect(readerRow.hasSuffix("enable json puckd @10 Hz"), "\(readerRow)")
        let slowRow = try #require(rows.first { $0.contains(" unix ") }, "\(text)")
        #expect(slowRow.hasSuffix("enable json nmea puckd"), "\(slowRow)")
        let idleRow = try #require(rows.first { $0.contains(Self.localName(idle.fd) + " ") }, "\(text)")
        #expect(idleRow.hasSuffix("(not watching)"), "\(idleRow)")
        #expect(text.contains("\ntotals      3 accepted, 0 refused (slots full), 2 requests, 0 errors\n"), "\(text)")
        // Its drops: the view's row and totals are the server's own counters for that slot.
        let slowSlot = try #require((0..<8).compactMap { server.client(at: $0) }.first { $0.transport == .unix })
        #expect(slowSlot.counters.reportsDropped > 0 && server.counters.reportsDropped == slowSlot.counters.reportsDropped, "\(slowSlot)")
        let slowColumns = slowRow.split(separator: " ", omittingEmptySubsequences: true)
        #expect(slowColumns[0] == Substring(String(slowSlot.slot)) && slowColumns[5] == Substring(String(slowSlot.counters.reportsDropped)), "\(slowRow)")
        #expect(text.contains(" queued, " + String(server.counters.reportsDropped) + " dropped for slow clients, "), "\(text)")

        _ = c.command("json on")
        let json = c.command("server")
        let parsed = try #require(runProcess(["python3", "-c", """
            import json,sys; r=json.loads(sys.stdin.read())
            s=[k for k in r['clients'] if k['watch']=='enable json nmea puckd'][0]
            print(r['reply'], r['enabled'], r['listening'] == "127.0.0.1:\(port), \(socketPath)", r['maxClients'], r['clientCount'], len(r['clients']),
                  s['reportsDropped'] > 0, s['queuedBytes'] > 0, r['reportsDropped'] == s['reportsDropped'],
                  sorted(k['puckdHz'] for k in r['clients']))
            """], input: Array(json.utf8)))
        #expect(parsed.output == "server True True 8 3 3 True True True [0, 0, 10]\n", "\(json)\n\(parsed.errorOutput)")

        // Watched: a frame per second; a client leaving shows in the next one.
        _ = c.command("json off")
        c.type("watch server\n")
        c.advance(by: 1_500_000_000)
        close(slow)
        slowOpen = false
        c.advance(by: 1_500_000_000)
        let frames = c.take()
        #expect(frames.components("clients     3 of 8 slots") >= 1 && frames.components("clients     2 of 8 slots") >= 1, "\(frames)")
    }

    @Test func anOffServerSaysSo() throws {
        let c = try ConsoleDeviceHarness(overrides: ["server.enabled=false"])
        defer { c.h.removeDirectory() }
        c.advance(by: 500_000_000)
        _ = c.take()
        #expect(c.command("server").hasPrefix("server: off ([server] enabled = false"))
    }
}

extension String {
    /// How often `part` occurs.
    fileprivate func components(_ part: String) -> Int { split(separator: part, omittingEmptySubsequences: false).count - 1 }
}
