import Glibc
import SystemCalls
import TrackLog
import Uplink
import UplinkClient

/// One simulated tracker's journal: a deterministic drive around its own centre, one record per sequence
/// number (1 s apart), every field of docs/track-log.md §2 filled, so each payload is as wide as a real one.
struct FleetRecordSource: UplinkRecordSource {
    private var template: TrackRecord
    private let centreLatitudeDegrees: Double
    private let centreLongitudeDegrees: Double

    init(tracker: Int) {
        centreLatitudeDegrees = 41.0 + Double(tracker % 100) * 0.01
        centreLongitudeDegrees = -93.0 - Double(tracker / 100) * 0.01
        template = TrackRecord(sequence: 0, utcNanoseconds: 1_584_538_099_600_000_000, latitudeDegrees: 0, longitudeDegrees: 0,
                               altitudeMSLMeters: 278.161, speedMetersPerSecond: 13.41, courseDegrees: 124.888,
                               heading: TrackHeading(degrees: 124.4, accuracyDegrees: 3, source: .imu),
                               horizontalAccuracyMeters: 1.8, verticalAccuracyMeters: 3.1, mode: .threeD, quality: .dgps,
                               satellitesUsed: 10, hdop: 0.9, vdop: 1.2, pdop: 1.5)
    }

    mutating func record(sequence: UInt64) -> TrackRecord? {
        let angle = Double(sequence) * 0.001
        template.sequence = sequence
        template.utcNanoseconds = 1_584_538_099_600_000_000 + Int64(sequence) * 1_000_000_000
        template.latitudeDegrees = centreLatitudeDegrees + 0.01 * sin(angle)
        template.longitudeDegrees = centreLongitudeDegrees + 0.01 * cos(angle)
        template.courseDegrees = (Double(sequence) * 0.0573).truncatingRemainder(dividingBy: 360)
        return template
    }
}

/// N trackers in one process, each with its own `MQTTUplinkClient` (its own TCP connection to the broker,
/// the device's client as `puckd run` drives it) and its own record source, serviced from one epoll set:
/// a client is serviced when its socket is ready, its deadline passed or a record was appended for it.
final class FleetTrackers {
    let clients: [MQTTUplinkClient]
    private var sources: [FleetRecordSource]
    private var deadlines: [Int64]
    private var due: [Bool]
    private var dueCount = 0
    private var pendingEvents: [UInt32]
    private var registeredDescriptor: [Int32]
    private var registeredAttempt: [UInt64]
    private var registeredWritable: [Bool]
    private let epoll: FileDescriptor
    private let readyTokens: UnsafeMutablePointer<UInt64>
    private let readyEvents: UnsafeMutablePointer<UInt32>
    private static let readyCapacity = 1024
    private(set) var serviceCalls: UInt64 = 0
    private(set) var wakeUps: UInt64 = 0
    /// Thread CPU time inside `MQTTUplinkClient.service` (the device's client, without the harness's loop).
    private(set) var serviceCPUNanoseconds: Int64 = 0

    /// `count` clients for 127.0.0.1:`port`, device ids `fleet00000`…; nothing connects before `step`.
    /// The backlog rate limit and the in-order span are lifted (the flat-out run sends as fast as PUBACKs come).
    init(count: Int, port: UInt16) throws(Errno) {
        var clients: [MQTTUplinkClient] = []
        clients.reserveCapacity(count)
        for k in 0..<count {
            var settings = MQTTUplinkSettings(address: .ipv4(address: (127, 0, 0, 1), port: port), deviceIdentifier: Self.identifier(k),
                                              keepAliveSeconds: 60, connectTimeoutSeconds: 10, backlogMessagesPerSecond: 1_000_000,
                                              backoffBaseSeconds: 1, backoffMaximumSeconds: 8)
            settings.inOrderSpanRecords = 1 << 40
            clients.append(MQTTUplinkClient(settings: settings, cursor: 0, seed: UInt64(k + 1)))
        }
        self.clients = clients
        sources = (0..<count).map { FleetRecordSource(tracker: $0) }
        deadlines = [Int64](repeating: 0, count: count)
        due = [Bool](repeating: false, count: count)
        pendingEvents = [UInt32](repeating: 0, count: count)
        registeredDescriptor = [Int32](repeating: -1, count: count)
        registeredAttempt = [UInt64](repeating: 0, count: count)
        registeredWritable = [Bool](repeating: false, count: count)
        epoll = try EventPoll.create()
        readyTokens = .allocate(capacity: Self.readyCapacity)
        readyEvents = .allocate(capacity: Self.readyCapacity)
    }

    deinit {
        for client in clients { client.shutdown(nowNanoseconds: monotonicNanoseconds()) }
        try? epoll.close()
        readyTokens.deallocate()
        readyEvents.deallocate()
    }

    /// `fleet00042`: the device id of tracker 42 (its topic is `puckd/fleet00042/position`).
    static func identifier(_ k: Int) -> String {
        let digits = String(k)
        return "fleet" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    var count: Int { clients.count }

    /// Tracker `k`'s journal now ends at `sequence` (it is serviced at the next step).
    func append(tracker k: Int, newest sequence: UInt64) {
        clients[k].appended(newest: sequence)
        markDue(k)
    }

    /// Trackers whose session is up (CONNACK received).
    var connectedCount: Int { clients.reduce(0) { $0 + ($1.session.phase == .connected ? 1 : 0) } }
    /// Messages acknowledged (PUBACK) in all: the sum of the cursors.
    var acknowledged: UInt64 { clients.reduce(0) { $0 + $1.forwarder.cursor } }
    /// Connections opened in all (more than `count`: some reconnected).
    var connections: UInt64 { clients.reduce(0) { $0 + $1.connections } }

    /// One wake-up: waits at most `maxWaitMilliseconds` (less when a deadline comes first or a tracker
    /// is due), then services every tracker that is ready, due or past its deadline.
    func step(maxWaitMilliseconds: Int64) {
        let now = monotonicNanoseconds()
        var earliest = now + maxWaitMilliseconds * 1_000_000
        for d in deadlines where d < earliest { earliest = d }
        let timeout = dueCount > 0 ? 0 : max(0, (earliest - now + 999_999) / 1_000_000)
        var p = pollfd(fd: epoll.rawValue, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, Int32(timeout)) > 0 {
            while true {
                let n = EventPoll.ready(epoll, tokens: readyTokens, events: readyEvents, capacity: Self.readyCapacity)
                for i in 0..<n {
                    let k = Int(readyTokens[i])
                    pendingEvents[k] |= readyEvents[i]
                    markDue(k)
                }
                if n < Self.readyCapacity { break }
            }
        }
        wakeUps += 1
        let t = monotonicNanoseconds()
        for k in 0..<clients.count where due[k] || deadlines[k] <= t { service(k, t) }
    }

    private func markDue(_ k: Int) {
        if !due[k] { due[k] = true; dueCount += 1 }
    }

    private func service(_ k: Int, _ now: Int64) {
        let events = pendingEvents[k]
        pendingEvents[k] = 0
        if due[k] { due[k] = false; dueCount -= 1 }
        let readable = events & (EventPoll.readable | EventPoll.hangUp | EventPoll.error | EventPoll.peerClosed) != 0
        let writable = events & (EventPoll.writable | EventPoll.hangUp | EventPoll.error) != 0
        let client = clients[k]
        let cpu0 = threadCPUNanoseconds()
        _ = client.service(nowNanoseconds: now, readable: readable, writable: writable, source: &sources[k])
        serviceCPUNanoseconds += threadCPUNanoseconds() - cpu0
        serviceCalls += 1
        deadlines[k] = client.deadlineNanoseconds ?? .max
        register(k)
    }

    /// Keeps the epoll set in step with the client's descriptor (a new one after each reconnect; the
    /// kernel forgets a closed one) and with its interest in writability.
    private func register(_ k: Int) {
        let client = clients[k]
        guard let fd = client.descriptor else { registeredDescriptor[k] = -1; return }
        let writable = client.pollEvents.contains(.writable)
        if fd.rawValue != registeredDescriptor[k] || client.attempts != registeredAttempt[k] {
            if !EventPoll.control(epoll, .add, fd, writable: writable, token: UInt64(k)) {
                EventPoll.control(epoll, .modify, fd, writable: writable, token: UInt64(k))
            }
            registeredDescriptor[k] = fd.rawValue
            registeredAttempt[k] = client.attempts
            registeredWritable[k] = writable
        } else if writable != registeredWritable[k] {
            EventPoll.control(epoll, .modify, fd, writable: writable, token: UInt64(k))
            registeredWritable[k] = writable
        }
    }

    /// The payloads tracker `k`'s records `sequences` make, one per line (the mosquitto_pub peer's input).
    static func payloadLines(tracker k: Int, sequences: ClosedRange<UInt64>, into text: inout [UInt8]) {
        var source = FleetRecordSource(tracker: k)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: PositionPayload.maximumByteCount, alignment: 8)
        defer { buffer.deallocate() }
        for s in sequences {
            var out = UplinkByteWriter(buffer)
            PositionPayload.write(source.record(sequence: s)!, into: &out)
            text.append(contentsOf: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<out.count]))
            text.append(0x0A)
        }
    }
}
