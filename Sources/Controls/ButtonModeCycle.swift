/// The tracking modes a short press steps through, in order, wrapping around; e.g. none → follow →
/// followWithCourse → followWithHeading → none (the default of the device), or ArcGIS's off → recenter →
/// navigation → compassNavigation, possibly with the overview viewport.
///
/// Generic over the mode type so the Tracking module's enum plugs in unchanged. Fixed capacity, no
/// allocation after `init`. The position of a mode in the cycle is also its number on the mode LED
/// (first entry = 0 = no blinks).
public struct ButtonModeCycle<Mode: Equatable & Sendable>: Sendable {
    /// Modes a cycle holds at most.
    public static var capacity: Int { 8 }

    private var modes: InlineArray<8, Mode>
    /// Number of modes in the cycle (1 ... capacity).
    public let count: Int

    /// A cycle through `modes` in order (start-up: validates and copies).
    public init(_ modes: [Mode]) throws(ButtonConfigurationError) {
        guard let first = modes.first else { throw .emptyModeCycle }
        if modes.count > Self.capacity { throw .tooManyModes(count: modes.count, capacity: Self.capacity) }
        var storage = InlineArray<8, Mode>(repeating: first)
        for i in modes.indices {
            if modes[..<i].contains(modes[i]) { throw .duplicateMode(position: i) }
            storage[i] = modes[i]
        }
        self.modes = storage
        self.count = modes.count
    }

    /// The mode at `position` (0 ..< count).
    public subscript(position: Int) -> Mode {
        precondition(position >= 0 && position < count, "ButtonModeCycle position out of range")
        return modes[position]
    }

    /// The position of `mode` in the cycle, or nil when the cycle does not contain it.
    public func position(of mode: Mode) -> Int? {
        var i = 0
        while i < count {
            if modes[i] == mode { return i }
            i += 1
        }
        return nil
    }

    /// The mode after `current`, wrapping to the first; the first mode when `current` is not in the cycle
    /// (e.g. set from the console).
    public func next(after current: Mode) -> Mode {
        guard let position = position(of: current) else { return modes[0] }
        return modes[(position + 1) % count]
    }
}
