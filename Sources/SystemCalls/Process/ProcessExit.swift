import Glibc

/// How the process ends: exit(3) with a status (atexit handlers run: the console's terminal settings
/// are restored there).
public enum ProcessExit {
    /// Ends the process with `status` (0 success; the command's sysexits-style codes otherwise).
    public static func exit(_ status: CInt) -> Never { Glibc.exit(status) }
}
