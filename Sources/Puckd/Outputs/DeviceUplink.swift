import Configuration
import Console
import SystemCalls
import Uplink
import UplinkClient

/// What one service of the uplinks did, for the router.
struct UplinkComponentEvents: OptionSet {
    let rawValue: UInt8
    /// An uplink's fault (connection or backlog age) was set, changed or cleared.
    static let faultChanged = UplinkComponentEvents(rawValue: 1)
}

/// The fleet uplinks as a part of the loop (docs/uplink.md §9): an MQTT 3.1.1 client (`[uplink]
/// mqtt_url`) and an OsmAnd HTTP client for Traccar (`[uplink] osmand_url`), either or both, each a
/// `DeviceUplinkChannel` with its own poll slots (four reserved: a client's socket, its name lookup's
/// eventfd), deadline, backoff, cursor file
/// (`<track dir>/mqtt.cursor`, `osmand.cursor`) and fault, both fed from the track journal's durable
/// records under the same forwarder, rate and backlog rules.
final class DeviceUplink: LoopComponent {
    let mqtt: DeviceUplinkChannel<MQTTUplinkClient>?
    let osmand: DeviceUplinkChannel<OsmAndUplinkClient>?
    let slots: PollSlots
    /// Start-up lines (where each connects, the cursor found) and why one is off when configured but unusable.
    let reportLines: [String]
    let degradations: [String]

    /// Builds the uplinks from `[uplink]` at start-up (allocates: resolves the hosts, reads the password
    /// file, loads the cursors). Each is off when its URL is empty or `[track]` is off.
    init(_ settings: UplinkSettings, track: TrackSettings, stateDirectory: String, machineID: String?, slots: PollSlots,
         output: DeviceOutput) {
        self.slots = slots
        var report: [String] = [], degraded: [String] = []
        let deviceID = settings.resolvedDeviceID(machineID: machineID)
        let directory = track.resolvedDirectory(stateDirectory: stateDirectory)
        func off(_ why: String) {
            report.append("uplink: off (" + why + ")")
            degraded.append("no fleet uplink: " + why)
        }
        var built: (DeviceUplinkChannel<MQTTUplinkClient>?, DeviceUplinkChannel<OsmAndUplinkClient>?) = (nil, nil)
        if settings.mqttURL.isEmpty && settings.osmandURL.isEmpty {
            report.append("uplink: off ([uplink] mqtt_url and osmand_url are empty)")
        } else if !track.enabled {
            off("the uplink sends from the track journal and [track] enabled = false")
        } else {
            if !settings.mqttURL.isEmpty {
                switch Self.mqttChannel(settings, deviceID: deviceID, directory: directory, slot: slots[0], lookupSlot: slots[2], output: output, report: &report) {
                case .success(let channel): built.0 = channel
                case .failure(let why): off("MQTT: " + why.text)
                }
            }
            if !settings.osmandURL.isEmpty {
                switch Self.osmandChannel(settings, deviceID: deviceID, directory: directory, slot: slots[1], lookupSlot: slots[3], output: output, report: &report) {
                case .success(let channel): built.1 = channel
                case .failure(let why): off("OsmAnd: " + why.text)
                }
            }
        }
        (mqtt, osmand) = built
        reportLines = report
        degradations = degraded
    }

    var isEnabled: Bool { mqtt != nil || osmand != nil }
    var isFaulted: Bool { mqtt?.isFaulted == true || osmand?.isFaulted == true }

    /// The journal's last durable record (the router's input after each wake-up; nil: empty journal).
    func publish(durableSequence: UInt64?, nowNanoseconds now: Int64) {
        guard let durableSequence else { return }
        mqtt?.publish(durableSequence: durableSequence, nowNanoseconds: now)
        osmand?.publish(durableSequence: durableSequence, nowNanoseconds: now)
    }

    func fillPollSlots(_ poll: inout PollSet) {
        if let mqtt { mqtt.fillPollSlots(&poll) } else { poll.set(slots[0], descriptor: nil, events: []); poll.set(slots[2], descriptor: nil, events: []) }
        if let osmand { osmand.fillPollSlots(&poll) } else { poll.set(slots[1], descriptor: nil, events: []); poll.set(slots[3], descriptor: nil, events: []) }
    }

    var deadlineNanoseconds: Int64? { WakeScheduler.earliest(mqtt?.deadlineNanoseconds, osmand?.deadlineNanoseconds) }

    /// Services each uplink whose socket or lookup slot is ready or whose deadline passed.
    func service(nowNanoseconds now: Int64, ready: PollReadiness) -> UplinkComponentEvents {
        var events: UplinkComponentEvents = []
        if let mqtt, ready.isReady(mqtt.slot) || ready.isReady(mqtt.lookupSlot) || now >= mqtt.deadlineNanoseconds ?? .max {
            if mqtt.service(nowNanoseconds: now, ready: ready) { events.insert(.faultChanged) }
        }
        if let osmand, ready.isReady(osmand.slot) || ready.isReady(osmand.lookupSlot) || now >= osmand.deadlineNanoseconds ?? .max {
            if osmand.service(nowNanoseconds: now, ready: ready) { events.insert(.faultChanged) }
        }
        return events
    }

    /// Shutdown: each client's clean stop (MQTT: retained `offline`, DISCONNECT) and its cursor saved.
    func close(nowNanoseconds now: Int64) -> [String] {
        [mqtt?.close(nowNanoseconds: now), osmand?.close(nowNanoseconds: now)].compactMap { $0 }
    }

    /// The `mqtt` and `osmand` rows of `status`, their faults, and the `uplink` view.
    func fillSnapshot(_ d: inout ConsoleDeviceState, nowNanoseconds now: Int64) {
        mqtt?.fillSnapshot(&d)
        osmand?.fillSnapshot(&d)
        if let mqtt { mqtt.fillView(&d.uplink.mqtt) } else { d.uplink.mqtt = ConsoleUplinkState() }
        if let osmand { osmand.fillView(&d.uplink.osmand) } else { d.uplink.osmand = ConsoleUplinkState() }
    }

    /// The `uplink.mqtt.*` and `uplink.osmand.*` rows of `stats`.
    func appendStats(to t: inout ConsoleCounterTable) {
        mqtt?.appendStats(to: &t)
        osmand?.appendStats(to: &t)
    }
}
