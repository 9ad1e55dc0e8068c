import SystemCalls
import Glibc
@testable import Simulation
import Testing
import TestSupport
@testable import Puckd

/// The simulated device of `SimulatedDeviceHarness` with its console on two pipes: the test types
/// into one and reads the console's output from the other (or sends the output to /dev/null).
/// Stepped with the synthetic clock; the console is read, applied and written on each step exactly as
/// in the real loop (`Device.step`).
final class ConsoleDeviceHarness {
    let h: SimulatedDeviceHarness
    private let inputWrite: Int32
    private let outputRead: Int32
    private var inputRead: Int32
    private var outputWrite: Int32
    /// Everything the console wrote and the test has not taken yet.
    private(set) var pending = ""

    /// `interactive` selects the session kind (raw mode is never touched: the pipes are no terminal);
    /// `discardOutput` sends the console's output to /dev/null (allocation tests).
    init(interactive: Bool = false, discardOutput: Bool = false, overrides: [String] = [], directory: String? = nil,
         configFile: String? = nil, pastNanoseconds: Int64 = 0, prepare: (SimulatedBoard) -> Void = { _ in },
         setupChanges: (inout DeviceSetup) -> Void = { _ in }) throws {
        var input: [Int32] = [0, 0], out: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&out) == 0 else { throw POSIXError(errno) }
        for fd in input + out { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK)
        if discardOutput {
            close(out[1])
            out[1] = open("/dev/null", O_WRONLY | O_CLOEXEC)
        }
        inputWrite = input[1]
        inputRead = input[0]
        outputRead = out[0]
        outputWrite = out[1]
        let consoleInput = input[0], consoleOutput = out[1]
        h = try SimulatedDeviceHarness(overrides: overrides, directory: directory, pastNanoseconds: pastNanoseconds,
                                       configFile: configFile, prepare: prepare, setupChanges: { setup in
            setup.console = .standardStreams(input: FileDescriptor(known: consoleInput), output: FileDescriptor(known: consoleOutput), interactive: interactive, rawMode: false)
            setupChanges(&setup)
        })
        h.device.startConsole(nowNanoseconds: h.now)
    }

    deinit {
        close(inputWrite)
        if inputRead >= 0 { close(inputRead) }
        close(outputRead)
        close(outputWrite)
    }

    var device: Device { h.device }
    var console: DeviceConsole { h.device.console! }

    /// Types `text` (bytes as they are: add "\n" or "\r" to end a line).
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(inputWrite, $0.baseAddress, $0.count) }
    }

    /// Closes the typing end: the console sees the end of its input.
    func endInput() {
        close(inputWrite)
    }

    /// Types a line, steps the device once (1 ms) and then until the command is answered (a reply
    /// waits for the next scheduled tick: at most a tick period), and returns what the console wrote.
    func command(_ line: String) -> String {
        type(line + "\n")
        h.advance(by: 1_000_000)
        while h.device.console?.awaitingTick != nil { h.advance(by: 1_000_000) }
        return take()
    }

    /// Steps the device for `nanoseconds` of synthetic time.
    func advance(by nanoseconds: Int64, stepNanoseconds: Int64 = 1_000_000) {
        h.advance(by: nanoseconds, stepNanoseconds: stepNanoseconds)
        collect()
    }

    /// Reads what the console wrote so far into `pending`.
    func collect() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(outputRead, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            pending += String(decoding: chunk[0..<n], as: UTF8.self)
        }
    }

    /// Everything written since the last `take`.
    func take() -> String {
        collect()
        defer { pending = "" }
        return pending
    }
}

struct POSIXError: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}
