import Glibc

/// A real gpsd (Debian package `gpsd`) started by a test: foreground, no waiting for clients,
/// read-only device access, listening on 127.0.0.1:`port`, reading `device`. Its output goes to
/// a log file shown when a test fails.
final class GpsdDaemon {
    let pid: pid_t
    let port: UInt16
    let logPath: String
    let device: String

    /// Starts `gpsd -N -n -b -S PORT DEVICE` on `port` (default: a free one); nil when gpsd
    /// cannot be started.
    init?(device: String, port requested: UInt16? = nil) {
        // A free port: bind port 0, read it, release it (the closure's listener dies) for gpsd.
        guard let port = requested ?? { LoopbackListener(listening: false)?.port }() else { return nil }
        self.port = port
        logPath = "/tmp/puckd-gpsd-\(getpid())-\(port).log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = ["gpsd", "-N", "-n", "-b", "-S", String(port), device]
        self.device = device
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // Test threads block most signals and a spawned child inherits that mask: give gpsd an
        // empty mask and default handlers, or SIGTERM would stay pending forever.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        guard posix_spawnp(&child, "gpsd", &actions, &attributes, &argv, environ) == 0 else { return nil }
        pid = child
    }

    private var reaped = false

    /// Stops gpsd (SIGTERM) and reaps it; SIGKILL if it has not exited after 10 s.
    func stop() {
        guard !reaped else { return }
        reaped = true
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<1000 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            var entry = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&entry, 0, 10)  // waiting for a child to exit: no fd to wait on
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    deinit {
        stop()
        unlink(logPath)
    }

    /// What gpsd printed (for failure messages).
    var log: String {
        let fd = open(logPath, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8192)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return String(decoding: bytes[0..<max(0, n)], as: UTF8.self)
    }

    /// True when `gpsd` can be started on this machine.
    static var isInstalled: Bool {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/sbin:/usr/bin"
        return path.split(separator: ":").contains { access("\($0)/gpsd", X_OK) == 0 }
    }
}
