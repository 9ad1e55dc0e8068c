/// gpsd's rules for the fix mode (no fix, 2D, 3D), followed sentence by sentence in the order gpsd
/// applies them (gpsd 3.22 and HEAD agree): the sentence handlers of `drivers/driver_nmea0183.c`, the
/// "don't downgrade" rule at the end of `nmea_parse`, and the cycle merge of `gpsd_poll` and
/// `gpsd_error_model` in `libgpsd_core.c` (the merged fix is cleared by the first timed sentence of a
/// new cycle, after that sentence was decoded against the previous cycle's fix).
///
/// - GGA: 2D with a position; 3D when it also carries an altitude and 4 or more satellites; no fix
///   below 3 satellites (an empty count is 0).
/// - GNS: the same with more than 3 satellites; no fix when the first mode indicator is N or empty.
/// - GSA: its fix type, except a `GPGSA` once other constellations' GSA were seen (gpsd takes the mode
///   from the combined ones), and none after a GGA that repeated its timestamp.
/// - RMC (valid, with a position): 2D, or 3D when the fix before this sentence was 3D; then 3D when the
///   last GSA listed more than 3 satellites or the merged fix has an altitude. This is how RMC-only
///   cycles of a receiver that sends GGA every 2nd or 4th cycle stay 3D.
/// - GLL (valid): 3D when the merged fix has an altitude or the last GSA more than 3 satellites, else 2D.
/// - A mode from any of these never turns a merged 3D fix into 2D while the last or the previous
///   cycle's fix had an altitude (a GSA saying 2D after a GGA with an altitude stays 3D).
///
/// `mode` is gpsd's number: 0 nothing yet, 1 no fix, 2, 3. Pure and allocation-free.
/// The table with the consequences for real receivers: docs/nmea-epochs.md §2.
struct FixModeRules: Sendable {
    /// The merged fix's mode (gpsd's `gpsdata.fix.mode`).
    private(set) var mode: UInt8 = 0

    private struct Snapshot: Sendable {
        var mode: UInt8 = 0
        var hasAltitude = false
        var timeOfDayNanoseconds: Int64 = 0
    }

    private var hasAltitude = false
    private var hasTime = false
    private var timeOfDayNanoseconds: Int64 = 0
    /// gpsd's `lastfix` (the merged fix after the previous sentence) and `oldfix` (the last one of the
    /// previous cycle).
    private var last = Snapshot()
    private var old = Snapshot()
    private var dateKnown = false
    /// The last timestamp a sentence registered (gpsd's `this_frac_time`).
    private var registeredTime: Int64?
    /// Satellites listed by the GSA sentences of the last run of GSA.
    private var gsaSatellites = 0
    /// Second talker letter of the previous sentence when it was a GSA, else 0.
    private var previousGSATalker: UInt8 = 0
    /// A GSA of another talker than `GP` was seen.
    private var sawOtherGSA = false
    private var ggaTalker: UInt8 = 0
    private var ggaTime: UTCTimeOfDay?
    /// The last GGA repeated the one before's timestamp (gpsd's `latch_mode`): GSA is not trusted.
    private var ggaLatched = false

    // MARK: the sentences (each applies one, as gpsd would; `EpochAssembler` calls them in order)

    mutating func gga(_ g: borrowing GGA, talker: UInt8) {
        ggaLatched = ggaTalker != 0 && ggaTalker != talker ? false : g.time == ggaTime
        ggaTalker = talker
        if !ggaLatched { ggaTime = g.time }
        var newMode: UInt8 = 1
        var setsAltitude = false
        let satellites = g.satellitesUsed ?? 0
        if g.latitudeDegrees != nil {
            newMode = 2
            if g.altitudeMSLMeters != nil {
                setsAltitude = true
                if satellites >= 4 { newMode = 3 }
            }
            if satellites < 3 { newMode = 1 }
        }
        commit(newMode, setsAltitude: setsAltitude, registered: g.time, gsaTalker: 0)
    }

    mutating func rmc(_ r: borrowing RMC) {
        guard r.isValid else { return commit(1, setsAltitude: false, registered: nil, gsaTalker: 0) }
        var registered: UTCTimeOfDay?
        if r.date != nil, r.time != nil {
            dateKnown = true
            registered = r.time
        }
        var newMode: UInt8 = r.latitudeDegrees == nil ? 1 : last.mode == 3 ? 3 : 2
        if gsaSatellites > 3 || hasAltitude { newMode = 3 }
        commit(newMode, setsAltitude: false, registered: registered, gsaTalker: 0)
    }

    mutating func gll(_ g: borrowing GLL) {
        var newMode: UInt8 = 1
        let valid = g.isValid, indicator = g.mode, hasPosition = g.latitudeDegrees != nil
        if valid && indicator != .notValid && hasPosition {
            if hasAltitude || gsaSatellites > 3 { newMode = 3 }
            else if mode < 2 || !old.hasAltitude { newMode = 2 }
            else { newMode = 0 }
        }
        commit(newMode, setsAltitude: false, registered: g.time, gsaTalker: 0)
    }

    mutating func gns(_ g: borrowing GNS) {
        var newMode: UInt8?
        var setsAltitude = false
        let indicator = g.mode
        if indicator == nil || indicator == .notValid {
            newMode = 1
        } else if g.navigationStatusValid {
            newMode = 1
            if g.latitudeDegrees != nil {
                newMode = 2
                if g.altitudeMSLMeters != nil {
                    setsAltitude = true
                    if (g.satellitesUsed ?? 0) > 3 { newMode = 3 }
                }
            }
        }
        commit(newMode, setsAltitude: setsAltitude, registered: g.time, gsaTalker: 0)
    }

    mutating func zda(_ z: borrowing ZDA) {
        if z.date != nil { dateKnown = true }
        commit(nil, setsAltitude: false, registered: z.time, gsaTalker: 0)
    }

    mutating func gsa(_ g: borrowing GSA, talker: UInt8) {
        guard !ggaLatched else { return commit(nil, setsAltitude: false, registered: nil, gsaTalker: talker) }
        if previousGSATalker == 0 || (talker == previousGSATalker && talker != 0x4E) { gsaSatellites = 0 }
        gsaSatellites += g.usedCount
        if talker != 0x50 { sawOtherGSA = true }                                // not GP
        var newMode: UInt8?
        if let t = g.fixType, !(sawOtherGSA && talker == 0x50) { newMode = t }
        commit(newMode, setsAltitude: false, registered: nil, gsaTalker: talker)
    }

    /// Any other NMEA sentence (VTG, GSV, GST, HDT, proprietary, unknown …): no mode; it ends a run of GSA.
    /// (AIS sentences are not NMEA to gpsd: they are not passed here.)
    mutating func otherSentence() {
        commit(nil, setsAltitude: false, registered: nil, gsaTalker: 0)
    }

    /// The end of every sentence: gpsd's "don't downgrade", the cycle's clear, the merge, the error
    /// model's last and old fix. `gsaTalker`: second talker letter of a GSA, 0 for other sentences.
    private mutating func commit(_ mode: UInt8?, setsAltitude: Bool, registered: UTCTimeOfDay?, gsaTalker: UInt8) {
        var newMode = mode
        previousGSATalker = gsaTalker
        // Don't downgrade a merged 3D fix while an altitude is held.
        if let m = newMode, self.mode == 3, m != 1, last.hasAltitude || old.hasAltitude { newMode = 3 }
        // The first timed sentence of a new cycle clears the merged fix (after it was decoded).
        if let time = registered?.nanoseconds {
            if registeredTime.map({ abs(time - $0) > 10_000_000 }) ?? true {
                self.mode = 0
                hasAltitude = false
                hasTime = false
            }
            registeredTime = time
        }
        if let m = newMode { self.mode = m }
        if setsAltitude { hasAltitude = true }
        if let time = registered?.nanoseconds, dateKnown {
            hasTime = true
            timeOfDayNanoseconds = time
        }
        if hasTime {
            if abs(timeOfDayNanoseconds - last.timeOfDayNanoseconds) > 9_900_000 { old = last }
            last = Snapshot(mode: self.mode, hasAltitude: hasAltitude, timeOfDayNanoseconds: timeOfDayNanoseconds)
        }
    }
}
