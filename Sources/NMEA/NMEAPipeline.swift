/// Bytes in, fixes out: `SentenceFramer` → `NMEAParser` → `EpochAssembler`, with every counter.
/// This is what replay, the serial loop, the tests and the benchmark run. Allocation-free per call.
public struct NMEAPipeline: Sendable {
    public var framer: SentenceFramer
    public var assembler: EpochAssembler
    public private(set) var statistics = SentenceStatistics()

    /// A pipeline; `strict` drops sentences without checksum.
    public init(strict: Bool = false, configuration: EpochAssembler.Configuration = .init()) {
        framer = SentenceFramer(strict: strict)
        assembler = EpochAssembler(configuration: configuration)
    }

    /// Feeds a chunk of bytes, calling `onFix` for every epoch it completes (in order).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ onFix: (borrowing Fix) -> Void) {
        feed(bytes, onSentence: { _, _ in }, onFix)
    }

    /// `feed`, also showing each delivered sentence (bytes from `$` to before `*`) to `onSentence`
    /// before it is parsed: the receiver configurator and the console's `nmea` view read them there.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer,
                              onSentence: (_ sentence: UnsafeRawBufferPointer, _ checksum: ChecksumStatus) -> Void,
                              _ onFix: (borrowing Fix) -> Void) {
        var framer = self.framer
        framer.feed(bytes) { sentence, checksum in
            sentence.withUnsafeBytes { onSentence($0, checksum) }
            let parsed = NMEAParser.parse(sentence)
            statistics.count(parsed)
            if assembler.consume(parsed) { onFix(assembler.lastFix) }
        }
        self.framer = framer
    }

    /// Ends the stream: drops a partial sentence and completes the open epoch.
    public mutating func finish(_ onFix: (borrowing Fix) -> Void) {
        framer.finish()
        if assembler.finish() { onFix(assembler.lastFix) }
    }
}
