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

    /// Applies one sentence, as gpsd would.
    mutating func apply(_ sentence: borrowing ParsedSentence) {
        let talker = sentence.talker.second
        var newMode: UInt8?
        var setsAltitude = false
        var registered: UTCTimeOfDay?
        var isGSA = false
        switch sentence.message {
        case .gga(let g):
            ggaLatched = ggaTalker != 0 && ggaTalker != talker ? false : g.time == ggaTime
            ggaTalker = talker
            if !ggaLatched { ggaTime = g.time }
            registered = g.time
            let satellites = g.satellitesUsed ?? 0
            if g.latitudeDegrees != nil {
                newMode = 2
                if g.altitudeMSLMeters != nil {
                    setsAltitude = true
                    if satellites >= 4 { newMode = 3 }
                }
                if satellites < 3 { newMode = 1 }
            } else {
                newMode = 1
            }
        case .rmc(let r):
            if !r.isValid {
                newMode = 1
                break
            }
            if r.date != nil, r.time != nil {
                dateKnown = true
                registered = r.time
            }
            if r.latitudeDegrees != nil {
                newMode = last.mode == 3 ? 3 : 2
            } else {
                newMode = 1
            }
            if gsaSatellites > 3 || hasAltitude { newMode = 3 }
        case .gll(let g):
            registered = g.time
            if g.isValid && g.mode != .notValid && g.latitudeDegrees != nil {
                if hasAltitude || gsaSatellites > 3 { newMode = 3 }
                else if mode < 2 || !old.hasAltitude { newMode = 2 }
                else { newMode = 0 }
            } else {
                newMode = 1
            }
        case .gns(let g):
            registered = g.time
            if g.mode == nil || g.mode == .notValid {
                newMode = 1
            } else if g.navigationStatusValid {
                if g.latitudeDegrees != nil {
                    newMode = 2
                    if g.altitudeMSLMeters != nil {
                        setsAltitude = true
                        if (g.satellitesUsed ?? 0) > 3 { newMode = 3 }
                    }
                } else {
                    newMode = 1
                }
            }
        case .zda(let z):
            registered = z.time
            if z.date != nil { dateKnown = true }
        case .gsa(let g):
            isGSA = true
            if ggaLatched { break }
            if previousGSATalker == 0 || (talker == previousGSATalker && talker != 0x4E) { gsaSatellites = 0 }
            gsaSatellites += g.usedCount
            if talker != 0x50 { sawOtherGSA = true }                        // not GP
            if let t = g.fixType, !(sawOtherGSA && talker == 0x50) { newMode = t }
        case .vtg, .gst, .gsv, .hdt, .ths, .proprietary, .other, .invalid:
            break
        case .encapsulated:
            return                                                          // AIS: not NMEA to gpsd
        }
        previousGSATalker = isGSA ? talker : 0

        // Don't downgrade a merged 3D fix while an altitude is held.
        if let m = newMode, mode == 3, m != 1, last.hasAltitude || old.hasAltitude { newMode = 3 }
        // The first timed sentence of a new cycle clears the merged fix (after it was decoded).
        if let time = registered?.nanoseconds {
            if registeredTime.map({ abs(time - $0) > 10_000_000 }) ?? true {
                mode = 0
                hasAltitude = false
                hasTime = false
            }
            registeredTime = time
        }
        if let m = newMode { mode = m }
        if setsAltitude { hasAltitude = true }
        if let time = registered?.nanoseconds, dateKnown {
            hasTime = true
            timeOfDayNanoseconds = time
        }
        if hasTime {
            if abs(timeOfDayNanoseconds - last.timeOfDayNanoseconds) > 9_900_000 { old = last }
            last = Snapshot(mode: mode, hasAltitude: hasAltitude, timeOfDayNanoseconds: timeOfDayNanoseconds)
        }
    }
}
