import CLinux
import Glibc
import Hardware

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
    private let masterFD: Int32
    private let slaveHoldFD: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private let converted: UnsafeMutableRawBufferPointer

    /// Opens a pty pair for `twin`.
    public init(twin: SimulatedGNSSReceiver) throws(SimulatedReceiverPortError) {
        self.twin = twin
        var name = [CChar](repeating: 0, count: 128)
        let master = name.withUnsafeMutableBufferPointer { clinux_pty_open($0.baseAddress!, $0.count) }
        if master < 0 { throw SimulatedReceiverPortError(operation: "opening a pseudo-terminal", errno: -master) }
        let path = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let hold = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        if hold < 0 {
            let code = errno
            Glibc.close(master)
            throw SimulatedReceiverPortError(operation: "opening " + path, errno: code)
        }
        var settings = termios()
        if tcgetattr(hold, &settings) == 0 {
            cfmakeraw(&settings)
            _ = cfsetspeed(&settings, speed_t(B9600))
            _ = tcsetattr(hold, TCSANOW, &settings)
        }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        masterFD = master
        slaveHoldFD = hold
        slavePath = path
        buffer = .allocate(byteCount: 8192, alignment: 1)
        converted = .allocate(byteCount: 8192, alignment: 1)
    }

    deinit {
        Glibc.close(masterFD)
        Glibc.close(slaveHoldFD)
        buffer.deallocate()
        converted.deallocate()
    }

    /// The speed puckd's end of the line is set to, bits per second (0 when unreadable).
    public var portBaudRate: Int {
        var settings = termios()
        guard tcgetattr(masterFD, &settings) == 0 else { return 0 }
        return SerialBaudRate.bitsPerSecond(termiosSpeed: cfgetospeed(&settings)) ?? 0
    }

    /// Moves bytes both ways at `now`.
    public func service(nowNanoseconds now: Int64) {
        let port = portBaudRate
        while true {
            let n = Glibc.read(masterFD, buffer.baseAddress, buffer.count)
            if n <= 0 { break }
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
        let written = max(0, Glibc.write(masterFD, converted.baseAddress, m))
        bytesSent += written
        bytesDropped += m - written
    }

    /// What puckd wrote, as text (tests).
    public var receivedText: String { String(decoding: received, as: UTF8.self) }
}

/// The pseudo-terminal of a receiver twin could not be set up.
public struct SimulatedReceiverPortError: Error, Sendable, Equatable {
    public var operation: String
    public var errno: Int32

    public var message: String {
        operation + " failed (" + String(cString: strerror(errno)) + "): the receiver twins need /dev/ptmx and /dev/pts"
    }
}
