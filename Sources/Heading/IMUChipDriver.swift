/// What every chip driver provides: an initialization program (data, run by `IMUInitRunner`) and a
/// non-blocking sample read. Drivers are value types holding only configuration and scale factors;
/// the bus is passed in, generic, so nothing in the sample path is an existential or allocates.
public protocol IMUChipDriver: Sendable {
    /// The chip and its addresses.
    var instance: IMUChipInstance { get }
    /// Register steps that bring the chip from any state (also half-initialized, after a fault) to
    /// continuous conversion at about 100 Hz.
    var initializationProgram: [IMURegisterStep] { get }
    /// Nominal output data rate of the accel/gyro (or fusion) output, hertz.
    var outputDataRateHertz: Double { get }
    /// Called once the program has run, with the bytes its `.capture` steps read.
    mutating func finishInitialization(captured: InlineArray<4, UInt8>, nowNanoseconds: Int64)
    /// Reads one sample when the chip has a new one (data-ready status or the chip's own timer);
    /// nil when nothing new is available. Vectors are in the sensor frame, SI units; the sample's
    /// timestamp is `nowNanoseconds`.
    mutating func readSample<Bus: I2CBus>(bus: inout Bus, nowNanoseconds: Int64) throws(I2CError) -> IMUReading?
}

/// Turns signed 16-bit raw axis values into a scaled vector.
@inline(__always)
func scaledVector(_ x: Int16, _ y: Int16, _ z: Int16, _ scale: Double) -> Vector3 {
    Vector3(Double(x) * scale, Double(y) * scale, Double(z) * scale)
}
