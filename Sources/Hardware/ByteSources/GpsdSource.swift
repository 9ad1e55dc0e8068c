import SystemCalls

/// NMEA through a gpsd daemon (`gpsd://host[:port]`, default localhost:2947), for boards where
/// gpsd already owns the serial port. On every connection it sends
/// `?WATCH={"enable":true,"nmea":true}` and then yields the NMEA sentences gpsd forwards,
/// dropping gpsd's JSON lines (`GpsdLineFilter`). A read that brought only JSON returns 0 like an
/// empty one; the descriptor stays readable if more is waiting.
///
/// Measured with gpsd 3.22 fed the gpsd corpus through a pty: it forwards each sentence byte for
/// byte with its original line ending, drops sentences whose checksum is wrong and lines that
/// are not NMEA, and strips junk before a `$` (see GpsdSourceTests).
public struct GpsdSource: ByteSource, ~Copyable {
    /// gpsd's default port.
    public static let defaultPort: UInt16 = 2947
    /// The command sent on connect.
    public static let watchCommand: StaticString = "?WATCH={\"enable\":true,\"nmea\":true}\n"

    private var connection: TCPSource
    private var filter = GpsdLineFilter()
    private var connectionForCommand: UInt64 = 0
    private var commandBytesSent = 0
    private var nmeaBytes: UInt64 = 0

    /// A source for gpsd at `host:port` (connects on the first `read`). gpsd can be quiet for a
    /// long time when its receiver is, so there is no silence timeout by default.
    public init(host: String = "localhost", port: UInt16 = GpsdSource.defaultPort,
                policy: ReconnectPolicy = ReconnectPolicy(),
                connectTimeoutNanoseconds: Int64 = 10_000_000_000,
                silenceTimeoutNanoseconds: Int64? = nil) {
        connection = TCPSource(host: host, port: port, origin: .gpsd, policy: policy,
                               connectTimeoutNanoseconds: connectTimeoutNanoseconds,
                               silenceTimeoutNanoseconds: silenceTimeoutNanoseconds)
    }

    /// "host:port".
    public var subject: String { connection.subject }
    /// JSON lines gpsd sent that were dropped.
    public var jsonLinesSkipped: UInt64 { filter.jsonLinesSkipped }
    public var status: SourceStatus { connection.status }

    /// The connection's counters, with `bytesRead` counting NMEA bytes delivered (not JSON).
    public var counters: SourceCounters {
        var counters = connection.counters
        counters.bytesRead = nmeaBytes
        return counters
    }

    public var pollRequest: PollRequest {
        var request = connection.pollRequest
        if commandPending, case .open = connection.status { request.events.insert(.writable) }
        return request
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer, nowNanoseconds now: Int64) throws(SourceError) -> Int {
        var count = try connection.read(into: buffer, nowNanoseconds: now)
        if connection.counters.opens != connectionForCommand {
            // A new connection: a new stream and a new WATCH.
            connectionForCommand = connection.counters.opens
            commandBytesSent = 0
            filter.reset()
        }
        if commandPending, case .open = connection.status { try sendCommand(nowNanoseconds: now) }
        if count > 0 {
            count = filter.filter(buffer, count: count)
            nmeaBytes &+= UInt64(count)
        }
        return count
    }

    private var commandPending: Bool { commandBytesSent < GpsdSource.watchCommand.utf8CodeUnitCount }

    private mutating func sendCommand(nowNanoseconds now: Int64) throws(SourceError) {
        let command = GpsdSource.watchCommand
        let rest = UnsafeRawBufferPointer(start: command.utf8Start + commandBytesSent,
                                          count: command.utf8CodeUnitCount - commandBytesSent)
        guard let socket = connection.connectedDescriptor, rest.count > 0 else { return }
        let error: Errno
        switch Socket.send(socket, rest) {
        case .processed(let n):
            commandBytesSent += n
            return
        case .wouldBlock: return
        case .closed: error = .brokenPipe
        case .failed(let failure): error = failure
        }
        throw connection.fail(SourceError.classifying(error, origin: .gpsd, subject: connection.subject, whileOpen: true),
                              nowNanoseconds: now)
    }
}
