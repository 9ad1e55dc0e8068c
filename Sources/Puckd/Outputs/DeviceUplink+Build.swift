import Configuration
import State
import SystemCalls
import TLS
import TrackLog
import Uplink
import UplinkClient

/// Why an uplink is off although configured (one sentence with what to do; start-up only).
struct UplinkSetupProblem: Error {
    let text: String
    init(_ text: String) { self.text = text }
}

extension DeviceUplink {
    /// The MQTT uplink from `mqtt_url`, its password file and its cursor (start-up; allocates).
    static func mqttChannel(_ settings: UplinkSettings, deviceID: String, directory: String, slot: Int, lookupSlot: Int, output: DeviceOutput,
                            report: inout [String]) -> Result<DeviceUplinkChannel<MQTTUplinkClient>, UplinkSetupProblem> {
        guard case .success(let url) = MQTTBrokerURL.parse(settings.mqttURL) else { return .failure(.init("[uplink] mqtt_url is not usable")) }
        let lookup = addressLookup(url.host, port: url.port, key: "mqtt_url", report: &report)
        let address = lookup.resolver.address(0)
        var password: String?
        if !settings.mqttPasswordFile.isEmpty {
            switch readPassword(settings.mqttPasswordFile) {
            case .success(let p): password = p
            case .failure(let why): return .failure(why)
            }
        }
        let security: StreamSecurity
        switch DeviceUplinkTLS.security(.mqtt(settings), isTLS: url.isTLS, host: url.host, report: &report) {
        case .success(let s): security = s
        case .failure(let why): return .failure(.init(why.message))
        }
        let (store, cursor): (UplinkCursorStore, UInt64)
        switch openCursor(directory: directory, name: "mqtt", report: &report) {
        case .success(let found): (store, cursor) = found
        case .failure(let why): return .failure(why)
        }
        var mqtt = MQTTUplinkSettings(address: address, deviceIdentifier: deviceID, username: url.user, password: password,
                                      positionTopic: settings.resolvedTopic(deviceID: deviceID),
                                      backlogLimitRecords: UInt64(settings.backlogLimitRecords))
        mqtt.security = security
        // A flush hands over up to flush_interval_s of fixes at once: those go in order (docs/uplink.md §5).
        mqtt.inOrderSpanRecords = 256
        let client = MQTTUplinkClient(settings: mqtt, cursor: cursor, seed: seed(0x9E37_79B9_7F4A_7C15))
        let (feed, rate) = makeFeed(settings, directory: directory, cursor: cursor)
        report.append("uplink: MQTT 3.1.1 to " + settings.mqttURL + ", client id puckd-" + deviceID + ", topic "
            + settings.resolvedTopic(deviceID: deviceID) + rate)
        return .success(DeviceUplinkChannel(client: client, feed: feed, cursorStore: store, lookup: lookup, slot: slot, lookupSlot: lookupSlot, name: "mqtt", rows: .mqtt,
                                            output: output, url: settings.mqttURL + " as " + deviceID,
                                            maximumAgeSeconds: settings.backlogMaximumAgeSeconds))
    }

    /// The OsmAnd (Traccar) uplink from `osmand_url` and its cursor (start-up; allocates).
    static func osmandChannel(_ settings: UplinkSettings, deviceID: String, directory: String, slot: Int, lookupSlot: Int, output: DeviceOutput,
                              report: inout [String]) -> Result<DeviceUplinkChannel<OsmAndUplinkClient>, UplinkSetupProblem> {
        guard case .success(let url) = OsmAndServerURL.parse(settings.osmandURL) else {
            return .failure(.init("[uplink] osmand_url is not usable"))
        }
        let lookup = addressLookup(url.host, port: url.port, key: "osmand_url", report: &report)
        let address = lookup.resolver.address(0)
        let security: StreamSecurity
        switch DeviceUplinkTLS.security(.osmand(settings), isTLS: url.isTLS, host: url.host, report: &report) {
        case .success(let s): security = s
        case .failure(let why): return .failure(.init(why.message))
        }
        let (store, cursor): (UplinkCursorStore, UInt64)
        switch openCursor(directory: directory, name: "osmand", report: &report) {
        case .success(let found): (store, cursor) = found
        case .failure(let why): return .failure(why)
        }
        var osmand = OsmAndUplinkSettings(address: address, deviceIdentifier: deviceID, host: url.hostHeader,
                                          backlogLimitRecords: UInt64(settings.backlogLimitRecords))
        osmand.security = security
        osmand.inOrderSpanRecords = 256
        let client = OsmAndUplinkClient(settings: osmand, cursor: cursor, seed: seed(0xD1B5_4A32_D192_ED03))
        let (feed, rate) = makeFeed(settings, directory: directory, cursor: cursor)
        report.append("uplink: OsmAnd (Traccar) HTTP/1.1" + (url.isTLS ? " over TLS" : "") + " to " + settings.osmandURL + ", device identifier " + deviceID + rate)
        return .success(DeviceUplinkChannel(client: client, feed: feed, cursorStore: store, lookup: lookup, slot: slot, lookupSlot: lookupSlot, name: "osmand", rows: .osmand,
                                            output: output, url: settings.osmandURL + " as " + deviceID,
                                            maximumAgeSeconds: settings.backlogMaximumAgeSeconds))
    }

    /// The host's lookup: a numeric address at once; a name on the resolver's worker thread, at start-up
    /// and again after each failed connect (getaddrinfo never runs on the loop; docs/uplink.md §9).
    private static func addressLookup(_ host: String, port: Int, key: StaticString, report: inout [String]) -> UplinkAddressLookup {
        let resolver = AddressResolver(host: host, port: UInt16(port))
        if !resolver.isNumeric {
            report.append("uplink: " + host + " is looked up on a worker thread, again after each failed connect"
                + (resolver.isThreaded ? "" : " (no thread could be made: on the loop)"))
        }
        return UplinkAddressLookup(resolver: resolver, key: key)
    }

    private static func readPassword(_ path: String) -> Result<String, UplinkSetupProblem> {
        do throws(WholeFile.Failure) {
            let bytes = try WholeFile.read(path, limitBytes: 4096,
                                           trust: FileTrust(secretName: "the MQTT password", purpose: "read or replace the broker password"))
            var line = bytes.prefix { $0 != 0x0A }
            while let last = line.last, last == 0x0D { line.removeLast() }
            return .success(String(decoding: line, as: UTF8.self))
        } catch {
            let reason = switch error {
            case .cannotOpen(let code): "cannot open it (" + code.message + ")"
            case .notRegular: "not a regular file"
            case .cannotRead(let code): "cannot read it (" + code.message + ")"
            case .tooLarge: "larger than 4 KiB: not a password file"
            case .untrusted(let why): "refused: " + why
            }
            return .failure(.init("[uplink] mqtt_password_file " + path + ": " + reason))
        }
    }

    /// `<directory>/<name>.cursor` and the cursor it holds (0 when none or damaged: everything is sent).
    private static func openCursor(directory: String, name: String,
                                   report: inout [String]) -> Result<(UplinkCursorStore, UInt64), UplinkSetupProblem> {
        let store: UplinkCursorStore
        do throws(Errno) { store = try UplinkCursorStore(directory: directory, name: name) } catch {
            return .failure(.init("cannot open the cursor's directory " + directory + " (" + error.message + ")"))
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
        return .success((store, cursor))
    }

    /// The journal feed with the `[uplink]` rate filter, and the rate in words for the report.
    private static func makeFeed(_ settings: UplinkSettings, directory: String, cursor: UInt64) -> (UplinkJournalFeed, String) {
        let filter = UplinkRateFilter(intervalSeconds: settings.intervalSeconds, minimumDistanceMeters: settings.minimumDistanceMeters,
                                      headingChangeDegrees: settings.minimumHeadingChangeDegrees)
        let feed = UplinkJournalFeed(journal: JournalRecordSource(directory: directory), filter: filter, cursor: cursor,
                                     ringRecords: UInt64(settings.backlogLimitRecords))
        var words: [String] = []
        if settings.intervalSeconds > 0 { words.append("every " + String(settings.intervalSeconds) + " s") }
        if settings.minimumDistanceMeters > 0 { words.append("every " + String(settings.minimumDistanceMeters) + " m") }
        if settings.minimumHeadingChangeDegrees > 0 { words.append("a turn over " + String(settings.minimumHeadingChangeDegrees) + "°") }
        return (feed, filter.reportsEveryFix ? ", every fix" : ", a position at " + words.joined(separator: " or "))
    }

    /// The backoff's jitter seed (realtime clock, at start-up).
    private static func seed(_ salt: UInt64) -> UInt64 { UInt64(truncatingIfNeeded: SystemClock.realtimeNanoseconds()) ^ salt }
}
