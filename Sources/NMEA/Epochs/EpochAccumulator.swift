/// Everything the sentences of one receiver cycle said, merged; turned into a `Fix` when the cycle ends.
///
/// Merge rules (documented here, tested in `EpochAssemblerTests`):
/// - Position: GGA > GNS > RMC > GLL (the fix-data sentences first); a later sentence of the same kind
///   replaces an earlier one.
/// - Validity: the epoch has a fix when at least one sentence says so (GGA quality ≥ 1, RMC status A/D,
///   GLL status A, GNS mode not N, GSA fix type 2/3) and none says otherwise (GGA quality 0, RMC/GLL
///   status V, mode indicator N, GSA fix type 1), and when the satellites
///   used (GGA/GNS count, and the GSA list) are not below 3 — a "fix" from fewer satellites is treated as
///   none, as gpsd does
///   (except dead-reckoning, manual and simulated fixes, which need no satellites).
/// - Satellites used: a `GN` GGA/GNS count (combined solution; the larger if both) wins; otherwise the counts of
///   constellation-specific talkers (`GPGGA` + `GLGGA` on SiRFstarV) are summed; otherwise the number of
///   satellites listed in GSA.
/// - Speed/course: RMC, else VTG (unless its mode is N).
struct EpochAccumulator {
    var timeOfDay: UTCTimeOfDay
    var date: NMEADate?

    var latitude: Double?
    var longitude: Double?
    /// 0 none, 1 GLL, 2 RMC, 3 GNS, 4 GGA.
    var positionRank = 0
    var altitudeMSL: Double?
    var geoidSeparation: Double?
    var quality: FixQuality?
    var modeQuality: FixQuality?
    var saysValid = false
    var saysInvalid = false

    var combinedSatellites: Int?
    /// Satellites used per constellation-specific talker, indexed by `Constellation.rawValue` (0...7).
    var satellitesByConstellation: InlineArray<8, Int16> = .init(repeating: -1)
    var gsaFixType: UInt8?
    var gsaUsedCount = 0
    var pdop: Double?
    var hdop: Double?
    var ggaHDOP: Double?
    var vdop: Double?

    var speed: Double?
    var course: Double?
    /// 0 none, 1 VTG, 2 RMC.
    var velocityRank = 0
    var magneticVariation: Double?
    var heading: Double?
    var ellipse: ErrorEllipse?
    var differentialAge: Double?
    var differentialStation: Int?

    init(timeOfDay: UTCTimeOfDay) {
        self.timeOfDay = timeOfDay
    }

    // MARK: merging

    mutating func merge(_ g: GGA, talker: Talker) {
        if let q = g.quality {
            if q == .invalid { saysInvalid = true } else { saysValid = true; quality = q }
        }
        if let n = g.satellitesUsed { countSatellites(n, talker: talker) }
        if let lat = g.latitudeDegrees, let lon = g.longitudeDegrees, positionRank <= 4 {
            latitude = lat; longitude = lon; positionRank = 4
        }
        if let alt = g.altitudeMSLMeters { altitudeMSL = alt }
        if let sep = g.geoidSeparationMeters { geoidSeparation = sep }
        if let h = g.hdop { ggaHDOP = h }
        if let age = g.differentialAgeSeconds { differentialAge = age }
        if let id = g.differentialStationID { differentialStation = id }
    }

    mutating func merge(_ r: RMC) {
        guard r.isValid, r.mode?.isValid ?? true else { saysInvalid = true; return }
        saysValid = true
        if let m = r.mode, modeQuality == nil { modeQuality = m.quality }
        if let lat = r.latitudeDegrees, let lon = r.longitudeDegrees, positionRank <= 2 {
            latitude = lat; longitude = lon; positionRank = 2
        }
        if r.speedMetersPerSecond != nil || r.courseDegrees != nil {
            speed = r.speedMetersPerSecond; course = r.courseDegrees; velocityRank = 2
        }
        if let v = r.magneticVariationDegrees { magneticVariation = v }
        if let d = r.date { date = d }
    }

    mutating func merge(_ g: GLL) {
        guard g.isValid, g.mode?.isValid ?? true else { saysInvalid = true; return }
        saysValid = true
        if let m = g.mode, modeQuality == nil { modeQuality = m.quality }
        if let lat = g.latitudeDegrees, let lon = g.longitudeDegrees, positionRank <= 1 {
            latitude = lat; longitude = lon; positionRank = 1
        }
    }

    mutating func merge(_ g: GNS, talker: Talker) {
        // NMEA 4.1 navigational status U/V flags integrity ("not safe for navigation"), not the
        // absence of a fix: such a GNS neither confirms nor denies the fix (as gpsd treats it).
        guard g.navigationStatusValid else { return }
        guard g.anySystemValid else { saysInvalid = true; return }
        saysValid = true
        if let m = g.mode, m.isValid, modeQuality == nil { modeQuality = m.quality }
        if let n = g.satellitesUsed { countSatellites(n, talker: talker) }
        if let lat = g.latitudeDegrees, let lon = g.longitudeDegrees, positionRank <= 3 {
            latitude = lat; longitude = lon; positionRank = 3
        }
        if altitudeMSL == nil, let alt = g.altitudeMSLMeters { altitudeMSL = alt }
        if geoidSeparation == nil, let sep = g.geoidSeparationMeters { geoidSeparation = sep }
        if ggaHDOP == nil, let h = g.hdop { ggaHDOP = h }
    }

    mutating func merge(_ v: VTG) {
        guard v.mode?.isValid ?? true, velocityRank < 2 else { return }
        if v.speedMetersPerSecond != nil || v.courseTrueDegrees != nil {
            speed = v.speedMetersPerSecond; course = v.courseTrueDegrees; velocityRank = 1
        }
    }

    /// Merges a GSA; its satellites go into `used` (the epoch's set, owned by the assembler).
    mutating func merge(_ g: GSA, talker: Talker, used: inout UsedSatellites) {
        if let t = g.fixType {
            if t == 1 { saysInvalid = true } else { saysValid = true; gsaFixType = max(gsaFixType ?? 0, t) }
        }
        if let p = g.pdop { pdop = p }
        if let h = g.hdop { hdop = h }
        if let v = g.vdop { vdop = v }
        for i in 0..<g.usedCount {
            if let id = SatelliteNumbering.identify(number: Int(g.used[i]), talker: talker, systemID: g.systemID) {
                used.insert(id)
            }
        }
        gsaUsedCount = used.count
    }

    mutating func mergeHeading(_ degrees: Double?) {
        if let degrees { heading = degrees }
    }

    private mutating func countSatellites(_ n: Int, talker: Talker) {
        if let c = talker.constellation {
            satellitesByConstellation[Int(c.rawValue)] = Int16(n)
        } else {
            combinedSatellites = max(combinedSatellites ?? 0, n)
        }
    }

    // MARK: results

    /// Satellites used as GGA/GNS reported them (combined, else summed over constellations), or nil.
    var reportedSatellites: Int? {
        if let combinedSatellites { return combinedSatellites }
        var sum = 0
        var any = false
        for i in 0..<8 where satellitesByConstellation[i] >= 0 {
            sum += Int(satellitesByConstellation[i])
            any = true
        }
        return any ? sum : nil
    }

    /// Satellites used in the solution: GGA/GNS count, else the number listed in GSA, else nil.
    var satellitesUsed: Int? {
        reportedSatellites ?? (gsaUsedCount > 0 ? gsaUsedCount : nil)
    }

    /// True when the epoch holds a usable position fix.
    var hasFix: Bool {
        guard saysValid, !saysInvalid, latitude != nil, longitude != nil else { return false }
        if let n = reportedSatellites, n < 3, gsaUsedCount < 3,
           quality != .deadReckoning, quality != .manual, quality != .simulator { return false }
        return true
    }
}
