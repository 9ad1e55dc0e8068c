/// Cuts one client's byte stream into requests and parses each: a request runs from its first byte
/// to a `;` or newline outside a JSON string. White space between requests is skipped; anything that
/// does not start with `?` is answered as an unrecognized request; a request longer than `capacity`
/// bytes is answered once as too long and skipped to its end. Fixed storage, no allocation.
public struct GpsdCommandReader: Sendable {
    /// The longest request kept, bytes (gpsd's `?WATCH={…}` with a device path fits with room to spare).
    public static let capacity = 512
    private var storage: InlineArray<512, UInt8> = .init(repeating: 0)
    private var count = 0
    private var inRequest = false
    private var inString = false
    private var escaped = false
    private var overlong = false

    public init() {}

    /// True while part of a request is held (waiting for its end).
    public var isHoldingPartialRequest: Bool { inRequest }

    /// Feeds bytes; `onCommand` gets each request completed by them, in order.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ onCommand: (GpsdCommand) -> Void) {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if !inRequest {
                if GpsdCommandParser.isSpace(b) { continue }
                inRequest = true
                count = 0
                overlong = false
                inString = false
                escaped = false
            }
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                if b == 0x0A { finish(onCommand); continue }   // a newline ends even an unterminated string
                keep(b, onCommand)
                continue
            }
            if b == UInt8(ascii: ";") || b == 0x0A { finish(onCommand); continue }
            if b == UInt8(ascii: "\"") { inString = true }
            keep(b, onCommand)
        }
    }

    private mutating func keep(_ b: UInt8, _ onCommand: (GpsdCommand) -> Void) {
        if overlong { return }
        if count < Self.capacity {
            storage[count] = b
            count += 1
            return
        }
        overlong = true
        var excerpt = GpsdShortText()
        var k = storage[0] == UInt8(ascii: "?") ? 1 : 0
        while k < 21 && k < count { excerpt.append(storage[k]); k += 1 }
        onCommand(.invalid(GpsdRequestError(.tooLong, excerpt: excerpt)))
    }

    private mutating func finish(_ onCommand: (GpsdCommand) -> Void) {
        inRequest = false
        if overlong { return }
        let n = count
        let command = storage.span.withUnsafeBytes { GpsdCommandParser.parse(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        onCommand(command)
    }
}
