import CLinux
import Glibc

/// An open file descriptor: a typed wrapper over the kernel's `int`. "No descriptor" is `nil`
/// (`FileDescriptor?`), never -1. Every call retries EINTR, throws `Errno` and allocates nothing.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The kernel's descriptor number (never negative).
    public let rawValue: CInt

    /// Wraps a descriptor number; nil for a negative one (C's "none" or an error result).
    public init?(rawValue: CInt) {
        if rawValue < 0 { return nil }
        self.rawValue = rawValue
    }

    /// Wraps a number known to be a descriptor (0, 1, 2 or one the kernel returned).
    public init(known rawValue: CInt) {
        precondition(rawValue >= 0, "a file descriptor is never negative")
        self.rawValue = rawValue
    }

    /// The descriptor a C helper returned as "fd or -errno" (CLinux's `clinux_*` constructors).
    public static func check(negated result: CInt) throws(Errno) -> FileDescriptor {
        FileDescriptor(known: try Errno.check(negated: result))
    }

    /// The descriptor a C call returned as "fd, or -1 with errno set".
    public static func check(minusOne result: CInt) throws(Errno) -> FileDescriptor {
        FileDescriptor(known: try Errno.check(minusOne: result))
    }

    public static let standardInput = FileDescriptor(known: 0)
    public static let standardOutput = FileDescriptor(known: 1)
    public static let standardError = FileDescriptor(known: 2)

    /// read(2): the bytes read into `buffer` (0 at end of file; 0 for an empty buffer).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingInterrupts { Glibc.read(rawValue, base, buffer.count) }
    }

    /// pread(2) at byte `offset`: the bytes read (0 at end of file).
    public func read(fromAbsoluteOffset offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingInterrupts { Glibc.pread(rawValue, base, buffer.count, off_t(offset)) }
    }

    /// write(2) once: the bytes the kernel took (may be fewer than `buffer.count`).
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingInterrupts { Glibc.write(rawValue, base, buffer.count) }
    }

    /// Writes all of `buffer`, looping over short writes (blocking descriptors; a non-blocking one
    /// throws `.wouldBlock` with part of the buffer written).
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            let n = try write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            if n == 0 { throw Errno.ioError }
            offset += n
        }
    }

    /// close(2). On Linux the descriptor is released even when close reports an error (EINTR
    /// included), so it is never retried; the error is still returned (a deferred write error).
    public func close() throws(Errno) {
        if Glibc.close(rawValue) == -1 {
            let code = Errno.current
            if code != .interrupted { throw code }
        }
    }

    /// fsync(2): the file's data and metadata reach the device.
    public func sync() throws(Errno) {
        _ = try retryingInterrupts { Glibc.fsync(rawValue) }
    }

    /// fdatasync(2): the file's data (and the metadata needed to read it back) reach the device.
    public func syncData() throws(Errno) {
        _ = try retryingInterrupts { Glibc.fdatasync(rawValue) }
    }

    /// ftruncate(2) to `length` bytes.
    public func resize(to length: Int64) throws(Errno) {
        _ = try retryingInterrupts { Glibc.ftruncate(rawValue, off_t(length)) }
    }

    /// lseek(2) to `offset` bytes from the start: the new offset.
    @discardableResult
    public func seek(toAbsoluteOffset offset: Int64) throws(Errno) -> Int64 {
        Int64(try retryingInterrupts { Glibc.lseek(rawValue, off_t(offset), SEEK_SET) })
    }

    /// ioctl(2) with a pointer argument: the call's non-negative result.
    @discardableResult
    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer?) throws(Errno) -> CInt {
        try retryingInterrupts { clinux_ioctl_pointer(rawValue, request, argument) }
    }

    /// ioctl(2) with an integer argument (or none: 0): the call's non-negative result.
    @discardableResult
    public func control(_ request: UInt, value: CInt = 0) throws(Errno) -> CInt {
        try retryingInterrupts { clinux_ioctl_value(rawValue, request, value) }
    }

    /// isatty(3): true when the descriptor is a terminal.
    public var isTerminal: Bool { Glibc.isatty(rawValue) == 1 }
}

/// Runs a syscall that returns -1 with errno set, again while it fails with EINTR.
@inline(__always)
func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = Errno.current
        if code != .interrupted { throw code }
    }
}
