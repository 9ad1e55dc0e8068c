/// The ICM-20948's FIFO (docs/hardware.md §1.7.4; TDK DS-000189 register map, as the SparkFun
/// ICM-20948 library uses it), all in user bank 0: USER_CTRL (0x03) FIFO_EN (0x40), FIFO_EN_2 (0x67)
/// ACCEL_FIFO_EN (0x10) and GYRO_X/Y/Z_FIFO_EN (0x0E), FIFO_RST (0x68: FIFO 0 held in reset while
/// bit 0 is set), FIFO_MODE (0x69 bit 0: 0 stream), INT_STATUS_2 (0x1B) FIFO_OVERFLOW_INT (bits 4:0),
/// FIFO_COUNTH/L (0x70/0x71), FIFO_R_W (0x72); 512 bytes. The AK09916 is not routed through the I2C
/// master into the FIFO: it stays on the host bus in bypass mode, read once per burst.
extension ICM20948Driver {
    /// FIFO registers (bank 0).
    public enum FIFORegister {
        public static let intEnable2: UInt8 = 0x12
        public static let intStatus2: UInt8 = 0x1B
        public static let temperatureOutH: UInt8 = 0x39
        public static let fifoEnable2: UInt8 = 0x67
        public static let fifoReset: UInt8 = 0x68
        public static let fifoMode: UInt8 = 0x69
        public static let fifoCountH: UInt8 = 0x70
        public static let fifoReadWrite: UInt8 = 0x72
    }

    /// FIFO_EN_2: accelerometer and the three gyro axes; temperature off.
    public static let fifoEnableAccelGyro: UInt8 = 0x1E
    /// USER_CTRL: FIFO_EN, I2C master off (the AK09916 stays reachable in bypass).
    public static let userCtrlFIFO: UInt8 = 0x40

    /// Where the ICM-20948 keeps its FIFO.
    public static let fifoLayout = InvenSenseFIFOLayout(overflowStatusRegister: FIFORegister.intStatus2, overflowMask: 0x1F,
                                                        countHighRegister: FIFORegister.fifoCountH,
                                                        readWriteRegister: FIFORegister.fifoReadWrite,
                                                        temperatureHighRegister: FIFORegister.temperatureOutH)

    public static var fifoCapacitySamples: Int { InvenSenseFIFOLayout.usableSamples }

    /// Empties FIFO 0: reset asserted on every FIFO, then released on FIFO 0 (SparkFun's sequence).
    static let fifoResetSteps: [IMURegisterStep] = [
        .write(.primary, register: FIFORegister.fifoReset, value: 0x1F),
        .write(.primary, register: FIFORegister.fifoReset, value: 0x1E),
    ]

    public static func fifoProgram(watermarkSamples: Int) -> [IMURegisterStep] {
        [
            .write(.primary, register: Register.regBankSel, value: 0x00),
            .write(.primary, register: FIFORegister.fifoEnable2, value: 0x00),
            .write(.primary, register: FIFORegister.fifoMode, value: 0x00),           // stream
        ] + fifoResetSteps + [
            .write(.primary, register: FIFORegister.fifoEnable2, value: fifoEnableAccelGyro),
            .write(.primary, register: Register.userCtrl, value: userCtrlFIFO),
            .write(.primary, register: FIFORegister.intEnable2, value: 0x01),         // FIFO 0 overflow
        ]
    }

    public static func resetFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                              watermarkSamples: Int) throws(I2CError) {
        try runWrites(fifoResetSteps, bus: &bus, address: state.instance.primaryAddress)
    }

    public static func readFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                             into burst: inout IMUBurst) throws(I2CError) {
        let first = burst.count
        guard let raw = try fifoLayout.read(bus: &bus, address: state.instance.primaryAddress,
                                            accelerationScale: accelerationScale, gyroScale: gyroScale, into: &burst)
        else { return }
        let mag = try AKMagnetometer.read(bus: &bus, address: state.instance.address(of: .magnetometer),
                                          status1Register: AK09916Register.st1, count: 9,
                                          scale: (magneticScale, magneticScale, magneticScale))
        InvenSenseFIFOLayout.finish(&burst, from: first, temperatureCelsius: (Double(raw) - 21) / 333.87 + 21,
                                    field: mag.field.map { magnetometerRemap.apply($0) }, overflow: mag.overflow)
    }
}
