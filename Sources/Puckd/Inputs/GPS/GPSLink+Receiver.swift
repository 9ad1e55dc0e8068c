import Configuration
import Console
import Hardware
import NMEA
import Receiver

/// The device's side of configuring the receiver (docs/receivers.md): the `ReceiverConfigurator`,
/// the UBX frame reader beside the NMEA framer, the port speed as puckd set it, and what the log has
/// said already (each outcome once). Built at start-up; allocation-free afterwards.
final class DeviceReceiverLink {
    var configurator: ReceiverConfigurator
    var ubx = UBXFrameReader()
    let settings: ReceiverSettings
    let autoBaud: Bool
    /// The port's line speed as last set (the configuration's, auto-baud's or the configurator's).
    var portBaudRate: Int
    /// The configurator was set up for the source (writable or not) at the first wake-up.
    var started = false
    var wasOpen = false
    /// The speed the configurator asked the loop for, until the loop applied it.
    var requestedBaudRate: Int?
    /// The outcome each setting last had in the log.
    var loggedOutcomes = InlineArray<5, ReceiverOutcome>(repeating: .notAsked)
    var loggedFamily: ReceiverFamily?
    var loggedModel = ReceiverText()
    var loggedUnrecognized = false

    init(settings: ReceiverSettings, portBaudRate: Int, autoBaud: Bool) {
        self.settings = settings
        self.autoBaud = autoBaud
        self.portBaudRate = portBaudRate
        configurator = ReceiverConfigurator(settings: settings, portBaudRate: portBaudRate, autoBaud: autoBaud)
    }

    /// A link for the `[gps]` section (the port starts at `[gps] baud`, or auto-baud's first rate).
    convenience init(_ gps: GPSSettings) {
        switch gps.baud {
        case .fixed(let rate): self.init(settings: gps.receiver, portBaudRate: rate, autoBaud: false)
        case .auto: self.init(settings: gps.receiver, portBaudRate: SerialBaudRate.autoBaudOrder[0], autoBaud: true)
        }
    }
}

extension GPSLink {
    /// Runs the configurator after the GPS reads of a wake-up: (re)starts it when the port opened,
    /// writes the command it asks for, and returns a line speed when it wants the port switched.
    func serviceReceiver<Source: ByteSource & ~Copyable>(_ gps: inout Source, nowNanoseconds now: Int64) -> Int? {
        let link = receiverLink
        if !link.started {
            link.started = true
            link.configurator = ReceiverConfigurator(settings: link.settings, portBaudRate: link.portBaudRate,
                                                     writable: gps.isWritable, autoBaud: link.autoBaud)
        }
        let open = gps.status == .open
        if open && !link.wasOpen { link.configurator.portOpened(portBaudRate: link.portBaudRate, nowNanoseconds: now) }
        link.wasOpen = open
        var rate: Int?
        if open {
            var rounds = 0
            while rounds < 4 && rate == nil {
                rounds += 1
                switch link.configurator.poll(nowNanoseconds: now) {
                case .none:
                    rounds = 4
                case .write:
                    let outcome = link.configurator.command.withBytes { bytes in
                        console?.state.nmea.recordCommand(bytes, atNanoseconds: now)
                        return gps.write(bytes, nowNanoseconds: now)
                    }
                    // A port that takes nothing now, or a failed write, counts as nothing written: the
                    // configurator's acknowledgement timeout retries it.
                    var written = 0
                    if case .processed(let n) = outcome { written = n }
                    link.configurator.commandWritten(written, nowNanoseconds: now)
                case .setPortBaudRate(let r):
                    link.requestedBaudRate = r
                    rate = r
                }
            }
        }
        logReceiverEvents()
        return rate
    }

    /// UBX frames and byte counts of what was read (called before the NMEA pipeline sees the bytes).
    func observeReceiverBytes(_ bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64) {
        let link = receiverLink
        link.configurator.observeBytes(bytes.count, nowNanoseconds: now)
        link.ubx.feed(bytes) { id, payload in
            console?.state.nmea.recordUBX(messageClass: id.messageClass, id: id.id, payload: payload, atNanoseconds: now)
            link.configurator.observe(ubx: id, payload: payload, nowNanoseconds: now)
        }
    }

    /// One sentence the framer delivered.
    func observeReceiverSentence(_ sentence: UnsafeRawBufferPointer, _ checksum: ChecksumStatus, nowNanoseconds now: Int64) {
        console?.state.nmea.recordSentence(sentence, verified: checksum == .verified, atNanoseconds: now)
        receiverLink.configurator.observe(sentence: sentence, verified: checksum == .verified, nowNanoseconds: now)
    }

    /// The loop set the port to `rate`: tell the configurator (auto-baud moved it) or auto-baud (the
    /// configurator moved it). Returns true when the configurator had asked for it.
    func receiverBaudRateApplied(_ rate: Int, nowNanoseconds now: Int64) -> Bool {
        let link = receiverLink
        link.portBaudRate = rate
        if link.requestedBaudRate == rate {
            link.requestedBaudRate = nil
            if var search = baudSearch {
                search.adopt(baud: rate, framer: pipeline.framer, nowNanoseconds: now)
                baudSearch = search
                baudLockLogged = true
            }
            return true
        }
        link.configurator.portBaudRateChanged(rate, nowNanoseconds: now)
        return false
    }

    /// The port refused the speed the configurator asked for.
    func receiverBaudRateFailed(nowNanoseconds now: Int64) {
        let link = receiverLink
        guard link.requestedBaudRate != nil else { return }
        link.requestedBaudRate = nil
        link.configurator.portBaudRateFailed(nowNanoseconds: now)
    }

    /// The receiver's identity, when it differs from what the log said last.
    func logIdentity(_ identity: ReceiverIdentity) {
        let link = receiverLink
        guard identity.family != nil, identity.family != link.loggedFamily || !(identity.model == link.loggedModel) else { return }
        link.loggedFamily = identity.family
        link.loggedModel = identity.model
        output.line { out in
            out.append("gps: receiver: "); ReceiverView.appendIdentity(identity, to: &out)
            out.append(", recognized from "); out.append(identity.evidence.name)
        }
    }

    /// Says once in the log what changed: who the receiver is, each setting's outcome (a refusal or
    /// silence once, not at every run), line-speed switches and losses.
    func logReceiverEvents() {
        let link = receiverLink
        while let event = link.configurator.popEvent() {
            let status = link.configurator.status
            switch event {
            case .recognized:
                // Once the model is known (the start-up text comes line by line); a receiver that never
                // names its model is logged when the run ends.
                guard !status.identity.model.isEmpty else { continue }
                logIdentity(status.identity)
            case .notRecognized:
                guard !link.loggedUnrecognized else { continue }
                link.loggedUnrecognized = true
                output.line { out in
                    out.append("gps: receiver not recognized (no answer to UBX-MON-VER or $PMTK605): nothing configured; ")
                    out.append("puckd goes on with what it sends. Set [gps] receiver if you know the family")
                }
            case .configuring(let reason):
                guard reason != .portOpened || status.counters.runs > 1 else { continue }
                output.line { out in
                    out.append("gps: configuring the receiver again: "); out.append(reason.name)
                }
            case .outcome(let setting, let outcome):
                let i = Int(setting.rawValue)
                guard outcome != link.loggedOutcomes[i] else { continue }
                link.loggedOutcomes[i] = outcome
                guard outcome.isProblem || outcome == .applied else { continue }
                output.line { out in
                    out.append("gps: receiver: "); ReceiverView.appendOutcome(setting, status, to: &out)
                    if outcome.isProblem { out.append("; puckd goes on with what the receiver sends") }
                }
            case .baudSwitched(let from, let to):
                output.line { out in
                    out.append("gps: receiver and port switched from "); out.append(int: from); out.append(" to ")
                    out.append(int: to); out.append(" baud, NMEA verified at the new speed")
                }
            case .baudFellBack(let tried, let back):
                output.line { out in
                    out.append("gps: no NMEA at "); out.append(int: tried); out.append(" baud after the switch: back at ")
                    out.append(int: back); out.append(" baud")
                }
            case .linkLost(let from, let to):
                output.line { out in
                    out.append("gps: no valid NMEA at "); out.append(int: from)
                    out.append(" baud, only noise (did the receiver lose power?): trying "); out.append(int: to)
                }
            case .finished:
                logIdentity(status.identity)
                guard status.counters.completedRuns > 1 else { continue }
                output.line { out in
                    out.append("gps: receiver configured again: "); ReceiverView.appendSummary(status, to: &out)
                }
            }
        }
    }
}

extension Device {
    /// The start-up report's line: what will be asked of the receiver (allocates; start-up only).
    static func receiverPlan(_ s: ReceiverSettings) -> String {
        if s.mode == .never { return "never configured ([gps] configure = never): puckd only reads" }
        let family = s.family.map { $0.name.description + " ([gps] receiver)" } ?? "recognized from what it says"
        guard s.wantsChanges else { return family + "; nothing to configure (rate_hz, configure_baud, constellations, sentences: keep)" }
        var out = OutputBuffer(capacity: 512)
        var parts: [String] = []
        for raw in 0..<ReceiverSetting.count {
            let setting = ReceiverSetting(rawValue: UInt8(raw))!
            let asked = switch setting {
            case .baud: s.baudRate != nil
            case .sentences: s.sentences != nil
            case .constellations: s.constellations != nil
            case .rate: s.measurementPeriodMilliseconds != nil
            case .save: s.save
            }
            guard asked else { continue }
            out.removeAll()
            if setting != .save && setting != .baud { out.append(setting.name); out.append(UInt8(ascii: " ")) }
            ReceiverView.appendRequest(setting, s, to: &out)
            parts.append(out.string)
        }
        return family + "; configured after the port opens and after a restart: " + parts.joined(separator: ", ")
    }
}
