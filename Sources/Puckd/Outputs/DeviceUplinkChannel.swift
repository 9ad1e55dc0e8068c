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
/// (rate filter), its cursor file (written on the store's worker), its server-name lookup (on the
/// resolver's worker: the client connects once it has an address), its poll slot, deadline and fault. The records handed to it are the
/// journal's durable ones; the cursor is saved at most every 5 s and at shutdown. A failure is said once
/// with what to do; the fault LED lights while the connection fails or the oldest unsent position has
/// waited longer than `backlog_max_age_s` since it was on disk (monotonic time). Allocates in `init` and when its fault changes only.
final class DeviceUplinkChannel<Client: UplinkConnection> {
    let client: Client
    let feed: UplinkJournalFeed
    let cursorStore: UplinkCursorStore
    /// The server's name looked up off the loop (the client connects once it has an address).
    var lookup: UplinkAddressLookup
    let slot: Int
    /// The slot of the name lookup's eventfd (readable once the resolver's worker has an answer).
    let lookupSlot: Int
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
    private var saidConnectionFault = false
    private var saidTooOld = false
    private var saidCursorError: Errno?
    private var durablePosition: UInt64 = 0
    /// When durable positions were first seen (monotonic; a ring of 64 samples).
    private var samplePositions = InlineArray<64, UInt64>(repeating: 0)
    private var sampleTimes = InlineArray<64, Int64>(repeating: 0)
    private var sampleStart = 0, sampleCount = 0
    /// New records were handed to the forwarder since the last service: it runs at this wake-up.
    private var newRecords = false
    private var lastNowNanoseconds: Int64 = 0
    private var saidLookupError: ResolveError?

    init(client: Client, feed: UplinkJournalFeed, cursorStore: UplinkCursorStore, lookup: UplinkAddressLookup, slot: Int, lookupSlot: Int,
         name: StaticString, rows: UplinkRowNames, output: DeviceOutput, url: String, maximumAgeSeconds: Double) {
        self.client = client
        self.feed = feed
        self.cursorStore = cursorStore
        self.lookup = lookup
        self.slot = slot
        self.lookupSlot = lookupSlot
        self.name = name
        self.rows = rows
        self.output = output
        urlText = ConsoleText(string: url)
        maximumAgeNanoseconds = Int64(maximumAgeSeconds * 1e9)
    }

    var isFaulted: Bool { client.fault != nil || backlogTooOld || cursorSaveError != nil || lookup.error != nil }

    /// The journal's last durable record (the router's input after each wake-up), and the backlog's age
    /// judged again: raised past `backlog_max_age_s`, cleared below half of it or when nothing waits.
    func publish(durableSequence: UInt64, nowNanoseconds now: Int64) {
        let position = UplinkJournalFeed.position(ofSequence: durableSequence)
        if position > durablePosition {
            durablePosition = position
            newRecords = true
            noteDurable(position, now)
            client.appended(newest: feed.decide(throughPosition: position, cursor: client.forwarder.cursor))
        }
        let age = oldestUnsentAgeNanoseconds(nowNanoseconds: now)
        let tooOld = age.map { backlogTooOld ? $0 > maximumAgeNanoseconds / 2 : $0 > maximumAgeNanoseconds } ?? false
        if tooOld != backlogTooOld {
            backlogTooOld = tooOld
            sayFault()
        }
    }

    /// Keeps (position, time) when the durable position moved, at most one sample per 1/32 of the age
    /// limit, so the 64 samples span twice the limit.
    private func noteDurable(_ position: UInt64, _ now: Int64) {
        let capacity = 64
        if sampleCount > 0 && now - sampleTimes[(sampleStart + sampleCount - 1) % capacity] < maximumAgeNanoseconds / 32 { return }
        if sampleCount == capacity { sampleStart = (sampleStart + 1) % capacity; sampleCount -= 1 }
        let k = (sampleStart + sampleCount) % capacity
        samplePositions[k] = position
        sampleTimes[k] = now
        sampleCount += 1
    }

    /// How long (monotonic time) the oldest record not yet acknowledged has been durable, nil when none
    /// waits: the time of the first sample at or past it (records from before this run count from the
    /// first wake-up, whose sample covers them — the rule and why: docs/uplink.md §9; a record newer than
    /// the last sample counts as new).
    func oldestUnsentAgeNanoseconds(nowNanoseconds now: Int64) -> Int64? {
        guard client.forwarder.backlog > 0 else { return nil }
        let oldest = client.forwarder.cursor + 1
        var k = 0
        while k < sampleCount {
            let index = (sampleStart + k) % 64
            if samplePositions[index] >= oldest { return now - sampleTimes[index] }
            k += 1
        }
        return 0
    }

    func fillPollSlots(_ poll: inout PollSet) {
        poll.set(slot, descriptor: client.descriptor, events: client.pollEvents)
        poll.set(lookupSlot, descriptor: lookup.wakeDescriptor, events: .readable)
    }

    var deadlineNanoseconds: Int64? {
        var due = WakeScheduler.earliest(lookup.hasAddress ? client.deadlineNanoseconds : nil,
                                         cursorStore.deadlineNanoseconds(cursor: client.forwarder.cursor))
        due = WakeScheduler.earliest(due, lookup.deadlineNanoseconds(lastNowNanoseconds: lastNowNanoseconds))
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
        lastNowNanoseconds = now
        var changed = lookup.service(client, nowNanoseconds: now)
        let isReady = ready.isReady(slot)
        var source = feed
        // Without an address the client waits (no connect); the positions wait in the journal.
        let changes = lookup.hasAddress ? client.service(nowNanoseconds: now, readable: isReady, writable: isReady, source: &source)
            : UplinkClientEvents()
        if lookup.afterService(client) { changed = true }
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

    /// Says each part of the fault (the connection's, the backlog's age, the cursor file's) once when it
    /// starts or ends, and sets the console's reason; allocates then only.
    private func sayFault() {
        let connection = client.fault
        if connection != saidFault {
            saidFault = connection
            if let message = client.faultMessage { say(message) } else if saidConnectionFault { say(nil, "delivering again") }
            saidConnectionFault = connection != nil
        }
        if backlogTooOld != saidTooOld {
            saidTooOld = backlogTooOld
            if backlogTooOld { say("the oldest unsent position is older than [uplink] backlog_max_age_s") } else {
                say(nil, "the backlog is within [uplink] backlog_max_age_s again")
            }
        }
        if lookup.error != saidLookupError {
            saidLookupError = lookup.error
            if let message = lookup.faultMessage { say(message) } else { say(nil, "the server's name resolves again") }
        }
        if cursorSaveError != saidCursorError {
            saidCursorError = cursorSaveError
            if let e = cursorSaveError { say("cannot save the cursor in " + cursorStore.path + " (" + e.message + ")") } else {
                say(nil, "the cursor is saved again")
            }
        }
        // The backlog's age first: the console's reason keeps 120 bytes, the log line has it all.
        var words = backlogTooOld ? "the oldest unsent position is older than [uplink] backlog_max_age_s" : ""
        if let message = lookup.faultMessage { words += (words.isEmpty ? "" : "; ") + message }
        if let message = client.faultMessage { words += (words.isEmpty ? "" : "; ") + message }
        if let e = cursorSaveError { words += (words.isEmpty ? "" : "; ") + "cannot save the cursor (" + e.message + ")" }
        faultText = words.isEmpty ? ConsoleText() : ConsoleText(string: words)
    }

    /// One log line `uplink NAME: …`: a warning (a fault raised, counted, kept as the last error) or news.
    private func say(_ fault: String?, _ news: String = "") {
        if let fault {
            faultsRaised &+= 1
            lastErrorText = ConsoleText(string: fault)
        }
        let words = fault ?? news
        output.line(fault == nil ? .info : .warning) { out in
            out.append("uplink ")
            out.append(name)
            out.append(": ")
            out.append(string: words)
        }
    }

    /// Shutdown: the client's clean stop, and the cursor saved whatever the interval.
    func close(nowNanoseconds now: Int64) -> String {
        lookup.stop()
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
        if !lookup.hasAddress { return lookup.inFlight ? "resolving" : "waiting" }
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
