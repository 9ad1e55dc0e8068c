import CLinux

extension FileDescriptor {
    /// posix_openpt + grantpt + unlockpt: a new pseudo-terminal master (read-write, no controlling
    /// terminal, close-on-exec) and the path of its slave side, e.g. "/dev/pts/3" (start-up only:
    /// the path is a String).
    public static func openPseudoTerminal() throws(Errno) -> (master: FileDescriptor, slavePath: String) {
        var name = [CChar](repeating: 0, count: 128)
        let result = name.withUnsafeMutableBufferPointer { clinux_pty_open($0.baseAddress!, $0.count) }
        let master = try check(negated: result)
        return (master, name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }
}
