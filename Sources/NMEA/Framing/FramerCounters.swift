/// What the `SentenceFramer` saw: every byte it was fed ends up in exactly one of these counters, and
/// every sentence it started either was delivered or was dropped for exactly one reason.
///
/// Invariants (checked by the fuzz test):
/// `sentencesStarted == sentencesDelivered + droppedSentences + (framer.isInsideSentence ? 1 : 0)`
/// and `bytes == garbageBytes + terminatorBytes + deliveredBytes + droppedBytes + framer.pendingByteCount`.
public struct FramerCounters: Sendable, Equatable {
    /// Bytes fed to the framer.
    public var bytes: Int = 0
    /// Bytes outside any sentence (noise between sentences, the rest of a line after a drop), excluding
    /// CR and LF.
    public var garbageBytes: Int = 0
    /// CR and LF bytes that ended a sentence or separated lines.
    public var terminatorBytes: Int = 0
    /// Bytes of delivered sentences (from `$`/`!` through the checksum).
    public var deliveredBytes: Int = 0
    /// Bytes of sentences that were started and then dropped.
    public var droppedBytes: Int = 0
    /// NUL bytes anywhere in the stream (also counted as garbage or as an invalid character).
    public var nulBytes: Int = 0

    /// Sentences started by a `$` or `!`.
    public var sentencesStarted: Int = 0
    /// Sentences handed to the caller (checksum verified or absent).
    public var sentencesDelivered: Int = 0
    /// Delivered sentences that carried no checksum (accepted as "unchecked"; only outside strict mode).
    public var uncheckedSentences: Int = 0

    /// Dropped: a new `$`/`!` arrived before the sentence ended (two sentences collided; restarted there).
    public var collisions: Int = 0
    /// Dropped: longer than `SentenceFramer.maximumSentenceLength` bytes without a line end.
    public var overlong: Int = 0
    /// Dropped: a control byte (including NUL) or a non-ASCII byte inside the sentence.
    public var invalidCharacters: Int = 0
    /// Dropped: the checksum did not match the sentence.
    public var badChecksums: Int = 0
    /// Dropped: `*` not followed by exactly two hexadecimal digits at the end of the sentence.
    public var malformedChecksums: Int = 0
    /// Dropped in strict mode: the sentence had no checksum.
    public var missingChecksums: Int = 0
    /// Dropped: shorter than `$` plus a two-character address (e.g. a bare `$` line).
    public var tooShort: Int = 0
    /// Dropped: the stream ended (`finish()`) in the middle of a sentence.
    public var truncated: Int = 0

    public init() {}

    /// Sentences started and then dropped, over all reasons.
    public var droppedSentences: Int {
        collisions + overlong + invalidCharacters + badChecksums + malformedChecksums + missingChecksums
            + tooShort + truncated
    }
}
