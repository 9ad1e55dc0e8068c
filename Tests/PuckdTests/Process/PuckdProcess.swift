import TestSupport
import Glibc

/// A running `puckd` process for end-to-end tests: standard input to type commands into, standard
/// output collected as it comes, signals, and the exit status. Waits are on output (poll with a
/// deadline), never fixed sleeps.
final class PuckdProcess {
    let pid: pid_t
    private var stdinFD: Int32
    private let stdoutFD: Int32
    private let stderrFD: Int32
    /// Everything read from standard output / standard error so far.
    private(set) var output = ""
    private(set) var errorOutput = ""
    private(set) var exitStatus: Int32?

    /// The puckd binary next to the test bundle (.build/<configuration>/puckd).
    static var binary: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer[0..<max(0, n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]) + "/puckd"
    }

    /// Starts `puckd ARGUMENTS` (or `executable ARGUMENTS`, an absolute path) with extra `environment`
    /// entries ("NAME=value"); standard input is a pipe the test types into, or /dev/null (as systemd
    /// starts a service).
    init?(_ arguments: [String], executable: String? = nil, environment: [String] = [], standardInputNull: Bool = false) {
        let arguments = puckdTestArguments(arguments)
        var input: [Int32] = [0, 0], out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&out) == 0, pipe(&err) == 0 else { return nil }
        for fd in input + out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if standardInputNull {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        let all = [executable ?? Self.binary] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var inherited: [String] = []
        var e = environ
        while let entry = e.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix("NOTIFY_SOCKET=") && !text.hasPrefix("WATCHDOG_") { inherited.append(text) }
            e += 1
        }
        var envp: [UnsafeMutablePointer<CChar>?] = (inherited + environment).map { strdup($0) } + [nil]
        defer { for p in envp { free(p) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, all[0], &actions, nil, &argv, &envp)
        close(input[0]); close(out[1]); close(err[1])
        guard rc == 0 else {
            close(input[1]); close(out[0]); close(err[0])
            return nil
        }
        pid = child
        stdinFD = input[1]
        stdoutFD = out[0]
        stderrFD = err[0]
        _ = fcntl(stdoutFD, F_SETFL, fcntl(stdoutFD, F_GETFL) | O_NONBLOCK)
        _ = fcntl(stderrFD, F_SETFL, fcntl(stderrFD, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        if stdinFD >= 0 { close(stdinFD) }
        close(stdoutFD)
        close(stderrFD)
    }

    /// Types a line on standard input.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(stdinFD, $0.baseAddress, $0.count) }
    }

    /// Closes standard input (end of input).
    func closeInput() {
        if stdinFD >= 0 { close(stdinFD) }
        stdinFD = -1
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Reads output until `predicate(output)` holds or `seconds` pass; returns whether it held.
    @discardableResult
    func waitUntil(seconds: Double, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Self.now() + seconds
        while true {
            if predicate(output) { return true }
            let left = deadline - Self.now()
            if left <= 0 || exitStatus != nil { return predicate(output) }
            pump(timeoutMilliseconds: Int32(min(left * 1000, 200)) + 1)
        }
    }

    /// Waits for a line containing `text` after `from` characters of output; returns that line.
    func line(containing text: String, after from: String.Index? = nil, seconds: Double) -> String? {
        var found: String?
        waitUntil(seconds: seconds) { output in
            let rest = from.map { output[$0...] } ?? output[...]
            found = rest.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .first { $0.contains(text) }.map(String.init)
            return found != nil
        }
        return found
    }

    /// Waits for the process to exit (draining its output); returns its exit status or nil on timeout.
    func waitForExit(seconds: Double) -> Int32? {
        let deadline = Self.now() + seconds
        while exitStatus == nil && Self.now() < deadline {
            pump(timeoutMilliseconds: 50)
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                pump(timeoutMilliseconds: 0)
                exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            }
        }
        return exitStatus
    }

    private func pump(timeoutMilliseconds: Int32) {
        var fds = [pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0), pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, timeoutMilliseconds)
        var chunk = [UInt8](repeating: 0, count: 65536)
        for (index, fd) in [stdoutFD, stderrFD].enumerated() {
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                let text = String(decoding: chunk[0..<n], as: UTF8.self)
                if index == 0 { output += text } else { errorOutput += text }
            }
        }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
