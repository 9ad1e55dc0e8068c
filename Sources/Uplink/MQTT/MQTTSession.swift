/// The client side of one MQTT 3.1.1 connection, pure: bytes and monotonic nanoseconds in, packets out
/// into the caller's buffer. It owns the handshake (CONNECT/CONNACK and the retained `online`), QoS 1
/// packet identifiers, keep-alive (PINGREQ, and the connection declared dead when the broker is silent),
/// and a fixed in-flight table mapping packet identifiers to journal sequence numbers.
public struct MQTTSession {
    /// Where the session is; `.closed` until the caller's socket is connected.
    public enum Phase: Equatable, Sendable { case closed, awaitingAcknowledgement, connected }

    /// What one `receive` or `service` call produced for the caller.
    public struct Events: Equatable, Sendable {
        /// CONNACK accepted: publishing may start (the `online` status is already in the output).
        public var becameConnected = false
        /// The connection must be closed by the caller: refused, protocol violation or keep-alive timeout.
        public var mustClose = false
        public var refusal: MQTTConnectionRefusal?
        public var violation: MQTTProtocolViolation?
        public var keepAliveTimedOut = false
        public var handshakeTimedOut = false
        public init() {}
    }

    /// Most QoS 1 messages awaiting PUBACK at once.
    public static let inFlightCapacity = 32
    public let keepAliveNanoseconds: Int64
    /// How long a CONNACK, or a PINGRESP, may take before the connection is declared dead.
    public let responseTimeoutNanoseconds: Int64

    public private(set) var phase = Phase.closed
    private var decoder = MQTTFrameDecoder()
    private var lastSentNanoseconds: Int64 = 0
    private var waitingSinceNanoseconds: Int64?   // CONNECT or PINGREQ sent, no answer yet
    private var nextPacketIdentifier: UInt16 = 1
    private var inFlightIdentifiers: InlineArray<32, UInt16> = .init(repeating: 0)
    private var inFlightSequences: InlineArray<32, UInt64> = .init(repeating: 0)
    public private(set) var inFlightCount = 0
    public private(set) var pingsSent: UInt64 = 0
    public private(set) var unknownAcknowledgements: UInt64 = 0

    public init(keepAliveSeconds: Int, responseTimeoutSeconds: Int = 10) {
        keepAliveNanoseconds = Int64(keepAliveSeconds) * 1_000_000_000
        responseTimeoutNanoseconds = Int64(responseTimeoutSeconds) * 1_000_000_000
    }

    public var hasInFlightRoom: Bool { phase == .connected && inFlightCount < Self.inFlightCapacity }

    /// The socket is connected: writes CONNECT. `connect`'s byte strings are only read during the call.
    public mutating func opened(_ connect: MQTTPacketEncoder.Connect, nowNanoseconds now: Int64, into out: inout UplinkByteWriter) {
        decoder.reset()
        inFlightCount = 0
        MQTTPacketEncoder.connect(connect, into: &out)
        phase = .awaitingAcknowledgement
        lastSentNanoseconds = now
        waitingSinceNanoseconds = now
    }

    /// The connection is gone (closed by either side): in-flight messages are forgotten here; the
    /// forwarder sends them again on the next connection (at least once).
    public mutating func closed() {
        phase = .closed
        inFlightCount = 0
        waitingSinceNanoseconds = nil
        decoder.reset()
    }

    /// Writes a QoS 1 PUBLISH of journal record `sequence`; false when no room (not connected, window full).
    public mutating func publish(sequence: UInt64, topic: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer,
                                 nowNanoseconds now: Int64, into out: inout UplinkByteWriter) -> Bool {
        guard hasInFlightRoom else { return false }
        let id = nextPacketIdentifier
        nextPacketIdentifier = id == UInt16.max ? 1 : id + 1
        MQTTPacketEncoder.publish(topic: topic, payload: payload, packetIdentifier: id, retain: false, into: &out)
        inFlightIdentifiers[inFlightCount] = id
        inFlightSequences[inFlightCount] = sequence
        inFlightCount += 1
        lastSentNanoseconds = now
        return true
    }

    /// A retained QoS 0 message (the `online`/`offline` status).
    public mutating func publishRetained(topic: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer,
                                         nowNanoseconds now: Int64, into out: inout UplinkByteWriter) {
        MQTTPacketEncoder.publish(topic: topic, payload: payload, packetIdentifier: nil, retain: true, into: &out)
        lastSentNanoseconds = now
    }

    /// A clean end: DISCONNECT (the broker then drops the will).
    public mutating func disconnect(into out: inout UplinkByteWriter) {
        if phase != .closed { MQTTPacketEncoder.disconnect(into: &out) }
        closed()
    }

    /// Bytes read from the broker. `onAcknowledged` gets the journal sequence of each PUBACK'ed message.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64,
                                 onAcknowledged: (UInt64) -> Void) -> Events {
        var events = Events()
        guard phase != .closed else { return events }
        var refusal: MQTTConnectionRefusal?
        var accepted = false
        var outOfOrder = false
        var frames = decoder
        let violation = frames.feed(bytes) { packet in
            switch packet {
            case .connectAcknowledgement(_, let code):
                if phase != .awaitingAcknowledgement { outOfOrder = true }
                else if code == 0 { accepted = true; phase = .connected; waitingSinceNanoseconds = nil }
                else { refusal = MQTTConnectionRefusal(returnCode: code) }
            case .publishAcknowledgement(let id):
                if let sequence = acknowledge(id) { onAcknowledged(sequence) } else { unknownAcknowledgements += 1 }
            case .pingResponse:
                waitingSinceNanoseconds = nil
            case .ignored:
                break
            }
        }
        decoder = frames
        if accepted { events.becameConnected = true }
        if let refusal { events.refusal = refusal; events.mustClose = true }
        if let violation { events.violation = violation; events.mustClose = true }
        if outOfOrder { events.violation = .malformedPacket; events.mustClose = true }
        if events.mustClose { closed() }
        return events
    }

    private mutating func acknowledge(_ id: UInt16) -> UInt64? {
        var k = 0
        while k < inFlightCount {
            if inFlightIdentifiers[k] == id {
                let sequence = inFlightSequences[k]
                var j = k
                while j + 1 < inFlightCount {
                    inFlightIdentifiers[j] = inFlightIdentifiers[j + 1]
                    inFlightSequences[j] = inFlightSequences[j + 1]
                    j += 1
                }
                inFlightCount -= 1
                return sequence
            }
            k += 1
        }
        return nil
    }

    /// When `service` must run next even without input (keep-alive ping or a response timeout); nil when closed.
    public var deadlineNanoseconds: Int64? {
        switch phase {
        case .closed: return nil
        case .awaitingAcknowledgement: return (waitingSinceNanoseconds ?? lastSentNanoseconds) + responseTimeoutNanoseconds
        case .connected:
            let ping = keepAliveNanoseconds > 0 ? lastSentNanoseconds + keepAliveNanoseconds : Int64.max
            if let since = waitingSinceNanoseconds { return min(ping, since + responseTimeoutNanoseconds) }
            return ping == Int64.max ? nil : ping
        }
    }

    /// Timers: a PINGREQ when nothing was sent for a keep-alive period; the connection declared dead when
    /// a CONNACK or PINGRESP does not come within the response timeout.
    public mutating func service(nowNanoseconds now: Int64, into out: inout UplinkByteWriter) -> Events {
        var events = Events()
        switch phase {
        case .closed:
            break
        case .awaitingAcknowledgement:
            if now >= (waitingSinceNanoseconds ?? lastSentNanoseconds) + responseTimeoutNanoseconds {
                events.handshakeTimedOut = true
                events.mustClose = true
                closed()
            }
        case .connected:
            if let since = waitingSinceNanoseconds, now >= since + responseTimeoutNanoseconds {
                events.keepAliveTimedOut = true
                events.mustClose = true
                closed()
            } else if keepAliveNanoseconds > 0 && now >= lastSentNanoseconds + keepAliveNanoseconds {
                MQTTPacketEncoder.pingRequest(into: &out)
                pingsSent += 1
                lastSentNanoseconds = now
                if waitingSinceNanoseconds == nil { waitingSinceNanoseconds = now }
            }
        }
        return events
    }
}
