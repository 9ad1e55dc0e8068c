/// The server's settings, from `[server]` (docs/configuration.md, docs/gpsd-protocol.md §4).
public struct GpsdServerConfiguration: Sendable, Equatable {
    /// TCP listen addresses (`listen`), default loopback on both IP versions.
    public var listen: [ListenAddress] = ListenAddress.loopbackDefaults
    /// The Unix socket path (`socket`), nil for none.
    public var socketPath: String?
    /// Fixed client slots (`max_clients`), default 32.
    public var maxClients = 32
    /// Output buffer of each client, bytes: what it may fall behind before whole reports are dropped.
    public var clientBufferBytes = 16_384
    /// The `release` of the VERSION banner.
    public var release: StaticString = "puckd 0.1.0"

    public init() {}

    public static func == (a: Self, b: Self) -> Bool {
        a.listen == b.listen && a.socketPath == b.socketPath && a.maxClients == b.maxClients
            && a.clientBufferBytes == b.clientBufferBytes
    }
}

/// The server's totals since start (the `stats` rows `gpsd.*`).
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
