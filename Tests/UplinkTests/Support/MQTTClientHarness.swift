#if canImport(Glibc)
import Glibc
#endif
import SystemCalls
import TLS
import TrackLog
import Uplink
import UplinkClient

/// Runs the device's `MQTTUplinkClient` in a poll loop of its own, as the router does: poll() on its
/// descriptor for its events until its deadline, then `service`. Records the events the router would act on.
final class MQTTClientHarness {
    static let window = 8
    let client: MQTTUplinkClient
    var source: ArrayRecordSource
    /// The cursor as the cursor store would hold it (persisted on every `cursorMoved`).
    var persistedCursor: UInt64
    /// Each fault as the router would say it (once per change).
    var faultsSaid: [UplinkFault?] = []

    init(port: UInt16, records: [TrackRecord], cursor: UInt64 = 0, password: String = "secret", seed: UInt64 = 1,
         security: StreamSecurity = .plain, inOrderSpan: UInt64 = 0) {
        var settings = MQTTUplinkSettings(address: SocketAddress.ipv4(address: (127, 0, 0, 1), port: port), deviceIdentifier: "puck1",
                                          username: "fleet", password: password, keepAliveSeconds: 5, responseTimeoutSeconds: 3,
                                          connectTimeoutSeconds: 3, window: Self.window, backlogMessagesPerSecond: 200,
                                          backoffBaseSeconds: 1, backoffMaximumSeconds: 4)
        settings.security = security
        settings.inOrderSpanRecords = inOrderSpan
        client = MQTTUplinkClient(settings: settings, cursor: cursor, seed: seed)
        source = ArrayRecordSource(records)
        persistedCursor = cursor
    }

    func append(upTo sequence: UInt64) { client.appended(newest: sequence) }

    /// One wake-up of at most `waitMilliseconds`.
    func step(waitMilliseconds: Int64 = 5) {
        let now = monotonicNanoseconds()
        var timeout = waitMilliseconds
        if let deadline = client.deadlineNanoseconds { timeout = max(0, min(timeout, (deadline - now) / 1_000_000)) }
        var readable = false, writable = false
        if let fd = client.descriptor, !client.pollEvents.isEmpty {
            var p = pollfd(fd: fd.rawValue, events: client.pollEvents.rawValue, revents: 0)
            if poll(&p, 1, Int32(timeout)) > 0 {
                let ready = PollEvents(rawValue: p.revents)
                readable = !ready.intersection([.readable, .error, .hangUp]).isEmpty
                writable = !ready.intersection([.writable, .error, .hangUp]).isEmpty
            }
        } else {
            sleepMilliseconds(Int(timeout))
        }
        let events = client.service(nowNanoseconds: monotonicNanoseconds(), readable: readable, writable: writable, source: &source)
        if events.cursorMoved { persistedCursor = client.forwarder.cursor }
        if events.faultChanged { faultsSaid.append(client.fault) }
    }
}
