/// A serial line whose speed can be changed while it runs: what auto-baud logic needs. The real
/// `SerialSource` and the `SimulatedSerialPort` twin both conform, so the policy that decides the
/// rate (in the NMEA layer) is tested against the twin and runs unchanged on hardware.
///
/// A change discards input received but not yet read (tcflush, as gpsd does when it hunts): those
/// bytes were framed at the old speed and would only be garbage at the new one.
public protocol BaudRateControl: ~Copyable {
    /// The line speed in bits per second now.
    var baudRate: Int { get }
    /// Switches the line speed at monotonic time `nowNanoseconds`.
    mutating func setBaudRate(_ rate: Int, nowNanoseconds: Int64) throws(SourceError)
}
