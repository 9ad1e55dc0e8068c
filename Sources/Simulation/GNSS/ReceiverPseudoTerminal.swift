import SystemCalls

/// The pseudo-terminal pair of a receiver twin: the master the twin reads and writes (non-blocking),
/// and the slave held open raw by the twin itself, so the pty never hangs up while puckd reopens the
/// slave path with its real serial source.
struct ReceiverPseudoTerminal {
    let master: FileDescriptor
    let slaveHold: FileDescriptor
    let slavePath: String

    /// What failed: the step ("opening a pseudo-terminal", "opening /dev/pts/N") and its error.
    struct Failure: Error {
        var operation: String
        var error: Errno
    }

    /// Opens the pair; the slave is set raw (no echo), at `bitsPerSecond` when given.
    static func open(bitsPerSecond: Int? = nil) throws(Failure) -> ReceiverPseudoTerminal {
        let pty: (master: FileDescriptor, slavePath: String)
        do throws(Errno) { pty = try FileDescriptor.openPseudoTerminal() } catch {
            throw Failure(operation: "opening a pseudo-terminal", error: error)
        }
        let hold: FileDescriptor
        do throws(Errno) {
            hold = try FileDescriptor.open(pty.slavePath, .readWrite, options: [.noControllingTerminal, .closeOnExec])
        } catch {
            try? pty.master.close()
            throw Failure(operation: "opening " + pty.slavePath, error: error)
        }
        if var settings = try? hold.terminalSettings() {
            settings.makeRaw()
            if let bitsPerSecond { try? settings.setSpeed(bitsPerSecond: bitsPerSecond) }
            try? hold.setTerminalSettings(settings)
        }
        try? pty.master.setNonBlocking(true)
        return ReceiverPseudoTerminal(master: pty.master, slaveHold: hold, slavePath: pty.slavePath)
    }
}
