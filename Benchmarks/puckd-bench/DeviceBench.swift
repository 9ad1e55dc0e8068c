import CLinux
import Configuration
import Glibc
import Hardware
import Puckd
import Simulation
import SystemCalls

/// `puckd-bench device [PUCKD [SECONDS]]`: the device at real rates on the simulated board (10 Hz GPS
/// over a pty, 100 Hz IMU through the register twin, 60 Hz tick, LEDs, a status line a second).
///
/// 1. As a process: `PUCKD run --board sim` for SECONDS (default 60) of wall time, then SIGTERM;
///    CPU time (user + system, from wait4) / wall time, peak RSS, and the time from spawn to READY=1
///    on a notify socket and to the first status line.
/// 2. In-process: the same device stepped with a synthetic clock (every wake-up kind at its real rate),
///    thread CPU per second of device time.
func runDeviceBench(_ arguments: [String]) -> Int32 {
    let binary = arguments.first ?? ".build/release/puckd"
    let seconds = arguments.count > 1 ? Double(arguments[1]) ?? 60 : 60
    // More arguments (`--set imu.burst_hz=0`) go to puckd run: a variant's process figures only.
    let extra = Array(arguments.dropFirst(2))
    guard access(binary, X_OK) == 0 else {
        StandardStreams.err("puckd-bench device: \(binary) is not an executable; build it first (make bench)\n")
        return 66
    }
    let process = processFigures(binary: binary, seconds: seconds, extra: extra)
    guard process == 0, extra.isEmpty else { return process }
    floorFigures()
    return inProcessFigures()
}

/// What this machine charges for waking up at all: a bare poll() + read() loop on a timerfd at 100 and
/// 160 Hz (no work), thread CPU time over 10 s each.
private func floorFigures() {
    for hertz in [100, 160] {
        let timer = clinux_timerfd_create()
        let period = Int64(1_000_000_000 / hertz)
        let start = monotonic()
        _ = clinux_timerfd_arm(timer, start + period, period)
        var cpu0 = timespec(), cpu1 = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0)
        var fds = [pollfd(fd: timer, events: Int16(POLLIN), revents: 0)]
        while monotonic() < start + 10_000_000_000 {
            _ = poll(&fds, 1, -1)
            _ = clinux_timerfd_drain(timer)
        }
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1)
        close(timer)
        let cpu = Double(cpu1.tv_sec - cpu0.tv_sec) + Double(cpu1.tv_nsec - cpu0.tv_nsec) / 1e9
        StandardStreams.out("floor: a bare poll() + read() loop on a \(hertz) Hz timerfd costs \(fixed(cpu / 10 * 100, 3)) % of one core "
            + "here (\(fixed(cpu / 10 / Double(hertz) * 1e6, 1)) µs per wake-up)\n")
    }
}

private func procText(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 8192)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    return n > 0 ? String(decoding: bytes[0..<n], as: UTF8.self) : ""
}

/// "Name: value kB" lines of a /proc status file → name: value.
private func procFields(_ path: String) -> [String: Int] {
    var fields: [String: Int] = [:]
    for line in procText(path).split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { continue }
        let number = parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
        if let number { fields[String(parts[0])] = number }
    }
    return fields
}

private func monotonic() -> Int64 { clinux_monotonic_ns() }

private func processFigures(binary: String, seconds: Double, extra: [String]) -> Int32 {
    var template = Array("/tmp/puckd-bench-device-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return 74 }
    let directory = String(cString: made)
    defer {
        for name in ["state", "state.tmp"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }
    // Notify socket (abstract) to time READY=1.
    let notifyName = "puckd-bench-\(getpid())"
    let notify = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let nameBytes = Array(notifyName.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { path in for (i, b) in nameBytes.enumerated() { path[i + 1] = b } }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + nameBytes.count)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(notify, $0, length) } }
    defer { close(notify) }

    var out: [Int32] = [0, 0]
    guard pipe(&out) == 0 else { return 74 }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, out[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let arguments = [binary, "run", "--board", "sim", "--console", "none", "--status-interval", "1",
                     "--set", "state.directory=" + directory] + extra
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    let environment: [String] = ["NOTIFY_SOCKET=@" + notifyName]
    var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer { for p in envp { free(p) } }
    var pid: pid_t = 0
    let spawnedAt = monotonic()
    guard posix_spawn(&pid, binary, &actions, nil, &argv, &envp) == 0 else { return 71 }
    close(out[1])
    let reader = out[0]
    _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
    var readyAt: Int64?, firstStatusAt: Int64?, firstFixAt: Int64?
    var text = ""
    var lastStatus = ""
    let end = spawnedAt + Int64(seconds * 1e9)
    var buffer = [UInt8](repeating: 0, count: 65536)
    var fds = [pollfd(fd: reader, events: Int16(POLLIN), revents: 0), pollfd(fd: notify, events: Int16(POLLIN), revents: 0)]
    while monotonic() < end {
        _ = poll(&fds, 2, 200)
        let now = monotonic()
        let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        if n > 0 {
            text += String(decoding: buffer[0..<n], as: UTF8.self)
            while let newline = text.firstIndex(of: "\n") {
                let line = String(text[..<newline])
                text.removeSubrange(...newline)
                if line.hasPrefix("status ") {
                    if firstStatusAt == nil { firstStatusAt = now }
                    if firstFixAt == nil && line.contains("| fix 3D") { firstFixAt = now }
                    lastStatus = line
                }
            }
        }
        var datagram = [UInt8](repeating: 0, count: 256)
        let m = datagram.withUnsafeMutableBytes { recv(notify, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if m > 0, readyAt == nil, String(decoding: datagram[0..<m], as: UTF8.self) == "READY=1" { readyAt = now }
    }
    let wallEnd = monotonic()
    // Before stopping it: the process's own peak (VmHWM of the exec'd image; wait4's ru_maxrss would
    // also count the spawning parent's pages, which the child shares until exec), its split into
    // anonymous and file-backed pages, its exact CPU time (schedstat) and its wake-ups.
    let status = procFields("/proc/\(pid)/status")
    let schedstat = procText("/proc/\(pid)/schedstat").split(separator: " ").first.flatMap { Double($0) } ?? 0
    kill(pid, SIGTERM)
    var exit: Int32 = 0
    var usage = rusage()
    while wait4(pid, &exit, 0, &usage) < 0 && errno == EINTR {}
    close(reader)
    let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let wall = Double(wallEnd - spawnedAt) / 1e9
    func ms(_ t: Int64?) -> String { t.map { fixed(Double($0 - spawnedAt) / 1e6, 1) + " ms" } ?? "never" }
    StandardStreams.out("""
        binary: \(binary)
        run: puckd run --board sim for \(fixed(wall, 1)) s wall (10 Hz GPS over a pty, 100 Hz IMU, 60 Hz tick, status 1/s)
        CPU (schedstat, exact): \(fixed(schedstat / 1e9, 3)) s = \(fixed(schedstat / 1e9 / wall * 100, 3)) % of one core (target <= 0.2 %); getrusage (tick-sampled): \(fixed(cpu, 3)) s (user \(fixed(user, 3)), system \(fixed(cpu - user, 3)))
        wake-ups: \(fixed(Double(status["voluntary_ctxt_switches"] ?? 0) / wall, 1)) per second (voluntary context switches)
        peak RSS (VmHWM): \(status["VmHWM"] ?? 0) KB = \(fixed(Double(status["VmHWM"] ?? 0) / 1024, 2)) MB (target <= 3.5 MB): anonymous \(status["RssAnon"] ?? 0) KB, file-backed (the binary's pages) \(status["RssFile"] ?? 0) KB
        start to READY=1: \(ms(readyAt)); to the first status line: \(ms(firstStatusAt)) (target <= 50 ms); to the first 3D fix on a status line: \(ms(firstFixAt))
        exit status after SIGTERM: \((exit & 0x7f) == 0 ? String((exit >> 8) & 0xff) : "signal \(exit & 0x7f)")
        last status: \(lastStatus)
        RESULT cpu_percent=\(fixed(schedstat / 1e9 / wall * 100, 4)) rss_kb=\(status["VmHWM"] ?? 0) ready_ms=\(readyAt.map { fixed(Double($0 - spawnedAt) / 1e6, 1) } ?? "-")

        """)
    return 0
}

private func inProcessFigures() -> Int32 {
    do {
        var template = Array("/tmp/puckd-bench-device-XXXXXX".utf8CString)
        let directory = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
        defer {
            for name in ["state", "state.tmp"] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        let sources = ConfigurationSources(board: "sim", overrides: ["state.directory=" + directory])
        let loaded = try sources.load()
        let deviceSeconds: Int64 = 120
        let start = clinux_monotonic_ns() - deviceSeconds * 1_000_000_000
        let board = try SimulatedBoard(configuration: loaded.configuration, startNanoseconds: start)
        var setup = DeviceSetup(loaded: loaded, sources: sources, gpsDescription: "bench")
        setup.simulation = board
        setup.gpio = board.gpio
        if let imu = board.imu { setup.imuBus = .simulated(imu.bus) }
        setup.outputDescriptor = FileDescriptor(known: open("/dev/null", O_WRONLY | O_CLOEXEC))
        setup.printsReport = false
        let device = Device(setup: setup, nowNanoseconds: start)
        var source = SerialSource(path: board.receiver.slavePath, baudRate: 115200)
        // Wake-ups as the real loop has them: the union of the 60 Hz tick, 100 Hz IMU and 10 Hz GPS
        // deadlines (the pty's data is read on the wake-up after the receiver wrote it).
        var now = start
        var nextTick = start, nextIMU = start
        var wakeUps = 0
        var cpuStart = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpuStart)
        let end = start + deviceSeconds * 1_000_000_000
        while now < end {
            nextTick += 16_666_667
            while nextIMU < nextTick {
                now = nextIMU
                _ = device.step(gps: &source, nowNanoseconds: now, ready: [.timer, .gps])
                nextIMU += 10_000_000
                wakeUps += 1
            }
            now = nextTick
            _ = device.step(gps: &source, nowNanoseconds: now, ready: [.timer, .gps])
            wakeUps += 1
        }
        var cpuEnd = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpuEnd)
        let cpu = Double(cpuEnd.tv_sec - cpuStart.tv_sec) + Double(cpuEnd.tv_nsec - cpuStart.tv_nsec) / 1e9
        let c = device.counters
        StandardStreams.out("""
            in-process: \(deviceSeconds) s of device time, \(wakeUps) wake-ups (\(c.ticks) ticks, \(c.imuSamples) IMU samples, \(c.fixes) fixes), \(fixed(cpu * 1000, 1)) ms thread CPU
              = \(fixed(cpu / Double(wakeUps) * 1e6, 2)) µs per wake-up, \(fixed(cpu / Double(deviceSeconds) * 100, 3)) % of one core without the poll() and timer syscalls

            """)
        return 0
    } catch {
        StandardStreams.err("puckd-bench device: \(error)\n")
        return 1
    }
}

/// `value` with `digits` decimals, for the bench's figures.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int64(scaled / scale)
    var fraction = String(Int64(scaled) - whole * Int64(scale))
    while fraction.count < digits { fraction = "0" + fraction }
    return (value < 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + fraction : "")
}
