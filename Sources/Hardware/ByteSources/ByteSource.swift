import SystemCalls

/// A stream of bytes from a GPS receiver: serial port, log file, stdin, TCP server, gpsd or a
/// simulated twin. The device loop polls `pollRequest`, then calls `read` with the monotonic time
/// it read once for this wake-up. Sources open, reconnect and time out on their own, driven only by
/// that time; `read` never blocks and, once open, never allocates.
///
/// Contract of `read(into:nowNanoseconds:)`:
/// - returns the number of bytes written to the start of `buffer` (> 0), or 0 when nothing is
///   available now (not open yet, waiting to reconnect, no data, finished);
/// - throws a `SourceError` once per failure; the source has already closed what it had and moved
///   to `.waitingToReconnect` (live sources) or `.failed`/`.finished` (files, configuration errors).
///   Calling `read` again is always safe.
public protocol ByteSource: ~Copyable {
    /// What the caller's poll() should wait for before the next `read`.
    var pollRequest: PollRequest { get }
    /// Where the source is in its life cycle.
    var status: SourceStatus { get }
    /// Bytes, opens (reconnects) and errors by kind since the source was created.
    var counters: SourceCounters { get }
    /// Reads what is available now into `buffer` without blocking (see the protocol's contract).
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, nowNanoseconds: Int64) throws(SourceError) -> Int
    /// True when commands can be written to the receiver (a serial port); false for files, TCP, gpsd.
    var isWritable: Bool { get }
    /// Writes `bytes` to the receiver without blocking: `.processed(count)`, `.wouldBlock` when the
    /// port takes none now, `.failed` when it is not open or broken. Sources that cannot be written
    /// fail with EBADF.
    mutating func write(_ bytes: UnsafeRawBufferPointer, nowNanoseconds: Int64) -> IOOutcome
}

/// What a source asks of the device loop's poll(): a descriptor with events, and a monotonic
/// deadline at which `read` must be called even if the descriptor stays quiet.
public struct PollRequest: Equatable, Sendable {
    /// Descriptor to poll, or nil when the source has none now (closed, waiting, simulated).
    public var fileDescriptor: FileDescriptor?
    /// poll(2) events: readable while open, writable while a TCP connect or command is pending.
    public var events: PollEvents
    /// Monotonic nanoseconds at which to call `read` regardless of the descriptor (first open,
    /// reconnect, connect or silence timeout, next simulated byte); `Int64.max` for never.
    public var deadlineNanoseconds: Int64

    /// Creates a poll request.
    public init(fileDescriptor: FileDescriptor?, events: PollEvents, deadlineNanoseconds: Int64) {
        self.fileDescriptor = fileDescriptor
        self.events = events
        self.deadlineNanoseconds = deadlineNanoseconds
    }

    /// Poll for input on `fileDescriptor`, with a deadline (default: none).
    public static func input(_ fileDescriptor: FileDescriptor?, deadlineNanoseconds: Int64 = .max) -> PollRequest {
        PollRequest(fileDescriptor: fileDescriptor, events: .readable, deadlineNanoseconds: deadlineNanoseconds)
    }

    /// No descriptor; call `read` at the deadline.
    public static func wake(atNanoseconds deadline: Int64) -> PollRequest {
        PollRequest(fileDescriptor: nil, events: [], deadlineNanoseconds: deadline)
    }

    /// Nothing to wait for any more (finished or failed for good).
    public static let never = PollRequest(fileDescriptor: nil, events: [], deadlineNanoseconds: .max)
}

/// Where a source is in its life cycle.
public enum SourceStatus: Equatable, Sendable {
    /// Not open yet: the next `read` opens it (a TCP connect may stay in progress for a while).
    case connecting
    /// Open and delivering bytes as they come.
    case open
    /// Failed; the next open attempt happens at the given monotonic time.
    case waitingToReconnect(retryAtNanoseconds: Int64)
    /// A finite source (file, stdin) reached its end. Not an error.
    case finished
    /// Failed for good: retrying cannot help (configuration error, unreadable file).
    case failed(SourceError.Kind)
}

/// Counters every source keeps, for the console and the logs.
public struct SourceCounters: Equatable, Sendable {
    /// Bytes delivered to callers.
    public var bytesRead: UInt64 = 0
    /// Successful opens (the first one included).
    public var opens: UInt64 = 0
    /// Errors reported, all kinds.
    public var totalErrors: UInt64 = 0
    private var byKind: [15 of UInt64] = .init(repeating: 0)  // SourceError.Kind.count slots

    /// Creates zeroed counters.
    public init() {}

    /// Successful opens after the first one.
    public var reconnects: UInt64 { opens > 0 ? opens - 1 : 0 }

    /// Errors reported of one kind.
    public func errors(_ kind: SourceError.Kind) -> UInt64 { byKind[kind.rawValue] }

    /// Counts one error of `kind`.
    public mutating func record(_ kind: SourceError.Kind) {
        totalErrors &+= 1
        byKind[kind.rawValue] &+= 1
    }

    public static func == (a: SourceCounters, b: SourceCounters) -> Bool {
        guard a.bytesRead == b.bytesRead, a.opens == b.opens, a.totalErrors == b.totalErrors else { return false }
        for i in 0..<SourceError.Kind.count where a.byKind[i] != b.byKind[i] { return false }
        return true
    }
}
