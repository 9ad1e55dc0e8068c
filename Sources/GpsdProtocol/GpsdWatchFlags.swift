/// A short byte string held inline (a device path, a piece of a bad request): no allocation, no
/// reference. Longer input is cut at `capacity` and `truncated` says so.
public struct GpsdShortText: Sendable, Equatable {
    /// Bytes kept.
    public static let capacity = 64
    private var storage: InlineArray<64, UInt8> = .init(repeating: 0)
    /// Number of bytes held.
    public private(set) var count = 0
    /// True when the source was longer than `capacity`.
    public private(set) var truncated = false

    public init() {}

    /// The text of `bytes` (cut at `capacity`).
    public init(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        while i < bytes.count { append(bytes[i]); i += 1 }
    }

    /// Appends one byte (or marks the text truncated).
    public mutating func append(_ byte: UInt8) {
        if count < Self.capacity { storage[count] = byte; count += 1 } else { truncated = true }
    }

    /// Calls `body` with the bytes held.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        let n = count
        return storage.span.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
    }

    /// True when the text equals `bytes`.
    public func equals(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == count else { return false }
        var i = 0
        while i < count { if storage[i] != bytes[i] { return false }; i += 1 }
        return true
    }

    public static func == (a: GpsdShortText, b: GpsdShortText) -> Bool {
        b.withBytes { a.equals($0) } && a.truncated == b.truncated
    }
}

/// What one client of the gpsd-protocol socket has asked to receive (gpsd_json(5) `WATCH`), plus
/// puckd's own `puckd`/`puckd_hz` (docs/gpsd-protocol.md §3).
public struct GpsdWatchFlags: Sendable, Equatable {
    /// Reports flow at all.
    public var enable = false
    /// JSON reports (TPV, SKY, GST, ATT …).
    public var json = false
    /// The receiver's NMEA sentences, unchanged.
    public var nmea = false
    /// 0: none; 1 and 2: the receiver's own bytes (NMEA is text, so both pass the lines unchanged).
    public var raw: UInt8 = 0
    /// gpsd's `scaled` (AIS/raw scaling): accepted and echoed, puckd has nothing it changes.
    public var scaled = false
    /// gpsd's `timing` (latency fields): accepted and echoed, not produced.
    public var timing = false
    /// gpsd's `split24` (AIS type 24): accepted and echoed, not produced.
    public var split24 = false
    /// PPS and TOFF reports.
    public var pps = false
    /// puckd's PUCK, CAMERA and EVENT reports.
    public var puckd = false
    /// Rate of PUCK/CAMERA reports, per second (1...puckd's tick rate; 0 = every tick).
    public var puckdHertz: UInt16 = 0
    /// Reports only from this device path (empty: every device).
    public var device = GpsdShortText()

    public init() {}

    /// True when the client wants JSON reports now.
    public var wantsJSON: Bool { enable && json }
    /// True when the client wants the receiver's sentences now.
    public var wantsSentences: Bool { enable && (nmea || raw > 0) }
    /// True when the client wants PUCK/CAMERA/EVENT now.
    public var wantsPuckd: Bool { enable && puckd }

    /// Applies a `?WATCH={…}` request: members given replace the current values, the others stay
    /// (gpsd's semantics). `enable:true` with neither `json`, `nmea` nor `raw` given turns JSON on, as
    /// gpsd does for a bare `{"enable":true}`.
    public mutating func apply(_ r: GpsdWatchRequest) {
        if let v = r.enable { enable = v }
        if let v = r.json { json = v }
        if let v = r.nmea { nmea = v }
        if let v = r.raw { raw = v }
        if let v = r.scaled { scaled = v }
        if let v = r.timing { timing = v }
        if let v = r.split24 { split24 = v }
        if let v = r.pps { pps = v }
        if let v = r.puckd { puckd = v }
        if let v = r.puckdHertz { puckdHertz = v }
        if let v = r.device { device = v }
        if r.enable == true && r.json == nil && r.nmea == nil && r.raw == nil && !nmea && raw == 0 { json = true }
    }
}

/// The members of one `?WATCH={…}` request; nil = not given.
public struct GpsdWatchRequest: Sendable, Equatable {
    public var enable: Bool?
    public var json: Bool?
    public var nmea: Bool?
    public var raw: UInt8?
    public var scaled: Bool?
    public var timing: Bool?
    public var split24: Bool?
    public var pps: Bool?
    public var puckd: Bool?
    public var puckdHertz: UInt16?
    public var device: GpsdShortText?

    public init() {}
}
