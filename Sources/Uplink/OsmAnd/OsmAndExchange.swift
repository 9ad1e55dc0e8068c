/// One HTTP keep-alive connection to a Traccar (OsmAnd) server, pure: one request in flight at a time
/// (no pipelining), its response parsed, a deadline for the answer. A 2xx acknowledges the record;
/// anything else leaves it in the journal for the next attempt.
public struct OsmAndExchange {
    /// What a `receive` or `service` call concluded about the request in flight.
    public enum Outcome: Equatable, Sendable {
        /// 2xx: the record is delivered.
        case acknowledged(sequence: UInt64, keepAlive: Bool)
        /// Any other status: the server refused it (kept; retried after a backoff).
        case refused(sequence: UInt64, statusCode: Int, keepAlive: Bool)
        /// Not HTTP, or no answer within the timeout: close the connection.
        case broken(HTTPResponseError?)
        case timedOut
    }

    public let responseTimeoutNanoseconds: Int64
    private var parser = HTTPResponseParser()
    /// The record whose request was sent and not yet answered.
    public private(set) var inFlight: UInt64?
    private var sentAtNanoseconds: Int64 = 0

    public init(responseTimeoutSeconds: Int = 10) {
        responseTimeoutNanoseconds = Int64(responseTimeoutSeconds) * 1_000_000_000
    }

    /// A new connection.
    public mutating func opened() {
        parser.reset()
        inFlight = nil
    }

    /// The request for `sequence` (written with `OsmAndRequest`) went out.
    public mutating func sent(sequence: UInt64, nowNanoseconds now: Int64) {
        inFlight = sequence
        sentAtNanoseconds = now
    }

    public var deadlineNanoseconds: Int64? { inFlight == nil ? nil : sentAtNanoseconds + responseTimeoutNanoseconds }

    /// Bytes from the server (or `closed: true` at end of stream).
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, closed: Bool = false) -> Outcome? {
        var head: HTTPResponseHead?
        var p = parser
        if let error = p.feed(bytes, onResponse: { if head == nil { head = $0 } }) {
            parser = p
            inFlight = nil
            return .broken(error)
        }
        if closed { p.connectionClosed { if head == nil { head = $0 } } }
        parser = p
        guard let sequence = inFlight else { return closed ? .broken(nil) : nil }
        guard let head else {
            if closed { inFlight = nil; return .broken(nil) }
            return nil
        }
        inFlight = nil
        return head.isSuccess ? .acknowledged(sequence: sequence, keepAlive: head.keepAlive)
            : .refused(sequence: sequence, statusCode: head.statusCode, keepAlive: head.keepAlive)
    }

    public mutating func service(nowNanoseconds now: Int64) -> Outcome? {
        guard let deadline = deadlineNanoseconds, now >= deadline else { return nil }
        inFlight = nil
        return .timedOut
    }
}
