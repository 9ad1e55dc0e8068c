import CLinux

/// The serial console's terminal on the standard streams (Sources/CLinux/console.c): raw mode that is
/// put back at exit, on the clean shutdown and on fatal signals, non-blocking output, and the
/// terminal's height for paging.
public enum ConsoleTerminal {
    /// Puts the terminal on `input` into the console's raw mode (no echo, keys as bytes, CR kept,
    /// output as is); false when it is no terminal or the settings were refused.
    public static func enterRawMode(_ input: FileDescriptor) -> Bool { clinux_console_tty_raw(input.rawValue) == 0 }

    /// Puts the terminal settings and the descriptor flags changed here back. Safe to call twice.
    public static func restore() { clinux_console_tty_restore() }

    /// A descriptor for writing to `output` that never blocks: a new O_NONBLOCK descriptor for a
    /// terminal or pipe, `output` itself for a file or /dev/null, else `output` switched to O_NONBLOCK
    /// (its flags put back by `restore`); nil on failure.
    public static func nonBlockingOutput(_ output: FileDescriptor) -> FileDescriptor? {
        FileDescriptor(rawValue: clinux_console_nonblocking_output(output.rawValue))
    }

    /// Rows of the terminal on `descriptor`, 0 when unknown (no terminal).
    public static func rows(_ descriptor: FileDescriptor) -> Int { Int(clinux_console_terminal_rows(descriptor.rawValue)) }
}
