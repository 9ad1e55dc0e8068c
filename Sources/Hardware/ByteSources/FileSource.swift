import SystemCalls

/// A recorded NMEA log read as fast as the caller reads (`FILE`), or standard input (`-`).
/// Finite: the end of the file is `.finished`, not an error; any failure is permanent.
///
/// The file is opened on the first `read` (so a missing file is reported like any other source
/// error). Standard input is never switched to O_NONBLOCK (that flag would leak to the shell that
/// shares it): when it is not a regular file, `read` first asks poll() whether bytes are waiting.
public struct FileSource: ByteSource, ~Copyable {
    /// The path read, or "-" for standard input.
    public let path: String
    private var fd: FileDescriptor?
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
    public static func standardInput() -> FileSource { FileSource(descriptor: .standardInput, name: "-") }

    /// A source reading an already open descriptor that it does not own (not closed by this source).
    public init(descriptor: FileDescriptor, name: String) {
        self.path = name
        self.fd = descriptor
        self.ownsDescriptor = false
        self.origin = name == "-" ? .standardInput : .file
    }

    deinit {
        if ownsDescriptor { fd?.closeDroppingError() }
    }

    public var status: SourceStatus { lifecycle.status }
    public var counters: SourceCounters { lifecycle.counters }

    public var pollRequest: PollRequest {
        switch lifecycle.status {
        case .connecting: return .wake(atNanoseconds: .min)
        case .open: return .input(fd)
        case .waitingToReconnect, .finished, .failed: return .never
        }
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer, nowNanoseconds now: Int64) throws(SourceError) -> Int {
        if case .connecting = lifecycle.status { try open(nowNanoseconds: now) }
        guard case .open = lifecycle.status, buffer.count > 0, let open = fd else { return 0 }
        if mustPollBeforeRead {
            if case .success([]) = open.readinessNow(.readable) { return 0 }
        }
        switch open.readOutcome(into: buffer) {
        case .processed(let n) where n > 0:
            lifecycle.delivered(n, nowNanoseconds: now)
            return n
        case .processed:
            lifecycle.finish()
            closeDescriptor()
            return 0
        case .wouldBlock:
            return 0
        case .failed(let error):
            closeDescriptor()
            throw lifecycle.fail(SourceError.classifying(error, origin: origin, subject: path), nowNanoseconds: now)
        }
    }

    /// Built once (an OptionSet array literal allocates at each use in a debug build; reopens run on the loop).
    private static let openOptions: FileDescriptor.OpenOptions = [.closeOnExec, .nonBlocking, .noControllingTerminal]

    private mutating func open(nowNanoseconds now: Int64) throws(SourceError) {
        if fd == nil {
            do throws(Errno) {
                fd = try FileDescriptor.open(path, .readOnly, options: Self.openOptions)
            } catch {
                throw lifecycle.fail(SourceError.classifying(error, origin: origin, subject: path), nowNanoseconds: now)
            }
        }
        if let info = try? fd?.status() {
            if info.isDirectory {
                closeDescriptor()
                throw lifecycle.fail(SourceError(.isADirectory, origin: origin, subject: path, systemError: .isADirectory),
                                     nowNanoseconds: now)
            }
            // Regular files never block; pipes, ttys and sockets we did not open ourselves might.
            mustPollBeforeRead = !info.isRegularFile && !ownsDescriptor
        }
        lifecycle.opened(nowNanoseconds: now)
    }

    private mutating func closeDescriptor() {
        if ownsDescriptor { fd?.closeDroppingError() }
        fd = nil
    }
}
