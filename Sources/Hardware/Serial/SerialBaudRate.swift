import SystemCalls

/// The line speeds puckd can set on a serial port, and their termios constants.
public enum SerialBaudRate {
    /// Every rate accepted, in bits per second (Linux `Bnnn` constants from 1200 to 4 000 000).
    public static let standardRates: [Int] = TerminalSpeed.standardRates

    /// The order auto-baud tries rates in, as gpsd does: the NMEA default first, then the
    /// u-blox 9/10 default, then the fast rates receivers get reconfigured to.
    public static let autoBaudOrder: [Int] = [9600, 4800, 38400, 115200, 19200, 57600, 230400, 460800, 921600]

    /// The default when an address gives none: 9600, the NMEA 0183 rate most receivers start at.
    public static let defaultRate = 9600

    /// True when `rate` is one of `standardRates` (a termios `Bnnn` rate, SystemCalls' `TerminalSpeed`).
    public static func isStandard(_ rate: Int) -> Bool { TerminalSpeed.isStandard(rate) }
}
