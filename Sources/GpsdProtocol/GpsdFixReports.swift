import Console
import NMEA

/// The fix reports of gpsd_json(5): `TPV`, `SKY` and `GST`, from puckd's `Fix` and `SkyView`, with the
/// members puckd really has (unknown values are left out, as gpsd leaves out what it does not know).
/// One JSON object and CR LF each, into a caller-owned buffer; allocation-free (docs/gpsd-protocol.md §2).
public enum GpsdFixReports {
    /// gpsd's `status` for a fix quality: 1 normal, 2 DGPS, 3 RTK fixed, 4 RTK float, 5 dead
    /// reckoning, 7 time only (surveyed/PPS), 8 simulated; 0 unknown.
    public static func status(_ q: FixQuality) -> Int {
        switch q {
        case .invalid: 0
        case .gps: 1
        case .dgps: 2
        case .rtkFixed: 3
        case .rtkFloat: 4
        case .deadReckoning: 5
        case .pps: 2          // NMEA quality 3 ("PPS fix", a precise military code): gpsd maps it to DGPS
        case .manual: 7
        case .simulator: 8
        }
    }

    /// `{"class":"TPV",…}`. `climbMetersPerSecond` is the vertical speed the caller derived from
    /// consecutive 3D fixes (nil: not known).
    public static func appendTPV(_ fix: borrowing Fix, device: borrowing GpsdShortText, climbMetersPerSecond: Double? = nil,
                                 to out: inout OutputBuffer) {
        out.append("{\"class\":\"TPV\",\"device\":")
        device.withBytes { JSONWriter.string($0, &out) }
        out.append(",\"status\":"); out.append(int: status(fix.quality))
        out.append(",\"mode\":"); out.append(int: Int(fix.mode.rawValue))
        if let utc = fix.utcNanoseconds {
            out.append(",\"time\":\""); out.append(isoTime: utc, fractionDigits: 3); out.append(UInt8(ascii: "\""))
            if fix.isLeapSecond { out.append(",\"leapseconds\":true") }
            out.append(",\"ept\":0.005")
        }
        if fix.hasPosition {
            number("lat", fix.latitudeDegrees, 9, &out)
            number("lon", fix.longitudeDegrees, 9, &out)
            if fix.mode == .threeD {
                number("altHAE", fix.altitudeEllipsoidMeters, 3, &out)
                number("altMSL", fix.altitudeMSLMeters, 3, &out)
                number("alt", fix.altitudeMSLMeters, 3, &out)
            }
            if let e = fix.errorEllipse {
                // GST's 1-sigma errors, doubled to gpsd's ~95 % figures.
                number("epx", e.longitudeSigmaMeters.map { $0 * 2 }, 3, &out)
                number("epy", e.latitudeSigmaMeters.map { $0 * 2 }, 3, &out)
            }
            if fix.mode == .threeD { number("epv", fix.verticalAccuracyMeters, 3, &out) }
            number("track", fix.courseDegrees, 4, &out)
            if let track = fix.courseDegrees, let variation = fix.magneticVariationDegrees {
                var m = track - variation
                if m < 0 { m += 360 } else if m >= 360 { m -= 360 }
                number("magtrack", m, 4, &out)
            }
            number("magvar", fix.magneticVariationDegrees, 1, &out)
            number("speed", fix.speedMetersPerSecond, 3, &out)
            if fix.mode == .threeD { number("climb", climbMetersPerSecond, 3, &out) }
            if fix.mode == .threeD { number("geoidSep", fix.geoidSeparationMeters, 3, &out) }
            number("eph", fix.horizontalAccuracyMeters, 3, &out)
        }
        out.append("}\r\n")
    }

    /// gpsd's `gnssid` for a constellation (u-blox numbering: 0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou,
    /// 4 IMES, 5 QZSS, 6 GLONASS, 7 NavIC); nil when unknown.
    public static func gnssid(_ c: Constellation) -> Int? {
        c == .unknown ? nil : Int(c.rawValue)
    }

    /// `{"class":"SKY",…,"satellites":[…]}` with the DOPs of `fix` and the satellites of `sky`.
    /// With no satellites in view yet, the DOPs and the fix's used count only (gpsd does the same).
    public static func appendSKY(_ sky: borrowing SkyView, fix: borrowing Fix, device: borrowing GpsdShortText,
                                 to out: inout OutputBuffer) {
        out.append("{\"class\":\"SKY\",\"device\":")
        device.withBytes { JSONWriter.string($0, &out) }
        if let utc = fix.utcNanoseconds {
            out.append(",\"time\":\""); out.append(isoTime: utc, fractionDigits: 3); out.append(UInt8(ascii: "\""))
        }
        number("hdop", fix.hdop, 2, &out)
        number("vdop", fix.vdop, 2, &out)
        number("pdop", fix.pdop, 2, &out)
        if sky.count == 0 {
            // No GSV yet (or a receiver that sends none): the DOPs and the used count, as gpsd's SKY
            // from GGA/GSA alone.
            if let used = fix.satellitesUsed { out.append(",\"uSat\":"); out.append(int: used) }
            out.append("}\r\n")
            return
        }
        var used = 0
        var i = 0
        while i < sky.count { if sky[i].used { used += 1 }; i += 1 }
        out.append(",\"nSat\":"); out.append(int: sky.count)
        out.append(",\"uSat\":"); out.append(int: used)
        out.append(",\"satellites\":[")
        i = 0
        while i < sky.count {
            let s = sky[i]
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append("{\"PRN\":"); out.append(int: prn(s.identity))
            if let e = s.elevationDegrees { out.append(",\"el\":"); out.append(int: Int(e)); out.append(".0") }
            if let a = s.azimuthDegrees { out.append(",\"az\":"); out.append(int: Int(a)); out.append(".0") }
            if let ss = s.snr { out.append(",\"ss\":"); out.append(int: Int(ss)); out.append(".0") }
            out.append(",\"used\":"); out.append(s.used ? "true" : "false")
            if let g = gnssid(s.identity.constellation) {
                out.append(",\"gnssid\":"); out.append(int: g)
                out.append(",\"svid\":"); out.append(int: Int(s.identity.svid))
            }
            out.append("}")
            i += 1
        }
        out.append("]}\r\n")
    }

    /// gpsd's `PRN`: the NMEA satellite number, so SBAS svid 120–151 is PRN 33–64 (its `svid` stays 120–151).
    public static func prn(_ id: SatelliteIdentity) -> Int {
        if id.constellation == .sbas && id.prn >= 120 && id.prn <= 151 { return Int(id.prn) - 87 }
        return Int(id.prn)
    }

    /// `{"class":"GST",…}` from the epoch's GST statistics; appends nothing and returns false when
    /// the epoch had none.
    @discardableResult
    public static func appendGST(_ fix: borrowing Fix, device: borrowing GpsdShortText, to out: inout OutputBuffer) -> Bool {
        guard let e = fix.errorEllipse else { return false }
        out.append("{\"class\":\"GST\",\"device\":")
        device.withBytes { JSONWriter.string($0, &out) }
        if let utc = fix.utcNanoseconds {
            out.append(",\"time\":\""); out.append(isoTime: utc, fractionDigits: 3); out.append(UInt8(ascii: "\""))
        }
        number("rms", e.rangeRMSMeters, 3, &out)
        number("major", e.semiMajorMeters, 3, &out)
        number("minor", e.semiMinorMeters, 3, &out)
        number("orient", e.orientationDegrees, 1, &out)
        number("lat", e.latitudeSigmaMeters, 3, &out)
        number("lon", e.longitudeSigmaMeters, 3, &out)
        number("alt", e.altitudeSigmaMeters, 3, &out)
        out.append("}\r\n")
        return true
    }

    /// `,"key":value` when the value is known and finite.
    static func number(_ key: StaticString, _ value: Double?, _ decimals: Int, _ out: inout OutputBuffer) {
        guard let value, value.isFinite else { return }
        out.append(",\""); out.append(key); out.append("\":")
        out.append(value, decimals: decimals)
    }
}
