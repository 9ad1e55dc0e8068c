/// Bytes in, fixes out: `SentenceFramer` → `NMEAParser` → `EpochAssembler`, with every counter.
/// This is what replay, the serial loop, the tests and the benchmark run. Allocation-free per call.
///
/// Replay feeds bytes without a time: epochs close at their learned cycle ender, else when the next
/// epoch begins. A device passes the monotonic time of each read, so that an epoch whose ender does
/// not come also closes when the line goes quiet: it waits for `deadlineNanoseconds` and calls
/// `closeIfQuiet` then.
public struct NMEAPipeline: Sendable {
    public var framer: SentenceFramer
    public var assembler: EpochAssembler
    public private(set) var statistics = SentenceStatistics()

    /// A pipeline; `strict` drops sentences without checksum.
    public init(strict: Bool = false, configuration: EpochAssembler.Configuration = .init()) {
        framer = SentenceFramer(strict: strict)
        assembler = EpochAssembler(configuration: configuration)
    }

    /// Feeds a chunk of bytes (read at monotonic `nowNanoseconds`, when known), calling `onFix` for
    /// every epoch it completes (in order).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64? = nil,
                              _ onFix: (borrowing Fix) -> Void) {
        feed(bytes, nowNanoseconds: now, onSentence: { _, _ in }, onFix)
    }

    /// `feed`, also showing each delivered sentence (bytes from `$` to before `*`) to `onSentence`
    /// before it is parsed: the receiver configurator and the console's `nmea` view read them there.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64? = nil,
                              onSentence: (_ sentence: UnsafeRawBufferPointer, _ checksum: ChecksumStatus) -> Void,
                              _ onFix: (borrowing Fix) -> Void) {
        var framer = self.framer
        framer.feed(bytes) { sentence, checksum in
            sentence.withUnsafeBytes { onSentence($0, checksum) }
            let parsed = NMEAParser.parse(sentence)
            statistics.count(parsed)
            assembler.consume(parsed, onFix)
        }
        self.framer = framer
        if let now { assembler.noteLineActivity(nowNanoseconds: now, byteCount: bytes.count, endsInsideSentence: framer.isInsideSentence) }
    }

    /// When the open epoch closes for a quiet line (monotonic ns); nil when nothing waits.
    public var deadlineNanoseconds: Int64? { assembler.quietDeadlineNanoseconds }

    /// Completes the open epoch when its quiet-line deadline has passed at `now`.
    public mutating func closeIfQuiet(nowNanoseconds now: Int64, _ onFix: (borrowing Fix) -> Void) {
        assembler.closeIfQuiet(nowNanoseconds: now, onFix)
    }

    /// Ends the stream: drops a partial sentence and completes the open epoch.
    public mutating func finish(_ onFix: (borrowing Fix) -> Void) {
        framer.finish()
        assembler.finish(onFix)
    }
}
