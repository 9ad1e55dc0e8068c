/// One line of the line editor (or of its history): up to `capacity` printable ASCII bytes inline.
public struct LineEditorLine: Sendable, Equatable {
    /// Maximum line length in bytes.
    public static let capacity = 200

    private var bytes = InlineArray<200, UInt8>(repeating: 0)
    /// Bytes in the line.
    public private(set) var count = 0

    public init() {}

    /// The line holding `text` (cut at `capacity`; for tests).
    public init(_ text: StaticString) {
        var i = 0
        while i < min(text.utf8CodeUnitCount, Self.capacity) { insert(text.utf8Start[i], at: count); i += 1 }
    }

    /// The byte at `index` (0 ..< count).
    public subscript(index: Int) -> UInt8 { bytes[index] }

    /// True when no more bytes fit.
    public var isFull: Bool { count == Self.capacity }

    /// Inserts `byte` at `index` (0...count); returns false when full.
    @discardableResult
    public mutating func insert(_ byte: UInt8, at index: Int) -> Bool {
        guard count < Self.capacity, index >= 0, index <= count else { return false }
        var i = count
        while i > index { bytes[i] = bytes[i - 1]; i -= 1 }
        bytes[index] = byte
        count += 1
        return true
    }

    /// Removes the bytes in `range` (clamped to the line).
    public mutating func remove(_ range: Range<Int>) {
        let lower = max(0, range.lowerBound), upper = min(count, range.upperBound)
        guard lower < upper else { return }
        let n = upper - lower
        var i = lower
        while i + n < count { bytes[i] = bytes[i + n]; i += 1 }
        count -= n
    }

    /// Empties the line.
    public mutating func removeAll() { count = 0 }

    /// Empties the line and overwrites every byte it held (a password leaves no copy behind).
    public mutating func wipe() {
        var i = 0
        while i < Self.capacity { bytes[i] = 0; i += 1 }
        count = 0
    }

    /// Calls `body` with the bytes of the line.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        let n = count
        return bytes.span.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
    }

    /// Appends bytes `range` of the line to `out`.
    public func append(_ range: Range<Int>, to out: inout OutputBuffer) {
        var i = max(0, range.lowerBound)
        while i < min(count, range.upperBound) { out.append(bytes[i]); i += 1 }
    }

    public static func == (a: LineEditorLine, b: LineEditorLine) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count {
            if a.bytes[i] != b.bytes[i] { return false }
            i += 1
        }
        return true
    }
}
