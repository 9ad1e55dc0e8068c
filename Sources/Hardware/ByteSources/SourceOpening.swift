/// Code that runs generically over whichever source an address names. The device loop is such a
/// visitor: `SourceAddress.withSource` builds the concrete source and calls `visit` with it, so
/// the read path is specialized per source type instead of going through an existential box.
public protocol ByteSourceVisitor {
    /// What the visit returns (e.g. an exit status).
    associatedtype Result
    /// Runs with any source.
    mutating func visit<Source: ByteSource & ~Copyable>(_ source: inout Source) -> Result
    /// Runs with a serial source (which also offers `setBaudRate` for auto-baud). Defaults to `visit`.
    mutating func visitSerial(_ source: inout SerialSource) -> Result
}

extension ByteSourceVisitor {
    public mutating func visitSerial(_ source: inout SerialSource) -> Result { visit(&source) }
}

/// Settings for the sources `SourceAddress.withSource` builds.
public struct SourceOptions: Sendable {
    /// Baud rate for serial addresses that give none (bits per second).
    public var defaultBaudRate: Int = SerialBaudRate.defaultRate
    /// Backoff for live sources.
    public var reconnectPolicy = ReconnectPolicy()
    /// How long a TCP or gpsd connect may take.
    public var connectTimeoutNanoseconds: Int64 = 10_000_000_000
    /// Drop a TCP connection silent this long (nil = never). gpsd connections have none.
    public var tcpSilenceTimeoutNanoseconds: Int64? = 30_000_000_000

    /// The defaults above.
    public init() {}
}

extension SourceAddress {
    /// Builds the source this address names (nothing is opened yet: the first `read` does that)
    /// and runs `visitor` with it; the source is closed when the visit returns.
    public func withSource<Visitor: ByteSourceVisitor>(options: SourceOptions = SourceOptions(),
                                                        visitor: inout Visitor) -> Visitor.Result {
        switch self {
        case .serial(let path, let baud):
            var source = SerialSource(path: path, baudRate: baud ?? options.defaultBaudRate, policy: options.reconnectPolicy)
            return visitor.visitSerial(&source)
        case .file(let path):
            var source = FileSource(path: path)
            return visitor.visit(&source)
        case .standardInput:
            var source = FileSource.standardInput()
            return visitor.visit(&source)
        case .tcp(let host, let port):
            var source = TCPSource(host: host, port: port, policy: options.reconnectPolicy,
                                   connectTimeoutNanoseconds: options.connectTimeoutNanoseconds,
                                   silenceTimeoutNanoseconds: options.tcpSilenceTimeoutNanoseconds)
            return visitor.visit(&source)
        case .gpsd(let host, let port):
            var source = GpsdSource(host: host, port: port, policy: options.reconnectPolicy,
                                    connectTimeoutNanoseconds: options.connectTimeoutNanoseconds)
            return visitor.visit(&source)
        }
    }
}
