import Glibc
import Puckd
import Uplink

/// The phases of `puckd-bench fleet` over one broker and one set of trackers, printing each figure as
/// it is measured. CPU figures are user + system time: the harness's own (getrusage, minus the time it
/// spends reading the consumer's output), mosquitto's and mosquitto_sub's (/proc/PID/stat).
struct FleetRun {
    let fleet: FleetTrackers
    let broker: FleetBroker
    /// Records each tracker has appended so far (every tracker the same).
    private var appended: UInt64 = 0
    /// False once a message was missing, repeated or late.
    private(set) var clean = true
    /// The harness's RSS before the trackers were made (KiB).
    let residentBeforeKiB: Int

    /// What one publishing phase measured.
    struct Figures {
        var messages: Int
        var seconds: Double
        var publisherCPUSeconds: Double
        var brokerCPUSeconds: Double
        /// Until every message was acknowledged (the peer: until mosquitto_pub exited).
        var acknowledgedSeconds: Double
    }

    init(fleet: FleetTrackers, broker: FleetBroker, residentBeforeKiB: Int) {
        self.fleet = fleet
        self.broker = broker
        self.residentBeforeKiB = residentBeforeKiB
    }

    private var count: FleetSubscriberCount { broker.count }

    /// CPU of the three parties now: the harness (without its consumer parsing), mosquitto, mosquitto_sub.
    private func cpu() -> (harness: Double, broker: Double, consumer: Double) {
        (processCPUSeconds() - Double(count.parseCPUNanoseconds) / 1e9, broker.process.cpuSeconds, broker.subscriber.cpuSeconds)
    }

    /// Phase 1: every tracker connects (CONNECT, CONNACK, retained `online`); memory per connection.
    mutating func connect() -> Bool {
        let n = fleet.count
        let brokerBefore = broker.process.memoryKiB.resident
        let tcpBefore = Self.kernelTCPPages()
        let start = monotonicNanoseconds()
        while fleet.connectedCount < n && monotonicNanoseconds() - start < 60_000_000_000 { fleet.step(maxWaitMilliseconds: 10) }
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        // Let the retained `online` messages and their PUBACKs settle before measuring memory.
        let settle = monotonicNanoseconds() + 300_000_000
        while monotonicNanoseconds() < settle { fleet.step(maxWaitMilliseconds: 10) }
        let up = fleet.connectedCount
        out("connect: \(up) of \(n) sessions up (CONNACK) in \(fixed(seconds, 2)) s after all \(n) connects started at once "
            + "(\(fleet.connections) connections opened)")
        guard up == n else { clean = false; out("FAILED: not every tracker connected (see \(broker.directory)/mosquitto.log)"); return false }
        let selfPerConnection = Double(procMemoryKiB("/proc/self/status").resident - residentBeforeKiB) / Double(n)
        let brokerPerConnection = Double(broker.process.memoryKiB.resident - brokerBefore) / Double(n)
        let tcpPerConnection = Double(Self.kernelTCPPages() - tcpBefore) * 4 / Double(2 * n)
        let counted = Self.clientBytesCountedFromCode
        out("memory per connection: harness RSS (clients made and connected) +\(fixed(selfPerConnection, 1)) KiB (of which counted from the code: "
            + "\(counted) B of client buffers and state); mosquitto RSS +\(fixed(brokerPerConnection, 1)) KiB; "
            + "kernel TCP buffers \(fixed(tcpPerConnection, 1)) KiB per socket now (both ends on this machine)")
        return true
    }

    /// The bytes one `MQTTUplinkClient` holds, from its code (MQTTUplinkClient.init): the 8 KiB output
    /// and 4 KiB input buffers, the payload buffer, and its session, forwarder and backoff values.
    static var clientBytesCountedFromCode: Int {
        8192 + 4096 + PositionPayload.maximumByteCount + MemoryLayout<MQTTSession>.size + MemoryLayout<UplinkForwarder>.size
            + MemoryLayout<ReconnectBackoff>.size
    }

    /// Pages the kernel's TCP sockets hold (/proc/net/sockstat, `TCP: … mem N`), machine-wide.
    private static func kernelTCPPages() -> Int {
        for line in procFileText("/proc/net/sockstat").split(separator: "\n") where line.hasPrefix("TCP:") {
            let parts = line.split(separator: " ")
            if let k = parts.firstIndex(of: "mem"), k + 1 < parts.count { return Int(parts[k + 1]) ?? 0 }
        }
        return 0
    }

    /// Phase 2: one position per tracker per second for `seconds`, the trackers spread over the second.
    mutating func atRate(seconds: Int) {
        let n = fleet.count
        let total = n * seconds
        let start = monotonicNanoseconds() + 50_000_000
        func due(_ m: Int) -> Int64 { start + Int64(m / n) * 1_000_000_000 + Int64(m % n) * 1_000_000_000 / Int64(n) }
        let cpu0 = cpu()
        let acknowledged0 = fleet.acknowledged, arrived0 = count.arrived, wakeUps0 = fleet.wakeUps
        let service0 = fleet.serviceCPUNanoseconds
        var m = 0
        var nextDrain = start
        let deadline = start + Int64(seconds + 30) * 1_000_000_000
        while monotonicNanoseconds() < deadline {
            let now = monotonicNanoseconds()
            while m < total && due(m) <= now { fleet.append(tracker: m % n, newest: UInt64(m / n) + appended + 1); m += 1 }
            if now >= nextDrain { count.drain(); nextDrain = now + 50_000_000 }
            if m == total && fleet.acknowledged - acknowledged0 == UInt64(total) && count.arrived - arrived0 == total { break }
            let wait = m < total ? max(0, (due(m) - now + 999_999) / 1_000_000) : 20
            fleet.step(maxWaitMilliseconds: min(wait, 20))
        }
        count.drain()
        appended += UInt64(seconds)
        let cpu1 = cpu()
        let wall = Double(monotonicNanoseconds() - start) / 1e9
        let acknowledged = Int(fleet.acknowledged - acknowledged0), arrived = count.arrived - arrived0
        report("at 1 position/s each for \(seconds) s", messages: total, acknowledged: acknowledged, arrived: arrived)
        out("  offered \(n) messages/s; harness \(percent(cpu1.harness - cpu0.harness, wall)) of one core "
            + "(\(micro(cpu1.harness - cpu0.harness, total)) µs/message over \(fleet.wakeUps - wakeUps0) wake-ups; in "
            + "MQTTUplinkClient.service \(micro(Double(fleet.serviceCPUNanoseconds - service0) / 1e9, total)) µs/message), mosquitto "
            + "\(percent(cpu1.broker - cpu0.broker, wall)) (\(micro(cpu1.broker - cpu0.broker, total)) µs/message), "
            + "mosquitto_sub \(percent(cpu1.consumer - cpu0.consumer, wall)); mosquitto RSS \(broker.process.memoryKiB.resident) KiB")
    }

    /// Phase 3: `perTracker` records appear in every journal at once; each tracker sends them as fast as
    /// its window of 16 unacknowledged messages lets it.
    mutating func flatOut(perTracker: Int) -> Figures {
        let n = fleet.count
        let total = n * perTracker
        let cpu0 = cpu()
        let acknowledged0 = fleet.acknowledged, arrived0 = count.arrived
        let service0 = fleet.serviceCPUNanoseconds
        let start = monotonicNanoseconds()
        for k in 0..<n { fleet.append(tracker: k, newest: appended + UInt64(perTracker)) }
        var acknowledgedAt = start, nextDrain = start
        while monotonicNanoseconds() - start < 300_000_000_000 {
            fleet.step(maxWaitMilliseconds: 20)
            let now = monotonicNanoseconds()
            if acknowledgedAt == start && fleet.acknowledged - acknowledged0 == UInt64(total) { acknowledgedAt = now }
            if now >= nextDrain { count.drain(); nextDrain = now + 20_000_000 }
            if acknowledgedAt != start && count.arrived - arrived0 == total { break }
        }
        count.drain()
        appended += UInt64(perTracker)
        let cpu1 = cpu()
        let delivered = Double(count.lastArrivalNanoseconds - start) / 1e9
        let acknowledged = Int(fleet.acknowledged - acknowledged0), arrived = count.arrived - arrived0
        report("flat out, \(perTracker) records each", messages: total, acknowledged: acknowledged, arrived: arrived)
        let figures = Figures(messages: total, seconds: delivered, publisherCPUSeconds: cpu1.harness - cpu0.harness,
                              brokerCPUSeconds: cpu1.broker - cpu0.broker, acknowledgedSeconds: Double(acknowledgedAt - start) / 1e9)
        out("  acknowledged \(rate(total, Double(acknowledgedAt - start) / 1e9)) messages/s, delivered \(rate(arrived, delivered)) "
            + "messages/s (last at \(fixed(delivered, 2)) s); harness \(micro(figures.publisherCPUSeconds, total)) µs/message (in "
            + "MQTTUplinkClient.service \(micro(Double(fleet.serviceCPUNanoseconds - service0) / 1e9, total))), "
            + "mosquitto \(micro(figures.brokerCPUSeconds, total)) µs/message (\(percent(figures.brokerCPUSeconds, delivered)) "
            + "of one core), mosquitto_sub \(percent(cpu1.consumer - cpu0.consumer, delivered)); mosquitto peak RSS "
            + "\(broker.process.memoryKiB.peak) KiB")
        return figures
    }

    /// Phase 4, the peer: `mosquitto_pub -q 1 -l` sends `messages` lines (the fleet's payloads, `seq` 1…)
    /// on one connection, in runs of at most 50 000 lines: mosquitto_pub 2.0.11 exits at the PUBACK whose
    /// packet id equals its last message's, so past 65 535 messages it stops a wrap early.
    mutating func peer(messages: Int) -> Figures {
        let chunk = 50_000
        var inputs: [String] = []
        var first = 1
        var shortest = Int.max, longest = 0
        while first <= messages {
            let last = min(messages, first + chunk - 1)
            var text: [UInt8] = []
            text.reserveCapacity((last - first + 1) * 240)
            FleetTrackers.payloadLines(tracker: 0, sequences: UInt64(first)...UInt64(last), into: &text)
            for line in text.split(separator: 0x0A) { shortest = min(shortest, line.count); longest = max(longest, line.count) }
            let input = broker.directory + "/peer-\(inputs.count).txt"
            if let f = fopen(input, "w") { _ = text.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }; fclose(f) }
            inputs.append(input)
            first = last + 1
        }
        let cpu0 = cpu()
        let arrived0 = count.peerArrived
        let start = monotonicNanoseconds()
        var publisherCPU = 0.0
        for input in inputs {
            guard let pub = FleetProcess(["mosquitto_pub", "-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-i", "fleet-peer",
                                          "-t", "puckd/peer/position", "-l"], outputPath: broker.directory + "/pub.out", inputPath: input)
            else {
                out("peer: cannot start mosquitto_pub (apt-get install mosquitto-clients)")
                clean = false
                return Figures(messages: messages, seconds: 0, publisherCPUSeconds: 0, brokerCPUSeconds: 0, acknowledgedSeconds: 0)
            }
            while true {
                usleep(10_000)
                count.drain()
                if let cpu = pub.exitedCPUSeconds() { publisherCPU += cpu; break }
            }
        }
        let exitedAt = monotonicNanoseconds()
        while count.peerArrived - arrived0 < messages && monotonicNanoseconds() - max(count.lastArrivalNanoseconds, exitedAt) < 3_000_000_000 {
            usleep(20_000)
            count.drain()
        }
        let cpu1 = cpu()
        let arrived = count.peerArrived - arrived0
        let delivered = Double(count.lastArrivalNanoseconds - start) / 1e9
        let complete = arrived == messages && count.peerExpectedNext == UInt64(messages) + 1
        if !complete { clean = false }
        let figures = Figures(messages: messages, seconds: delivered, publisherCPUSeconds: publisherCPU,
                              brokerCPUSeconds: cpu1.broker - cpu0.broker, acknowledgedSeconds: Double(exitedAt - start) / 1e9)
        out("peer, mosquitto_pub -q 1 -l (\(inputs.count) run\(inputs.count == 1 ? "" : "s") of ≤ \(chunk) on one connection each): "
            + "\(messages) messages (payloads \(shortest)–\(longest) B), delivered \(arrived) (\(complete ? "in order, none missing" : "FAILED: not all, or out of order")) in "
            + "\(fixed(delivered, 2)) s: \(rate(arrived, delivered)) messages/s; it exited after \(fixed(figures.acknowledgedSeconds, 2)) s; "
            + "mosquitto_pub \(micro(figures.publisherCPUSeconds, messages)) µs/message, mosquitto "
            + "\(micro(figures.brokerCPUSeconds, messages)) µs/message, mosquitto_sub \(percent(cpu1.consumer - cpu0.consumer, delivered))")
        return figures
    }

    /// The fleet against the peer, same message count and payloads, as ratios.
    func ratios(_ fleetFigures: Figures, _ peer: Figures) {
        out("-- ratios, flat out vs the peer (same \(fleetFigures.messages) messages; > 1: the fleet is better) --")
        out("delivered messages/s, \(fleet.count) connections vs mosquitto_pub on one: "
            + "\(ratio(peer.seconds, fleetFigures.seconds)) x")
        out("published and acknowledged messages/s (the peer: until mosquitto_pub exited): "
            + "\(ratio(peer.acknowledgedSeconds, fleetFigures.acknowledgedSeconds)) x")
        out("publisher CPU per message, mosquitto_pub / harness (\(fleet.count) MQTTUplinkClients): "
            + "\(ratio(peer.publisherCPUSeconds, fleetFigures.publisherCPUSeconds)) x")
        out("broker CPU per message, under mosquitto_pub / under the fleet: "
            + "\(ratio(peer.brokerCPUSeconds, fleetFigures.brokerCPUSeconds)) x")
        out("consumer check: \(count.gaps) gaps, \(count.duplicates) duplicates over all trackers; "
            + "\(count.trackersShort(of: appended)) trackers missing their last records")
    }

    private mutating func report(_ phase: String, messages: Int, acknowledged: Int, arrived: Int) {
        let ok = acknowledged == messages && arrived == messages && count.gaps == 0 && count.duplicates == 0
            && count.trackersShort(of: appended) == 0
        if !ok { clean = false }
        out("\(phase): \(messages) messages published, \(acknowledged) acknowledged (PUBACK), \(arrived) delivered to "
            + "mosquitto_sub; per tracker \(count.gaps) gaps, \(count.duplicates) duplicates\(ok ? "" : " — FAILED")")
    }

    private func out(_ line: String) { StandardStreams.out(line + "\n") }
    private func percent(_ cpu: Double, _ wall: Double) -> String { fixed(wall > 0 ? cpu / wall * 100 : 0, 1) + " %" }
    private func micro(_ cpu: Double, _ messages: Int) -> String { fixed(messages > 0 ? cpu / Double(messages) * 1e6 : 0, 1) }
    private func rate(_ messages: Int, _ seconds: Double) -> String { fixed(seconds > 0 ? Double(messages) / seconds : 0, 0) }
    private func ratio(_ a: Double, _ b: Double) -> String { fixed(b > 0 ? a / b : 0, 2) }
}
