/// The LSM6DSL's FIFO (docs/hardware.md §1.7.2): gyroscope and accelerometer both at 104 Hz into the
/// FIFO without decimation, continuous (stream) mode, read in bursts.
///
/// The FIFO holds 16-bit words in a fixed pattern of data sets, gyro first: Gx, Gy, Gz, XLx, XLy,
/// XLz (FIFO_STATUS3/4 give the pattern index of the next word). FIFO_STATUS1/2 give the unread
/// words (11 bits), the watermark flag (bit 7), OVER_RUN (bit 6), FIFO_FULL_SMART (bit 5) and
/// FIFO_EMPTY (bit 4). Words are read from FIFO_DATA_OUT_L/H (0x3E/0x3F); with IF_INC a block read
/// there stays on the two registers, so one transfer carries several words.
extension LSM6DSLDriver {
    /// FIFO registers (ST lsm6dsl_reg.h names).
    public enum FIFORegister {
        public static let ctrl1: UInt8 = 0x06
        public static let ctrl2: UInt8 = 0x07
        public static let ctrl3: UInt8 = 0x08
        public static let ctrl4: UInt8 = 0x09
        public static let ctrl5: UInt8 = 0x0A
        public static let status1: UInt8 = 0x3A
        /// INT1_CTRL: what drives the INT1 pin.
        public static let int1Ctrl: UInt8 = 0x0D
        public static let dataOutL: UInt8 = 0x3E
    }

    /// FIFO capacity, 16-bit words (4 KB).
    public static let fifoCapacityWords = 2048
    /// Words per sample: the gyro data set and the accelerometer data set, three axes each.
    public static let wordsPerSample = 6
    /// FIFO_CTRL3: DEC_FIFO_GYRO = 001 (bits 5:3) and DEC_FIFO_XL = 001 (bits 2:0): both, no decimation.
    public static let fifoCtrl3: UInt8 = 0x09
    /// FIFO_CTRL5: ODR_FIFO = 104 Hz (0100, bits 6:3), FIFO_MODE = continuous (110, bits 2:0).
    public static let fifoCtrl5Continuous: UInt8 = 0x26
    /// FIFO_CTRL5: bypass mode (the FIFO is emptied and stops).
    public static let fifoCtrl5Bypass: UInt8 = 0x00
    /// INT1_CTRL INT1_FTH (bit 3): INT1 goes high while the FIFO holds at least its watermark.
    public static let int1FIFOThreshold: UInt8 = 0x08
    /// FIFO_STATUS2 OVER_RUN.
    public static let fifoOverrunFlag: UInt8 = 0x40
    /// Samples read per block transfer (two samples = 24 bytes, inside SMBus's 32).
    static let samplesPerTransfer = 2

    public static var fifoCapacitySamples: Int { fifoCapacityWords / wordsPerSample }

    public static func fifoProgram(watermarkSamples: Int) -> [IMURegisterStep] {
        let words = min(watermarkSamples * wordsPerSample, 0x7FF)
        return [
            .write(.primary, register: FIFORegister.ctrl5, value: fifoCtrl5Bypass),
            .write(.primary, register: FIFORegister.ctrl1, value: UInt8(words & 0xFF)),
            .write(.primary, register: FIFORegister.ctrl2, value: UInt8(words >> 8 & 0x07)),
            .write(.primary, register: FIFORegister.ctrl3, value: fifoCtrl3),
            .write(.primary, register: FIFORegister.ctrl4, value: 0x00),
            .write(.primary, register: FIFORegister.ctrl5, value: fifoCtrl5Continuous),
        ]
    }

    /// INT1 follows the FIFO threshold (INT1_CTRL = INT1_FTH; push-pull and active high, as CTRL3_C
    /// 0x44 leaves H_LACTIVE and PP_OD at 0; ST's lsm6dsl_reg.h, docs/hardware.md §1.7.7).
    public static var watermarkInterruptProgram: [IMURegisterStep] {
        [.write(.primary, register: FIFORegister.int1Ctrl, value: int1FIFOThreshold)]
    }

    public static func resetFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                              watermarkSamples: Int) throws(I2CError) {
        let address = state.instance.primaryAddress
        try bus.writeByte(address: address, register: FIFORegister.ctrl5, value: fifoCtrl5Bypass)
        try bus.writeByte(address: address, register: FIFORegister.ctrl5, value: fifoCtrl5Continuous)
    }

    public static func readFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                             into burst: inout IMUBurst) throws(I2CError) {
        let address = state.instance.primaryAddress
        let status = try bus.readBlock(address: address, register: FIFORegister.status1, count: 4)
        if status[1] & fifoOverrunFlag != 0 {
            burst.overrun = true
            return
        }
        var unread = Int(status[0]) | Int(status[1] & 0x07) << 8
        var pattern = (Int(status[2]) | Int(status[3] & 0x03) << 8) % wordsPerSample
        // A partly read sample (a burst cut by an error): skip its remaining words to realign.
        while pattern != 0 && unread > 0 {
            _ = try bus.readBlock(address: address, register: FIFORegister.dataOutL, count: 2)
            unread -= 1
            pattern = (pattern + 1) % wordsPerSample
        }
        let available = unread / wordsPerSample
        let room = IMUBurst.capacity - burst.count
        var remaining = min(available, room)
        burst.moreAvailable = available > room
        guard remaining > 0 else { return }
        let first = burst.count
        while remaining > 0 {
            let samples = min(remaining, samplesPerTransfer)
            let block = try bus.readBlock(address: address, register: FIFORegister.dataOutL, count: samples * 12)
            var s = 0
            while s < samples {
                let o = s * 12
                let gyro = scaledVector(block.int16LittleEndian(at: o), block.int16LittleEndian(at: o + 2),
                                        block.int16LittleEndian(at: o + 4), gyroScale)
                let accel = scaledVector(block.int16LittleEndian(at: o + 6), block.int16LittleEndian(at: o + 8),
                                         block.int16LittleEndian(at: o + 10), accelerationScale)
                let sample = IMUSample(timestampNanoseconds: 0, gyroRadiansPerSecond: gyro,
                                       accelerationMetersPerSecondSquared: accel, magneticFieldMicrotesla: nil)
                burst.append(IMUReading(sample: sample, rawDataFingerprint: block.fingerprint(from: o, count: 12)))
                s += 1
            }
            remaining -= samples
        }
        // Temperature and the magnetometer (no FIFO of their own) once per burst, on the newest sample.
        let temperatureBlock = try bus.readBlock(address: address, register: Register.outTempL, count: 2)
        let temperature = Double(temperatureBlock.int16LittleEndian(at: 0)) / temperatureLSBPerCelsius + 25
        let field = try LIS3MDL.readField(bus: &bus, address: state.instance.address(of: .magnetometer),
                                          scale: LIS3MDL.microteslaPerLSB)
        var i = first
        while i < burst.count { burst[i].sample.temperatureCelsius = temperature; i += 1 }
        burst[burst.count - 1].sample.magneticFieldMicrotesla = field.map { state.boardMagnetometerRemap.apply($0) }
    }
}
