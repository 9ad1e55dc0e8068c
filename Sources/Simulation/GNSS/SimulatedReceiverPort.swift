import Hardware
import SystemCalls

/// A receiver twin on a pseudo-terminal: puckd opens `slavePath` with its real serial source (POSIX
/// termios) and reads and writes it as it would a UART; the harness reads puckd's commands from the
/// master side and hands the twin what the twin's UART would read, and writes what the twin sends.
/// The line speed puckd set on its end is read back from the pty (`tcgetattr` on the master reports
/// the slave's termios on Linux); when it differs from the twin's, both directions pass through
/// `SerialLineModel` and arrive as the garbage a wrong baud rate gives.
///
/// Driven by `service(nowNanoseconds:)`; never blocks. Test and simulation use only.
public final class SimulatedReceiverPort {
    public let slavePath: String
    public let twin: SimulatedGNSSReceiver
    /// What puckd wrote, as the twin's UART read it, for tests (bounded: the first 64 KB).
    public private(set) var received: [UInt8] = []
    /// Bytes written to puckd and bytes the pty could not take.
    public private(set) var bytesSent = 0
    public private(set) var bytesDropped = 0
    private let master: FileDescriptor
    private let slaveHold: FileDescriptor
    private let buffer: UnsafeMutableRawBufferPointer
    private let converted: UnsafeMutableRawBufferPointer

    /// Opens a pty pair for `twin`.
    public init(twin: SimulatedGNSSReceiver) throws(SimulatedReceiverPortError) {
        self.twin = twin
        let pty: (master: FileDescriptor, slavePath: String)
        do throws(Errno) { pty = try FileDescriptor.openPseudoTerminal() } catch {
            throw SimulatedReceiverPortError(operation: "opening a pseudo-terminal", error: error)
        }
        let hold: FileDescriptor
        do throws(Errno) {
            hold = try FileDescriptor.open(pty.slavePath, .readWrite, options: [.noControllingTerminal, .closeOnExec])
        } catch {
            try? pty.master.close()
            throw SimulatedReceiverPortError(operation: "opening " + pty.slavePath, error: error)
        }
        if var settings = try? hold.terminalSettings() {
            settings.makeRaw()
            try? settings.setSpeed(bitsPerSecond: 9600)
            try? hold.setTerminalSettings(settings)
        }
        try? pty.master.setNonBlocking(true)
        master = pty.master
        slaveHold = hold
        slavePath = pty.slavePath
        buffer = .allocate(byteCount: 8192, alignment: 1)
        converted = .allocate(byteCount: 8192, alignment: 1)
    }

    deinit {
        try? master.close()
        try? slaveHold.close()
        buffer.deallocate()
        converted.deallocate()
    }

    /// The speed puckd's end of the line is set to, bits per second (0 when unreadable).
    public var portBaudRate: Int {
        guard let settings = try? master.terminalSettings() else { return 0 }
        return settings.outputBitsPerSecond ?? 0
    }

    /// Moves bytes both ways at `now`.
    public func service(nowNanoseconds now: Int64) {
        let port = portBaudRate
        while true {
            guard case .processed(let n) = master.readOutcome(into: buffer), n > 0 else { break }
            let input = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            let m = SerialLineModel.received(input, transmitBaud: port, receiveBaud: twin.baudRate, into: converted)
            let bytes = UnsafeRawBufferPointer(rebasing: converted[0..<m])
            if received.count < 65_536 { received.append(contentsOf: bytes) }
            twin.receive(bytes, nowNanoseconds: now)
        }
        let rate = twin.baudRate
        let n = twin.transmit(nowNanoseconds: now, into: buffer)
        guard n > 0 else { return }
        let m = SerialLineModel.received(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), transmitBaud: rate,
                                         receiveBaud: port, into: converted)
        var written = 0
        if case .processed(let n) = master.writeOutcome(UnsafeRawBufferPointer(rebasing: converted[0..<m])) { written = n }
        bytesSent += written
        bytesDropped += m - written
    }

    /// What puckd wrote, as text (tests).
    public var receivedText: String { String(decoding: received, as: UTF8.self) }
}

/// The pseudo-terminal of a receiver twin could not be set up.
public struct SimulatedReceiverPortError: Error, Sendable, Equatable {
    public var operation: String
    public var error: Errno

    public var message: String {
        operation + " failed (" + error.message + "): the receiver twins need /dev/ptmx and /dev/pts"
    }
}
