import SystemCalls
import Console
import Heading
import Puckd

/// `puckd heading replay FILE.csv [--config KEY=VALUE …]`: runs the device's heading filter
/// (`HeadingEstimator`) over a recorded IMU file (BROAD or x-io Fusion CSV, detected from the header
/// row, units converted) and prints one CSV row per input sample:
/// `time_s,qw,qx,qy,qz,heading_mag_deg,heading_accuracy_deg` — the quaternion sensor → ENU earth
/// (y = magnetic north, the BROAD reference's convention), the magnetic heading of the x axis, and the
/// heading accuracy (−1 while invalid). The file is read with POSIX calls in 64 KB chunks; output goes
/// through a fixed `OutputBuffer`.
enum HeadingCommand {
    static let usage: StaticString = """
          puckd heading replay FILE.csv [--config KEY=VALUE ...]
              Run the heading filter over a recorded IMU CSV (BROAD or x-io Fusion format) and print
              time_s,qw,qx,qy,qz,heading_mag_deg,heading_accuracy_deg per sample (quaternion sensor->ENU,
              north = magnetic north; accuracy -1 = invalid). KEY is a heading setting (see
              'puckd heading keys') or calibrated=0|1 (default 1: the data is already calibrated).
          puckd heading keys
              List the heading settings and their default values.
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        var rest = arguments
        switch rest.popFirst() {
        case "replay": return replay(rest)
        case "keys":
            listKeys()
            return ExitStatus.ok
        case let other?:
            StandardStreams.err("puckd heading: unknown subcommand '\(other)'; use 'puckd heading replay FILE.csv' or 'puckd heading keys'\n")
            return ExitStatus.usage
        case nil:
            StandardStreams.err("puckd heading: missing subcommand; use 'puckd heading replay FILE.csv' or 'puckd heading keys'\n")
            return ExitStatus.usage
        }
    }

    private static func listKeys() {
        let d = HeadingConfiguration.default
        for key in HeadingConfiguration.settingKeys {
            StandardStreams.out("\(key)=\(d.value(of: key) ?? 0)\n")
        }
        StandardStreams.out("calibrated=1\n")
    }

    private static func replay(_ arguments: ArraySlice<String>) -> Int32 {
        var configuration = HeadingConfiguration.default
        var calibrated = true
        var path: String? = nil
        var rest = arguments
        while let argument = rest.popFirst() {
            var setting: String
            if argument == "--config" {
                guard let value = rest.popFirst() else {
                    StandardStreams.err("puckd heading replay: --config needs KEY=VALUE\n")
                    return ExitStatus.usage
                }
                setting = value
            } else if argument.hasPrefix("--config=") {
                setting = String(argument.dropFirst("--config=".count))
            } else if argument.hasPrefix("-") {
                StandardStreams.err("puckd heading replay: unknown option '\(argument)'; usage: puckd heading replay FILE.csv [--config KEY=VALUE ...]\n")
                return ExitStatus.usage
            } else if path == nil {
                path = argument
                continue
            } else {
                StandardStreams.err("puckd heading replay: only one FILE.csv can be replayed, got '\(path!)' and '\(argument)'\n")
                return ExitStatus.usage
            }
            guard let equals = setting.firstIndex(of: "=") else {
                StandardStreams.err("puckd heading replay: --config needs KEY=VALUE, got '\(setting)'\n")
                return ExitStatus.usage
            }
            let key = String(setting[..<equals]), value = String(setting[setting.index(after: equals)...])
            if key == "calibrated" {
                guard value == "0" || value == "1" else {
                    StandardStreams.err("puckd heading replay: calibrated must be 0 or 1, got '\(value)'\n")
                    return ExitStatus.config
                }
                calibrated = value == "1"
                continue
            }
            do {
                try configuration.set(key, to: value)
            } catch {
                StandardStreams.err("puckd heading replay: \(error.message)\n")
                return ExitStatus.config
            }
        }
        guard let path else {
            StandardStreams.err("puckd heading replay: missing FILE.csv; usage: puckd heading replay FILE.csv [--config KEY=VALUE ...]\n")
            return ExitStatus.usage
        }
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec]) } catch {
            StandardStreams.err("puckd heading replay: cannot open '\(path)': \(error.message); check the path\n")
            return error == .permissionDenied ? ExitStatus.permission : ExitStatus.noInput
        }
        defer { try? fd.close() }
        var replayer = HeadingReplayer(estimator: HeadingEstimator(configuration: configuration,
                                                                   calibration: calibrated ? .identity : nil))
        return replayer.run(fd: fd, path: path)
    }
}

/// Streams a recorded CSV through a `HeadingEstimator`, writing the replay rows to standard output.
private struct HeadingReplayer {
    var estimator: HeadingEstimator
    var parser: IMUCSVParser? = nil
    var samples = 0
    var badLines = 0

    mutating func run(fd: FileDescriptor, path: String) -> Int32 {
        let capacity = 1 << 16
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { input.deallocate() }
        var output = OutputBuffer(capacity: 1 << 16)
        var filled = 0
        var endOfFile = false
        while !endOfFile || filled > 0 {
            if !endOfFile {
                let n: Int
                do throws(Errno) { n = try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: input[filled..<capacity])) } catch {
                    StandardStreams.err("puckd heading replay: reading '\(path)' failed: \(error.message)\n")
                    return ExitStatus.ioError
                }
                if n == 0 { endOfFile = true }
                filled += n
            }
            // Process every complete line; at end of file the remainder is the last line.
            var start = 0
            var i = 0
            while i < filled {
                if input[i] == UInt8(ascii: "\n") {
                    guard handle(line: UnsafeRawBufferPointer(rebasing: input[start..<i]), into: &output) else {
                        return ExitStatus.dataError
                    }
                    start = i + 1
                }
                i += 1
            }
            if endOfFile && start < filled {
                guard handle(line: UnsafeRawBufferPointer(rebasing: input[start..<filled]), into: &output) else {
                    return ExitStatus.dataError
                }
                start = filled
            }
            if start == 0 && filled == capacity {
                StandardStreams.err("puckd heading replay: '\(path)' has a line longer than \(capacity) bytes; is it a CSV file?\n")
                return ExitStatus.dataError
            }
            if start > 0 {
                let remaining = filled - start
                if remaining > 0 { input.baseAddress!.copyMemory(from: input.baseAddress! + start, byteCount: remaining) }
                filled = remaining
            }
            if endOfFile && filled == 0 { break }
        }
        guard flush(&output) else { return ExitStatus.ioError }
        guard let parser else {
            StandardStreams.err("puckd heading replay: '\(path)' is empty; give a BROAD or Fusion CSV file\n")
            return ExitStatus.dataError
        }
        StandardStreams.err("puckd heading replay: \(samples) samples (\(parser.format.name) format), \(badLines) bad lines skipped\n")
        return badLines == 0 ? ExitStatus.ok : ExitStatus.dataError
    }

    /// Handles one line; false when nothing more can be done (unusable header, output closed).
    private mutating func handle(line: UnsafeRawBufferPointer, into output: inout OutputBuffer) -> Bool {
        // One row is < 128 bytes: flush before the buffer could overflow.
        if output.capacity - output.count < 256 { guard flush(&output) else { return false } }
        guard parser != nil else {
            do {
                parser = try IMUCSVParser(header: line)
            } catch {
                StandardStreams.err("puckd heading replay: \(error.message)\n")
                return false
            }
            output.append("time_s,qw,qx,qy,qz,heading_mag_deg,heading_accuracy_deg\n")
            return true
        }
        let record: IMUCSVRecord?
        do {
            record = try parser!.parse(line: line)
        } catch {
            badLines += 1
            if badLines <= 10 { StandardStreams.err("puckd heading replay: skipped: \(error.message)\n") }
            return true
        }
        guard let record else { return true }
        estimator.update(record.sample)
        samples += 1
        let q = estimator.filter.orientation.canonical
        output.append(record.timeSeconds, decimals: 6)
        output.append(UInt8(ascii: ","))
        output.append(q.w, decimals: 9)
        output.append(UInt8(ascii: ","))
        output.append(q.x, decimals: 9)
        output.append(UInt8(ascii: ","))
        output.append(q.y, decimals: 9)
        output.append(UInt8(ascii: ","))
        output.append(q.z, decimals: 9)
        output.append(UInt8(ascii: ","))
        output.append(q.headingDegrees, decimals: 4)
        output.append(UInt8(ascii: ","))
        output.append(estimator.headingAccuracyDegrees ?? -1, decimals: 3)     // the CSV's "invalid"
        output.append(UInt8(ascii: "\n"))
        return true
    }

    private func flush(_ output: inout OutputBuffer) -> Bool {
        precondition(!output.overflowed, "replay row overflowed the output buffer")
        let ok = output.withBytes { StandardStreams.write(to: .standardOutput, $0) }
        output.removeAll()
        if !ok { StandardStreams.err("puckd heading replay: cannot write to standard output\n") }
        return ok
    }
}
