/// The gpsd-compatible server as the console's `server` view shows it (filled by the device before
/// each reply and watch frame; fixed size, no allocation): where it listens, each client (slot, peer,
/// watch flags, queued bytes, drops) and the totals since start.
public struct ConsoleServerState: Sendable {
    /// Client rows kept (a server with more slots shows the first `clientCapacity` open ones and counts the rest).
    public static let clientCapacity = 32

    /// False when `[server] enabled = false` or the server could not start (the view says so).
    public var isEnabled = false
    /// The listening addresses, comma-separated ("127.0.0.1:2947, [::1]:2947, /run/puckd/gpsd.sock").
    public var listening = ConsoleText()
    /// Client slots (`[server] max_clients`).
    public var maxClients = 0
    /// Clients connected now (may exceed the rows kept).
    public var clientCount = 0
    /// The first `min(clientCount, clientCapacity)` clients, by slot.
    public var clients: InlineArray<32, ConsoleServerClient> = .init(repeating: ConsoleServerClient())
    /// Totals since start (the server's own counters, copied).
    public var totals = GpsdServerCounters()

    public init() {}

    /// Rows filled (`min(clientCount, clientCapacity)`).
    public var rowCount: Int { min(clientCount, Self.clientCapacity) }
}

/// One client of the gpsd-compatible server, as the `server` view shows it.
public struct ConsoleServerClient: Sendable {
    /// Its slot (0 ..< max_clients).
    public var slot = 0
    /// "127.0.0.1:40312", "[::1]:40312" or "unix".
    public var peer = ConsoleText()
    /// The `?WATCH` flags set, as words ("enable json nmea puckd"), and the PUCK/CAMERA rate (0: every tick).
    public var watch = ConsoleText()
    public var puckdHertz = 0
    /// Connected for, nanoseconds.
    public var connectedNanoseconds: Int64 = 0
    /// Bytes waiting in its output queue.
    public var queuedBytes = 0
    /// Requests read, reports queued and dropped (the server's own counters of the client, copied).
    public var counters = GpsdClientCounters()
    public init() {}
}
