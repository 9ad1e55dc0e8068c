import CLinux
import Glibc

/// A pseudo-terminal pair made with posix_openpt for tests: the test writes receiver bytes into
/// the master; sources open `slavePath` like a serial device.
final class PseudoTerminal {
    private(set) var master: Int32
    let slavePath: String

    init?() {
        var name = [CChar](repeating: 0, count: 128)
        let fd = clinux_pty_open(&name, name.count)
        guard fd >= 0 else { return nil }
        master = fd
        slavePath = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Raw master: what the test writes is what the slave reads, no translation.
        var settings = termios()
        tcgetattr(fd, &settings)
        cfmakeraw(&settings)
        tcsetattr(fd, TCSANOW, &settings)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { closeMaster() }

    /// Writes as much of `bytes[offset...]` as the pty takes now; returns the new offset.
    func write(_ bytes: [UInt8], from offset: Int) -> Int {
        guard master >= 0, offset < bytes.count else { return offset }
        let n = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress! + offset, $0.count - offset) }
        return n > 0 ? offset + n : offset
    }

    /// Reads and discards what the slave side wrote back (echo before raw mode, replies).
    func drain() {
        guard master >= 0 else { return }
        var scratch = [UInt8](repeating: 0, count: 4096)
        while scratch.withUnsafeMutableBytes({ Glibc.read(master, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Closes the master: the slave side sees a hangup (EIO), as on a USB unplug.
    func closeMaster() {
        if master >= 0 { Glibc.close(master) }
        master = -1
    }
}
