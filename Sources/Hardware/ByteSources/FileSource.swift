import SystemCalls
import Glibc

/// A recorded NMEA log read as fast as the caller reads (`FILE`), or standard input (`-`).
/// Finite: the end of the file is `.finished`, not an error; any failure is permanent.
///
/// The file is opened on the first `read` (so a missing file is reported like any other source
/// error). Standard input is never switched to O_NONBLOCK (that flag would leak to the shell that
/// shares it): when it is not a regular file, `read` first asks poll() whether bytes are waiting.
public struct FileSource: ByteSource, ~Copyable {
    /// The path read, or "-" for standard input.
    public let path: String
    private var fd: Int32 = -1
    private var ownsDescriptor: Bool
    private var mustPollBeforeRead = false
    private var lifecycle = SourceLifecycle(policy: ReconnectPolicy())
    private let origin: SourceOrigin

    /// A source reading the file at `path` (opened on the first `read`).
    public init(path: String) {
        self.path = path
        self.ownsDescriptor = true
        self.origin = .file
    }

    /// A source reading standard input (descriptor 0), which it never closes.
    public static func standardInput() -> FileSource { FileSource(descriptor: 0, name: "-") }

    /// A source reading an already open descriptor that it does not own (not closed by this source).
    public init(descriptor: Int32, name: String) {
        self.path = name
        self.fd = descriptor
        self.ownsDescriptor = false
        self.origin = name == "-" ? .standardInput : .file
    }

    deinit {
        if ownsDescriptor { FileDescriptor(rawValue: fd)?.closeDroppingError() }
    }

    public var status: SourceStatus { lifecycle.status }
    public var counters: SourceCounters { lifecycle.counters }

    public var pollRequest: PollRequest {
        switch lifecycle.status {
        case .connecting: return .wake(atNanoseconds: .min)
        case .open: return .input(FileDescriptor(rawValue: fd))
        case .waitingToReconnect, .finished, .failed: return .never
        }
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer, nowNanoseconds now: Int64) throws(SourceError) -> Int {
        if case .connecting = lifecycle.status { try open(nowNanoseconds: now) }
        guard case .open = lifecycle.status, buffer.count > 0 else { return 0 }
        if mustPollBeforeRead {
            if case .success([]) = FileDescriptor(known: fd).readinessNow(.readable) { return 0 }
        }
        let n = FileDescriptor(known: fd).readCountingErrno(into: buffer)
        if n > 0 {
            lifecycle.delivered(n, nowNanoseconds: now)
            return n
        }
        if n == 0 {
            lifecycle.finish()
            closeDescriptor()
            return 0
        }
        let code = Int32(-n)
        if code == EAGAIN || code == EWOULDBLOCK { return 0 }
        closeDescriptor()
        throw lifecycle.fail(SourceError.fromErrno(code, origin: origin, subject: path), nowNanoseconds: now)
    }

    private mutating func open(nowNanoseconds now: Int64) throws(SourceError) {
        if fd < 0 {
            let opened = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            if opened < 0 {
                throw lifecycle.fail(SourceError.fromErrno(errno, origin: origin, subject: path), nowNanoseconds: now)
            }
            fd = opened
        }
        var info = stat()
        if fstat(fd, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                closeDescriptor()
                throw lifecycle.fail(SourceError(.isADirectory, origin: origin, subject: path, systemErrno: EISDIR),
                                     nowNanoseconds: now)
            }
            // Regular files never block; pipes, ttys and sockets we did not open ourselves might.
            mustPollBeforeRead = type != S_IFREG && !ownsDescriptor
        }
        lifecycle.opened(nowNanoseconds: now)
    }

    private mutating func closeDescriptor() {
        if ownsDescriptor { FileDescriptor(rawValue: fd)?.closeDroppingError() }
        fd = -1
    }
}
