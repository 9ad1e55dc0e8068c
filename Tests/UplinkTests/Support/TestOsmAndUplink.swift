import TrackLog
@testable import Uplink

/// The pure OsmAnd types (request, exchange, forwarder with a window of 1, backoff) driven over a test
/// TCP connection, as the device's uplink component will drive them over its socket edge.
final class TestOsmAndUplink {
    let port: UInt16
    let records: [TrackRecord]
    let form: OsmAndRequest.Form
    let deviceIdentifier = Array("puck1".utf8)
    let host: [UInt8]
    var forwarder = UplinkForwarder(cursor: 0, window: 1, backlogMessagesPerSecond: 1000)
    var exchange = OsmAndExchange(responseTimeoutSeconds: 1)
    var backoff = ReconnectBackoff(seed: 5, baseSeconds: 1, maximumSeconds: 4)
    var connection: TestConnection?
    var retryAtNanoseconds: Int64 = 0
    var attempts = 0, requests = 0, timeouts = 0, broken = 0
    var refusedStatuses: [Int] = []
    private var buffer = [UInt8](repeating: 0, count: OsmAndRequest.maximumByteCount)

    init(port: UInt16, records: [TrackRecord], form: OsmAndRequest.Form) {
        self.port = port
        self.records = records
        self.form = form
        host = Array("127.0.0.1:\(port)".utf8)
    }

    func step() {
        let now = monotonicNanoseconds()
        if connection == nil {
            guard now >= retryAtNanoseconds else { sleepMilliseconds(5); return }
            guard forwarder.backlog > 0 else { sleepMilliseconds(5); return }
            attempts += 1
            guard let c = TestConnection(port: port) else { retryAtNanoseconds = now + backoff.failed(); return }
            connection = c
            exchange.opened()
        }
        guard let connection else { return }
        if exchange.inFlight == nil, now >= retryAtNanoseconds, let candidate = forwarder.next(nowNanoseconds: now) {
            let ok = buffer.withUnsafeMutableBytes { raw in
                var out = UplinkByteWriter(raw)
                deviceIdentifier.withUnsafeBytes { i in host.withUnsafeBytes { h in
                    OsmAndRequest.write(records[Int(candidate.sequence) - 1], form: form, deviceIdentifier: i, host: h, into: &out)
                } }
                return connection.send(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(raw)[0..<out.count]))
            }
            guard ok else { lost(now); return }
            forwarder.sent(candidate, nowNanoseconds: now)
            exchange.sent(sequence: candidate.sequence, nowNanoseconds: now)
            requests += 1
        }
        var outcome: OsmAndExchange.Outcome?
        if let bytes = connection.receive(milliseconds: 5) {
            outcome = bytes.withUnsafeBytes { exchange.receive($0, closed: bytes.isEmpty) }
            if outcome == nil && bytes.isEmpty { self.connection = nil; return }
        } else {
            outcome = exchange.service(nowNanoseconds: monotonicNanoseconds())
        }
        switch outcome {
        case .acknowledged(let sequence, let keepAlive)?:
            forwarder.acknowledged(sequence)
            backoff.succeeded()
            if !keepAlive { self.connection = nil; forwarder.connectionLost() }
        case .refused(_, let status, let keepAlive)?:
            refusedStatuses.append(status)
            forwarder.connectionLost()   // the record stays in the journal, sent again after the backoff
            retryAtNanoseconds = now + backoff.failed()
            if !keepAlive { self.connection = nil }
        case .timedOut?:
            timeouts += 1
            lost(now)
        case .broken?:
            broken += 1
            lost(now)
        case nil:
            break
        }
    }

    private func lost(_ now: Int64) {
        connection = nil
        forwarder.connectionLost()
        retryAtNanoseconds = now + backoff.failed()
    }
}
