/// Which command language a receiver speaks: u-blox UBX (legacy CFG messages up to generation 8,
/// CFG-VALSET from generation 9), or MediaTek's PMTK sentences (MediaTek modules and the Quectel
/// L76 series, which add their own `$PQ…` sentences).
public enum ReceiverFamily: Sendable, Equatable {
    /// u-blox; `generation` 6…10, 0 while unknown (MON-VER tells it).
    case ublox(generation: UInt8)
    /// A MediaTek chipset module (MTK3339: Adafruit Ultimate GPS, GlobalTop PA6H …).
    case mediatek
    /// A Quectel module of the MediaTek-based L76/L80/L86/L96 series.
    case quectel

    /// The command sets puckd has.
    public enum CommandSet: Sendable, Equatable {
        /// UBX-CFG-RATE, CFG-PRT, CFG-MSG, CFG-GNSS, CFG-CFG (u-blox 6, 7, 8).
        case ubxLegacy
        /// UBX-CFG-VALSET (u-blox 9 and 10) and CFG-CFG.
        case ubxValset
        /// PMTK220, PMTK251, PMTK314, PMTK353, PMTK313, PMTK352.
        case pmtk
    }

    /// The command set; a u-blox of unknown generation gets the legacy one (what u-blox 6–8 accept).
    public var commandSet: CommandSet {
        switch self {
        case .ublox(let generation): generation >= 9 ? .ubxValset : .ubxLegacy
        case .mediatek, .quectel: .pmtk
        }
    }

    /// True for any u-blox.
    public var isUblox: Bool {
        if case .ublox = self { return true }
        return false
    }

    /// For logs and the console: "u-blox M8", "u-blox (generation unknown)", "MediaTek", "Quectel".
    public var name: StaticString {
        switch self {
        case .ublox(let generation):
            switch generation {
            case 6: "u-blox 6"
            case 7: "u-blox 7"
            case 8: "u-blox M8"
            case 9: "u-blox M9"
            case 10: "u-blox M10"
            default: "u-blox (generation unknown)"
            }
        case .mediatek: "MediaTek"
        case .quectel: "Quectel"
        }
    }

    /// The `[gps] receiver` words and their families (`auto` is nil).
    public static let configurationWords: [(String, ReceiverFamily)] = [
        ("ublox", .ublox(generation: 0)), ("ublox-m8", .ublox(generation: 8)), ("ublox-m9", .ublox(generation: 9)),
        ("ublox-m10", .ublox(generation: 10)), ("mediatek", .mediatek), ("quectel", .quectel),
    ]

    /// The u-blox generation a MON-VER hardware version names ("00080000" → 8), 0 when unknown.
    public static func ubloxGeneration(hardwareVersion text: ReceiverText) -> UInt8 {
        if text.equals("00040007") { return 6 }
        if text.equals("00070000") { return 7 }
        if text.equals("00080000") { return 8 }
        if text.equals("00190000") { return 9 }
        if text.equals("000A0000") { return 10 }
        return 0
    }

    /// The u-blox generation a protocol version implies (in hundredths: 18.00 → 1800), 0 when none.
    public static func ubloxGeneration(protocolVersion: Int) -> UInt8 {
        switch protocolVersion {
        case 3400...: 10
        case 2700..<3400: 9
        case 1500..<2700: 8
        case 1400..<1500: 7
        case 1..<1400: 6
        default: 0
        }
    }
}

/// A short text a receiver reported (model, firmware, hardware version), inline, at most 32 bytes.
public struct ReceiverText: Sendable, Equatable {
    public static let capacity = 32
    private var storage = InlineArray<32, UInt8>(repeating: 0)
    /// Bytes held.
    public private(set) var count = 0

    public init() {}

    /// The printable ASCII bytes of `bytes` up to the first NUL, spaces at the end trimmed.
    public init(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        while i < bytes.count && bytes[i] != 0 && count < Self.capacity {
            if bytes[i] >= 0x20 && bytes[i] < 0x7F {
                storage[count] = bytes[i]
                count += 1
            }
            i += 1
        }
        while count > 0 && storage[count - 1] == 0x20 { count -= 1 }
    }

    /// The text of a static string (tests, profiles).
    public init(_ text: StaticString) {
        self.init(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public var isEmpty: Bool { count == 0 }

    public subscript(index: Int) -> UInt8 { storage[index] }

    /// True when the text is exactly `text`.
    public func equals(_ text: StaticString) -> Bool {
        guard text.utf8CodeUnitCount == count else { return false }
        for i in 0..<count where storage[i] != text.utf8Start[i] { return false }
        return true
    }

    /// Calls `body` with the bytes.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeBytes(of: storage) { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// The text as a String (allocates: tests and start-up).
    public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    public static func == (a: ReceiverText, b: ReceiverText) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.storage[i] != b.storage[i] { return false }
        return true
    }
}
