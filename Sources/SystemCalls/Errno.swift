import CLinux
import Glibc

/// An errno value as a typed error: what a failed syscall says, with its message text
/// ("No space left on device (ENOSPC)") written without allocating.
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The C errno number (positive).
    public let rawValue: CInt

    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// errno of the calling thread, read right after a failed call.
    public static var current: Errno { Errno(rawValue: Glibc.errno) }

    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let ioError = Errno(rawValue: EIO)
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let busy = Errno(rawValue: EBUSY)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    public static let notADirectory = Errno(rawValue: ENOTDIR)
    public static let isADirectory = Errno(rawValue: EISDIR)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let notATerminal = Errno(rawValue: ENOTTY)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let inProgress = Errno(rawValue: EINPROGRESS)
    public static let hostUnreachable = Errno(rawValue: EHOSTUNREACH)
    public static let networkUnreachable = Errno(rawValue: ENETUNREACH)
    public static let remoteIO = Errno(rawValue: EREMOTEIO)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    public static let protocolError = Errno(rawValue: EPROTO)
    public static let networkDown = Errno(rawValue: ENETDOWN)
    public static let hostDown = Errno(rawValue: EHOSTDOWN)
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    public static let addressNotAvailable = Errno(rawValue: EADDRNOTAVAIL)
    public static let outOfMemory = Errno(rawValue: ENOMEM)
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)

    /// The value of a C call that returns a count or `-errno` (CLinux's helpers, `clinux_*`):
    /// the count, or the error thrown.
    @inline(__always)
    public static func check<Result: SignedInteger>(negated result: Result) throws(Errno) -> Result {
        if result >= 0 { return result }
        throw Errno(rawValue: CInt(truncatingIfNeeded: 0 - result))
    }

    /// The value of a C call that returns -1 and sets errno on failure: the value, or `Errno.current`.
    @inline(__always)
    public static func check<Result: BinaryInteger>(minusOne result: Result) throws(Errno) -> Result {
        if result != -1 { return result }
        throw Errno.current
    }

    /// Writes the message and name to `sink` ("Permission denied (EACCES)"; "errno 4242" for a
    /// number the C library does not know). Allocates nothing (the C library's static tables).
    public func write(to sink: (UnsafeRawBufferPointer) -> Void) {
        if let message = clinux_errno_text(rawValue) {
            sink(UnsafeRawBufferPointer(start: message, count: Int(Glibc.strlen(message))))
            if let name = clinux_errno_name(rawValue) {
                Errno.text(" (", sink)
                sink(UnsafeRawBufferPointer(start: name, count: Int(Glibc.strlen(name))))
                Errno.text(")", sink)
            }
            return
        }
        Errno.text("errno ", sink)
        Errno.writeDecimal(Int64(rawValue), sink)
    }

    /// Writes the symbolic name alone ("EACCES"; "errno 4242" for a number the C library does not
    /// know). Allocates nothing.
    public func writeName(to sink: (UnsafeRawBufferPointer) -> Void) {
        if let name = clinux_errno_name(rawValue) {
            sink(UnsafeRawBufferPointer(start: name, count: Int(Glibc.strlen(name))))
            return
        }
        Errno.text("errno ", sink)
        Errno.writeDecimal(Int64(rawValue), sink)
    }

    /// The symbolic name as a String ("EACCES"; allocates: start-up and command messages only).
    public var name: String {
        var bytes: [UInt8] = []
        writeName { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same text as `write(to:)`, as a String (allocates: start-up and command messages only).
    public var description: String {
        var bytes: [UInt8] = []
        write { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The message alone, as strerror(3) says it ("No space left on device"; "Unknown error 4242").
    /// Allocates: start-up and command messages only.
    public var message: String {
        guard let text = clinux_errno_text(rawValue) else { return "Unknown error " + String(rawValue) }
        return String(cString: text)
    }

    private static func text(_ s: StaticString, _ sink: (UnsafeRawBufferPointer) -> Void) {
        sink(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    private static func writeDecimal(_ value: Int64, _ sink: (UnsafeRawBufferPointer) -> Void) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { start -= 1; buffer[start] = UInt8(ascii: "-") }
            sink(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }
}
