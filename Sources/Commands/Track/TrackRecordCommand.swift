import CBundledData
import Configuration
import NMEA
import Puckd
import SystemCalls
import TrackLog

/// `puckd track record [FILE|-]`: an NMEA log through the location pipeline into the track journal,
/// with the writer, flush interval, rotation, cap and start-up recovery of `puckd run`. It makes
/// journals for `puckd track export` without a receiver, and the crash tests kill it mid-write.
enum TrackRecordCommand {
    static func record(input: String?, settings track: TrackSettings, directory: String) -> Int32 {
        let settings = TrackLogSettings(directory: directory, flushIntervalSeconds: track.flushIntervalSeconds,
                                        maximumMegabytes: track.maximumSizeMegabytes, rawNMEA: track.rawNMEA)
        let writer = TrackLogWriter(settings: settings, files: PosixTrackFiles())
        let recovery = writer.open()
        for line in recovery.lines { StandardStreams.err("puckd: " + line + "\n") }
        var saidFault = writer.faultChanges
        var pipeline = NMEAPipeline()
        func sayFault() {
            guard writer.faultChanges != saidFault else { return }
            saidFault = writer.faultChanges
            if let fault = writer.fault {
                StandardStreams.err("puckd: track: " + fault.message(directory: directory) + "\n")
            } else {
                StandardStreams.err("puckd: track: writing " + directory + " works again\n")
            }
        }
        func feed(_ bytes: UnsafeRawBufferPointer) {
            let now = Int64(SystemClock.monotonicNanoseconds())
            writer.appendRaw(bytes, nowNanoseconds: now)
            pipeline.feed(bytes) { fix in
                let heading = fix.trueHeadingDegrees.map { TrackHeading(degrees: $0, source: .gnssTrueHeading) } ?? TrackHeading()
                writer.append(fix, heading: heading, nowNanoseconds: now)
            }
            writer.service(nowNanoseconds: now)
            sayFault()
        }
        if let input {
            let fd: FileDescriptor
            do throws(Errno) {
                fd = input == "-" ? .standardInput : try FileDescriptor.open(input, .readOnly, options: [.closeOnExec])
            } catch {
                StandardStreams.err("puckd track record: cannot open \(input) (\(error.message)); "
                    + "give an NMEA log, '-' for standard input, or nothing for the built-in drive\n")
                return ExitStatus.noInput
            }
            defer { if fd != .standardInput { try? fd.close() } }
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = (try? chunk.withUnsafeMutableBytes { buffer throws(Errno) in try fd.read(into: buffer) }) ?? 0
                if n <= 0 { break }
                chunk.withUnsafeBytes { feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
        } else {
            let bytes = UnsafeRawBufferPointer(start: bundled_drive_bytes(), count: bundled_drive_count())
            var offset = 0
            while offset < bytes.count {
                let n = min(4096, bytes.count - offset)
                feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n]))
                offset += n
            }
        }
        let now = Int64(SystemClock.monotonicNanoseconds())
        pipeline.finish { fix in
            let heading = fix.trueHeadingDegrees.map { TrackHeading(degrees: $0, source: .gnssTrueHeading) } ?? TrackHeading()
            writer.append(fix, heading: heading, nowNanoseconds: now)
        }
        let flushed = writer.close(nowNanoseconds: now)
        sayFault()
        let c = writer.counters
        StandardStreams.err("puckd track record: \(c.recordsWritten) records written to " + directory
            + " (sequence \(writer.nextSequence - c.recordsAppended) to \(writer.nextSequence) exclusive, \(c.segmentsCreated) segments begun, "
            + "\(c.segmentsDropped) dropped for the size cap, \(c.recordsLost) lost, \(c.epochsWithoutPosition) epochs without a position)\n")
        return flushed ? ExitStatus.ok : ExitStatus.ioError
    }
}
