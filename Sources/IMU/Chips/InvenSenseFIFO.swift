/// The FIFO of the InvenSense parts puckd drives, MPU-9250/9255 and ICM-20948 (docs/hardware.md
/// §1.7.4): a 512-byte stream FIFO fed with the accelerometer and gyroscope sets, big-endian, in
/// register order (accelerometer x y z, then gyroscope x y z: 12 bytes a sample), counted in bytes by
/// FIFO_COUNTH/L and read byte after byte from FIFO_R_W. The register numbers differ per chip
/// (`InvenSenseFIFOLayout`); the reading is the same, as in the Linux inv_mpu6050 driver: an overflow
/// flag, or a count within three samples of the end (the kernel's margin for the time between reading
/// the count and the data), means samples were lost, and the FIFO is reset.
/// The magnetometers (AK8963, AK09916) stay on the host bus in bypass mode, polled once per burst.
public struct InvenSenseFIFOLayout: Sendable {
    /// The interrupt status register holding the FIFO overflow flag (cleared when read).
    public let overflowStatusRegister: UInt8
    /// Its overflow bits.
    public let overflowMask: UInt8
    /// FIFO_COUNTH (FIFO_COUNTL follows).
    public let countHighRegister: UInt8
    /// FIFO_R_W.
    public let readWriteRegister: UInt8
    /// TEMP_OUT_H (TEMP_OUT_L follows): temperature is read once per burst from the output registers.
    public let temperatureHighRegister: UInt8

    /// FIFO size, bytes.
    public static let capacityBytes = 512
    /// Bytes of one sample: accelerometer and gyroscope, three 16-bit axes each.
    public static let sampleBytes = 12
    /// Samples of free room below which the FIFO counts as overflowed (inv_mpu_ring.c: 3).
    public static let marginSamples = 3
    /// Samples a burst may safely leave in the FIFO.
    public static let usableSamples = (capacityBytes - marginSamples * sampleBytes) / sampleBytes
    /// Samples per block transfer (24 bytes, inside SMBus's 32).
    static let samplesPerTransfer = 2

    /// Reads every complete sample (raw, sensor frame, no times, no field) into `burst` with the
    /// chip's scales; sets `burst.overrun` instead on an overflow. Returns the temperature read once
    /// for the burst when samples came, the raw value.
    @inline(__always)
    func read<Bus: I2CBus>(bus: inout Bus, address: UInt8, accelerationScale: Double, gyroScale: Double,
                           into burst: inout IMUBurst) throws(I2CError) -> Int16? {
        let status = try bus.readByte(address: address, register: overflowStatusRegister)
        let countBytes = try bus.readBlock(address: address, register: countHighRegister, count: 2)
        let count = Int(countBytes[0] & 0x1F) << 8 | Int(countBytes[1])
        if status & overflowMask != 0
            || count >= InvenSenseFIFOLayout.capacityBytes - InvenSenseFIFOLayout.marginSamples * InvenSenseFIFOLayout.sampleBytes {
            burst.overrun = true
            return nil
        }
        let available = count / InvenSenseFIFOLayout.sampleBytes
        let room = IMUBurst.capacity - burst.count
        var remaining = min(available, room)
        burst.moreAvailable = available > room
        guard remaining > 0 else { return nil }
        while remaining > 0 {
            let samples = min(remaining, InvenSenseFIFOLayout.samplesPerTransfer)
            let block = try bus.readBlock(address: address, register: readWriteRegister,
                                          count: samples * InvenSenseFIFOLayout.sampleBytes)
            var s = 0
            while s < samples {
                let o = s * InvenSenseFIFOLayout.sampleBytes
                let accel = scaledVector(block.int16BigEndian(at: o), block.int16BigEndian(at: o + 2),
                                         block.int16BigEndian(at: o + 4), accelerationScale)
                let gyro = scaledVector(block.int16BigEndian(at: o + 6), block.int16BigEndian(at: o + 8),
                                        block.int16BigEndian(at: o + 10), gyroScale)
                let sample = IMUSample(timestampNanoseconds: 0, gyroRadiansPerSecond: gyro,
                                       accelerationMetersPerSecondSquared: accel, magneticFieldMicrotesla: nil)
                let fingerprint = block.fingerprint(from: o + 6, count: 6, seed: block.fingerprint(from: o, count: 6))
                burst.append(IMUReading(sample: sample, rawDataFingerprint: fingerprint))
                s += 1
            }
            remaining -= samples
        }
        let temperature = try bus.readBlock(address: address, register: temperatureHighRegister, count: 2)
        return temperature.int16BigEndian(at: 0)
    }

    /// Puts the field read with the burst on its newest sample and the temperature on all of them
    /// (from the first reading this call appended, `first`).
    @inline(__always)
    static func finish(_ burst: inout IMUBurst, from first: Int, temperatureCelsius: Double,
                       field: Vector3?, overflow: Bool) {
        var i = first
        while i < burst.count { burst[i].sample.temperatureCelsius = temperatureCelsius; i += 1 }
        burst[burst.count - 1].sample.magneticFieldMicrotesla = field
        burst[burst.count - 1].magnetometerOverflow = overflow
    }
}
