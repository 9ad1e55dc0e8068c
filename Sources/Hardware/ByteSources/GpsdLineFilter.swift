/// Separates what gpsd sends a `?WATCH={"nmea":true}` client: it forwards the receiver's NMEA
/// sentences as they came (with their own line endings) and interleaves its JSON reports
/// (`{"class":"VERSION"…}`, DEVICES, WATCH, ERROR), one per line. The filter keeps every line
/// that does not start with `{` and drops the rest, in place, across reads split anywhere.
/// Pure and allocation-free.
public struct GpsdLineFilter: Sendable, Equatable {
    private var atLineStart = true
    private var skipping = false
    /// JSON lines dropped so far.
    public private(set) var jsonLinesSkipped: UInt64 = 0

    /// A filter at the start of a stream.
    public init() {}

    /// Starts over (a new connection starts a new stream).
    public mutating func reset() {
        atLineStart = true
        skipping = false
    }

    /// Filters the first `count` bytes of `buffer` in place and returns how many were kept
    /// (they are moved to the front, in order).
    public mutating func filter(_ buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
        var kept = 0
        for index in 0..<min(count, buffer.count) {
            let byte = buffer[index]
            if atLineStart {
                if byte == UInt8(ascii: "{") {
                    skipping = true
                    atLineStart = false
                    jsonLinesSkipped &+= 1
                    continue
                }
                if byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\n") { atLineStart = false }
            }
            if skipping {
                if byte == UInt8(ascii: "\n") {
                    skipping = false
                    atLineStart = true
                }
                continue
            }
            buffer[kept] = byte
            kept += 1
            if byte == UInt8(ascii: "\n") { atLineStart = true }
        }
        return kept
    }
}
