import Console
import Hardware
import State

/// The state file as a loop component: the store (or why there is none), the dirty flag the router
/// sets when something worth keeping changed, the write intervals, and the write counters. It writes
/// at most every `state.save_interval_s`, keeps the state in memory while writes fail, and says
/// once when writing fails and once when it works again. As a `LoopComponent` it has no descriptor:
/// its deadline is the next allowed write while dirty, and its service asks the router for the record.
struct Persistence: LoopComponent {
    /// What a service call asks of the router.
    struct Events: OptionSet {
        let rawValue: UInt8
        /// A write is due: the router builds the record and hands it to `write`.
        static let recordWanted = Events(rawValue: 1)
    }

    let store: StateStore?
    /// The `state` source row's description (the state file, or the directory without a store).
    let descriptionText: ConsoleText
    /// Why the state cannot be saved (the directory is unusable), or nil.
    let problem: String?
    /// Something worth keeping changed since the last write.
    var dirty = false
    /// The last write failed (the state is kept in memory and retried).
    private(set) var writeFailed = false
    private(set) var nextWriteNanoseconds: Int64
    private var nextFixRefreshNanoseconds: Int64
    private(set) var writes: UInt64 = 0
    private(set) var writeFailures: UInt64 = 0
    /// The record found at start-up (nil: none, damaged or unreadable), and the report's lines about it.
    let saved: DeviceStateRecord?
    let reportLines: [String]

    /// Opens the store in `directory` and loads the record (start-up; allocates).
    init(directory: String, nowNanoseconds now: Int64) {
        var saved: DeviceStateRecord?
        var lines: [String] = []
        switch StateStore.open(directory: directory) {
        case .success(let store):
            self.store = store
            problem = nil
            switch store.load() {
            case .none:
                lines.append("state: " + store.path + ": none yet (first start), defaults apply")
            case .loaded(let record):
                saved = record
                lines.append("state: " + store.path + ": loaded (mode " + record.trackingMode.name.description
                    + (record.lastFix.map { ", last fix " + Device.coordinates($0) } ?? ", no fix yet")
                    + (record.calibration != nil ? ", magnetometer calibration" : ", no magnetometer calibration") + ")")
            case .corrupt(let error, let movedTo):
                lines.append("state: " + store.path + " is damaged (" + error.reason + "); "
                    + (movedTo.map { "moved it to " + $0 } ?? "could not move it aside") + "; starting from defaults")
            case .unreadable(let code, let movedTo):
                lines.append("state: cannot read " + store.path + " (" + code.message + "); "
                    + (movedTo.map { "moved it to " + $0 } ?? "could not move it aside") + "; starting from defaults")
            }
            if store.removedStaleTemporary {
                lines.append("state: removed " + store.directory + "/state.tmp, left by a save that was cut short "
                    + "(the state file itself is whole)")
            }
        case .failure(let error):
            store = nil
            problem = error.message
        }
        self.saved = saved
        reportLines = lines
        descriptionText = ConsoleText(string: store?.path ?? directory)
        nextWriteNanoseconds = now
        nextFixRefreshNanoseconds = now
    }

    /// A fix with a position arrived: the last fix is worth saving once per `intervalSeconds`.
    mutating func positionArrived(nowNanoseconds now: Int64, intervalSeconds: Double) {
        guard now >= nextFixRefreshNanoseconds else { return }
        nextFixRefreshNanoseconds = now + Int64(intervalSeconds * 1e9)
        dirty = true
    }

    /// True when a write is due at `now` (dirty, a store, the interval since the last write passed).
    func writeDue(nowNanoseconds now: Int64) -> Bool { dirty && store != nil && now >= nextWriteNanoseconds }

    /// The next allowed write while something is waiting to be written; nil when nothing is.
    var deadlineNanoseconds: Int64? { dirty && store != nil ? nextWriteNanoseconds : nil }

    /// Asks for the record when a write is due at `now` (the router answers with `write`).
    func service(nowNanoseconds now: Int64, ready: PollReadiness) -> Events {
        writeDue(nowNanoseconds: now) ? .recordWanted : []
    }

    /// Writes `record` (the router builds it when `writeDue`); the next write waits `intervalSeconds`.
    mutating func write(_ record: DeviceStateRecord, nowNanoseconds now: Int64, intervalSeconds: Double, output: DeviceOutput) {
        guard let store else { return }
        dirty = false
        nextWriteNanoseconds = now + Int64(intervalSeconds * 1e9)
        guard let failure = store.save(record) else {
            writes &+= 1
            if writeFailed {
                writeFailed = false
                output.line { out in out.append("state: writing works again") }
            }
            return
        }
        writeFailures &+= 1
        if !writeFailed {
            writeFailed = true
            output.line(.error) { out in
                out.append("state: writing the state file failed (")
                failure.write { out.append($0) }
                out.append("); keeping the state in memory and retrying")
            }
        }
        dirty = true
    }

    /// The last save at shutdown: the log's words for it, and the exit status (74 when it failed).
    func finalSave(_ record: DeviceStateRecord) -> (text: String, status: Int32) {
        if let store {
            guard let failure = store.save(record) else { return ("state saved to " + store.path, ExitStatus.ok) }
            return ("saving the state to " + store.path + " failed (" + failure.description
                    + "): the changes since the last save are lost; exit status " + String(ExitStatus.stateNotSaved),
                    ExitStatus.stateNotSaved)
        }
        if let problem { return ("state not saved: " + problem, ExitStatus.ok) }
        return ("state not saved", ExitStatus.ok)
    }

    /// True while the state cannot be saved (the fault bit `state`).
    var isFaulted: Bool { problem != nil || writeFailed }

    /// The `state` source row (its description made at start-up).
    func fillSnapshot(_ d: inout ConsoleDeviceState, nowNanoseconds now: Int64) {
        d.sources.set(ConsoleSource(name: "state", description: descriptionText,
                                    state: store == nil ? "not saved" : (writeFailed ? "write failing" : "saved"),
                                    isHealthy: store != nil && !writeFailed))
    }

    /// The state rows of the `stats` table.
    func appendStats(to t: inout ConsoleCounterTable) {
        t.append("state.writes", Int64(truncatingIfNeeded: writes))
        t.append("state.writeFailures", Int64(truncatingIfNeeded: writeFailures))
        t.append("state.unchangedSavesSkipped", Int64(store?.unchangedSaveCount ?? 0))
    }
}
