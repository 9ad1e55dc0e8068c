import SystemCalls
import TLS
import Uplink

/// The connection bookkeeping both uplink clients own (docs/uplink.md §9): the byte stream
/// (`StreamTransport`, plain or TLS), the phase, the retry backoff and its time, the connect's start
/// and timeout, the output buffer with its unsent range, the input buffer and the last acknowledgement.
/// The clients keep their protocol (MQTT session, HTTP exchange) and their fault words; the connect,
/// flush and backoff steps are these. Buffers are allocated in `init` (freed by `deallocate`); no
/// method allocates.
public struct UplinkLink {
    /// Where the connection is (`connecting` covers the TCP connect and the TLS handshake).
    public enum Phase: Equatable, Sendable { case waiting, connecting, open }

    /// How the connection ended, for the client to name its fault.
    public enum Loss: Equatable, Sendable {
        /// The peer closed it (or a read/write found it closed).
        case closed
        case error(Errno)
        case tls(TLSFailure)
    }

    /// What a connect step did (`advanceConnect`).
    public enum ConnectProgress: Equatable, Sendable {
        case pending
        case opened
        case failed(StreamFailure)
        /// No connection within the connect timeout; `handshaking`: TCP was up, TLS was not.
        case timedOut(handshaking: Bool)
    }

    public let transport: StreamTransport
    public private(set) var phase = Phase.waiting
    public private(set) var backoff: ReconnectBackoff
    public let connectTimeoutNanoseconds: Int64
    /// When a connect (or, for OsmAnd, the next request after a refusal) may be tried again.
    public var retryAtNanoseconds: Int64 = 0
    public private(set) var connectStartedNanoseconds: Int64 = 0
    /// The `now` of the last service (deadlines are computed against it).
    public var lastNowNanoseconds: Int64 = 0
    /// Monotonic time of the last acknowledgement (PUBACK, 2xx), nil before the first.
    public var lastAcknowledgedNanoseconds: Int64?
    public private(set) var attempts: UInt64 = 0
    public let output: UnsafeMutableRawBufferPointer
    public private(set) var outputStart = 0, outputEnd = 0
    public let input: UnsafeMutableRawBufferPointer

    public init(security: StreamSecurity, backoff: ReconnectBackoff, connectTimeoutSeconds: Int, outputBytes: Int, inputBytes: Int = 4096) {
        transport = StreamTransport(security: security)
        self.backoff = backoff
        connectTimeoutNanoseconds = Int64(connectTimeoutSeconds) * 1_000_000_000
        output = .allocate(byteCount: outputBytes, alignment: 8)
        input = .allocate(byteCount: inputBytes, alignment: 8)
    }

    /// Closes the connection and frees the buffers (the client's deinit).
    public func deallocate() {
        transport.close()
        output.deallocate()
        input.deallocate()
    }

    public var descriptor: FileDescriptor? { transport.descriptor }
    public var hasPendingOutput: Bool { outputEnd > outputStart }
    /// Bytes decrypted inside OpenSSL that poll() cannot report: read again now.
    public var hasBufferedInput: Bool { transport.hasBufferedInput }

    /// What to wait for in poll(): nothing while waiting; else what the transport needs (writable with output pending).
    public var pollEvents: PollEvents { phase == .waiting ? [] : transport.pollEvents(wantsToSend: hasPendingOutput) }

    public var connectDeadlineNanoseconds: Int64 { connectStartedNanoseconds + connectTimeoutNanoseconds }

    // MARK: connecting

    /// Starts a connect to `address` at `now` (counts an attempt).
    public mutating func startConnecting(to address: SocketAddress, nowNanoseconds now: Int64) -> ConnectProgress {
        attempts &+= 1
        connectStartedNanoseconds = now
        phase = .connecting
        return progress(transport.connect(to: address))
    }

    /// While connecting: finishes the connect/handshake on readiness, or times it out.
    public mutating func advanceConnect(ready: Bool, nowNanoseconds now: Int64) -> ConnectProgress {
        guard phase == .connecting else { return phase == .open ? .opened : .pending }
        if ready {
            let step = progress(transport.advance())
            if step != .pending { return step }
        }
        if now >= connectDeadlineNanoseconds { return .timedOut(handshaking: transport.phase == .handshaking) }
        return .pending
    }

    private mutating func progress(_ step: StreamTransport.Step) -> ConnectProgress {
        switch step {
        case .inProgress: return .pending
        case .open:
            phase = .open
            outputStart = 0
            outputEnd = 0
            return .opened
        case .failed(let failure): return .failed(failure)
        }
    }

    // MARK: closing and backoff

    /// The connection failed at `now`: closed, waiting for the backoff's next attempt.
    public mutating func failed(nowNanoseconds now: Int64) {
        close()
        retryAtNanoseconds = now + backoff.failed()
    }

    /// Closed without a fault (an idle keep-alive connection the server ended): reconnect at once when needed.
    public mutating func closedQuietly(nowNanoseconds now: Int64) {
        close()
        retryAtNanoseconds = now
    }

    /// The next attempt waits for the backoff (a refusal on an open connection) without closing it.
    public mutating func backOff(nowNanoseconds now: Int64) { retryAtNanoseconds = now + backoff.failed() }

    /// A good exchange: the backoff starts again from its base.
    public mutating func succeeded() { backoff.succeeded() }

    public mutating func close() {
        transport.close()
        phase = .waiting
        outputStart = 0
        outputEnd = 0
    }

    // MARK: bytes

    /// The loss behind a `.closed`/`.failed` outcome of the transport (a TLS failure when it was one).
    public func loss(_ outcome: SocketOutcome) -> Loss {
        if case .failed(let error) = outcome { return transport.tlsFailure.map { .tls($0) } ?? .error(error) }
        return .closed
    }

    /// Reads into `input`: `.processed(n)` bytes at `input[0..<n]`.
    public func receive() -> SocketOutcome { transport.receive(into: input) }

    public func received(_ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(input)[0..<count])
    }

    /// A writer over the output buffer's free tail (the whole buffer when nothing is pending);
    /// `commit` keeps what it wrote.
    public mutating func outputWriter() -> UplinkByteWriter {
        if outputStart == outputEnd { outputStart = 0; outputEnd = 0 }
        return UplinkByteWriter(UnsafeMutableRawBufferPointer(rebasing: output[outputEnd...]))
    }

    public mutating func commit(_ writer: UplinkByteWriter) {
        if !writer.overflowed { outputEnd += writer.count }
    }

    public var freeOutputBytes: Int { output.count - outputEnd }

    /// Sends what is pending; nil when all went out or the socket is full, else how it was lost.
    public mutating func flush() -> Loss? {
        guard phase == .open else { return nil }
        while outputEnd > outputStart {
            let outcome = transport.send(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[outputStart..<outputEnd]))
            switch outcome {
            case .wouldBlock: return nil
            case .processed(let n): outputStart += n
            case .closed, .failed: return loss(outcome)
            }
        }
        outputStart = 0
        outputEnd = 0
        return nil
    }
}
