import Console
import NMEA

/// The end-of-replay summary: epochs, time span, sentences by type, and every drop counter of the
/// framer, parser and assembler, as a few lines of text.
enum ReplaySummary {
    static func append(pipeline: borrowing NMEAPipeline, first: ReplayEpochTime?, last: ReplayEpochTime?,
                       to out: inout OutputBuffer) {
        let a = pipeline.assembler.counters
        let f = pipeline.framer.counters
        let s = pipeline.statistics

        out.append("summary: ")
        out.append(int: a.epochs)
        out.append(" epochs (")
        out.append(int: a.epochsWithFix)
        out.append(" with a fix, ")
        out.append(int: a.epochsWithoutDate)
        out.append(" without a date)")
        if let first, let last {
            out.append(", ")
            appendTime(first, to: &out)
            out.append(" .. ")
            appendTime(last, to: &out)
            out.append(" (")
            out.append(Double(EpochAssembler.interval(fromUTC: first.utcNanoseconds, timeOfDay: first.timeOfDayNanoseconds,
                                                      toUTC: last.utcNanoseconds, timeOfDay: last.timeOfDayNanoseconds)) / 1e9,
                       decimals: 1)
            out.append(" s)")
        }
        out.append("\nsentences: ")
        out.append(int: f.sentencesDelivered)
        out.append(" framed (")
        out.append(int: f.uncheckedSentences)
        out.append(" without checksum):")
        for kind in SentenceKind.allCases where s.accepted(kind) + s.rejected(kind) > 0 {
            out.append(UInt8(ascii: " "))
            out.append(kind.name)
            out.append(UInt8(ascii: " "))
            out.append(int: s.accepted(kind))
            if s.rejected(kind) > 0 {
                out.append(" (+")
                out.append(int: s.rejected(kind))
                out.append(" rejected)")
            }
        }
        out.append("\nparser rejected: ")
        out.append(int: s.totalRejected)
        for reason in ParseFailure.allCases {
            out.append(", ")
            out.append(reason.description)
            out.append(UInt8(ascii: " "))
            out.append(int: s.failures(reason))
        }
        out.append("\nframer dropped: ")
        out.append(int: f.droppedSentences)
        field(", collisions ", f.collisions, to: &out)
        field(", overlong ", f.overlong, to: &out)
        field(", invalid characters ", f.invalidCharacters, to: &out)
        field(", bad checksums ", f.badChecksums, to: &out)
        field(", malformed checksums ", f.malformedChecksums, to: &out)
        field(", missing checksums ", f.missingChecksums, to: &out)
        field(", too short ", f.tooShort, to: &out)
        field(", truncated ", f.truncated, to: &out)
        field("; garbage bytes ", f.garbageBytes, to: &out)
        field(" (NUL ", f.nulBytes, to: &out)
        out.append(") of ")
        out.append(int: f.bytes)
        out.append(" bytes\nassembler: ")
        field("time went backwards ", a.timeWentBackwards, to: &out)
        field(", gaps > 2 s ", a.gaps, to: &out)
        field(", week-rollover corrections ", a.weekRolloverCorrections, to: &out)
        field(", derived velocities ", a.derivedVelocities, to: &out)
        field(", sentences without time ", a.sentencesWithoutTime, to: &out)
        field(", before first epoch ", a.sentencesBeforeFirstEpoch, to: &out)
        field(", unmatched GST ", a.unmatchedErrorStatistics, to: &out)
        field(", GSV sequence errors ", a.satelliteSequenceErrors, to: &out)
        field(", sky views ", a.skyViews, to: &out)
        field("\nepochs closed: at the learned cycle ender ", a.epochsClosedAtCycleEnder, to: &out)
        field(", by the next epoch ", a.epochsClosedByNextEpoch, to: &out)
        field(", by a quiet line ", a.epochsClosedByQuietLine, to: &out)
        field("; sentences after their epoch closed ", a.sentencesAfterClose, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    private static func field(_ label: StaticString, _ value: Int, to out: inout OutputBuffer) {
        out.append(label)
        out.append(int: value)
    }

    private static func appendTime(_ fix: ReplayEpochTime, to out: inout OutputBuffer) {
        if let utc = fix.utcNanoseconds {
            out.append(isoTime: utc, fractionDigits: 3)
        } else {
            out.append("time of day ")
            out.append(Double(fix.timeOfDayNanoseconds) / 1e9, decimals: 3)
            out.append(" s")
        }
    }
}

/// When an epoch was, all the summary needs of the first and last fix (a whole `Fix`, sky view
/// included, is too large to copy for every fix of a replay).
struct ReplayEpochTime {
    /// UTC, nanoseconds since 1970, when the epoch has a date.
    var utcNanoseconds: Int64?
    /// UTC time of day, nanoseconds.
    var timeOfDayNanoseconds: Int64

    init(_ fix: borrowing Fix) {
        utcNanoseconds = fix.utcNanoseconds
        timeOfDayNanoseconds = fix.timeOfDayNanoseconds
    }
}
