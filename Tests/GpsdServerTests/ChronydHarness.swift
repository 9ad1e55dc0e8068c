import Glibc
import Testing
import TestSupport

/// A real chronyd (Debian chrony) for the time tests: its own configuration, command socket, pid and
/// drift files in a scratch directory, `-x` (never sets this machine's clock), `-d` (foreground),
/// `-u root` (no privilege drop: the scratch directory is root's). `sources()` is `chronyc -n sources`.
final class ChronydHarness {
    static let available = access("/usr/sbin/chronyd", X_OK) == 0 && access("/usr/bin/chronyc", X_OK) == 0 && getuid() == 0

    let directory: String
    let process: ChildProcess

    /// Starts chronyd with `refclocks` (chrony.conf lines made from the scratch directory) and waits
    /// until `readyPath` (in that directory) exists, or its command socket when nil.
    init(readyPath: String? = nil, refclocks: (String) -> [String]) throws {
        var template = Array("/tmp/puckd-chrony-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let dir = directory
        let config = refclocks(dir) + [
            "bindcmdaddress \(dir)/chronyc.sock", "cmdport 0", "port 0",
            "pidfile \(dir)/chronyd.pid", "driftfile \(dir)/drift",
        ]
        let text = config.joined(separator: "\n") + "\n"
        let fd = open(dir + "/chrony.conf", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard let p = ChildProcess(["/usr/sbin/chronyd", "-x", "-d", "-u", "root", "-f", dir + "/chrony.conf"]) else {
            _ = runProcess(["rm", "-rf", dir])
            throw HarnessError.notStarted
        }
        process = p
        let ready = dir + "/" + (readyPath ?? "chronyc.sock")
        var waited = 0
        while access(ready, F_OK) != 0 && waited < 100 { usleep(100_000); waited += 1; _ = p.poll() }
        try #require(access(ready, F_OK) == 0, "chronyd did not create \(ready): \(String(decoding: p.output, as: UTF8.self))")
    }

    enum HarnessError: Error { case notStarted }

    /// Stops chronyd and removes the scratch directory.
    func stop() {
        process.kill()
        _ = runProcess(["rm", "-rf", directory])
    }

    /// `chronyc -n sources` through the scratch command socket.
    func sources() throws -> String {
        let result = try #require(runProcess(["/usr/bin/chronyc", "-h", directory + "/chronyc.sock", "-n", "sources"]))
        #expect(result.status == 0, "\(result.errorOutput)")
        return result.output
    }

    /// The `sources` row of `refid` and its reach register (octal column 5).
    func source(_ refid: String) throws -> (row: String, reach: Int) {
        let text = try sources()
        let row = try #require(text.split(separator: "\n").first { $0.contains(" " + refid + " ") }, "\(text)")
        let columns = row.split(separator: " ", omittingEmptySubsequences: true)
        return (String(row), try #require(Int(columns[4], radix: 8)))
    }

    /// CLOCK_REALTIME, ns since 1970.
    static func realtime() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
