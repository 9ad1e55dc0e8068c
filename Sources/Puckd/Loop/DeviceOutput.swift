import Console
import SystemCalls

/// How severe a log line is: the syslog priority journald files it under (`journalctl -p err`).
public enum LogPriority: UInt8, Sendable {
    /// Something is broken and needs the user (a source error, a fault, a rejected reload): `<3>`.
    case error = 3
    /// puckd runs without something or lost data (degraded at start-up, new faults, dropped output): `<4>`.
    case warning = 4
    /// Everything else: the start-up report, state changes, presses: `<6>`.
    case info = 6
}

/// Where the device writes its start-up report, log lines and status lines: standard output without a
/// console or with a serial one, standard error when the console owns standard output, and — while a
/// person uses an interactive console on standard output — notices above the console's prompt
/// (`console`). Lines are built in one fixed buffer and written with one `write(2)` each, and only when
/// the descriptor can take them without blocking: a reader that stops reading (a full pipe) costs
/// dropped lines (counted), never a stalled loop. When the descriptor is the systemd journal's stream
/// ($JOURNAL_STREAM names it) each line starts with its priority, `<3>`, `<4>` or `<6>`, as sd-daemon(3)
/// describes. Allocation-free except `text(_:)`.
public final class DeviceOutput {
    /// The descriptor written to.
    public let fileDescriptor: FileDescriptor
    /// True when the descriptor is the journal's stream: lines carry `<N>` priority prefixes.
    public let prefixesPriorities: Bool
    /// The interactive console that shows log lines instead (nil: the descriptor).
    var console: DeviceConsole?
    /// Lines dropped because the descriptor was not writable or the line did not fit.
    public private(set) var droppedLines = 0
    /// Lines written.
    public private(set) var writtenLines = 0
    private var buffer = OutputBuffer(capacity: 4096)

    public init(fileDescriptor: FileDescriptor = .standardOutput) {
        self.fileDescriptor = fileDescriptor
        prefixesPriorities = fileDescriptor.isJournalStream
    }

    /// Writes one log line: "puckd: " + what `build` appends + newline (after `<N>` on the journal).
    public func line(_ priority: LogPriority = .info, _ build: (inout OutputBuffer) -> Void) {
        buffer.removeAll()
        let prefixed = prefixesPriorities
        if prefixed { Self.appendPriority(priority, to: &buffer) }
        buffer.append("puckd: ")
        build(&buffer)
        buffer.append(UInt8(ascii: "\n"))
        flush(priorityPrefixBytes: prefixed ? 3 : 0)
    }

    /// Writes one line that `build` ends itself, without the "puckd: " tag (the status line); `<6>` on the
    /// journal.
    public func raw(_ build: (inout OutputBuffer) -> Void) {
        buffer.removeAll()
        let prefixed = prefixesPriorities
        if prefixed { Self.appendPriority(.info, to: &buffer) }
        build(&buffer)
        flush(priorityPrefixBytes: prefixed ? 3 : 0)
    }

    /// Writes a log line from a String (allocates: start-up, reloads and other rare events).
    public func text(_ text: String, priority: LogPriority = .info) {
        line(priority) { out in out.append(string: text) }
    }

    /// `<3>`, `<4>` or `<6>`.
    static func appendPriority(_ priority: LogPriority, to out: inout OutputBuffer) {
        out.append(UInt8(ascii: "<"))
        out.append(UInt8(ascii: "0") &+ priority.rawValue)
        out.append(UInt8(ascii: ">"))
    }

    private func flush(priorityPrefixBytes: Int) {
        if buffer.overflowed {
            buffer.truncate(to: buffer.capacity - 4)
            buffer.append("...\n")
        }
        // The interactive console shows the line itself, without the journal's priority prefix.
        if let console, buffer.withBytes({ console.showLogLine(UnsafeRawBufferPointer(rebasing: $0[priorityPrefixBytes...])) }) {
            writtenLines += 1
            return
        }
        guard fileDescriptor.isWritableNow else {
            droppedLines += 1
            return
        }
        let ok = buffer.withBytes { StandardStreams.write(to: fileDescriptor, $0) }
        if ok { writtenLines += 1 } else { droppedLines += 1 }
    }
}
