import CLinux
@testable import Configuration
import Glibc
import Hardware
@testable import Simulation
import TestSupport
@testable import Puckd
import SystemCalls

/// A simulated device driven in-process with a synthetic clock: `advance` steps the loop as if it
/// woke every `stepNanoseconds` with every descriptor readable. Output goes to a temporary file.
final class SimulatedDeviceHarness {
    let device: Device
    let board: SimulatedBoard
    var source: SerialSource
    var now: Int64
    let directory: String
    let outputPath: String
    private let outputFD: Int32

    /// The sim profile with the state in a fresh temporary directory, status lines off, plus `overrides`.
    /// `pastNanoseconds` starts the device that long ago (a synthetic warm-up can then catch up with
    /// the real clock before the real loop runs); `startNanoseconds` starts it at that time instead
    /// (two harnesses stepped in lockstep).
    /// `configFile` is loaded on top of the profile (for reload tests); `prepare` changes the simulated
    /// board before the device starts (e.g. unplugs the IMU); `setupChanges` edits the setup.
    init(overrides: [String] = [], directory existing: String? = nil, pastNanoseconds: Int64 = 0,
         startNanoseconds: Int64? = nil, configFile: String? = nil, prepare: (SimulatedBoard) -> Void = { _ in },
         setupChanges: (inout DeviceSetup) -> Void = { _ in }) throws {
        directory = existing ?? SimulatedDeviceHarness.temporaryDirectory()
        outputPath = directory + "/output.txt"
        outputFD = open(outputPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        let sources = ConfigurationSources(board: "sim", file: configFile,
                                           overrides: ["state.directory=" + directory, "console.status_interval_s=0"] + overrides)
        let loaded = try sources.load()
        now = startNanoseconds ?? clinux_monotonic_ns() - pastNanoseconds
        board = try SimulatedBoard(configuration: loaded.configuration, startNanoseconds: now)
        var setup = DeviceSetup(loaded: loaded, sources: sources, gpsDescription: "test")
        setup.simulation = board
        setup.gpio = board.gpio
        if let imu = board.imu { setup.imuBus = .simulated(imu.bus) }
        setup.outputDescriptor = FileDescriptor(known: outputFD)
        setup.printsReport = false
        prepare(board)
        setupChanges(&setup)
        device = Device(setup: setup, nowNanoseconds: now)
        source = SerialSource(path: board.receiver.slavePath, baudRate: 115200)
    }

    deinit { close(outputFD) }

    /// Steps the loop for `nanoseconds` of synthetic time.
    func advance(by nanoseconds: Int64, stepNanoseconds: Int64 = 1_000_000) {
        let end = now + nanoseconds
        while now < end {
            now += stepNanoseconds
            _ = device.step(gps: &source, nowNanoseconds: now, ready: .all)
        }
    }

    /// Steps with the synthetic clock up to the real monotonic clock.
    func catchUpWithRealTime() {
        advance(by: clinux_monotonic_ns() - now)
    }

    /// Writes a file in the harness directory; returns its path.
    func writeFile(_ name: String, _ text: String) -> String {
        let path = directory + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    /// The logical level of output `offset` on the GPIO twin at `from` (monotonic ns), then its changes
    /// after it: (time, on) pairs.
    func ledChanges(_ offset: UInt32, from: Int64) -> [(Int64, Bool)] {
        let history = board.gpio.outputHistory(offset)
        let level = history.last { $0.timeNanoseconds < from }?.active ?? false
        return [(from, level)] + history.filter { $0.timeNanoseconds >= from }.map { ($0.timeNanoseconds, $0.active) }
    }

    /// Everything the device wrote so far.
    var output: String { String(decoding: Fixtures.readFile(outputPath) ?? [], as: UTF8.self) }

    static func temporaryDirectory() -> String { Fixtures.temporaryDirectory(prefix: "puckd-device") }

    /// Removes the temporary directory and its files.
    func removeDirectory() {
        for name in ["output.txt", "state", "state.tmp", "state.corrupt", "puckd.conf", "short.nmea"] {
            unlink(directory + "/" + name)
        }
        rmdir(directory)
    }
}
