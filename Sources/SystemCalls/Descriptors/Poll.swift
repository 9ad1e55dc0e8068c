import Glibc

/// The events poll(2) waits for and reports (POLLIN, POLLOUT, …).
public struct PollEvents: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let priority = PollEvents(rawValue: Int16(POLLPRI))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// One slot of a poll set, laid out as C's `struct pollfd`. An empty slot (descriptor nil) is
/// ignored by the kernel (fd -1), so a fixed-size set keeps its slots when a device goes away.
public struct PollEntry: Sendable {
    fileprivate var entry: pollfd

    public init(_ descriptor: FileDescriptor?, events: PollEvents) {
        entry = pollfd(fd: descriptor?.rawValue ?? -1, events: events.rawValue, revents: 0)
    }

    /// The descriptor of the slot (nil: empty).
    public var descriptor: FileDescriptor? {
        get { FileDescriptor(rawValue: entry.fd) }
        set { entry.fd = newValue?.rawValue ?? -1; entry.revents = 0 }
    }

    /// What the slot waits for.
    public var events: PollEvents {
        get { PollEvents(rawValue: entry.events) }
        set { entry.events = newValue.rawValue }
    }

    /// What the last poll reported for this slot.
    public var returnedEvents: PollEvents { PollEvents(rawValue: entry.revents) }
}

extension FileDescriptor {
    /// poll(2) over `entries` (timeout in milliseconds; -1 waits for ever, 0 returns at once): the
    /// number of slots with events. EINTR is retried with the same timeout.
    public static func poll(_ entries: UnsafeMutableBufferPointer<PollEntry>,
                            timeoutMilliseconds: CInt) throws(Errno) -> Int {
        guard let base = entries.baseAddress else { return 0 }
        let count = nfds_t(entries.count)
        let result = try base.withMemoryRebound(to: pollfd.self, capacity: entries.count) { pointer throws(Errno) in
            try retryingInterrupts { Glibc.poll(pointer, count, timeoutMilliseconds) }
        }
        return Int(result)
    }

    /// poll(2) of this descriptor alone with a zero timeout: the events it has now (empty: none).
    public func pollNow(_ events: PollEvents) throws(Errno) -> PollEvents {
        var entry = pollfd(fd: rawValue, events: events.rawValue, revents: 0)
        let n = try retryingInterrupts { Glibc.poll(&entry, 1, 0) }
        return n == 0 ? [] : PollEvents(rawValue: entry.revents)
    }
}
