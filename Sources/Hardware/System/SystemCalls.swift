import Glibc

/// The few syscalls every source uses, each retrying EINTR and returning `-errno` on failure
/// (no allocation, no global state besides errno).
enum SystemCalls {
    /// read(2): bytes read (0 = end of file), or -errno.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = Glibc.read(fd, base, buffer.count)
            if n >= 0 { return n }
            let code = errno
            if code != EINTR { return -Int(code) }
        }
    }

    /// poll(2) of one descriptor with a zero timeout: the returned events, 0 when none, or -errno.
    static func pollNow(_ fd: Int32, events: Int16) -> Int32 {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let n = Glibc.poll(&entry, 1, 0)
            if n >= 0 { return n == 0 ? 0 : Int32(entry.revents) }
            let code = errno
            if code != EINTR { return -code }
        }
    }

    /// close(2), ignoring errors (the descriptor is gone either way on Linux).
    static func close(_ fd: Int32) {
        if fd >= 0 { _ = Glibc.close(fd) }
    }
}
