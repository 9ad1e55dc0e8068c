/// The LSM9DS1's accelerometer/gyroscope FIFO (docs/hardware.md §1.7.3): 32 levels, each one gyro and
/// one accelerometer set at the gyro's 119 Hz, continuous mode, read in bursts. The magnetometer die
/// has no FIFO: it stays polled at its own 80 Hz, read once per burst (on the newest sample).
///
/// CTRL_REG9 (0x23) FIFO_EN (bit 1) turns it on; FIFO_CTRL (0x2E) holds FMODE (bits 7:5: 000 bypass,
/// 001 FIFO, 110 continuous) and the threshold FTH (bits 4:0, samples); FIFO_SRC (0x2F) gives FTH
/// (bit 7), OVRN (bit 6) and FSS (bits 5:0, unread samples). Each level is read through the output
/// registers, gyro (0x18…0x1D) then accelerometer (0x28…0x2D), as SparkFun's LSM9DS1 library reads it.
extension LSM9DS1Driver {
    /// FIFO registers (ST lsm9ds1_reg.h names).
    public enum FIFORegister {
        public static let ctrlReg9: UInt8 = 0x23
        public static let fifoCtrl: UInt8 = 0x2E
        public static let fifoSrc: UInt8 = 0x2F
    }

    /// FIFO depth, samples (gyro + accelerometer sets).
    public static let fifoDepthSamples = 32
    /// CTRL_REG9: FIFO_EN (bit 1); the rest at its reset value 0 (STOP_ON_FTH off).
    public static let ctrlReg9FIFO: UInt8 = 0x02
    /// FIFO_CTRL FMODE continuous (110 in bits 7:5); the threshold goes in bits 4:0.
    public static let fifoModeContinuous: UInt8 = 0xC0
    /// FIFO_CTRL bypass (the FIFO is emptied and stops).
    public static let fifoModeBypass: UInt8 = 0x00
    /// FIFO_SRC OVRN.
    public static let fifoOverrunFlag: UInt8 = 0x40

    public static var fifoCapacitySamples: Int { fifoDepthSamples }

    /// FIFO_CTRL for continuous mode with a threshold of `watermarkSamples` (at most 31).
    public static func fifoControl(watermarkSamples: Int) -> UInt8 {
        fifoModeContinuous | UInt8(min(max(watermarkSamples, 0), 0x1F))
    }

    public static func fifoProgram(watermarkSamples: Int) -> [IMURegisterStep] {
        [
            .write(.primary, register: FIFORegister.fifoCtrl, value: fifoModeBypass),
            .write(.primary, register: FIFORegister.ctrlReg9, value: ctrlReg9FIFO),
            .write(.primary, register: FIFORegister.fifoCtrl, value: fifoControl(watermarkSamples: watermarkSamples)),
        ]
    }

    public static func resetFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                              watermarkSamples: Int) throws(I2CError) {
        let address = state.instance.primaryAddress
        try bus.writeByte(address: address, register: FIFORegister.fifoCtrl, value: fifoModeBypass)
        try bus.writeByte(address: address, register: FIFORegister.fifoCtrl,
                          value: fifoControl(watermarkSamples: watermarkSamples))
    }

    public static func readFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                             into burst: inout IMUBurst) throws(I2CError) {
        let address = state.instance.primaryAddress
        let source = try bus.readByte(address: address, register: FIFORegister.fifoSrc)
        if source & fifoOverrunFlag != 0 {
            burst.overrun = true
            return
        }
        let available = Int(source & 0x3F)
        let room = IMUBurst.capacity - burst.count
        var remaining = min(available, room)
        burst.moreAvailable = available > room
        guard remaining > 0 else { return }
        let first = burst.count
        while remaining > 0 {
            let g = try bus.readBlock(address: address, register: Register.outXLG, count: 6)
            let a = try bus.readBlock(address: address, register: Register.outXLXL, count: 6)
            let gyro = scaledVector(g.int16LittleEndian(at: 0), g.int16LittleEndian(at: 2), g.int16LittleEndian(at: 4), gyroScale)
            let accel = scaledVector(a.int16LittleEndian(at: 0), a.int16LittleEndian(at: 2), a.int16LittleEndian(at: 4),
                                     accelerationScale)
            let sample = IMUSample(timestampNanoseconds: 0, gyroRadiansPerSecond: gyro,
                                   accelerationMetersPerSecondSquared: accel, magneticFieldMicrotesla: nil)
            burst.append(IMUReading(sample: sample, rawDataFingerprint: a.fingerprint(from: 0, count: 6,
                                                                                     seed: g.fingerprint(from: 0, count: 6))))
            remaining -= 1
        }
        // Temperature and the magnetometer (no FIFO of their own) once per burst, on the newest sample.
        let temperatureBlock = try bus.readBlock(address: address, register: Register.outTempL, count: 2)
        let temperature = Double(temperatureBlock.int16LittleEndian(at: 0)) / temperatureLSBPerCelsius + 25
        let field = try LIS3MDL.readField(bus: &bus, address: state.instance.address(of: .magnetometer), scale: magneticScale)
        var i = first
        while i < burst.count { burst[i].sample.temperatureCelsius = temperature; i += 1 }
        burst[burst.count - 1].sample.magneticFieldMicrotesla = field.map { magnetometerRemap.apply($0) }
    }
}
