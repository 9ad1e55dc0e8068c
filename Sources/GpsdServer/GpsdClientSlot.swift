import Console
import GpsdProtocol
import SystemCalls

/// How a client reached the server.
public enum GpsdClientTransport: UInt8, Sendable, Equatable {
    case tcp
    case unix
}

/// One fixed client slot: its socket, request reader, watch flags and the bounds of its output
/// queue in the server's queue storage (a linear buffer of `bufferBytes`, compacted when needed).
struct GpsdClientSlot {
    var descriptor: FileDescriptor?
    var transport: GpsdClientTransport = .tcp
    /// Which connection this is (1, 2, … since start), so an event for a slot reused in the same
    /// wake-up is not taken for the new client.
    var serial: UInt64 = 0
    var reader = GpsdCommandReader()
    var watch = GpsdWatchFlags()
    var connectedAtNanoseconds: Int64 = 0
    /// The peer's address ("127.0.0.1:40312", "[::1]:40312", "unix").
    var peer = GpsdShortText()
    /// Offset of the first queued byte within the slot's region, and the number queued.
    var queueHead = 0
    var queueCount = 0
    /// True while epoll watches it for writability (its queue is not empty).
    var watchingWritable = false
    /// When the next PUCK/CAMERA pair is due for it (its `puckd_hz`).
    var nextPuckdNanoseconds: Int64 = 0
    var counters = GpsdClientCounters()

    var isOpen: Bool { descriptor != nil }
}

/// One client as the console's `server` view and `stats` show it (a copy, no references).
public struct GpsdClientInfo: Sendable, Equatable {
    public var slot: Int
    public var serial: UInt64
    public var transport: GpsdClientTransport
    public var watch: GpsdWatchFlags
    public var connectedAtNanoseconds: Int64
    /// The peer's address ("127.0.0.1:40312", "[::1]:40312", "unix").
    public var peer: GpsdShortText
    public var queuedBytes: Int
    public var counters: GpsdClientCounters
}
