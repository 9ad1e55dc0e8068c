/// One HTTP/1.1 response as the uplink needs it: the status code and whether the connection stays open.
public struct HTTPResponseHead: Equatable, Sendable {
    public var statusCode: Int
    /// False for `Connection: close`, or HTTP/1.0 without `Connection: keep-alive`.
    public var keepAlive: Bool
    public var isSuccess: Bool { statusCode >= 200 && statusCode < 300 }
}

/// Why the server's bytes are not an HTTP/1.1 response: the caller closes the connection.
public enum HTTPResponseError: UInt8, Error, Sendable, Equatable {
    case malformedStatusLine
    case malformedHeader
    case malformedChunk
}

/// An incremental HTTP/1.1 response parser (RFC 9112): status line, headers (Content-Length,
/// Transfer-Encoding: chunked, Connection), then the body skipped by length, by chunks, or up to the
/// close. Fixed storage: header lines longer than its line buffer are judged by their first bytes.
public struct HTTPResponseParser {
    private enum Phase { case statusLine, headers, body, chunkSize, chunkData, chunkDataEnd, trailers, untilClose }
    private var phase = Phase.statusLine
    private var line: InlineArray<128, UInt8> = .init(repeating: 0)
    private var lineCount = 0
    private var status = 0
    private var http10 = false
    private var keepAlive = true
    private var chunked = false
    private var contentLength: Int?
    private var remaining = 0
    /// Set by a HEAD-like response without a body (1xx, 204, 304).
    public init() {}

    public mutating func reset() {
        phase = .statusLine
        lineCount = 0
    }

    /// Feeds bytes; calls `onResponse` for each complete response (after its body).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onResponse: (HTTPResponseHead) -> Void) -> HTTPResponseError? {
        var i = 0
        while i < bytes.count {
            switch phase {
            case .body, .chunkData:
                let take = min(remaining, bytes.count - i)
                remaining -= take
                i += take
                if remaining == 0 {
                    if phase == .body { complete(onResponse) } else { phase = .chunkDataEnd; lineCount = 0 }
                }
                continue
            case .untilClose:
                i = bytes.count
                continue
            default:
                break
            }
            let b = bytes[i]
            i += 1
            if b != 0x0A {
                if lineCount < 128 { line[lineCount] = b }
                lineCount += 1
                continue
            }
            var length = min(lineCount, 128)
            if length > 0 && line[length - 1] == 0x0D { length -= 1 }
            lineCount = 0
            if let error = endOfLine(length, onResponse) { return error }
        }
        return nil
    }

    /// The server closed the connection: a body delimited by the close is complete now.
    public mutating func connectionClosed(onResponse: (HTTPResponseHead) -> Void) {
        if phase == .untilClose { keepAlive = false; complete(onResponse) }
    }

    private mutating func complete(_ onResponse: (HTTPResponseHead) -> Void) {
        onResponse(HTTPResponseHead(statusCode: status, keepAlive: keepAlive))
        phase = .statusLine
        lineCount = 0
    }

    private mutating func endOfLine(_ length: Int, _ onResponse: (HTTPResponseHead) -> Void) -> HTTPResponseError? {
        switch phase {
        case .statusLine:
            if length == 0 { return nil }   // a stray CRLF between responses (RFC 9112 §2.2)
            // "HTTP/1.x NNN reason"
            guard length >= 12, starts("HTTP/1.", 0), line[8] == 0x20,
                  let code = digits(9, 3), line[7] == 0x30 || line[7] == 0x31 else { return .malformedStatusLine }
            status = code
            http10 = line[7] == 0x30
            keepAlive = !http10
            chunked = false
            contentLength = nil
            phase = .headers
        case .headers:
            if length == 0 { return headersEnded(onResponse) }
            guard let colon = index(of: 0x3A, below: length) else { return .malformedHeader }
            var valueStart = colon + 1
            while valueStart < length && (line[valueStart] == 0x20 || line[valueStart] == 0x09) { valueStart += 1 }
            if colon == 14 && starts("content-length", 0, caseless: true) {
                var value = 0
                var k = valueStart
                guard k < length else { return .malformedHeader }
                while k < length && line[k] != 0x20 {
                    guard line[k] >= 0x30 && line[k] <= 0x39, value < 100_000_000 else { return .malformedHeader }
                    value = value * 10 + Int(line[k] - 0x30)
                    k += 1
                }
                contentLength = value
            } else if colon == 17 && starts("transfer-encoding", 0, caseless: true) {
                chunked = contains("chunked", from: valueStart, below: length)
            } else if colon == 10 && starts("connection", 0, caseless: true) {
                if contains("close", from: valueStart, below: length) { keepAlive = false }
                if contains("keep-alive", from: valueStart, below: length) && http10 { keepAlive = true }
            }
        case .chunkSize:
            var size = 0
            var k = 0
            while k < length, let v = hexValue(line[k]) {
                guard size < 0x1000_0000 else { return .malformedChunk }
                size = size * 16 + v
                k += 1
            }
            guard k > 0 else { return .malformedChunk }
            if size == 0 { phase = .trailers } else { remaining = size; phase = .chunkData }
        case .chunkDataEnd:
            guard length == 0 else { return .malformedChunk }
            phase = .chunkSize
        case .trailers:
            if length == 0 { complete(onResponse) }
        case .body, .chunkData, .untilClose:
            break
        }
        return nil
    }

    private mutating func headersEnded(_ onResponse: (HTTPResponseHead) -> Void) -> HTTPResponseError? {
        if status < 200 {   // 1xx: an interim response, the real one follows
            phase = .statusLine
            return nil
        }
        if status == 204 || status == 304 { complete(onResponse); return nil }
        if chunked { phase = .chunkSize; return nil }
        if let contentLength {
            if contentLength == 0 { complete(onResponse) } else { remaining = contentLength; phase = .body }
            return nil
        }
        phase = .untilClose
        return nil
    }

    private func starts(_ literal: StaticString, _ at: Int, caseless: Bool = false) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard at + n <= 128 else { return false }
        var k = 0
        while k < n {
            var b = line[at + k]
            if caseless && b >= 0x41 && b <= 0x5A { b += 0x20 }
            if b != literal.utf8Start[k] { return false }
            k += 1
        }
        return true
    }

    private func contains(_ literal: StaticString, from start: Int, below end: Int) -> Bool {
        let n = literal.utf8CodeUnitCount
        var at = start
        while at + n <= min(end, 128) {
            if starts(literal, at, caseless: true) { return true }
            at += 1
        }
        return false
    }

    private func index(of byte: UInt8, below end: Int) -> Int? {
        var k = 0
        while k < min(end, 128) { if line[k] == byte { return k }; k += 1 }
        return nil
    }

    private func digits(_ at: Int, _ count: Int) -> Int? {
        var value = 0
        var k = 0
        while k < count {
            let b = line[at + k]
            guard b >= 0x30 && b <= 0x39 else { return nil }
            value = value * 10 + Int(b - 0x30)
            k += 1
        }
        return value
    }

    private func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: return Int(b - 0x30)
        case 0x41...0x46: return Int(b - 0x41 + 10)
        case 0x61...0x66: return Int(b - 0x61 + 10)
        default: return nil
        }
    }
}
