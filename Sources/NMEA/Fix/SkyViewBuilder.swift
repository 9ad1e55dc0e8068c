/// Collects GSV sequences into the next `SkyView`, double-buffered so publishing copies nothing.
///
/// A receiver sends one numbered GSV sequence per talker (and, from NMEA 4.10, per signal): `GPGSV`
/// 1..3 of 3, then `GLGSV` 1..2 of 2 … A sequence may be spread over several cycles (Garmin). The view
/// is published when every sequence started since the last publication has reached its last part
/// (checked at each epoch end), or when a sequence starts again (part 1 of a talker/signal already
/// collected: the earlier parts belong to the previous view).
struct SkyViewBuilder {
    enum Outcome { case ok, sequenceError, published }

    private struct Sequence {
        var talker = Talker(0, 0)
        var signalID: UInt8 = 0
        var lastPart = 0
        var totalParts = 0
    }

    // Two views, used alternately: one published, one collecting (stored separately so that every
    // mutation happens in place).
    private var viewA = SkyView()
    private var viewB = SkyView()
    private var publishedIsA = true
    private var sequences: InlineArray<16, Sequence> = .init(repeating: Sequence())
    private var sequenceCount = 0

    /// The last published view.
    var published: SkyView { publishedIsA ? viewA : viewB }

    /// Distinct satellites in the published view.
    var publishedDistinctSatellites: Int { publishedIsA ? viewA.distinctSatellites : viewB.distinctSatellites }

    /// True when at least one sequence was collected and all of them are complete.
    var isComplete: Bool {
        guard sequenceCount > 0 else { return false }
        for i in 0..<sequenceCount where sequences[i].lastPart != sequences[i].totalParts { return false }
        return true
    }

    /// Adds one GSV sentence; `used` marks the satellites of a view published on the way.
    mutating func add(_ gsv: borrowing GSV, talker: Talker, used: borrowing UsedSatellites) -> Outcome {
        let signal = gsv.signalID ?? 0
        var index = -1
        for i in 0..<sequenceCount where sequences[i].talker == talker && sequences[i].signalID == signal {
            index = i
            break
        }
        var outcome = Outcome.ok
        if gsv.sentenceNumber == 1 {
            if index >= 0 || sequenceCount == 16 {
                publish(used: used)
                outcome = .published
                index = -1
            }
            index = sequenceCount
            sequences[index] = Sequence(talker: talker, signalID: signal, lastPart: 0, totalParts: gsv.totalSentences)
            sequenceCount += 1
        } else {
            guard index >= 0, sequences[index].lastPart == gsv.sentenceNumber - 1,
                  sequences[index].totalParts == gsv.totalSentences else { return .sequenceError }
        }
        sequences[index].lastPart = gsv.sentenceNumber
        for i in 0..<gsv.count {
            let s = gsv.satellites[i]
            guard let id = SatelliteNumbering.identify(number: Int(s.number), talker: talker) else { continue }
            let entry = SatelliteInView(identity: id, elevationDegrees: s.elevationDegrees,
                                        azimuthDegrees: s.azimuthDegrees, snr: s.snr, signalID: gsv.signalID)
            if publishedIsA { viewB.append(entry) } else { viewA.append(entry) }
        }
        return outcome
    }

    /// Publishes the collected view when it is complete. Returns true when it did.
    mutating func publishIfComplete(used: borrowing UsedSatellites) -> Bool {
        guard isComplete else { return false }
        publish(used: used)
        return true
    }

    private mutating func publish(used: borrowing UsedSatellites) {
        publishedIsA.toggle()
        if publishedIsA {
            viewA.markUsed(used)
            viewB.removeAll()
        } else {
            viewB.markUsed(used)
            viewA.removeAll()
        }
        sequenceCount = 0
    }
}
