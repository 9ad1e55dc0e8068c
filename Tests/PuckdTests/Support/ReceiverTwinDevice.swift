@testable import Configuration
import Glibc
import Hardware
import Receiver
@testable import Simulation
import TestSupport
@testable import Puckd
import SystemCalls

/// The whole device reading and configuring a receiver twin over a pseudo-terminal, with a synthetic
/// clock: the twin sits behind `SimulatedReceiverPort`, the device opens it through a symlink (so an
/// "unplug" can swap in a fresh receiver on a new pty) with its real `SerialSource` (termios), and each
/// step moves the bytes both ways, runs one device wake-up and applies the line speed it asks for the
/// way the loop does.
final class ReceiverTwinDevice {
    let device: Device
    var source: SerialSource
    var port: SimulatedReceiverPort?
    var now: Int64
    let directory: String
    let link: String
    let outputPath: String
    private let outputFD: Int32
    /// The console's pipes (typing end, reading end), when it has one.
    private var consoleInput: Int32 = -1
    private var consoleOutput: Int32 = -1

    /// `console`: a scripted console on pipes (`command` types into it).
    init(twin: SimulatedGNSSReceiver, overrides: [String], console: Bool = false, now start: Int64 = 1_000_000_000_000) throws {
        directory = SimulatedDeviceHarness.temporaryDirectory()
        link = directory + "/gps0"
        outputPath = directory + "/output.txt"
        outputFD = open(outputPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        let port = try SimulatedReceiverPort(twin: twin)
        self.port = port
        symlink(port.slavePath, link)
        let sources = ConfigurationSources(board: nil, file: nil, overrides: [
            "gps.source=" + link, "gps.baud=9600", "imu.chip=none", "gpio.chip=none", "state.directory=" + directory,
            "console.status_interval_s=0",
        ] + (console ? [] : ["console.device=none"]) + overrides)
        let loaded = try sources.load()
        now = start
        var setup = DeviceSetup(loaded: loaded, sources: sources, gpsDescription: link + " (receiver twin)")
        setup.outputDescriptor = FileDescriptor(known: outputFD)
        setup.printsReport = false
        if console {
            var input: [Int32] = [0, 0], out: [Int32] = [0, 0]
            guard pipe(&input) == 0, pipe(&out) == 0 else { throw POSIXError(errno) }
            _ = fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK)
            consoleInput = input[1]
            consoleOutput = out[0]
            setup.console = .standardStreams(input: FileDescriptor(known: input[0]), output: FileDescriptor(known: out[1]), interactive: false, rawMode: false)
        }
        device = Device(setup: setup, nowNanoseconds: now)
        if console { device.startConsole(nowNanoseconds: now) }
        let rate: Int
        if case .fixed(let r) = loaded.configuration.gps.baud { rate = r } else { rate = SerialBaudRate.autoBaudOrder[0] }
        source = SerialSource(path: link, baudRate: rate, policy: ReconnectPolicy(), forceTermios: true)
        if let r = device.startBaudSearch(nowNanoseconds: now) { try? source.setBaudRate(r) }
    }

    deinit {
        close(outputFD)
        if consoleInput >= 0 { close(consoleInput) }
        if consoleOutput >= 0 { close(consoleOutput) }
    }

    /// Types a console line, runs 20 ms, and returns what the console wrote.
    func command(_ line: String) -> String {
        _ = Array((line + "\n").utf8).withUnsafeBytes { write(consoleInput, $0.baseAddress, $0.count) }
        run(for: 20_000_000)
        return consoleOutputText()
    }

    /// What the console wrote since the last read (reading keeps the pipe from filling up).
    func consoleOutputText() -> String {
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(consoleOutput, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            text += chunk[0..<n]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Runs `nanoseconds` of synthetic time in 2 ms wake-ups.
    func run(for nanoseconds: Int64, measure: Bool = false) {
        let end = now + nanoseconds
        while now < end {
            now += 2_000_000
            port?.service(nowNanoseconds: now)
            wakeUp()
        }
    }

    /// One wake-up, as `Device.loop` does it (the baud rate applied through the loop's own path).
    func wakeUp() {
        if let rate = device.step(gps: &source, nowNanoseconds: now, ready: .all) {
            device.applyBaud(rate, &source, now) { (s: inout SerialSource, r: Int, t: Int64) throws(SourceError) in
                try s.setBaudRate(r, nowNanoseconds: t)
            }
        }
    }

    /// Unplugs the receiver (the pty goes away: the device's reads fail) and, after `gapNanoseconds`,
    /// plugs `replacement` in on a new pty behind the same path.
    func replug(_ replacement: SimulatedGNSSReceiver, gapNanoseconds: Int64) throws {
        port = nil
        unlink(link)
        run(for: gapNanoseconds)
        let fresh = try SimulatedReceiverPort(twin: replacement)
        symlink(fresh.slavePath, link)
        port = fresh
    }

    var output: String { String(decoding: Fixtures.readFile(outputPath) ?? [], as: UTF8.self) }

    var status: ReceiverStatus { device.gpsLink.receiverLink.configurator.status }

    func removeDirectory() {
        for name in ["output.txt", "state", "state.tmp", "gps0"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }
}
