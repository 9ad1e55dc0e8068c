import SystemCalls
import Hardware
import Puckd

/// `puckd ports`: lists the serial ports libserialport finds, with what a user needs to pick the
/// GPS and to write a udev rule for it (transport, USB VID:PID, manufacturer, product, serial
/// number, description). Exits 0 also when there are none, and then says where to look.
enum PortsCommand {
    static let usage: StaticString = """
          puckd ports [--probe SOURCE [--seconds N]]
              List serial ports (libserialport): device, transport, USB VID:PID, manufacturer,
              product, serial number, description. Pseudo-terminals are not listed; puckd still
              opens them through POSIX termios. --probe opens SOURCE (/dev/ttyX[:BAUD], FILE, -,
              tcp://HOST:PORT, gpsd://HOST[:PORT]) as puckd would, says how (libserialport or
              termios) or why it cannot, and counts the bytes it reads in N seconds (default 3).
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        var rest = arguments
        if let first = rest.first, first == "--probe" {
            rest.removeFirst()
            return PortProbe.run(rest)
        }
        if let extra = rest.first {
            StandardStreams.err("puckd ports: unexpected argument '\(extra)'; run 'puckd ports' or 'puckd ports --probe SOURCE'\n")
            return ExitStatus.usage
        }
        let ports: [SerialPortInfo]
        do throws(SourceError) {
            ports = try SerialPortInfo.list()
        } catch {
            StandardStreams.err("puckd ports: \(error.message)\n")
            return ExitStatus.ioError
        }
        StandardStreams.out(SerialPortInfo.listing(ports))
        return ExitStatus.ok
    }
}

/// `puckd ports --probe SOURCE`: opens one source the way the daemon does and reports the first
/// error (no reconnect) or the bytes it reads within the time limit.
enum PortProbe {
    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        var rest = arguments
        guard let text = rest.popFirst() else {
            StandardStreams.err("puckd ports: --probe needs a source, e.g. 'puckd ports --probe /dev/ttyUSB0:9600'\n")
            return ExitStatus.usage
        }
        var seconds = 3
        while let option = rest.popFirst() {
            guard option == "--seconds", let value = rest.popFirst().flatMap({ Int($0) }), value >= 0, value <= 3600 else {
                StandardStreams.err("puckd ports: unexpected '\(option)' after the source; the only option is --seconds N (0...3600)\n")
                return ExitStatus.usage
            }
            seconds = value
        }
        let address: SourceAddress
        do throws(SourceAddressError) {
            address = try SourceAddress(parsing: text)
        } catch {
            StandardStreams.err("puckd ports: \(error.message)\n")
            return ExitStatus.usage
        }
        var visitor = ProbeVisitor(address: address, durationNanoseconds: Int64(seconds) * 1_000_000_000)
        return address.withSource(visitor: &visitor)
    }
}

/// Reads a source for a while, like the device loop but reporting instead of retrying.
private struct ProbeVisitor: ByteSourceVisitor {
    let address: SourceAddress
    let durationNanoseconds: Int64

    mutating func visitSerial(_ source: inout SerialSource) -> Int32 {
        probe(&source) { (port: borrowing SerialSource) in port.backendChoice?.message }
    }

    mutating func visit<Source: ByteSource & ~Copyable>(_ source: inout Source) -> Int32 {
        probe(&source) { (_: borrowing Source) in nil }
    }

    /// `describe` gives the log line to print once the source is open (the serial backend choice).
    private func probe<Source: ByteSource & ~Copyable>(_ source: inout Source,
                                                       describe: (borrowing Source) -> String?) -> Int32 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        var preview: [UInt8] = []
        var announced = false
        let start = monotonicNanoseconds()
        let end = start + durationNanoseconds
        while true {
            let now = monotonicNanoseconds()
            do throws(SourceError) {
                let n = try source.read(into: buffer, nowNanoseconds: now)
                if source.counters.opens > 0 && !announced {
                    announced = true
                    if let line = describe(source) { StandardStreams.out(line + "\n") }
                }
                if preview.count < 160 { preview.append(contentsOf: buffer[0..<min(n, 160 - preview.count)]) }
            } catch {
                StandardStreams.err("puckd ports: \(error.message)\n")
                return exitStatus(for: error.kind)
            }
            if case .finished = source.status { break }
            if now >= end { break }
            let request = source.pollRequest
            let deadline = min(end, request.deadlineNanoseconds)
            let timeoutMilliseconds = Int32(clamping: max(0, (deadline - now + 999_999) / 1_000_000))
            var entry = PollEntry(request.fileDescriptor, events: request.events)
            _ = try? withUnsafeMutablePointer(to: &entry) { pointer throws(Errno) in
                try FileDescriptor.poll(UnsafeMutableBufferPointer(start: pointer, count: 1), timeoutMilliseconds: timeoutMilliseconds)
            }
        }
        let bytes = source.counters.bytesRead
        let elapsed = Double(monotonicNanoseconds() - start) / 1e9
        var report = "\(bytes) bytes from \(address) in \((elapsed * 10).rounded() / 10) s"
        if let firstLine = preview.split(whereSeparator: { $0 == 10 || $0 == 13 }).first(where: { !$0.isEmpty }) {
            let printable = firstLine.map { $0 >= 32 && $0 < 127 ? $0 : UInt8(ascii: ".") }
            report += "; first line: " + String(decoding: printable, as: UTF8.self)
        }
        StandardStreams.out(report + "\n")
        if bytes == 0 {
            StandardStreams.err("puckd ports: no data: check that the receiver is powered and sending, and (serial) that the baud rate matches it\n")
            return ExitStatus.unavailable
        }
        return ExitStatus.ok
    }

    private func exitStatus(for kind: SourceError.Kind) -> Int32 {
        switch kind {
        case .notFound, .isADirectory: return ExitStatus.noInput
        case .permissionDenied: return ExitStatus.permission
        case .notATerminal, .unsupportedBaudRate: return ExitStatus.config
        case .busy, .connectionRefused, .unreachable, .hostNotFound, .connectTimedOut: return ExitStatus.unavailable
        default: return ExitStatus.ioError
        }
    }
}

private func monotonicNanoseconds() -> Int64 { Int64(SystemClock.monotonicNanoseconds()) }
