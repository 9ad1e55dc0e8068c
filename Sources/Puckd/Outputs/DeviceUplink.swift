import Configuration
import Console
import SystemCalls
import TLS
import TrackLog
import Uplink
import UplinkClient

/// What one service of the uplink did, for the router.
struct UplinkComponentEvents: OptionSet {
    let rawValue: UInt8
    /// The uplink's fault (connection or backlog age) was set, changed or cleared.
    static let faultChanged = UplinkComponentEvents(rawValue: 1)
}

/// The fleet uplink as a part of the loop (docs/uplink.md §9): an MQTT 3.1.1 client (`[uplink]
/// mqtt_url`) that sends the track journal's durable records, newest first and the backlog oldest
/// first, with its cursor in `<track dir>/mqtt.cursor` (saved at most every 5 s and at shutdown; a
/// crash re-sends, never skips). The rate filter (`interval_s`, `min_distance_m`) is decided per record
/// in journal order. A failure is said once with what to do; the fault LED lights while the connection
/// fails or the oldest unsent position is older than `backlog_max_age_s`. One poll slot.
final class DeviceUplink: LoopComponent {
    let client: MQTTUplinkClient?
    let feed: UplinkJournalFeed?
    let cursorStore: UplinkCursorStore?
    let slot: Int
    let output: DeviceOutput
    let descriptionText: ConsoleText
    let maximumAgeNanoseconds: Int64
    /// Start-up lines (where it connects, the cursor found) and why it is off when configured but unusable.
    private(set) var reportLines: [String] = []
    private(set) var degradation: String?
    private(set) var faultText = ConsoleText()
    private(set) var faultsRaised: UInt64 = 0
    private(set) var cursorSaveFailures: UInt64 = 0
    private var cursorSaveError: Errno?
    /// The backlog is older than the limit (part of the fault).
    private(set) var backlogTooOld = false
    private var saidFault: UplinkFault?
    private var saidWords = ""
    private var durablePosition: UInt64 = 0
    private var ageCheckedCursor: UInt64 = .max
    /// New records were handed to the forwarder since the last service: it runs at this wake-up.
    private var newRecords = false

    /// Builds the uplink from `[uplink]` at start-up (allocates: resolves the host, reads the password
    /// file, loads the cursor). Off when `mqtt_url` is empty or `[track]` is off.
    init(_ settings: UplinkSettings, track: TrackSettings, stateDirectory: String, machineID: String?, slot: Int,
         output: DeviceOutput) {
        self.slot = slot
        self.output = output
        maximumAgeNanoseconds = Int64(settings.backlogMaximumAgeSeconds * 1e9)
        var report: [String] = [], degraded: String?
        let built: (MQTTUplinkClient?, UplinkJournalFeed?, UplinkCursorStore?)
        let deviceID = settings.resolvedDeviceID(machineID: machineID)
        if settings.mqttURL.isEmpty {
            report.append("uplink: off ([uplink] mqtt_url is empty)")
            built = (nil, nil, nil)
        } else if !track.enabled {
            let why = "the uplink sends from the track journal and [track] enabled = false"
            report.append("uplink: off (" + why + ")")
            degraded = "no fleet uplink: " + why
            built = (nil, nil, nil)
        } else {
            built = Self.build(settings, deviceID: deviceID, directory: track.resolvedDirectory(stateDirectory: stateDirectory),
                               report: &report, degradation: &degraded)
        }
        reportLines = report
        degradation = degraded
        (client, feed, cursorStore) = built
        descriptionText = client == nil ? ConsoleText("off") : ConsoleText(string: settings.mqttURL + " as " + deviceID)
    }

    private static func build(_ settings: UplinkSettings, deviceID: String, directory: String, report: inout [String],
                              degradation: inout String?) -> (MQTTUplinkClient?, UplinkJournalFeed?, UplinkCursorStore?) {
        func fail(_ why: String) -> (MQTTUplinkClient?, UplinkJournalFeed?, UplinkCursorStore?) {
            report.append("uplink: off (" + why + ")")
            degradation = "no fleet uplink: " + why
            return (nil, nil, nil)
        }
        guard case .success(let url) = MQTTBrokerURL.parse(settings.mqttURL) else { return fail("[uplink] mqtt_url is not usable") }
        let address: SocketAddress
        switch SocketAddress.resolve(url.host, port: UInt16(url.port)) {
        case .success(let found) where !found.isEmpty: address = found[0]
        case .success: return fail("host " + url.host + " has no address; check [uplink] mqtt_url and /etc/hosts or DNS")
        case .failure(let e):
            return fail("host " + url.host + " not found (" + e.message + "); check [uplink] mqtt_url and the resolver; "
                + "the name is looked up at start-up only")
        }
        var password: String?
        if !settings.mqttPasswordFile.isEmpty {
            let path = settings.mqttPasswordFile
            do throws(WholeFile.Failure) {
                let bytes = try WholeFile.read(path, limitBytes: 4096,
                                               trust: FileTrust(secretName: "the MQTT password", purpose: "read or replace the broker password"))
                var line = bytes.prefix { $0 != 0x0A }
                while let last = line.last, last == 0x0D { line.removeLast() }
                password = String(decoding: line, as: UTF8.self)
            } catch {
                let reason = switch error {
                case .cannotOpen(let code): "cannot open it (" + code.message + ")"
                case .notRegular: "not a regular file"
                case .cannotRead(let code): "cannot read it (" + code.message + ")"
                case .tooLarge: "larger than 4 KiB: not a password file"
                case .untrusted(let why): "refused: " + why
                }
                return fail("[uplink] mqtt_password_file " + path + ": " + reason)
            }
        }
        let security: StreamSecurity
        switch DeviceUplinkTLS.security(settings, url: url, report: &report) {
        case .success(let s): security = s
        case .failure(let why): return fail(why.message)
        }
        let store: UplinkCursorStore
        do throws(Errno) { store = try UplinkCursorStore(directory: directory, name: "mqtt") } catch {
            return fail("cannot open the cursor's directory " + directory + " (" + error.message + ")")
        }
        var cursor: UInt64 = 0
        switch store.load() {
        case .none: report.append("uplink: no cursor yet in " + store.path + ": the whole journal is sent")
        case .cursor(let c):
            cursor = c
            report.append("uplink: cursor " + String(c) + " read from " + store.path + " (records from sequence "
                + String(c) + " on are sent)")
        case .corrupt: report.append("uplink: " + store.path + " is damaged: the whole journal is sent again (duplicates, no gap)")
        }
        var mqtt = MQTTUplinkSettings(address: address, deviceIdentifier: deviceID, username: url.user, password: password,
                                      positionTopic: settings.resolvedTopic(deviceID: deviceID),
                                      backlogLimitRecords: UInt64(settings.backlogLimitRecords))
        mqtt.security = security
        // A flush hands over up to flush_interval_s of fixes at once: those go in order (docs/uplink.md §5).
        mqtt.inOrderSpanRecords = 256
        let seed = UInt64(truncatingIfNeeded: SystemClock.realtimeNanoseconds()) ^ 0x9E37_79B9_7F4A_7C15
        let client = MQTTUplinkClient(settings: mqtt, cursor: cursor, seed: seed)
        let filter = UplinkRateFilter(intervalSeconds: settings.intervalSeconds, minimumDistanceMeters: settings.minimumDistanceMeters)
        let feed = UplinkJournalFeed(journal: JournalRecordSource(directory: directory), filter: filter, cursor: cursor,
                                     ringRecords: UInt64(settings.backlogLimitRecords))
        report.append("uplink: MQTT 3.1.1 to " + settings.mqttURL + ", client id puckd-" + deviceID + ", topic "
            + settings.resolvedTopic(deviceID: deviceID) + (filter.reportsEveryFix ? ", every fix"
            : ", at most every " + String(settings.intervalSeconds) + " s / " + String(settings.minimumDistanceMeters) + " m"))
        return (client, feed, store)
    }

    var isEnabled: Bool { client != nil }
    var isFaulted: Bool { client?.fault != nil || backlogTooOld || cursorSaveError != nil }

    /// The journal's last durable record and the newest record's UTC (the router's input after each
    /// flush; nil: empty journal). The backlog's age is judged here, in journal time (the oldest unsent
    /// record's UTC against the newest one's), so a replayed old drive is not "old".
    func publish(durableSequence: UInt64?, newestUTCNanoseconds newest: Int64?, nowNanoseconds now: Int64) {
        guard let client, let feed, let durableSequence else { return }
        let position = UplinkJournalFeed.position(ofSequence: durableSequence)
        var moved = false
        if position > durablePosition {
            durablePosition = position
            moved = true
            newRecords = true
            client.appended(newest: feed.decide(throughPosition: position, cursor: client.forwarder.cursor))
        }
        // The age is judged again only when the journal or the cursor moved (one pread then).
        guard moved || client.forwarder.cursor != ageCheckedCursor else { return }
        ageCheckedCursor = client.forwarder.cursor
        let tooOld = newest.flatMap { oldestUnsentAgeNanoseconds(newestUTCNanoseconds: $0) }.map { $0 > maximumAgeNanoseconds } ?? false
        if tooOld != backlogTooOld {
            backlogTooOld = tooOld
            sayFault()
        }
    }

    func fillPollSlots(_ poll: inout PollSet) {
        poll.set(slot, descriptor: client?.descriptor, events: client?.pollEvents ?? [])
    }

    var deadlineNanoseconds: Int64? {
        guard let client, let cursorStore, let feed else { return nil }
        var due = WakeScheduler.earliest(client.deadlineNanoseconds, cursorStore.deadlineNanoseconds(cursor: client.forwarder.cursor))
        // A long backlog still being decided by the rate filter: the next batch at the next wake-up.
        if feed.decidedThrough < durablePosition || newRecords { due = WakeScheduler.earliest(due, 0) }
        return due
    }

    func service(nowNanoseconds now: Int64, ready: PollReadiness) -> UplinkComponentEvents {
        guard let client, let feed, let cursorStore else { return [] }
        if feed.decidedThrough < durablePosition {
            client.appended(newest: feed.decide(throughPosition: durablePosition, cursor: client.forwarder.cursor))
        }
        newRecords = false
        let isReady = ready.isReady(slot)
        var source = feed
        let changes = client.service(nowNanoseconds: now, readable: isReady, writable: isReady, source: &source)
        var events: UplinkComponentEvents = []
        let error = cursorStore.save(client.forwarder.cursor, nowNanoseconds: now)
        if error != cursorSaveError {
            if error != nil { cursorSaveFailures &+= 1 }
            cursorSaveError = error
            events.insert(.faultChanged)
        }
        if changes.faultChanged || !events.isEmpty {
            sayFault()
            events.insert(.faultChanged)
        }
        return events
    }

    /// Journal time between the oldest record not yet acknowledged and `newest`, nil when none waits.
    func oldestUnsentAgeNanoseconds(newestUTCNanoseconds newest: Int64) -> Int64? {
        guard let client, let feed, client.forwarder.backlog > 0 else { return nil }
        let oldest = UplinkJournalFeed.sequence(ofPosition: client.forwarder.cursor + 1)
        guard let record = feed.journal.record(sequence: oldest), let time = record.utcNanoseconds else { return nil }
        return newest - time
    }

    /// Says the fault now (or its end), once per change; allocates then only.
    private func sayFault() {
        let connection = client?.fault
        var words = ""
        if let connection { words = connection.message }
        if backlogTooOld {
            words += (words.isEmpty ? "" : "; ") + "the oldest unsent position is older than [uplink] backlog_max_age_s"
        }
        if let e = cursorSaveError { words += (words.isEmpty ? "" : "; ") + "cannot save the cursor (" + e.message + ")" }
        guard connection != saidFault || words != saidWords else { return }
        saidFault = connection
        saidWords = words
        if words.isEmpty {
            if !faultText.isEmpty { output.line { out in out.append("uplink: connected, sending again") } }
            faultText = ConsoleText()
        } else {
            faultsRaised &+= 1
            faultText = ConsoleText(string: words)
            output.line(.warning) { out in
                out.append("uplink: ")
                out.append(string: words)
            }
        }
    }

    /// Shutdown: retained `offline`, DISCONNECT, and the cursor saved whatever the interval.
    func close(nowNanoseconds now: Int64) -> String? {
        guard let client, let cursorStore else { return nil }
        client.shutdown(nowNanoseconds: now)
        let cursor = client.forwarder.cursor
        if let error = cursorStore.save(cursor, nowNanoseconds: now, force: true) {
            return "uplink: cannot save the cursor " + String(cursor) + " (" + error.message + "): up to 5 s of positions are sent again"
        }
        return "uplink: cursor " + String(cursor) + " in " + cursorStore.path + ", " + String(client.forwarder.backlog)
            + " records not yet acknowledged"
    }

    /// The `uplink` row of `status` and its fault.
    func fillSnapshot(_ d: inout ConsoleDeviceState, nowNanoseconds now: Int64) {
        guard let client else { return }
        let state: StaticString = client.phase == .open && client.session.phase == .connected ? "connected"
            : (client.phase == .connecting ? "connecting" : "waiting")
        d.sources.set(ConsoleSource(name: "uplink", description: descriptionText, state: state, isHealthy: !isFaulted))
        if isFaulted { d.faults.append(ConsoleFault(source: "uplink", reason: faultText)) }
    }

    /// The `uplink.*` rows of `stats`.
    func appendStats(to t: inout ConsoleCounterTable) {
        guard let client, let feed else { return }
        let f = client.forwarder
        t.append("uplink.connections", Int64(truncatingIfNeeded: client.connections))
        t.append("uplink.attempts", Int64(truncatingIfNeeded: client.attempts))
        t.append("uplink.messagesSent", Int64(truncatingIfNeeded: client.messagesSent))
        t.append("uplink.acknowledged", Int64(truncatingIfNeeded: f.acknowledgedCount))
        t.append("uplink.cursor", Int64(truncatingIfNeeded: f.cursor))
        t.append("uplink.backlog", Int64(truncatingIfNeeded: f.backlog))
        t.append("uplink.inFlight", Int64(f.inFlightCount))
        t.append("uplink.resent", Int64(truncatingIfNeeded: f.resent))
        t.append("uplink.droppedByLimit", Int64(truncatingIfNeeded: f.droppedByLimit))
        t.append("uplink.filtered", Int64(truncatingIfNeeded: feed.filtered))
        t.append("uplink.faults", Int64(truncatingIfNeeded: faultsRaised))
        t.append("uplink.cursorSaveFailures", Int64(truncatingIfNeeded: cursorSaveFailures))
    }
}
