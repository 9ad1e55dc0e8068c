import SystemCalls

/// systemd's notification protocol without libsystemd: datagrams to the unix socket named by
/// `$NOTIFY_SOCKET` (a path, or `@name` for an abstract socket). READY=1 once start-up is done,
/// WATCHDOG=1 from the loop every half `$WATCHDOG_USEC`, STATUS=… (rate-limited) and STOPPING=1.
///
/// Without `$NOTIFY_SOCKET` (not run by systemd with Type=notify) every call does nothing. Sending
/// never blocks (non-blocking socket) and allocates nothing after `init`.
public final class SystemdNotifier {
    /// The socket path as given (nil: not under systemd).
    public let socketPath: String?
    /// Watchdog ping interval, nanoseconds (half of `$WATCHDOG_USEC`), nil when no watchdog.
    public let watchdogIntervalNanoseconds: Int64?
    /// STATUS= messages are sent at most this often, nanoseconds.
    public let statusIntervalNanoseconds: Int64
    /// Datagrams sent and failed.
    public private(set) var sentCount = 0
    public private(set) var failedCount = 0

    private let socket: FileDescriptor?
    private let pathC: [CChar]
    private var nextWatchdogNanoseconds: Int64 = 0
    private var nextStatusNanoseconds: Int64 = 0
    private let message: UnsafeMutableRawBufferPointer

    /// A notifier for `socketPath` (nil: inactive), with a watchdog when `watchdogMicroseconds` > 0.
    public init(socketPath: String?, watchdogMicroseconds: UInt64? = nil,
                statusIntervalNanoseconds: Int64 = 5_000_000_000) {
        let path = socketPath.flatMap { $0.isEmpty ? nil : $0 }
        self.socketPath = path
        // $WATCHDOG_USEC is any UInt64: capped at 10^12 µs (11.6 days) before the nanosecond product.
        watchdogIntervalNanoseconds = watchdogMicroseconds.flatMap { $0 > 0 ? Int64(min($0, 1_000_000_000_000) / 2) * 1000 : nil }
        self.statusIntervalNanoseconds = statusIntervalNanoseconds
        pathC = Array((path ?? "").utf8CString)
        socket = path == nil ? nil : try? FileDescriptor.notificationSocket()
        message = .allocate(byteCount: 512, alignment: 1)
    }

    deinit {
        do throws(Errno) { try socket?.close() } catch {}
        message.deallocate()
    }

    /// From the environment: `$NOTIFY_SOCKET`, and `$WATCHDOG_USEC` when `$WATCHDOG_PID` is unset or
    /// this process.
    public static func fromEnvironment() -> SystemdNotifier {
        let socket = ProcessIdentity.environment("NOTIFY_SOCKET")
        var watchdog: UInt64?
        if let usec = ProcessIdentity.environment("WATCHDOG_USEC").flatMap({ UInt64($0) }) {
            let pid = ProcessIdentity.environment("WATCHDOG_PID").flatMap { Int32($0) }
            if pid == nil || pid == ProcessIdentity.processID { watchdog = usec }
        }
        return SystemdNotifier(socketPath: socket, watchdogMicroseconds: watchdog)
    }

    /// True when running under systemd with a notify socket.
    public var isActive: Bool { socket != nil }

    /// READY=1 (and the first watchdog ping is due one interval later).
    public func ready(nowNanoseconds: Int64) {
        send("READY=1")
        nextWatchdogNanoseconds = nowNanoseconds + (watchdogIntervalNanoseconds ?? 0)
    }

    /// STOPPING=1.
    public func stopping() { send("STOPPING=1") }

    /// WATCHDOG=1 when due (call on every wake-up; `deadlineNanoseconds` wakes the loop for it).
    public func watchdogIfDue(nowNanoseconds: Int64) {
        guard let interval = watchdogIntervalNanoseconds, nowNanoseconds >= nextWatchdogNanoseconds else { return }
        send("WATCHDOG=1")
        nextWatchdogNanoseconds = nowNanoseconds + interval
    }

    /// The next time a WATCHDOG=1 ping or a STATUS= message falls due (the wake timer's deadline);
    /// nil when not under systemd.
    public var deadlineNanoseconds: Int64? {
        guard isActive else { return nil }
        guard watchdogIntervalNanoseconds != nil else { return nextStatusNanoseconds }
        return min(nextStatusNanoseconds, nextWatchdogNanoseconds)
    }

    /// True when a STATUS= message may be sent now (rate limit).
    public func statusDue(nowNanoseconds: Int64) -> Bool { isActive && nowNanoseconds >= nextStatusNanoseconds }

    /// Sends `STATUS=` + `text` (one line; at most 500 bytes are sent) and restarts the rate limit.
    public func status(_ text: UnsafeRawBufferPointer, nowNanoseconds: Int64) {
        guard isActive else { return }
        nextStatusNanoseconds = nowNanoseconds + statusIntervalNanoseconds
        let prefix: StaticString = "STATUS="
        var n = 0
        prefix.withUTF8Buffer { p in
            for byte in p { message[n] = byte; n += 1 }
        }
        var i = 0
        while i < text.count && n < message.count && text[i] != UInt8(ascii: "\n") {
            message[n] = text[i]
            n += 1
            i += 1
        }
        transmit(count: n)
    }

    private func send(_ text: StaticString) {
        guard isActive else { return }
        var n = 0
        text.withUTF8Buffer { p in
            for byte in p where n < message.count { message[n] = byte; n += 1 }
        }
        transmit(count: n)
    }

    private func transmit(count: Int) {
        guard let socket else { return }
        let datagram = UnsafeRawBufferPointer(rebasing: message[0..<count])
        let sent = pathC.withUnsafeBufferPointer { path -> Bool in
            do throws(Errno) {
                _ = try socket.sendNotification(toPath: path.baseAddress!, datagram)
                return true
            } catch {
                return false
            }
        }
        if sent { sentCount += 1 } else { failedCount += 1 }
    }
}
