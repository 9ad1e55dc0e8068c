import Console

/// The outcome of the last finished calibration as one line of text (console `heading`, `calibrate
/// stop`), and the buffer it is built in. A class made once at start-up, so the IMU link that owns it
/// stays a copyable value; building a line allocates nothing.
final class CalibrationResultLine {
    private var scratch = OutputBuffer(capacity: 512)
    /// The last result ("magnetometer calibrated (…); applied and saved"), empty before the first.
    private(set) var text = ConsoleText()

    /// Keeps the line `build` writes as the last result and logs it as "calibration: …" on `output`.
    func set(output: DeviceOutput, _ build: (inout OutputBuffer) -> Void) {
        scratch.removeAll()
        build(&scratch)
        text.removeAll()
        scratch.withBytes { text.append($0) }
        output.line { out in
            out.append("calibration: ")
            scratch.withBytes { out.append($0) }
        }
    }
}
