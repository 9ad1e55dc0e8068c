/// The gpsd-compatible server's totals since start: kept by `GpsdServer`, shown by `stats` (rows
/// `server.*`) and the `server` view (`ConsoleServerState.totals`). Here, below GpsdServer, so both
/// use one struct.
public struct GpsdServerCounters: Sendable, Equatable {
    public var accepted: UInt64 = 0
    /// Connections refused because every slot was taken (each got one ERROR line, then a close).
    public var refused: UInt64 = 0
    public var closed: UInt64 = 0
    public var requests: UInt64 = 0
    public var errors: UInt64 = 0
    public var reportsQueued: UInt64 = 0
    public var reportsDropped: UInt64 = 0
    public var bytesSent: UInt64 = 0
    /// Receiver sentences passed to `nmea`/`raw` watchers (counted once per sentence).
    public var sentencesForwarded: UInt64 = 0
    /// Socket errors other than a peer closing (each closes that client).
    public var socketErrors: UInt64 = 0
    public init() {}
}

/// What one client of the gpsd-compatible server did since it connected: kept by `GpsdServer`'s slot,
/// shown by the `server` view's client rows (`ConsoleServerClient.counters`).
public struct GpsdClientCounters: Sendable, Equatable {
    /// Requests read (valid or not).
    public var requests: UInt64 = 0
    /// Requests answered with an ERROR object.
    public var errors: UInt64 = 0
    /// Reports (and replies) queued whole for it.
    public var reportsQueued: UInt64 = 0
    /// Reports dropped whole because its output buffer was full (it reads too slowly).
    public var reportsDropped: UInt64 = 0
    /// Bytes the kernel took from its buffer.
    public var bytesSent: UInt64 = 0
    public init() {}
}
