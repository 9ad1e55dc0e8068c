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
