/// One satellite signal in view (one GSV entry). Units: degrees, dB-Hz.
public struct SatelliteInView: Sendable, Equatable {
    public var identity: SatelliteIdentity
    /// Elevation above the horizon, degrees (−90...90); nil when not sent.
    public var elevationDegrees: Int8?
    /// Azimuth, degrees clockwise from true north (0...359); nil when not sent.
    public var azimuthDegrees: UInt16?
    /// Carrier-to-noise density, dB-Hz; nil when the signal is not tracked.
    public var snr: UInt8?
    /// NMEA 4.10 signal ID of this entry (1 = L1 C/A for GPS …); nil before NMEA 4.10.
    public var signalID: UInt8?
    /// True when the satellite is used in the solution (listed in the epoch's GSA).
    public var used: Bool

    public init(identity: SatelliteIdentity, elevationDegrees: Int8? = nil, azimuthDegrees: UInt16? = nil,
                snr: UInt8? = nil, signalID: UInt8? = nil, used: Bool = false) {
        self.identity = identity
        self.elevationDegrees = elevationDegrees
        self.azimuthDegrees = azimuthDegrees
        self.snr = snr
        self.signalID = signalID
        self.used = used
    }
}

/// The sky as last reported by a complete set of GSV sentences: up to `capacity` satellite signals in
/// fixed inline storage (a dual-frequency receiver lists a satellite once per signal).
public struct SkyView: Sendable {
    /// Maximum number of entries kept; further entries are counted in `droppedEntries`.
    public static let capacity = 96

    @usableFromInline
    internal var storage: InlineArray<96, SatelliteInView> =
        .init(repeating: SatelliteInView(identity: SatelliteIdentity(constellation: .unknown, svid: 0, prn: 0)))
    /// Number of entries.
    public internal(set) var count = 0
    /// Entries that did not fit.
    public private(set) var droppedEntries = 0

    public init() {}

    /// The entry at `index` (0 ..< count). Inlinable so readers in other modules index the inline
    /// storage in place instead of receiving a copy of all 96 entries.
    @inlinable
    public subscript(index: Int) -> SatelliteInView {
        precondition(index >= 0 && index < count, "SkyView index out of range")
        return storage[index]
    }

    /// Distinct satellites (a satellite seen on two signals counts once); computed when published.
    public private(set) var distinctSatellites = 0
    /// Distinct satellites flagged as used; computed when published.
    public private(set) var usedSatellites = 0

    /// Empties the view.
    public mutating func removeAll() {
        count = 0
        droppedEntries = 0
        distinctSatellites = 0
        usedSatellites = 0
    }

    /// Adds an entry, or counts it as dropped when full.
    public mutating func append(_ satellite: SatelliteInView) {
        if count < Self.capacity {
            storage[count] = satellite
            count += 1
        } else {
            droppedEntries += 1
        }
    }

    /// Sets the `used` flag of every entry from a set of used satellites and counts distinct satellites.
    mutating func markUsed(_ used: borrowing UsedSatellites) {
        var seen = UsedSatellites()
        var usedDistinct = 0
        for i in 0..<count {
            let id = storage[i].identity
            let isUsed = used.contains(id)
            storage[i].used = isUsed
            if !seen.contains(id) {
                seen.insert(id)
                if isUsed { usedDistinct += 1 }
            }
        }
        distinctSatellites = seen.count
        usedSatellites = usedDistinct
    }
}

/// A set of satellites as a fixed 2048-bit bitmap keyed by constellation and svid (svid ≤ 255):
/// O(1) insert and lookup, 256 bytes, no allocation. Used for an epoch's GSA "used" list.
struct UsedSatellites {
    private var words: InlineArray<32, UInt64> = .init(repeating: 0)
    /// Number of satellites in the set.
    private(set) var count = 0

    @inline(__always)
    private static func key(_ id: SatelliteIdentity) -> Int? {
        guard id.constellation.rawValue < 8, id.svid < 256 else { return nil }
        return Int(id.constellation.rawValue) << 8 | Int(id.svid)
    }

    mutating func removeAll() {
        if count == 0 { return }
        for i in 0..<32 { words[i] = 0 }
        count = 0
    }

    mutating func insert(_ id: SatelliteIdentity) {
        guard let k = Self.key(id) else { return }
        let bit: UInt64 = 1 << UInt64(k & 63)
        if words[k >> 6] & bit == 0 {
            words[k >> 6] |= bit
            count += 1
        }
    }

    func contains(_ id: SatelliteIdentity) -> Bool {
        guard let k = Self.key(id) else { return false }
        return words[k >> 6] & (1 << UInt64(k & 63)) != 0
    }
}
