import Console

/// Checks `[console] start_command`: empty, or one line the console parses as a command (so a typo is
/// a configuration error at start-up, with the console's own message, not a surprise at the prompt).
enum ConsoleCommandCheck {
    /// nil when `text` is fine, else why not.
    static func problem(with text: String) -> String? {
        if text.isEmpty { return nil }
        if text.utf8.count > LineEditorLine.capacity {
            return "longer than a console line (" + String(LineEditorLine.capacity) + " bytes)"
        }
        switch CommandParser.parse(text) {
        case .empty, .command: return nil
        case .error(let error):
            var out = OutputBuffer(capacity: 1024)
            error.appendMessage(to: &out)
            return "not a console command: " + out.string
        }
    }
}
