// Field decoders shared by several sentence types: courses and mode indicators.

extension FieldScanner {
    /// A course or heading in degrees, 0...360 (360 is returned as 0), or nil when empty.
    mutating func course() -> Double? {
        guard let c = decimal(in: 0...360) else { return nil }
        return c == 360 ? 0 : c
    }

    /// An NMEA 2.3+ mode indicator letter, or nil when empty or absent.
    mutating func positioningMode() -> PositioningMode? {
        guard let c = character() else { return nil }
        guard let mode = PositioningMode(rawValue: c) else { fail(.malformedField); return nil }
        return mode
    }

    /// GNS's mode field: one letter per system. Returns the first letter and whether any is valid.
    mutating func modeIndicators() -> (PositioningMode?, Bool) {
        var first: PositioningMode?
        var anyValid = false
        let bytes = rawField()
        guard bytes.count <= 8 else { fail(.malformedField); return (nil, false) }
        for index in 0..<bytes.count {
            guard let mode = PositioningMode(rawValue: bytes[index]) else { fail(.malformedField); return (nil, false) }
            if index == 0 { first = mode }
            if mode.isValid { anyValid = true }
        }
        return (first, anyValid)
    }
}
