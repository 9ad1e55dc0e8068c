// Fixed-capacity tables of `ConsoleDeviceState`. Each keeps its entries inline; an entry that does not
// fit is counted in `overflow` (the views say so) instead of growing anything.

/// The device's sources and edges (up to 10).
public struct ConsoleSourceTable: Sendable {
    public static let capacity = 10
    private var entries = InlineArray<10, ConsoleSource>(
        repeating: ConsoleSource(name: "", description: ConsoleText(), state: "", isHealthy: true))
    public private(set) var count = 0
    /// Entries that did not fit.
    public private(set) var overflow = 0

    public init() {}

    public subscript(index: Int) -> ConsoleSource {
        get { precondition(index >= 0 && index < count, "source index out of range"); return entries[index] }
        set { precondition(index >= 0 && index < count, "source index out of range"); entries[index] = newValue }
    }

    /// Adds a source, or replaces the one with the same name.
    public mutating func set(_ source: ConsoleSource) {
        var i = 0
        while i < count {
            if StaticStringBox(entries[i].name) == StaticStringBox(source.name) { entries[i] = source; return }
            i += 1
        }
        if count < Self.capacity { entries[count] = source; count += 1 } else { overflow += 1 }
    }

    public mutating func removeAll() { count = 0; overflow = 0 }
}

/// The LEDs (up to 8).
public struct ConsoleLEDTable: Sendable {
    public static let capacity = 8
    private var entries = InlineArray<8, ConsoleLED>(repeating: ConsoleLED(name: "", isOn: false, pattern: ""))
    public private(set) var count = 0
    public private(set) var overflow = 0

    public init() {}

    public subscript(index: Int) -> ConsoleLED {
        get { precondition(index >= 0 && index < count, "LED index out of range"); return entries[index] }
        set { precondition(index >= 0 && index < count, "LED index out of range"); entries[index] = newValue }
    }

    public mutating func append(_ led: ConsoleLED) {
        if count < Self.capacity { entries[count] = led; count += 1 } else { overflow += 1 }
    }

    public mutating func removeAll() { count = 0; overflow = 0 }
}

/// The current faults (up to 8).
public struct ConsoleFaultList: Sendable {
    public static let capacity = 8
    private var entries = InlineArray<8, ConsoleFault>(repeating: ConsoleFault(source: "", reason: ConsoleText()))
    public private(set) var count = 0
    public private(set) var overflow = 0

    public init() {}

    public subscript(index: Int) -> ConsoleFault {
        precondition(index >= 0 && index < count, "fault index out of range")
        return entries[index]
    }

    public mutating func append(_ fault: ConsoleFault) {
        if count < Self.capacity { entries[count] = fault; count += 1 } else { overflow += 1 }
    }

    public mutating func removeAll() { count = 0; overflow = 0 }
}

/// Named device counters (up to 160), shown by `stats` in the order added.
public struct ConsoleCounterTable: Sendable {
    public static let capacity = 160
    private var entries = InlineArray<160, ConsoleCounter>(repeating: ConsoleCounter(name: "", value: 0))
    public private(set) var count = 0
    public private(set) var overflow = 0

    public init() {}

    public subscript(index: Int) -> ConsoleCounter {
        precondition(index >= 0 && index < count, "counter index out of range")
        return entries[index]
    }

    /// Appends a counter (no check for duplicates: for tables rebuilt on every update).
    public mutating func append(_ name: StaticString, _ value: Int64) {
        if count < Self.capacity { entries[count] = ConsoleCounter(name: name, value: value); count += 1 } else { overflow += 1 }
    }

    /// Appends an unsigned counter (wrapping past Int64.max, which no counter reaches).
    @_disfavoredOverload   // an integer literal stays Int64
    public mutating func append(_ name: StaticString, _ value: UInt64) { append(name, Int64(truncatingIfNeeded: value)) }

    /// Sets the counter called `name`, adding it when new.
    public mutating func set(_ name: StaticString, _ value: Int64) {
        var i = 0
        while i < count {
            let n = entries[i].name
            if n.utf8Start == name.utf8Start || StaticStringBox(n) == StaticStringBox(name) { entries[i].value = value; return }
            i += 1
        }
        append(name, value)
    }

    /// The value of the counter called `name`, or nil.
    public func value(_ name: StaticString) -> Int64? {
        var i = 0
        while i < count {
            if StaticStringBox(entries[i].name) == StaticStringBox(name) { return entries[i].value }
            i += 1
        }
        return nil
    }

    public mutating func removeAll() { count = 0; overflow = 0 }
}

/// The running configuration (up to 160 keys), in file order.
public struct ConsoleConfigTable: Sendable {
    public static let capacity = 160
    private var entries = InlineArray<160, ConsoleConfigEntry>(
        repeating: ConsoleConfigEntry(key: ConsoleText(), value: ConsoleText(), isDefault: true))
    public private(set) var count = 0
    public private(set) var overflow = 0

    public init() {}

    public subscript(index: Int) -> ConsoleConfigEntry {
        precondition(index >= 0 && index < count, "config index out of range")
        return entries[index]
    }

    /// Sets `key` to `value` (with where it comes from), adding the key when new.
    public mutating func set(key: ConsoleText, value: ConsoleText, isDefault: Bool, origin: ConsoleText = ConsoleText(),
                             needsRestart: Bool = false) {
        if let i = index(of: key) {
            entries[i].value = value
            entries[i].isDefault = isDefault
            entries[i].origin = origin
            entries[i].needsRestart = needsRestart
            return
        }
        if count < Self.capacity {
            entries[count] = ConsoleConfigEntry(key: key, value: value, isDefault: isDefault, origin: origin,
                                                needsRestart: needsRestart)
            count += 1
        } else {
            overflow += 1
        }
    }

    /// The index of `key`, or nil.
    public func index(of key: ConsoleText) -> Int? {
        var i = 0
        while i < count {
            if entries[i].key == key { return i }
            i += 1
        }
        return nil
    }

    public mutating func removeAll() { count = 0; overflow = 0 }
}
