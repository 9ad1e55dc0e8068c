import Hardware
@testable import Simulation
import NMEA
import Receiver

/// A receiver twin and a `ReceiverConfigurator` joined by a simulated wire, in process, with a
/// synthetic clock: what the twin sends is framed (NMEA framer and UBX reader, as the device does) and
/// shown to the configurator; what the configurator writes reaches the twin's UART — both through
/// `SerialLineModel`, so a speed mismatch garbles them as on a real line.
struct TwinLink {
    let twin: SimulatedGNSSReceiver
    var configurator: ReceiverConfigurator
    var framer = SentenceFramer()
    var ubx = UBXFrameReader()
    var portBaudRate: Int
    var now: Int64
    var events: [ReceiverEvent] = []
    /// Every valid sentence type seen since the last `clearSeen`, with the time it came.
    var seen: [(type: String, at: Int64)] = []
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 1)
    let converted = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 1)

    init(twin: SimulatedGNSSReceiver, settings: ReceiverSettings, portBaudRate: Int = 9600, now: Int64 = 0) {
        self.twin = twin
        self.portBaudRate = portBaudRate
        self.now = now
        configurator = ReceiverConfigurator(settings: settings, portBaudRate: portBaudRate)
        configurator.portOpened(portBaudRate: portBaudRate, nowNanoseconds: now)
    }

    /// Runs for `nanoseconds` in 5 ms steps.
    mutating func run(for nanoseconds: Int64) {
        let end = now + nanoseconds
        while now < end {
            now += 5_000_000
            step()
        }
    }

    mutating func step() {
        let rate = twin.baudRate
        let n = twin.transmit(nowNanoseconds: now, into: buffer)
        let m = SerialLineModel.received(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), transmitBaud: rate,
                                         receiveBaud: portBaudRate, into: converted)
        feed(UnsafeRawBufferPointer(rebasing: converted[0..<m]))
        switch configurator.poll(nowNanoseconds: now) {
        case .write:
            let written = configurator.command.withBytes { bytes in
                let k = SerialLineModel.received(bytes, transmitBaud: portBaudRate, receiveBaud: twin.baudRate, into: converted)
                twin.receive(UnsafeRawBufferPointer(rebasing: converted[0..<k]), nowNanoseconds: now)
                return bytes.count
            }
            configurator.commandWritten(written, nowNanoseconds: now)
        case .setPortBaudRate(let rate):
            portBaudRate = rate
        case .none:
            break
        }
        while let e = configurator.popEvent() { events.append(e) }
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        configurator.observeBytes(bytes.count, nowNanoseconds: now)
        let t = now
        ubx.feed(bytes) { id, payload in configurator.observe(ubx: id, payload: payload, nowNanoseconds: t) }
        var local = configurator
        var types: [String] = []
        framer.feed(bytes) { sentence, checksum in
            sentence.withUnsafeBytes { raw in
                local.observe(sentence: raw, verified: checksum == .verified, nowNanoseconds: t)
                if raw.count >= 6 { types.append(String(decoding: raw[3..<6], as: UTF8.self)) }
            }
        }
        configurator = local
        for type in types { seen.append((type, t)) }
    }

    mutating func clearSeen() { seen.removeAll() }

    /// The interval between the RMC sentences seen, median, ms.
    var medianRMCIntervalMilliseconds: Double {
        let times = seen.filter { $0.type == "RMC" }.map(\.at)
        let steps = zip(times.dropFirst(), times).map { Double($0 - $1) / 1e6 }.sorted()
        return steps.isEmpty ? 0 : steps[steps.count / 2]
    }

    var seenTypes: Set<String> { Set(seen.map(\.type)) }
}
