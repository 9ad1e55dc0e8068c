/// How a console session talks to its terminal.
public struct ConsoleOptions: Sendable {
    /// True when the other end is a terminal (a tty or a serial line with a person): echo, prompt,
    /// line redraws, `\r\n` line ends, in-place watch redraws. False for scripted input (stdin not a
    /// terminal): no echo, no prompt, replies only with `\n`, watch frames printed one after another.
    public var interactive: Bool
    /// The prompt (interactive only).
    public var prompt: StaticString = "puckd> "
    /// Terminal height in rows: an interactive watch frame is cut to `terminalRows - 1` lines so the
    /// screen never scrolls (VT100 has no way to ask; 24 is its size).
    public var terminalRows: Int = 24
    /// Bytes the outgoing buffer holds until the device drains it (replies that do not fit whole are
    /// dropped and counted).
    public var outputCapacity: Int = 65_536
    /// Largest single reply, bytes (the `sats` table with 96 signals in JSON is about 11 kB).
    public var replyCapacity: Int = 32_768

    public init(interactive: Bool) {
        self.interactive = interactive
    }
}
