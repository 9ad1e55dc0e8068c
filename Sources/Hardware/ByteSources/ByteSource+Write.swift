import SystemCalls

/// Sources that only read (files, standard input, TCP, gpsd, the simulated UART wire) cannot take
/// commands for the receiver.
extension ByteSource where Self: ~Copyable {
    public var isWritable: Bool { false }

    public mutating func write(_ bytes: UnsafeRawBufferPointer, nowNanoseconds: Int64) -> Int { -Int(Errno.badFileDescriptor.rawValue) }
}

/// Writes to the receiver through both serial implementations (the descriptor is a tty either way).
extension SerialPort {
    /// Writes what the port's output queue takes now: the count, 0 when full, or -errno.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int { FileDescriptor(known: fileDescriptor).writeCountingErrno(bytes) }
}

extension TermiosPort {
    /// Writes what the port's output queue takes now: the count, 0 when full, or -errno.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int { FileDescriptor(known: fileDescriptor).writeCountingErrno(bytes) }
}
