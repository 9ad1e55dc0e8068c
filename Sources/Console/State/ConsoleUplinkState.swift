/// One fleet uplink as the console's `uplink` view shows it (filled by the device's uplink component
/// before each reply; fixed size, no allocation).
public struct ConsoleUplinkState: Sendable {
    /// False when this uplink is off (its URL empty, or unusable: the start-up report says why).
    public var isEnabled = false
    /// The server's URL (never a password) and the device id it reports as.
    public var url = ConsoleText()
    /// `connected`, `connecting`, `waiting` (backoff), `idle` (nothing to send, no connection).
    public var state: StaticString = "off"
    public var isHealthy = true
    /// Forwarder position through which every record was delivered or filtered (journal sequence + 1).
    public var cursor: UInt64 = 0
    public var backlog: UInt64 = 0
    public var inFlight = 0
    /// Monotonic time of the last acknowledgement (PUBACK, HTTP 2xx), nil before the first.
    public var lastAcknowledgedNanoseconds: Int64?
    /// The fault now (empty: none), and the last one said (kept after it cleared).
    public var fault = ConsoleText()
    public var lastError = ConsoleText()
    public var connections: UInt64 = 0
    public var attempts: UInt64 = 0
    public var sent: UInt64 = 0
    public var acknowledged: UInt64 = 0
    public var resent: UInt64 = 0
    public var filtered: UInt64 = 0
    public var droppedByLimit: UInt64 = 0
    public var faults: UInt64 = 0

    public init() {}
}

/// Both fleet uplinks (`uplink` view): MQTT and OsmAnd (Traccar).
public struct ConsoleUplinksState: Sendable {
    public var mqtt = ConsoleUplinkState()
    public var osmand = ConsoleUplinkState()
    public init() {}
}
