/// Decodes the VT100/ANSI key sequences a terminal sends (picocom, screen, minicom, xterm):
/// `ESC [ A…D` and `ESC O A…D` (arrows, normal and application cursor mode), `ESC [ H`/`F`,
/// `ESC O H`/`F`, `ESC [ 1 ~`/`7 ~` (Home), `ESC [ 4 ~`/`8 ~` (End), `ESC [ 3 ~` (Delete). The
/// sequence may arrive split over any number of reads. Other sequences are swallowed whole;
/// sequences longer than `maximumLength` are abandoned.
public struct LineEditorEscape: Sendable {
    /// Keys recognised.
    public enum Key: Sendable, Equatable {
        case up, down, left, right, home, end, delete
        /// A complete sequence that means nothing to the editor (ignored).
        case unknown
    }

    /// What one byte did.
    public enum Step: Sendable, Equatable {
        /// The sequence continues.
        case pending
        /// The sequence is complete.
        case key(Key)
        /// The byte cannot be part of the sequence: the sequence is dropped and the byte must be
        /// handled as ordinary input.
        case abandoned
    }

    enum Phase: UInt8 { case idle, escape, csi, ss3 }

    /// Longest sequence accepted (ESC included).
    public static let maximumLength = 16

    private var phase = Phase.idle
    private var parameter = 0
    private var length = 0

    public init() {}

    /// True while inside a sequence.
    public var isActive: Bool { phase != .idle }

    /// Starts a sequence (the ESC byte).
    public mutating func begin() {
        phase = .escape
        parameter = 0
        length = 1
    }

    /// Feeds the next byte of an active sequence.
    public mutating func feed(_ byte: UInt8) -> Step {
        length += 1
        switch phase {
        case .idle:
            return .abandoned
        case .escape:
            switch byte {
            case UInt8(ascii: "["): phase = .csi; return .pending
            case UInt8(ascii: "O"): phase = .ss3; return .pending
            case 0x20...0x7E: phase = .idle; return .key(.unknown)   // ESC x: Alt-x, ignored
            default: phase = .idle; return .abandoned
            }
        case .ss3:
            phase = .idle
            if let key = Self.cursorKey(byte) { return .key(key) }
            return byte >= 0x20 && byte <= 0x7E ? .key(.unknown) : .abandoned
        case .csi:
            if ConsoleASCII.isDigit(byte) {
                if parameter < 1000 { parameter = parameter * 10 + Int(byte - 0x30) }
            } else if byte == UInt8(ascii: ";") || (byte >= 0x20 && byte <= 0x2F) || (byte >= 0x3C && byte <= 0x3F) {
                // More parameters, intermediates or private markers: read on, keep the first number.
            } else if byte >= 0x40 && byte <= 0x7E {
                phase = .idle
                if let key = Self.cursorKey(byte) { return .key(key) }
                switch byte {
                case UInt8(ascii: "~"):
                    switch parameter {
                    case 1, 7: return .key(.home)
                    case 4, 8: return .key(.end)
                    case 3: return .key(.delete)
                    default: return .key(.unknown)
                    }
                default: return .key(.unknown)
                }
            } else {
                phase = .idle
                return .abandoned
            }
            if length >= Self.maximumLength {
                phase = .idle
                return .key(.unknown)
            }
            return .pending
        }
    }

    /// Forgets a sequence in progress.
    public mutating func reset() { phase = .idle }

    /// The cursor key a final byte names, the same after `ESC [` (CSI) and `ESC O` (SS3).
    static func cursorKey(_ byte: UInt8) -> Key? {
        switch byte {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }
}
