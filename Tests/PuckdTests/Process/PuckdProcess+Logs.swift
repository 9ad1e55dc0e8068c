/// Waiting on a `PuckdProcess`'s standard error, where the device logs while its console owns
/// standard output.
extension PuckdProcess {
    /// Waits for a complete line on standard error containing `text`; returns it.
    func logLine(containing text: String, seconds: Double) -> String? {
        var found: String?
        waitUntil(seconds: seconds) { _ in
            found = errorOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .first { $0.contains(text) }.map(String.init)
            return found != nil
        }
        return found
    }
}
