import Glibc

/// The outcome of a read or write on a non-blocking descriptor that did not fail: bytes moved, or
/// "nothing now" (EAGAIN), which the loop meets on every wake-up and is therefore not an error
/// (as swift-nio's `IOResult`).
public enum IOResult: Equatable, Sendable {
    /// The call moved this many bytes (a read of 0 is end of file).
    case processed(Int)
    /// The descriptor has nothing to read, or no room to write, right now.
    case wouldBlock
}

extension FileDescriptor {
    /// read(2) on a non-blocking descriptor: `.wouldBlock` for EAGAIN, other errors thrown.
    public func readNonBlocking(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> IOResult {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .processed(0) }
        return try nonBlocking { Glibc.read(rawValue, base, buffer.count) }
    }

    /// write(2) on a non-blocking descriptor: `.wouldBlock` for EAGAIN, other errors thrown.
    public func writeNonBlocking(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> IOResult {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .processed(0) }
        return try nonBlocking { Glibc.write(rawValue, base, buffer.count) }
    }
}

/// Runs a non-blocking read or write: EINTR retried, EAGAIN/EWOULDBLOCK returned as `.wouldBlock`
/// (not thrown: a throw is what the loop must not do on every wake-up).
@inline(__always)
func nonBlocking(_ call: () -> Int) throws(Errno) -> IOResult {
    while true {
        let result = call()
        if result >= 0 { return .processed(result) }
        let code = Errno.current
        if code == .wouldBlock { return .wouldBlock }
        if code != .interrupted { throw code }
    }
}

/// The whole outcome of a read or write on a non-blocking descriptor, failures included, as a value:
/// for the loop's path, where a thrown error would allocate under Swift Testing (its backtrace hook)
/// and an error is counted rather than unwound.
public enum IOOutcome: Equatable, Sendable {
    /// The call moved this many bytes (a read of 0 is end of file).
    case processed(Int)
    /// Nothing to read, or no room to write, right now (EAGAIN).
    case wouldBlock
    /// The call failed (EINTR was retried).
    case failed(Errno)
}

extension FileDescriptor {
    /// read(2) on a non-blocking descriptor, every outcome returned (nothing thrown).
    public func readOutcome(into buffer: UnsafeMutableRawBufferPointer) -> IOOutcome {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .processed(0) }
        return outcome { Glibc.read(rawValue, base, buffer.count) }
    }

    /// write(2) on a non-blocking descriptor, every outcome returned (nothing thrown).
    public func writeOutcome(_ buffer: UnsafeRawBufferPointer) -> IOOutcome {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .processed(0) }
        return outcome { Glibc.write(rawValue, base, buffer.count) }
    }
}

@inline(__always)
func outcome(_ call: () -> Int) -> IOOutcome {
    while true {
        let result = call()
        if result >= 0 { return .processed(result) }
        let code = Errno.current
        if code == .wouldBlock { return .wouldBlock }
        if code != .interrupted { return .failed(code) }
    }
}
