import SystemCalls
import Configuration
import NMEA
import Puckd
import TrackLog

/// `puckd track list | export --gpx|--geojson|--nmea [--from TIME] [--to TIME] | record [FILE|-]`: the
/// track journal (docs/track-log.md §7), found through the same `--board`, `--config` and `--set`
/// options as `puckd run` (`[track] directory`, relative to `[state] directory`).
public enum TrackCommand {
    public static let usage: StaticString = """
          puckd track list | export --gpx|--geojson|--nmea [--from TIME] [--to TIME] | record [FILE|-]
                      [--board NAME|FILE] [--config FILE] [--set SECTION.KEY=VALUE]...
              The track journal of every fix ([track] directory, default track/ in [state] directory,
              found from the same --board, --config and --set as puckd run).
              list      one line per segment: records, sequence numbers, first and last time, size,
                        damaged records; then the totals
              export    the records as GPX 1.1 (--gpx: ele, time, fix, sat, dops; speed and course in
                        Garmin's TrackPointExtension), GeoJSON (--geojson: a LineString per segment with
                        per-point properties) or the raw NMEA recorded with [track] raw_nmea = true
                        (--nmea: the segments' logs as received, for puckd replay) on standard output
              --from, --to  only records from TIME (inclusive) to TIME (exclusive): 2020-03-18,
                        2020-03-18T13:28, 2020-03-18T13:28:26.5Z or @SECONDS since 1970; --nmea takes
                        the whole segments that hold such records
              record    write a journal from an NMEA log (FILE, '-' for standard input, none for the
                        built-in drive) as puckd run does from its GPS, with the same recovery at start
        """

    public static func run(_ arguments: ArraySlice<String>) -> Int32 {
        var rest = arguments
        guard let action = rest.popFirst() else { return usageError("give an action: list, export or record") }
        if action == "-h" || action == "--help" {
            StandardStreams.out("\(usage)\n")
            return ExitStatus.ok
        }
        var configuration = ConfigurationArguments()
        var format: String?
        var from: Int64?, to: Int64?
        var input: String?
        while let option = rest.popFirst() {
            switch option {
            case "--gpx", "--geojson", "--nmea":
                if format != nil { return usageError("give one of --gpx, --geojson, --nmea") }
                format = option
                continue
            default: break
            }
            if option == "-" || !option.hasPrefix("-") {
                guard action == "record", input == nil else { return usageError("unexpected argument '\(option)'") }
                input = option
                continue
            }
            guard let value = rest.popFirst() else { return usageError("\(option) needs a value") }
            if configuration.take(option, value) { continue }
            switch option {
            case "--from", "--to":
                guard let t = TrackTimeText.parse(value) else {
                    return usageError("\(option) '\(value)' is not a time: write 2020-03-18, 2020-03-18T13:28:26Z or @SECONDS")
                }
                if option == "--from" { from = t } else { to = t }
            default: return usageError("unknown option '\(option)'")
            }
        }
        let c: PuckdConfiguration
        do throws(ConfigurationError) { c = try configuration.sources().load().configuration } catch {
            StandardStreams.err("puckd: \(error)\n")
            return ExitStatus.config
        }
        let directory = c.track.resolvedDirectory(stateDirectory: c.state.directory)
        switch action {
        case "list":
            if format != nil || from != nil || to != nil { return usageError("list takes no --gpx/--geojson/--nmea/--from/--to") }
            return list(directory: directory)
        case "export":
            guard let format else { return usageError("export needs --gpx, --geojson or --nmea") }
            if let from, let to, to <= from { return usageError("--to must be later than --from") }
            return export(directory: directory, format: format, range: TrackTimeRange(fromNanoseconds: from, toNanoseconds: to))
        case "record":
            if format != nil || from != nil || to != nil { return usageError("record takes no --gpx/--geojson/--nmea/--from/--to") }
            return TrackRecordCommand.record(input: input, settings: c.track, directory: directory)
        default:
            return usageError("unknown action '\(action)': list, export or record")
        }
    }

    static func readJournal(_ directory: String) -> [TrackSegmentContents]? {
        switch TrackJournalReader(directory: directory, files: PosixTrackFiles()).segments() {
        case .success(let segments): return segments
        case .failure(let e):
            let reason = e.code.message
            StandardStreams.err("puckd track: cannot read the journal " + directory + " (" + reason + "); "
                + (e.code == .noSuchFileOrDirectory ? "nothing was recorded there yet: check [track] directory and [state] directory"
                    : "make it readable for this user") + "\n")
            return nil
        }
    }

    static func list(directory: String) -> Int32 {
        guard let segments = readJournal(directory) else { return ExitStatus.noInput }
        var out = "journal " + directory + ": \(segments.count) segments\n"
        var records = 0, bytes = 0, damaged = 0
        for s in segments {
            records += s.records.count
            bytes += s.bytes + s.rawBytes
            damaged += s.damagedRecords
            out += s.name.fileName() + "  \(s.records.count) records"
            if let first = s.records.first, let last = s.records.last {
                out += "  seq \(first.sequence)-\(last.sequence)"
                out += "  " + (first.utcNanoseconds.map { TrackTimeText.iso8601(nanoseconds: $0) } ?? "-") + " to "
                    + (last.utcNanoseconds.map { TrackTimeText.iso8601(nanoseconds: $0) } ?? "-")
            }
            out += "  \(s.bytes) bytes"
            if s.rawBytes > 0 { out += " + \(s.rawBytes) bytes NMEA" }
            if s.damagedRecords > 0 { out += "  \(s.damagedRecords) damaged records skipped" }
            if s.tailBytes > 0 { out += "  torn tail of \(s.tailBytes) bytes (cut at puckd's next start)" }
            out += "\n"
        }
        out += "total: \(records) records, \(bytes) bytes" + (damaged > 0 ? ", \(damaged) damaged records skipped" : "") + "\n"
        StandardStreams.out(out)
        return ExitStatus.ok
    }

    static func export(directory: String, format: String, range: TrackTimeRange) -> Int32 {
        guard let all = readJournal(directory) else { return ExitStatus.noInput }
        let segments = range.apply(all)
        let text: String
        switch format {
        case "--gpx": text = GPXExport.document(segments, creator: "puckd " + PuckdVersion.string.description)
        case "--geojson": text = GeoJSONExport.document(segments)
        // Raw NMEA is kept per segment: without a range every segment's (also one whose epochs had no position).
        default: return exportNMEA(directory: directory, segments: range == TrackTimeRange() ? all : segments)
        }
        let bytes = Array(text.utf8)
        if let error = writeToStandardOutput(bytes) { return writeFailed(error) }
        return ExitStatus.ok
    }

    /// `--nmea`: the raw logs of the segments, in journal order.
    static func exportNMEA(directory: String, segments: [TrackSegmentContents]) -> Int32 {
        let reader = TrackJournalReader(directory: directory, files: PosixTrackFiles())
        var wrote = 0
        for s in segments {
            guard case .success(let bytes) = reader.files.read(reader.rawPath(s.name)), !bytes.isEmpty else { continue }
            if let error = writeToStandardOutput(bytes) { return writeFailed(error) }
            wrote += bytes.count
        }
        if wrote == 0 {
            StandardStreams.err("puckd track: no raw NMEA in " + directory + (segments.isEmpty ? " for that time" : "")
                + ": it is recorded only with [track] raw_nmea = true\n")
            return ExitStatus.noInput
        }
        return ExitStatus.ok
    }

    /// Writes all of `bytes` to standard output: nil, or the error that stopped it.
    static func writeToStandardOutput(_ bytes: [UInt8]) -> Errno? {
        bytes.withUnsafeBytes { raw in
            do throws(Errno) {
                try FileDescriptor.standardOutput.writeAll(raw)
                return nil
            } catch {
                return error
            }
        }
    }

    static func writeFailed(_ error: Errno) -> Int32 {
        StandardStreams.err("puckd track: writing standard output failed (\(error.message)); "
            + "check the disk or the reading program\n")
        return ExitStatus.ioError
    }

    static func usageError(_ message: String) -> Int32 {
        StandardStreams.err("puckd track: \(message)\nusage:\n\(usage)\n")
        return ExitStatus.usage
    }
}
