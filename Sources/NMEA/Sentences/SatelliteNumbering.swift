/// Which satellite an NMEA satellite number means, in three numberings: the constellation, the
/// satellite's own ID within it (`svid`: GPS PRN 1-32, GLONASS slot 1-24, Galileo 1-36, BeiDou 1-63,
/// QZSS 1-10, SBAS PRN 120-158 …), and gpsd's flat PRN numbering used in its SKY reports
/// (GPS 1-32, SBAS 120-158, GLONASS 65-96, QZSS 193-202, Galileo 301-336, BeiDou 401-463, NavIC 501-).
/// Without a system ID, numbers 193-200 are QZSS and 201-263 BeiDou (SiRF), as gpsd decides.
public struct SatelliteIdentity: Sendable, Equatable, Hashable {
    public var constellation: Constellation
    public var svid: UInt16
    public var prn: UInt16

    public init(constellation: Constellation, svid: UInt16, prn: UInt16) {
        self.constellation = constellation
        self.svid = svid
        self.prn = prn
    }
}

/// Maps NMEA satellite numbers (per talker, NMEA 4.10 system ID) to `SatelliteIdentity`.
public enum SatelliteNumbering {
    /// Identifies satellite `number` as sent by `talker` (and, for NMEA 4.10+ GSA/GSV, the system ID).
    /// Returns nil for numbers no convention assigns (0, 97-119, 159-192 …).
    public static func identify(number: Int, talker: Talker, systemID: Int? = nil) -> SatelliteIdentity? {
        guard number > 0 else { return nil }
        let system: Constellation? = systemID.map { Constellation(nmeaSystemID: $0) } ?? talker.constellation
        switch system {
        case .glonass?:
            // NMEA uses 65-96; some receivers send the slot 1-32 under a GL talker.
            let slot = number > 64 ? number - 64 : number
            guard (1...32).contains(slot) else { return nil }
            return SatelliteIdentity(constellation: .glonass, svid: UInt16(slot), prn: UInt16(64 + slot))
        case .galileo?:
            let svid = number > 300 ? number - 300 : (number > 100 ? number - 100 : number)
            guard (1...36).contains(svid) else { return nil }
            return SatelliteIdentity(constellation: .galileo, svid: UInt16(svid), prn: UInt16(300 + svid))
        case .beidou?:
            let svid = number > 400 ? number - 400 : (number > 200 ? number - 200 : number)
            guard (1...63).contains(svid) else { return nil }
            return SatelliteIdentity(constellation: .beidou, svid: UInt16(svid), prn: UInt16(400 + svid))
        case .qzss?:
            let svid = number > 192 ? number - 192 : number
            guard (1...10).contains(svid) else { return nil }
            return SatelliteIdentity(constellation: .qzss, svid: UInt16(svid), prn: UInt16(192 + svid))
        case .navic?:
            guard (1...14).contains(number) else { return nil }
            return SatelliteIdentity(constellation: .navic, svid: UInt16(number), prn: UInt16(500 + number))
        default:
            return byRange(number)
        }
    }

    /// The NMEA 4.0 number ranges, used for `GP`/`GN` talkers without a system ID.
    static func byRange(_ n: Int) -> SatelliteIdentity? {
        switch n {
        case 1...32: SatelliteIdentity(constellation: .gps, svid: UInt16(n), prn: UInt16(n))
        case 33...64: SatelliteIdentity(constellation: .sbas, svid: UInt16(n + 87), prn: UInt16(n + 87))
        case 65...96: SatelliteIdentity(constellation: .glonass, svid: UInt16(n - 64), prn: UInt16(n))
        case 120...158: SatelliteIdentity(constellation: .sbas, svid: UInt16(n), prn: UInt16(n))
        case 173...182: SatelliteIdentity(constellation: .imes, svid: UInt16(n - 172), prn: UInt16(n))
        case 193...200: SatelliteIdentity(constellation: .qzss, svid: UInt16(n - 192), prn: UInt16(n))
        case 201...263: SatelliteIdentity(constellation: .beidou, svid: UInt16(n - 200), prn: UInt16(n + 200))
        case 301...336: SatelliteIdentity(constellation: .galileo, svid: UInt16(n - 300), prn: UInt16(n))
        case 401...463: SatelliteIdentity(constellation: .beidou, svid: UInt16(n - 400), prn: UInt16(n))
        default: nil
        }
    }
}
