import CLinux

/// What a descriptor of the standard streams is connected to, and whether a line can be written to it
/// now (for log lines that must never block the loop).
extension FileDescriptor {
    /// True when this descriptor is the systemd journal stream named by $JOURNAL_STREAM ("DEVICE:INODE").
    public var isJournalStream: Bool { clinux_console_is_journal_stream(rawValue) == 1 }

    /// True when a write of up to PIPE_BUF bytes would not block now (false also on a poll error).
    public var isWritableNow: Bool { clinux_writable_now(rawValue) == 1 }
}

extension FileDescriptor {
    /// True when this descriptor is a character device that is not a terminal (/dev/null).
    public var isNullDevice: Bool { clinux_console_is_null_device(rawValue) == 1 }
}
