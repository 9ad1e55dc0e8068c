import SystemCalls
import Uplink

/// What one `service` call of an uplink client changed, for the router.
public struct UplinkClientEvents: Equatable, Sendable {
    /// The cursor moved: persist it (the cursor store).
    public var cursorMoved = false
    /// `fault` changed: say it once (log, console, LED).
    public var faultChanged = false
    /// A connection was accepted (MQTT CONNACK, or a TCP connection to the HTTP server).
    public var connected = false
    public init() {}
}

/// A fleet uplink's connection edge as the device's uplink component drives it (docs/uplink.md §9):
/// the MQTT client and the OsmAnd HTTP client, each a non-blocking socket serviced from the poll loop,
/// its own forwarder (cursor), backoff and fault. No member allocates after `init` except `faultMessage`.
public protocol UplinkConnection: AnyObject {
    /// The client's last failure, compared to say it once per change.
    associatedtype Fault: Equatable
    var forwarder: UplinkForwarder { get }
    var fault: Fault? { get }
    /// The fault in one sentence with what to do (fault path only: allocates).
    var faultMessage: String? { get }
    var descriptor: FileDescriptor? { get }
    var pollEvents: PollEvents { get }
    var deadlineNanoseconds: Int64? { get }
    /// The connection is up and accepted (MQTT: CONNACK; HTTP: TCP connected).
    var isConnected: Bool { get }
    var isConnecting: Bool { get }
    var connections: UInt64 { get }
    var attempts: UInt64 { get }
    var messagesSent: UInt64 { get }
    /// Monotonic time of the last acknowledgement (PUBACK, 2xx), nil before the first.
    var lastAcknowledgedNanoseconds: Int64? { get }
    /// The server's address for the next connect (found by the uplink's `AddressResolver`).
    func use(address: SocketAddress)
    /// The journal's newest durable record (forwarder position).
    func appended(newest sequence: UInt64)
    func service<Source: UplinkRecordSource>(nowNanoseconds now: Int64, readable: Bool, writable: Bool,
                                             source: inout Source) -> UplinkClientEvents
    /// A clean stop (shutdown).
    func shutdown(nowNanoseconds now: Int64)
}
