import SystemCalls

/// Sources that only read (files, standard input, TCP, gpsd, the simulated UART wire) cannot take
/// commands for the receiver.
extension ByteSource where Self: ~Copyable {
    public var isWritable: Bool { false }

    public mutating func write(_ bytes: UnsafeRawBufferPointer, nowNanoseconds: Int64) -> IOOutcome { .failed(.badFileDescriptor) }
}

/// Writes to the receiver through both serial implementations (the descriptor is a tty either way).
extension SerialPort {
    /// Writes what the port's output queue takes now (`.wouldBlock` when it is full).
    public func write(_ bytes: UnsafeRawBufferPointer) -> IOOutcome { FileDescriptor(known: fileDescriptor).writeOutcome(bytes) }
}

extension TermiosPort {
    /// Writes what the port's output queue takes now (`.wouldBlock` when it is full).
    public func write(_ bytes: UnsafeRawBufferPointer) -> IOOutcome { FileDescriptor(known: fileDescriptor).writeOutcome(bytes) }
}
