import Glibc

/// The standard line speeds of a Linux terminal (the termios `Bnnn` constants), by bits per second.
public enum TerminalSpeed {
    /// Every standard rate, in bits per second (from 1200 to 4 000 000).
    public static let standardRates: [Int] = [
        1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000,
        921600, 1000000, 1152000, 1500000, 2000000, 2500000, 3000000, 3500000, 4000000,
    ]

    /// True when `bitsPerSecond` is one of `standardRates`.
    public static func isStandard(_ bitsPerSecond: Int) -> Bool { constant(bitsPerSecond: bitsPerSecond) != nil }

    /// The termios speed constant of a rate, nil when the rate is not standard.
    static func constant(bitsPerSecond rate: Int) -> speed_t? {
        let value: Int32
        switch rate {
        case 1200: value = B1200
        case 2400: value = B2400
        case 4800: value = B4800
        case 9600: value = B9600
        case 19200: value = B19200
        case 38400: value = B38400
        case 57600: value = B57600
        case 115200: value = B115200
        case 230400: value = B230400
        case 460800: value = B460800
        case 500000: value = B500000
        case 576000: value = B576000
        case 921600: value = B921600
        case 1000000: value = B1000000
        case 1152000: value = B1152000
        case 1500000: value = B1500000
        case 2000000: value = B2000000
        case 2500000: value = B2500000
        case 3000000: value = B3000000
        case 3500000: value = B3500000
        case 4000000: value = B4000000
        default: return nil
        }
        return speed_t(value)
    }

    /// Bits per second of a termios speed constant, nil for others.
    static func bitsPerSecond(constant speed: speed_t) -> Int? {
        for rate in standardRates where constant(bitsPerSecond: rate) == speed { return rate }
        return nil
    }
}
