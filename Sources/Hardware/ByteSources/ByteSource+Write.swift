import Glibc

/// Sources that only read (files, standard input, TCP, gpsd, the simulated UART wire) cannot take
/// commands for the receiver.
extension ByteSource where Self: ~Copyable {
    public var isWritable: Bool { false }

    public mutating func write(_ bytes: UnsafeRawBufferPointer, nowNanoseconds: Int64) -> Int { -Int(EBADF) }
}

/// Writes to the receiver through both serial implementations (the descriptor is a tty either way).
extension SerialPort {
    /// Writes what the port's output queue takes now: the count, 0 when full, or -errno.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int { SystemCalls.write(fileDescriptor, bytes) }
}

extension TermiosPort {
    /// Writes what the port's output queue takes now: the count, 0 when full, or -errno.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int { SystemCalls.write(fileDescriptor, bytes) }
}

extension SystemCalls {
    /// write(2) without blocking (the descriptor is O_NONBLOCK): bytes written, 0 for EAGAIN, or -errno.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        while true {
            let n = Glibc.write(fd, base, bytes.count)
            if n >= 0 { return n }
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            if code != EINTR { return -Int(code) }
        }
    }
}
