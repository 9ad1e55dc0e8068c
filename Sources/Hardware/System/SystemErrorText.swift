import CLinux

/// The words of an errno value, as messages say it: "No space left on device (ENOSPC)" instead of
/// "(errno 28)". `write` allocates nothing (the C library's static tables), so the loop can use it;
/// `describe` makes a String for start-up and command messages.
public enum SystemErrorText {
    /// Writes the text and name of `code` to `sink` ("Permission denied (EACCES)"; "errno 4242" for a
    /// number the C library does not know).
    public static func write(_ code: Int32, to sink: (UnsafeRawBufferPointer) -> Void) {
        if let message = clinux_errno_text(code) {
            sink(UnsafeRawBufferPointer(start: message, count: strlen(message)))
            if let name = clinux_errno_name(code) {
                text(" (", sink)
                sink(UnsafeRawBufferPointer(start: name, count: strlen(name)))
                text(")", sink)
            }
            return
        }
        text("errno ", sink)
        writeDecimal(Int64(code), to: sink)
    }

    /// The same as a String (allocates).
    public static func describe(_ code: Int32) -> String {
        var bytes: [UInt8] = []
        write(code) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func text(_ s: StaticString, _ sink: (UnsafeRawBufferPointer) -> Void) {
        sink(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    private static func strlen(_ text: UnsafePointer<CChar>) -> Int {
        var n = 0
        while text[n] != 0 { n += 1 }
        return n
    }
}
