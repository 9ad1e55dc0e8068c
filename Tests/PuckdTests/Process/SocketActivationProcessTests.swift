import Glibc
import Testing
import TestSupport

/// Socket activation (docs/gpsd-protocol.md §4.1, board/puckd.socket): systemd's own
/// `systemd-socket-activate` opens a loopback TCP listener and a Unix socket, waits for the first
/// client, then starts `puckd run --board sim` with them (LISTEN_FDS, LISTEN_PID, LISTEN_FDNAMES).
/// puckd serves on those, not on `[server] listen` and `socket`, and gpspipe gets TPVs.
@Suite(.serialized) struct SocketActivationProcessTests {
    static let activator = "/usr/bin/systemd-socket-activate"
    static let hasTools = access(activator, X_OK) == 0 && access("/usr/bin/gpspipe", X_OK) == 0

    /// A loopback port free right now (bound to port 0, then released for the activator to take).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let rc = withUnsafeMutablePointer(to: &sa) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(rc)
        return sa.sin_port.bigEndian
    }

    @Test(.enabled(if: hasTools, "systemd (systemd-socket-activate) and gpsd-clients (Debian)"))
    func gpspipeGetsTPVFromTheSocketsSystemdPassed() throws {
        let scratch = ConsoleProcessTests.Scratch()
        let port = try Self.freePort()
        let unixPath = scratch.path + "/activated.sock"
        let notUsed = scratch.path + "/configured.sock"
        let process = try #require(PuckdProcess(["-l", "127.0.0.1:" + String(port), "-l", unixPath, "--fdname=gpsd:gpsd",
                                                 PuckdProcess.binary, "run", "--board", "sim",
                                                 "--set", "state.directory=" + scratch.path,
                                                 "--set", "server.listen=127.0.0.1:0", "--set", "server.socket=" + notUsed],
                                                executable: Self.activator))
        defer { process.signal(SIGTERM); _ = process.waitForExit(seconds: 30) }
        // The activator listens first; puckd starts at the first connection (gpspipe's), which waits
        // in the listener's backlog until puckd accepts it.
        var ready = false
        for _ in 0..<100 where !ready {
            ready = access(unixPath, F_OK) == 0
            if !ready { usleep(50_000) }
        }
        try #require(ready, "systemd-socket-activate made its Unix socket")
        let pipe = try #require(runProcess(["/usr/bin/timeout", "60", "/usr/bin/gpspipe", "-w", "-n", "30",
                                            "127.0.0.1:" + String(port)]))
        #expect(pipe.status == 0, "\(pipe.errorOutput)")
        let tpv = pipe.output.utf8.split(separator: 0x0A).filter {
            let line = String(decoding: $0, as: UTF8.self)
            return line.hasPrefix("{\"class\":\"TPV\"") && line.contains("\"lat\"")
        }
        #expect(tpv.count >= 3, "\(pipe.output)")
        let line = try #require(process.logLine(containing: "server: gpsd protocol 3.14 on", seconds: 30))
        #expect(line.contains("127.0.0.1:" + String(port)) && line.contains(unixPath), "\(line)")
        #expect(line.contains("socket activation"), "\(line)")
        #expect(!line.contains(notUsed) && access(notUsed, F_OK) != 0, "[server] socket is not used: \(line)")
        // The Unix socket systemd passed serves the same protocol (libgps has no Unix client: Python's socket).
        let script = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(30)
        s.connect(sys.argv[1])
        s.sendall(b'?WATCH={"enable":true,"json":true}\\n')
        data = b''
        while b'"class":"TPV"' not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        print('TPV' if b'"class":"TPV"' in data else 'none')
        """
        let python = try #require(runProcess(["/usr/bin/timeout", "60", "/usr/bin/python3", "-c", script, unixPath]))
        #expect(python.output.contains("TPV"), "\(python.output) \(python.errorOutput)")
    }
}
