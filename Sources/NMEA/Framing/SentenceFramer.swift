/// Whether a delivered sentence's integrity was checked.
public enum ChecksumStatus: UInt8, Sendable, Equatable {
    /// The sentence ended in `*hh` and the XOR of its bytes matched.
    case verified
    /// The sentence had no `*hh` (accepted as unchecked outside strict mode).
    case absent
}

/// Cuts an arbitrary NMEA 0183 byte stream into sentences.
///
/// Bytes arrive in chunks of any size (a sentence may be split anywhere between two `feed` calls).
/// A sentence starts at `$` (or `!` for AIS-style encapsulation) and ends at CR, LF or CRLF.
/// Everything else is classified and counted in `counters` (see `FramerCounters`):
/// noise between sentences, NUL bytes, a `$` inside a sentence (two sentences collided: the first is
/// dropped and framing restarts at the new `$`), control or non-ASCII bytes inside a sentence, lines
/// longer than `maximumSentenceLength` (the NMEA limit is 82, receivers in the wild send up to ~200),
/// bad or malformed checksums, and — in strict mode — sentences without a checksum.
///
/// Delivered sentences are handed to the caller as a `Span` over the framer's fixed internal buffer:
/// the bytes from `$`/`!` up to (not including) the `*` of the checksum, valid only during the callback.
/// Nothing is allocated per byte or per sentence; the framer itself is a value with inline storage.
public struct SentenceFramer: Sendable {
    /// Longest sentence accepted, in bytes from `$` through the checksum (excluding CR/LF).
    public static let maximumSentenceLength = 255

    /// When true, sentences without a checksum are dropped (`missingChecksums`) instead of delivered.
    public var strict: Bool
    /// Everything the framer has seen so far.
    public private(set) var counters = FramerCounters()

    private var buffer: InlineArray<256, UInt8> = .init(repeating: 0)
    /// Bytes of the current sentence held in `buffer` (0 when outside a sentence).
    private var length = 0
    /// XOR of the sentence bytes after the start character and before `*`.
    private var checksum: UInt8 = 0
    /// Index of the first `*` in the current sentence, or -1.
    private var starIndex = -1
    private var inside = false

    /// A framer; `strict` drops sentences that carry no checksum.
    public init(strict: Bool = false) {
        self.strict = strict
    }

    /// True while a sentence has been started but not yet ended.
    public var isInsideSentence: Bool { inside }
    /// Bytes of the unfinished sentence currently held.
    public var pendingByteCount: Int { length }

    /// Frames `chunk`, calling `deliver` for every complete, valid sentence in it (in order).
    public mutating func feed(_ chunk: UnsafeRawBufferPointer,
                              _ deliver: (_ sentence: Span<UInt8>, _ checksum: ChecksumStatus) -> Void) {
        var state = ScanState(length: length, sum: checksum, star: starIndex, inside: inside, strict: strict)
        var c = counters
        withUnsafeMutableBytes(of: &buffer) { raw in
            Self.scan(chunk, store: raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                      state: &state, counters: &c, deliver)
        }
        length = state.length
        checksum = state.sum
        starIndex = state.star
        inside = state.inside
        counters = c
    }

    /// The framing state carried between chunks.
    private struct ScanState {
        var length: Int
        var sum: UInt8
        var star: Int
        var inside: Bool
        let strict: Bool
    }

    /// The byte loop. State lives in locals (registers) and is written back once per chunk.
    @inline(__always)
    private static func scan(_ chunk: UnsafeRawBufferPointer, store: UnsafeMutablePointer<UInt8>,
                             state: inout ScanState, counters c: inout FramerCounters,
                             _ deliver: (Span<UInt8>, ChecksumStatus) -> Void) {
        c.bytes += chunk.count
        var length = state.length
        var sum = state.sum
        var star = state.star
        var inside = state.inside
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let n = chunk.count
        var i = 0
        while i < n {
            if inside {
                // Fastest path: eight plain bytes at a time (no control, non-ASCII, '$', '!' or '*').
                if star < 0 {
                    while n - i >= 8 && length + 8 <= maximumSentenceLength {
                        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                        if Self.hasSpecialByte(word) { break }
                        UnsafeMutableRawPointer(store + length).storeBytes(of: word, as: UInt64.self)
                        var folded = word ^ (word >> 32)
                        folded ^= folded >> 16
                        folded ^= folded >> 8
                        sum ^= UInt8(truncatingIfNeeded: folded)
                        length += 8
                        i += 8
                    }
                    if i == n { break }
                }
                let byte = base[i]
                i += 1
                // Fast path: printable ASCII other than '$' and '!'.
                if byte >= 0x22 && byte <= 0x7E && byte != 0x24 && length < maximumSentenceLength {
                    if star < 0 {
                        if byte == 0x2A { star = length } else { sum ^= byte }
                    }
                    store[length] = byte
                    length += 1
                    continue
                }
                if byte == 0x20 && length < maximumSentenceLength {       // space
                    if star < 0 { sum ^= byte }
                    store[length] = byte
                    length += 1
                    continue
                }
                if byte == 0x24 || byte == 0x21 {                          // collision: restart here
                    c.collisions += 1
                    c.droppedBytes += length
                    c.sentencesStarted += 1
                    store[0] = byte
                    length = 1
                    sum = 0
                    star = -1
                    continue
                }
                if byte == 0x0D || byte == 0x0A {
                    c.terminatorBytes += 1
                    finish(store: store, length: length, sum: sum, star: star, strict: state.strict,
                           counters: &c, deliver)
                    length = 0
                    inside = false
                    continue
                }
                if byte >= 0x20 && byte <= 0x7E {                          // printable, but too long
                    c.overlong += 1
                } else {                                                   // control or non-ASCII byte
                    c.invalidCharacters += 1
                    if byte == 0 { c.nulBytes += 1 }
                }
                c.droppedBytes += length
                c.garbageBytes += 1                                        // this byte ends the dropped line
                length = 0
                inside = false
                continue
            }
            let byte = base[i]
            i += 1
            if byte == 0x24 || byte == 0x21 {                              // '$' or '!'
                inside = true
                store[0] = byte
                length = 1
                sum = 0
                star = -1
                c.sentencesStarted += 1
            } else if byte == 0x0D || byte == 0x0A {
                c.terminatorBytes += 1
            } else {
                c.garbageBytes += 1
                if byte == 0 { c.nulBytes += 1 }
            }
        }
        state.length = length
        state.sum = sum
        state.star = star
        state.inside = inside
    }

    /// Ends the stream: an unfinished sentence is dropped and counted as `truncated`.
    public mutating func finish() {
        if inside {
            counters.truncated += 1
            counters.droppedBytes += length
            length = 0
            inside = false
        }
    }

    /// How many times `reset()` was called.
    public private(set) var resetCount = 0

    /// Forgets any partial sentence and zeroes the counters (e.g. after a baud-rate change).
    public mutating func reset() {
        length = 0
        inside = false
        counters = FramerCounters()
        resetCount += 1
    }

    /// True when any byte of `w` is a control byte (< 0x20), non-ASCII (> 0x7E), `$`, `!` or `*`
    /// (exact SWAR byte tests: no false positives or negatives).
    @inline(__always)
    private static func hasSpecialByte(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below = (w &- ones &* 0x20) & ~w & highs
        let above = ((w &+ ones &* (127 - 0x7E)) | w) & highs
        let dollar = w ^ (ones &* 0x24), bang = w ^ (ones &* 0x21), star = w ^ (ones &* 0x2A)
        let zero = ((dollar &- ones) & ~dollar) | ((bang &- ones) & ~bang) | ((star &- ones) & ~star)
        return (below | above | (zero & highs)) != 0
    }

    /// Validates a terminated sentence and delivers or counts it.
    @inline(__always)
    private static func finish(store: UnsafeMutablePointer<UInt8>, length: Int, sum: UInt8, star: Int,
                               strict: Bool, counters c: inout FramerCounters,
                               _ deliver: (Span<UInt8>, ChecksumStatus) -> Void) {
        let bodyLength: Int
        let status: ChecksumStatus
        if star >= 0 {
            guard length == star + 3,
                  let high = hexValue(store[star + 1]), let low = hexValue(store[star + 2]) else {
                c.malformedChecksums += 1
                c.droppedBytes += length
                return
            }
            guard high << 4 | low == sum else {
                c.badChecksums += 1
                c.droppedBytes += length
                return
            }
            bodyLength = star
            status = .verified
        } else {
            if strict {
                c.missingChecksums += 1
                c.droppedBytes += length
                return
            }
            bodyLength = length
            status = .absent
        }
        if bodyLength < 3 {
            c.tooShort += 1
            c.droppedBytes += length
            return
        }
        c.sentencesDelivered += 1
        c.deliveredBytes += length
        if status == .absent { c.uncheckedSentences += 1 }
        deliver(UnsafeBufferPointer(start: store, count: bodyLength).span, status)
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x41...0x46: return byte &- 0x41 &+ 10
        case 0x61...0x66: return byte &- 0x61 &+ 10
        default: return nil
        }
    }
}
