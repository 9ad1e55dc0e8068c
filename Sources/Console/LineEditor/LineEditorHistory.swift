/// The lines entered before, for Up/Down recall: a fixed ring of `capacity` lines (the oldest is
/// overwritten). Blank lines and a repeat of the newest line are not stored.
public struct LineEditorHistory: Sendable {
    /// Number of lines kept.
    public static let capacity = 16

    private var lines = InlineArray<16, LineEditorLine>(repeating: LineEditorLine())
    private var next = 0
    /// Lines held (0...capacity).
    public private(set) var count = 0

    public init() {}

    /// Stores `line` as the newest entry (unless blank or equal to the newest).
    public mutating func add(_ line: LineEditorLine) {
        var blank = true
        var i = 0
        while i < line.count {
            if line[i] != 0x20 { blank = false; break }
            i += 1
        }
        if blank { return }
        if count > 0 && lines[(next - 1 + Self.capacity) % Self.capacity] == line { return }
        lines[next] = line
        next = (next + 1) % Self.capacity
        if count < Self.capacity { count += 1 }
    }

    /// The entry `age` steps back (0 = newest), or nil.
    public func entry(_ age: Int) -> LineEditorLine? {
        guard age >= 0 && age < count else { return nil }
        return lines[(next - 1 - age + 2 * Self.capacity) % Self.capacity]
    }
}
