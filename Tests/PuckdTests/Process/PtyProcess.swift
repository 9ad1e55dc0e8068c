import TestSupport
import CLinux
import Glibc

/// A `puckd` process on a pseudo-terminal, as a person at a terminal runs it: standard input, output
/// and error are the pty's slave (its controlling terminal, in a session of its own), the test types on
/// the master and reads what the terminal would show. Expect-style: every wait is for text to appear
/// (with a generous deadline), never a fixed sleep.
final class PtyProcess {
    let pid: pid_t
    let master: Int32
    /// The slave's path (/dev/pts/N) and a descriptor the test keeps open (so the terminal outlives the
    /// process, and its settings can be read after it exited).
    let slavePath: String
    let slave: Int32
    /// Everything the terminal received so far, and how much of it the expectations consumed.
    private(set) var screen = ""
    private(set) var consumed: String.Index
    private(set) var exitStatus: Int32?

    /// Starts `puckd ARGUMENTS` on a new pty of `rows` × `columns`.
    init?(_ arguments: [String], rows: UInt16 = 40, columns: UInt16 = 160, environment: [String] = []) {
        let arguments = puckdTestArguments(arguments)
        var path = [CChar](repeating: 0, count: 64)
        let m = clinux_pty_open(&path, path.count)
        guard m >= 0 else { return nil }
        master = m
        slavePath = path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = withUnsafeMutablePointer(to: &size) { ioctl(m, UInt(TIOCSWINSZ), $0) }
        slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        var attributes: posix_spawnattr_t = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        posix_spawnattr_setflags(&attributes, 0x80)   // POSIX_SPAWN_SETSID (glibc, _GNU_SOURCE)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)   // after setsid: the controlling tty
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        let all = [PuckdProcess.binary] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var inherited: [String] = ["TERM=vt100"]
        var e = environ
        while let entry = e.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix("NOTIFY_SOCKET=") && !text.hasPrefix("WATCHDOG_") && !text.hasPrefix("TERM=")
                && !text.hasPrefix("JOURNAL_STREAM=") { inherited.append(text) }
            e += 1
        }
        var envp: [UnsafeMutablePointer<CChar>?] = (inherited + environment).map { strdup($0) } + [nil]
        defer { for p in envp { free(p) } }
        var child: pid_t = 0
        guard posix_spawn(&child, all[0], &actions, &attributes, &argv, &envp) == 0 else {
            close(m)
            close(slave)
            return nil
        }
        pid = child
        consumed = screen.startIndex
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
        close(slave)
    }

    /// Types bytes on the keyboard.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits until `text` appears after what earlier expectations consumed; returns everything up to and
    /// including it (and consumes that), or nil after `seconds`.
    @discardableResult
    func expect(_ text: String, seconds: Double = 60) -> String? {
        let deadline = PuckdProcess.now() + seconds
        while true {
            if let range = screen[consumed...].firstRange(of: text) {
                let taken = String(screen[consumed..<range.upperBound])
                consumed = range.upperBound
                return taken
            }
            let left = deadline - PuckdProcess.now()
            if left <= 0 { return nil }
            pump(milliseconds: Int32(min(left * 1000, 200)) + 1)
            if exitStatus == nil { reap() }
            if exitStatus != nil {
                pump(milliseconds: 0)
                if let range = screen[consumed...].firstRange(of: text) {
                    let taken = String(screen[consumed..<range.upperBound])
                    consumed = range.upperBound
                    return taken
                }
                return nil
            }
        }
    }

    /// Types `line` and a carriage return (Enter in raw mode), and returns the reply up to the next prompt.
    func command(_ line: String, prompt: String = "puckd> ", seconds: Double = 60) -> String? {
        type(line + "\r")
        guard let echoed = expect(line + "\r\n", seconds: seconds) else { return nil }
        _ = echoed
        return expect(prompt, seconds: seconds).map { String($0.dropLast(prompt.count)) }
    }

    /// Waits for the process to exit; returns its status (128 + signal when killed), nil on timeout.
    func waitForExit(seconds: Double = 60) -> Int32? {
        let deadline = PuckdProcess.now() + seconds
        while exitStatus == nil && PuckdProcess.now() < deadline {
            pump(milliseconds: 50)
            reap()
        }
        pump(milliseconds: 0)
        return exitStatus
    }

    /// Everything after what was consumed.
    var rest: String { String(screen[consumed...]) }

    private func reap() {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }
    }

    private func pump(milliseconds: Int32) {
        var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, milliseconds)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            let offset = screen.distance(from: screen.startIndex, to: consumed)
            screen += String(decoding: chunk[0..<n], as: UTF8.self)
            consumed = screen.index(screen.startIndex, offsetBy: offset)
        }
    }
}
