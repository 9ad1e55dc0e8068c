import Console
import SystemCalls
import TrackLog
import Uplink
import UplinkClient

/// The `stats` row names of one uplink (`uplink.mqtt.*`, `uplink.osmand.*`).
struct UplinkRowNames {
    let connections, attempts, messagesSent, acknowledged, cursor, backlog, inFlight, resent, droppedByLimit, filtered,
        faults, cursorSaveFailures: StaticString

    static let mqtt = UplinkRowNames(
        connections: "uplink.mqtt.connections", attempts: "uplink.mqtt.attempts", messagesSent: "uplink.mqtt.messagesSent",
        acknowledged: "uplink.mqtt.acknowledged", cursor: "uplink.mqtt.cursor", backlog: "uplink.mqtt.backlog",
        inFlight: "uplink.mqtt.inFlight", resent: "uplink.mqtt.resent", droppedByLimit: "uplink.mqtt.droppedByLimit",
        filtered: "uplink.mqtt.filtered", faults: "uplink.mqtt.faults", cursorSaveFailures: "uplink.mqtt.cursorSaveFailures")
    static let osmand = UplinkRowNames(
        connections: "uplink.osmand.connections", attempts: "uplink.osmand.attempts", messagesSent: "uplink.osmand.messagesSent",
        acknowledged: "uplink.osmand.acknowledged", cursor: "uplink.osmand.cursor", backlog: "uplink.osmand.backlog",
        inFlight: "uplink.osmand.inFlight", resent: "uplink.osmand.resent", droppedByLimit: "uplink.osmand.droppedByLimit",
        filtered: "uplink.osmand.filtered", faults: "uplink.osmand.faults", cursorSaveFailures: "uplink.osmand.cursorSaveFailures")
}

/// One fleet uplink of the device (MQTT or OsmAnd, docs/uplink.md §9): its client edge, its journal feed
/// (rate filter), its cursor file, its poll slot, deadline and fault. The records handed to it are the
/// journal's durable ones; the cursor is saved at most every 5 s and at shutdown. A failure is said once
/// with what to do; the fault LED lights while the connection fails or the oldest unsent position is
/// older than `backlog_max_age_s` (in journal time). Allocates in `init` and when its fault changes only.
final class DeviceUplinkChannel<Client: UplinkConnection> {
    let client: Client
    let feed: UplinkJournalFeed
    let cursorStore: UplinkCursorStore
    let slot: Int
    let name: StaticString
    let rows: UplinkRowNames
    let output: DeviceOutput
    /// The server's URL (never a password) and the device id it reports as.
    let urlText: ConsoleText
    let maximumAgeNanoseconds: Int64
    private(set) var faultText = ConsoleText()
    /// The last fault said, kept after it cleared (the `uplink` view's "last error").
    private(set) var lastErrorText = ConsoleText()
    private(set) var faultsRaised: UInt64 = 0
    private(set) var cursorSaveFailures: UInt64 = 0
    private var cursorSaveError: Errno?
    /// The backlog is older than the limit (part of the fault).
    private(set) var backlogTooOld = false
    private var saidFault: Client.Fault?
    private var saidWords = ""
    private var durablePosition: UInt64 = 0
    private var ageCheckedCursor: UInt64 = .max
    /// New records were handed to the forwarder since the last service: it runs at this wake-up.
    private var newRecords = false

    init(client: Client, feed: UplinkJournalFeed, cursorStore: UplinkCursorStore, slot: Int, name: StaticString, rows: UplinkRowNames,
         output: DeviceOutput, url: String, maximumAgeSeconds: Double) {
        self.client = client
        self.feed = feed
        self.cursorStore = cursorStore
        self.slot = slot
        self.name = name
        self.rows = rows
        self.output = output
        urlText = ConsoleText(string: url)
        maximumAgeNanoseconds = Int64(maximumAgeSeconds * 1e9)
    }

    var isFaulted: Bool { client.fault != nil || backlogTooOld || cursorSaveError != nil }

    /// The journal's last durable record and the newest record's UTC (after each wake-up).
    func publish(durableSequence: UInt64, newestUTCNanoseconds newest: Int64?) {
        let position = UplinkJournalFeed.position(ofSequence: durableSequence)
        var moved = false
        if position > durablePosition {
            durablePosition = position
            moved = true
            newRecords = true
            client.appended(newest: feed.decide(throughPosition: position, cursor: client.forwarder.cursor))
        }
        // The age is judged again only when the journal or the cursor moved (one pread then).
        let cursor = client.forwarder.cursor
        guard moved || cursor != ageCheckedCursor else { return }
        ageCheckedCursor = cursor
        let tooOld = newest.flatMap { oldestUnsentAgeNanoseconds(newestUTCNanoseconds: $0) }.map { $0 > maximumAgeNanoseconds } ?? false
        if tooOld != backlogTooOld {
            backlogTooOld = tooOld
            sayFault()
        }
    }

    func fillPollSlots(_ poll: inout PollSet) {
        poll.set(slot, descriptor: client.descriptor, events: client.pollEvents)
    }

    var deadlineNanoseconds: Int64? {
        var due = WakeScheduler.earliest(client.deadlineNanoseconds, cursorStore.deadlineNanoseconds(cursor: client.forwarder.cursor))
        // A long backlog still being decided by the rate filter: the next batch at the next wake-up.
        if feed.decidedThrough < durablePosition || newRecords { due = WakeScheduler.earliest(due, 0) }
        return due
    }

    /// One wake-up; true when its fault changed.
    func service(nowNanoseconds now: Int64, ready: PollReadiness) -> Bool {
        if feed.decidedThrough < durablePosition {
            client.appended(newest: feed.decide(throughPosition: durablePosition, cursor: client.forwarder.cursor))
        }
        newRecords = false
        let isReady = ready.isReady(slot)
        var source = feed
        let changes = client.service(nowNanoseconds: now, readable: isReady, writable: isReady, source: &source)
        var changed = false
        let error = cursorStore.save(client.forwarder.cursor, nowNanoseconds: now)
        if error != cursorSaveError {
            if error != nil { cursorSaveFailures &+= 1 }
            cursorSaveError = error
            changed = true
        }
        if changes.faultChanged || changed {
            sayFault()
            changed = true
        }
        return changed
    }

    /// Journal time between the oldest record not yet acknowledged and `newest`, nil when none waits.
    func oldestUnsentAgeNanoseconds(newestUTCNanoseconds newest: Int64) -> Int64? {
        guard client.forwarder.backlog > 0 else { return nil }
        let oldest = UplinkJournalFeed.sequence(ofPosition: client.forwarder.cursor + 1)
        guard let record = feed.journal.record(sequence: oldest), let time = record.utcNanoseconds else { return nil }
        return newest - time
    }

    /// Says the fault now (or its end), once per change; allocates then only.
    private func sayFault() {
        let connection = client.fault
        var words = client.faultMessage ?? ""
        if backlogTooOld {
            words += (words.isEmpty ? "" : "; ") + "the oldest unsent position is older than [uplink] backlog_max_age_s"
        }
        if let e = cursorSaveError { words += (words.isEmpty ? "" : "; ") + "cannot save the cursor (" + e.message + ")" }
        guard connection != saidFault || words != saidWords else { return }
        saidFault = connection
        saidWords = words
        if words.isEmpty {
            if !faultText.isEmpty {
                output.line { out in
                    out.append("uplink ")
                    out.append(name)
                    out.append(": delivering again")
                }
            }
            faultText = ConsoleText()
        } else {
            faultsRaised &+= 1
            faultText = ConsoleText(string: words)
            lastErrorText = faultText
            output.line(.warning) { out in
                out.append("uplink ")
                out.append(name)
                out.append(": ")
                out.append(string: words)
            }
        }
    }

    /// Shutdown: the client's clean stop, and the cursor saved whatever the interval.
    func close(nowNanoseconds now: Int64) -> String {
        client.shutdown(nowNanoseconds: now)
        let cursor = client.forwarder.cursor
        if let error = cursorStore.save(cursor, nowNanoseconds: now, force: true) {
            return "uplink " + name.description + ": cannot save the cursor " + String(cursor) + " (" + error.message
                + "): up to 5 s of positions are sent again"
        }
        return "uplink " + name.description + ": cursor " + String(cursor) + " in " + cursorStore.path + ", "
            + String(client.forwarder.backlog) + " records not yet acknowledged"
    }

    /// The state word of its `status` row and of the `uplink` view.
    var stateWord: StaticString {
        if client.isConnected { return "connected" }
        return client.isConnecting ? "connecting" : (client.forwarder.backlog == 0 && client.fault == nil ? "idle" : "waiting")
    }

    /// Its `status` row and its fault.
    func fillSnapshot(_ d: inout ConsoleDeviceState) {
        d.sources.set(ConsoleSource(name: name, description: urlText, state: stateWord, isHealthy: !isFaulted))
        if isFaulted { d.faults.append(ConsoleFault(source: name, reason: faultText)) }
    }

    /// Its `uplink.<name>.*` rows of `stats`.
    func appendStats(to t: inout ConsoleCounterTable) {
        let f = client.forwarder
        t.append(rows.connections, client.connections)
        t.append(rows.attempts, client.attempts)
        t.append(rows.messagesSent, client.messagesSent)
        t.append(rows.acknowledged, f.acknowledgedCount)
        t.append(rows.cursor, f.cursor)
        t.append(rows.backlog, f.backlog)
        t.append(rows.inFlight, Int64(f.inFlightCount))
        t.append(rows.resent, f.resent)
        t.append(rows.droppedByLimit, f.droppedByLimit)
        t.append(rows.filtered, feed.filtered)
        t.append(rows.faults, faultsRaised)
        t.append(rows.cursorSaveFailures, cursorSaveFailures)
    }
}

extension DeviceUplinkChannel {
    /// Its block of the `uplink` view.
    func fillView(_ v: inout ConsoleUplinkState) {
        let f = client.forwarder
        v.isEnabled = true
        v.url = urlText
        v.state = stateWord
        v.isHealthy = !isFaulted
        v.cursor = f.cursor
        v.backlog = f.backlog
        v.inFlight = f.inFlightCount
        v.lastAcknowledgedNanoseconds = client.lastAcknowledgedNanoseconds
        v.fault = isFaulted ? faultText : ConsoleText()
        v.lastError = lastErrorText
        v.connections = client.connections
        v.attempts = client.attempts
        v.sent = client.messagesSent
        v.acknowledged = f.acknowledgedCount
        v.resent = f.resent
        v.filtered = feed.filtered
        v.droppedByLimit = f.droppedByLimit
        v.faults = faultsRaised
    }
}
