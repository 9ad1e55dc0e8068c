import CLinux
import Console
import Glibc

/// Where the device writes its start-up report, log lines and status lines: standard output without a
/// console or with a serial one, standard error when the console owns standard output, and — while a
/// person uses an interactive console on standard output — notices above the console's prompt
/// (`console`). Lines are built in one fixed buffer and written with one `write(2)` each, and only when
/// the descriptor can take them without blocking: a reader that stops reading (a full pipe) costs
/// dropped lines (counted), never a stalled loop. Allocation-free except `text(_:)`.
public final class DeviceOutput {
    /// The descriptor written to.
    public let fileDescriptor: Int32
    /// The interactive console that shows log lines instead (nil: the descriptor).
    var console: DeviceConsole?
    /// Lines dropped because the descriptor was not writable or the line did not fit.
    public private(set) var droppedLines = 0
    /// Lines written.
    public private(set) var writtenLines = 0
    private var buffer = OutputBuffer(capacity: 4096)

    public init(fileDescriptor: Int32 = 1) {
        self.fileDescriptor = fileDescriptor
    }

    /// Writes one log line: "puckd: " + what `build` appends + newline.
    public func line(_ build: (inout OutputBuffer) -> Void) {
        buffer.removeAll()
        buffer.append("puckd: ")
        build(&buffer)
        buffer.append(UInt8(ascii: "\n"))
        flush()
    }

    /// Writes what `build` appends as is (it ends its own lines).
    public func raw(_ build: (inout OutputBuffer) -> Void) {
        buffer.removeAll()
        build(&buffer)
        flush()
    }

    /// Writes a log line from a String (allocates: start-up, reloads and other rare events).
    public func text(_ text: String) {
        line { out in out.append(string: text) }
    }

    private func flush() {
        if buffer.overflowed {
            buffer.truncate(to: buffer.capacity - 4)
            buffer.append("...\n")
        }
        if let console, buffer.withBytes({ console.showLogLine($0) }) {
            writtenLines += 1
            return
        }
        let writable = clinux_writable_now(fileDescriptor)
        guard writable == 1 else {
            droppedLines += 1
            return
        }
        let ok = buffer.withBytes { StandardStreams.write(fd: fileDescriptor, $0) }
        if ok { writtenLines += 1 } else { droppedLines += 1 }
    }
}
