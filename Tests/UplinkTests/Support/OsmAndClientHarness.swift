#if canImport(Glibc)
import Glibc
#endif
import SystemCalls
import TLS
import TrackLog
import Uplink
import UplinkClient

/// Runs the device's `OsmAndUplinkClient` in a poll loop of its own, as the router does: poll() on its
/// descriptor for its events until its deadline, then `service`. Records the faults the router would say.
final class OsmAndClientHarness {
    let client: OsmAndUplinkClient
    var source: ArrayRecordSource
    /// Each fault as the router would say it (once per change).
    var faultsSaid: [OsmAndFault?] = []

    init(port: UInt16, records: [TrackRecord], host: String = "localhost", seed: UInt64 = 1, security: StreamSecurity = .plain,
         form: OsmAndRequest.Form = .query, responseTimeoutSeconds: Int = 3, inOrderSpan: UInt64 = 0) {
        var settings = OsmAndUplinkSettings(address: SocketAddress.ipv4(address: (127, 0, 0, 1), port: port), deviceIdentifier: "puck1",
                                            host: host + ":" + String(port), form: form, responseTimeoutSeconds: responseTimeoutSeconds,
                                            connectTimeoutSeconds: 3, backlogMessagesPerSecond: 1000, backoffBaseSeconds: 1,
                                            backoffMaximumSeconds: 4)
        settings.security = security
        settings.inOrderSpanRecords = inOrderSpan
        client = OsmAndUplinkClient(settings: settings, cursor: 0, seed: seed)
        source = ArrayRecordSource(records)
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
        if events.faultChanged { faultsSaid.append(client.fault) }
    }

    /// Steps until `done` or `seconds` pass.
    func run(seconds: Double, until done: () -> Bool) {
        let end = monotonicNanoseconds() + Int64(seconds * 1e9)
        while !done() && monotonicNanoseconds() < end { step() }
    }

    /// Hands the records over one at a time, each once the previous one was acknowledged (live order).
    func deliverOneByOne(_ count: Int, secondsEach: Double = 10) {
        for s in 1...UInt64(count) {
            append(upTo: s)
            run(seconds: secondsEach) { client.forwarder.cursor == s }
        }
    }
}
