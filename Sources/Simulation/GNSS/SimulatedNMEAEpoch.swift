import Receiver

/// Writes the NMEA sentences of one receiver cycle for the receiver twins: a vehicle driving east at
/// 10 m/s from 47.6° N 122.3° W, 8 satellites, a 3D fix, at the cycle's UTC time — each sentence with
/// its checksum and CR LF, built byte by byte into a caller's buffer (no allocation).
public struct SimulatedNMEAEpoch {
    /// UTC of the cycle, milliseconds since midnight of 2026-11-30.
    public var timeOfDayMilliseconds: Int
    /// Talker of the fix sentences: "GN" (several systems), "GP" (GPS only).
    public var talker: StaticString

    public init(timeOfDayMilliseconds: Int, talker: StaticString) {
        self.timeOfDayMilliseconds = timeOfDayMilliseconds
        self.talker = talker
    }

    /// Appends `type` to `out` (returns false when it does not fit: nothing is appended then).
    /// GSV takes two sentences.
    public func write(_ type: NMEASentenceType, into out: inout SentenceBuilder) -> Bool {
        let mark = out.count
        switch type {
        case .gsv:
            gsv(part: 1, &out)
            gsv(part: 2, &out)
        default:
            sentence(type, &out)
        }
        if out.overflowed {
            out.truncate(to: mark)
            return false
        }
        return true
    }

    /// Seconds since the drive started (12:00:00 UTC).
    private var seconds: Double { Double(timeOfDayMilliseconds - 43_200_000) / 1000 }
    /// Degrees of latitude and longitude now (10 m/s east: 1.33e-4° of longitude a second at 47.6°).
    private var latitude: Double { 47.6 }
    private var longitude: Double { -122.3 + seconds * 1.333e-4 }

    private func sentence(_ type: NMEASentenceType, _ o: inout SentenceBuilder) {
        o.begin(talker, type.name)
        switch type {
        case .gga:
            time(&o); o.comma(); position(&o)
            o.text(",1,08,0.9,"); o.fixed(545.4, decimals: 1); o.text(",M,46.9,M,,")
        case .rmc:
            time(&o); o.text(",A,"); position(&o)
            o.text(",019.4,090.0,301126,,,A")
        case .gsa:
            o.text("A,3,02,05,12,15,18,21,25,29,,,,,1.6,0.9,1.3")
        case .vtg:
            o.text("090.0,T,,M,019.4,N,036.0,K,A")
        case .gll:
            position(&o); o.comma(); time(&o); o.text(",A,A")
        case .gst:
            time(&o); o.text(",2.1,1.5,1.0,45.0,1.2,1.1,2.3")
        case .zda:
            time(&o); o.text(",30,11,2026,00,00")
        case .gns:
            time(&o); o.comma(); position(&o); o.text(",AA,08,0.9,545.4,46.9,,")
        case .grs:
            time(&o); o.text(",1,0.1,-0.2,0.3,0.1,-0.1,0.2,0.0,0.1,,,,")
        case .gbs:
            time(&o); o.text(",1.2,1.1,2.3,,,,")
        case .dtm:
            o.text("W84,,0.0,N,0.0,E,0.0,W84")
        case .vlw:
            o.text(",N,,N,0.000,N,0.000,N")
        case .gsv:
            break
        }
        o.end()
    }

    private func gsv(part: Int, _ o: inout SentenceBuilder) {
        o.begin("GP", "GSV")
        o.text(part == 1 ? "2,1,08,02,45,050,42,05,30,120,40,12,60,200,45,15,20,300,38"
            : "2,2,08,18,70,010,47,21,15,080,35,25,40,160,41,29,55,250,44")
        o.end()
    }

    private func time(_ o: inout SentenceBuilder) {
        let ms = timeOfDayMilliseconds % 86_400_000
        o.digits(ms / 3_600_000, 2); o.digits(ms / 60_000 % 60, 2); o.digits(ms / 1000 % 60, 2)
        o.text("."); o.digits(ms % 1000, 3)
    }

    private func position(_ o: inout SentenceBuilder) {
        o.angle(latitude, degreeDigits: 2); o.text(",N,")
        o.angle(abs(longitude), degreeDigits: 3); o.text(longitude < 0 ? ",W" : ",E")
    }
}

/// A fixed buffer that builds NMEA sentences: `begin` writes `$` and the address, `end` the checksum
/// and CR LF. Bytes that do not fit set `overflowed`.
public struct SentenceBuilder {
    private var storage: UnsafeMutableRawBufferPointer
    public private(set) var count = 0
    public private(set) var overflowed = false
    private var start = 0

    /// A builder over `storage` (owned by the caller).
    public init(storage: UnsafeMutableRawBufferPointer) { self.storage = storage }

    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }

    public mutating func truncate(to length: Int) {
        count = min(count, length)
        overflowed = false
    }

    public mutating func byte(_ b: UInt8) {
        guard count < storage.count else { overflowed = true; return }
        storage[count] = b
        count += 1
    }

    public mutating func text(_ s: StaticString) {
        for i in 0..<s.utf8CodeUnitCount { byte(s.utf8Start[i]) }
    }

    public mutating func comma() { byte(UInt8(ascii: ",")) }

    public mutating func begin(_ talker: StaticString, _ type: StaticString) {
        start = count
        byte(UInt8(ascii: "$")); text(talker); text(type); comma()
    }

    /// Begins a sentence with a whole address (`PMTK001`, `GNTXT`).
    public mutating func begin(address: StaticString) {
        start = count
        byte(UInt8(ascii: "$")); text(address)
    }

    public mutating func end() {
        var sum: UInt8 = 0
        var i = start + 1
        while i < count && i < storage.count { sum ^= storage[i]; i += 1 }
        let hex: StaticString = "0123456789ABCDEF"
        byte(UInt8(ascii: "*")); byte(hex.utf8Start[Int(sum >> 4)]); byte(hex.utf8Start[Int(sum & 15)])
        byte(0x0D); byte(0x0A)
    }

    /// `value` with exactly `width` digits (leading zeros).
    public mutating func digits(_ value: Int, _ width: Int) {
        var divisor = 1
        for _ in 1..<max(1, width) { divisor *= 10 }
        var v = max(0, value)
        while divisor > 0 {
            byte(UInt8(ascii: "0") &+ UInt8(v / divisor % 10))
            v %= divisor * 10
            divisor /= 10
        }
    }

    public mutating func decimal(_ value: Int) {
        var width = 1
        var v = max(0, value)
        while v >= 10 { v /= 10; width += 1 }
        digits(value, width)
    }

    public mutating func fixed(_ value: Double, decimals: Int) {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        decimal(scaled / scale)
        byte(UInt8(ascii: "."))
        digits(scaled % scale, decimals)
    }

    /// NMEA's ddmm.mmmm (or dddmm.mmmm).
    public mutating func angle(_ degrees: Double, degreeDigits: Int) {
        let whole = Int(degrees)
        let minutes = (degrees - Double(whole)) * 60
        digits(whole, degreeDigits)
        let scaled = Int((minutes * 10_000).rounded())
        digits(scaled / 10_000, 2)
        byte(UInt8(ascii: "."))
        digits(scaled % 10_000, 4)
    }
}
