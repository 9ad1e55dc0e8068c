#if canImport(Glibc)
import Glibc
#endif

/// The result of running a command to completion.
public struct ProcessResult: Sendable {
    /// Exit status (0...255), or 128 + signal number when the process was killed by a signal.
    public var status: Int32
    /// Everything the process wrote to standard output.
    public var standardOutput: [UInt8]
    /// Everything the process wrote to standard error.
    public var standardError: [UInt8]
    /// Standard output as text.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as text.
    public var errorOutput: String { String(decoding: standardError, as: UTF8.self) }
}

/// Runs `arguments[0]` (looked up on PATH) with the rest as its arguments, feeds `input` on its
/// standard input, and waits for it. For tests only (allocates freely). Returns nil when the command
/// cannot be started (not installed).
public func runProcess(_ arguments: [String], input: [UInt8] = [], environment: [String]? = nil) -> ProcessResult? {
    precondition(!arguments.isEmpty)
    var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
    guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { return nil }
    for fd in inPipe + outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
    defer { if let e = envp { for p in e { free(p) } } }

    var pid: pid_t = 0
    let rc: Int32
    if envp != nil {
        rc = posix_spawnp(&pid, argv[0]!, &actions, nil, &argv, &envp!)
    } else {
        rc = posix_spawnp(&pid, argv[0]!, &actions, nil, &argv, environ)
    }
    close(inPipe[0]); close(outPipe[1]); close(errPipe[1])
    if rc != 0 {
        close(inPipe[1]); close(outPipe[0]); close(errPipe[0])
        return nil
    }

    // Feed input and drain both outputs with poll() so no pipe fills up and blocks the child.
    var out: [UInt8] = [], err: [UInt8] = []
    var written = 0
    var inFD: Int32 = inPipe[1]
    if input.isEmpty { close(inFD); inFD = -1 }
    var openOut = true, openErr = true
    var chunk = [UInt8](repeating: 0, count: 65536)
    signal(SIGPIPE, SIG_IGN)
    while openOut || openErr || inFD >= 0 {
        var fds = [pollfd(fd: openOut ? outPipe[0] : -1, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: openErr ? errPipe[0] : -1, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: inFD, events: Int16(POLLOUT), revents: 0)]
        if poll(&fds, 3, -1) < 0 { if errno == EINTR { continue }; break }
        for (i, fd) in [(0, outPipe[0]), (1, errPipe[0])] where fds[i].revents != 0 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                if i == 0 { out.append(contentsOf: chunk[0..<n]) } else { err.append(contentsOf: chunk[0..<n]) }
            } else if n == 0 || errno != EINTR {
                if i == 0 { openOut = false } else { openErr = false }
            }
        }
        if inFD >= 0 && fds[2].revents != 0 {
            let n = input.withUnsafeBytes { write(inFD, $0.baseAddress! + written, $0.count - written) }
            if n > 0 { written += n }
            if n < 0 && errno != EINTR && errno != EAGAIN { written = input.count }
            if written >= input.count { close(inFD); inFD = -1 }
        }
    }
    close(outPipe[0]); close(errPipe[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exited = (status & 0x7f) == 0
    let code = exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return ProcessResult(status: code, standardOutput: out, standardError: err)
}

extension Fixtures {
    /// The decompressed content of an xz-compressed fixture (`xz -dc`), or nil when it cannot be read.
    public static func xzBytes(_ relative: String) -> [UInt8]? {
        guard let result = runProcess(["xz", "-dc", path(relative)]), result.status == 0 else { return nil }
        return result.standardOutput
    }

    /// Makes a new empty directory under /tmp (`/tmp/PREFIX-XXXXXX`) and returns its path.
    public static func temporaryDirectory(prefix: String = "puckd-test") -> String {
        var template = Array(("/tmp/" + prefix + "-XXXXXX").utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!
        return String(cString: dir)
    }

    /// Writes bytes to a new file under the system temporary directory and returns its path.
    public static func temporaryFile(named name: String, contents: [UInt8]) -> String? {
        var template = Array("/tmp/puckd-test-XXXXXX".utf8CString)
        guard let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        let path = String(cString: dir) + "/" + name
        return writeFile(path, contents) ? path : nil
    }

    /// Creates or replaces the file at `path` with `contents` (mode 0644); false when it cannot.
    @discardableResult
    public static func writeFile(_ path: String, _ contents: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { return false }
        defer { close(fd) }
        var off = 0
        while off < contents.count {
            let n = contents.withUnsafeBytes { write(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            off += n
        }
        return true
    }
}
