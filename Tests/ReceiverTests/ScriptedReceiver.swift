@testable import Receiver

/// Drives a `ReceiverConfigurator` with a synthetic clock and scripted answers: the test decides what
/// the "receiver" replies to each command (or that it stays silent). The protocol twins that really
/// speak UBX and PMTK are in the Hardware module; this keeps the state machine's own rules in view.
struct ScriptedLink {
    var configurator: ReceiverConfigurator
    var now: Int64 = 1_000_000_000
    /// Every command written, as bytes.
    var written: [[UInt8]] = []
    /// Every port speed asked for.
    var portRates: [Int] = []
    var events: [ReceiverEvent] = []

    init(_ settings: ReceiverSettings, port: Int = 9600, autoBaud: Bool = false, writable: Bool = true) {
        configurator = ReceiverConfigurator(settings: settings, portBaudRate: port, writable: writable, autoBaud: autoBaud)
        configurator.portOpened(portBaudRate: port, nowNanoseconds: now)
    }

    /// One valid NMEA sentence from the receiver.
    mutating func sentence(_ text: String, verified: Bool = true) {
        let body = String(text.split(separator: "*", maxSplits: 1)[0])
        Array(body.utf8).withUnsafeBytes { configurator.observe(sentence: $0, verified: verified, nowNanoseconds: now) }
        configurator.observeBytes(text.utf8.count + 2, nowNanoseconds: now)
    }

    mutating func ubx(_ id: UBXMessageID, _ payload: [UInt8]) {
        payload.withUnsafeBytes { configurator.observe(ubx: id, payload: $0, nowNanoseconds: now) }
    }

    mutating func noise(_ count: Int) { configurator.observeBytes(count, nowNanoseconds: now) }

    /// Polls once; records a write or a port change. Returns the action.
    @discardableResult
    mutating func poll() -> ReceiverConfigurator.Action {
        let action = configurator.poll(nowNanoseconds: now)
        switch action {
        case .write:
            written.append(configurator.command.array)
            configurator.commandWritten(configurator.command.count, nowNanoseconds: now)
        case .setPortBaudRate(let rate):
            portRates.append(rate)
        case .none:
            break
        }
        while let e = configurator.popEvent() { events.append(e) }
        return action
    }

    /// Advances time by `nanoseconds` in 10 ms steps, polling at each, with `each` called before each poll.
    mutating func run(for nanoseconds: Int64, each: (inout ScriptedLink) -> Void = { _ in }) {
        let end = now + nanoseconds
        while now < end {
            now += 10_000_000
            each(&self)
            poll()
        }
    }

    /// The last command as text (PMTK) for matching.
    var lastText: String { String(decoding: written.last ?? [], as: UTF8.self) }
}
