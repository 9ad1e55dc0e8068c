/// What the console session counted since start (shown by `stats`).
public struct ConsoleSessionCounters: Sendable, Equatable {
    /// Bytes fed in.
    public var bytesIn: Int64 = 0
    /// Lines completed (including blank ones).
    public var lines: Int64 = 0
    /// Commands handed to the device.
    public var commands: Int64 = 0
    /// Lines rejected with an error message (unknown command, bad argument, too long, not ASCII).
    public var errors: Int64 = 0
    /// Bytes ignored (unsupported control bytes and escape sequences, keys pressed during a watch).
    public var ignoredBytes: Int64 = 0
    /// Bytes written to the outgoing buffer.
    public var bytesOut: Int64 = 0
    /// Replies dropped whole because the outgoing buffer was full (nobody reading).
    public var droppedReplies: Int64 = 0
    /// Bytes dropped: whole replies that did not fit and echo bytes that did not fit.
    public var droppedBytes: Int64 = 0
    /// Replies larger than the reply buffer (cut short, marked as such).
    public var truncatedReplies: Int64 = 0
    /// Watch frames drawn.
    public var watchFrames: Int64 = 0
    /// Watch frames skipped because the previous one was still waiting to be written.
    public var skippedWatchFrames: Int64 = 0
    /// Device notices (log lines) shown above the prompt, and those not shown (during a watch, or no room).
    public var notices: Int64 = 0
    public var suppressedNotices: Int64 = 0

    public init() {}
}
