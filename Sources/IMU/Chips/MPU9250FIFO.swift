/// The MPU-9250/9255's FIFO (docs/hardware.md §1.7.4, Linux inv_mpu6050): FIFO_EN (0x23) ACCEL (0x08)
/// and XG/YG/ZG (0x70) at the 100 Hz sample rate, USER_CTRL (0x6A) FIFO_EN (0x40) and FIFO_RST (0x04),
/// INT_STATUS (0x3A) FIFO_OFLOW_INT (0x10), FIFO_COUNTH/L (0x72/0x73), FIFO_R_W (0x74); CONFIG's
/// FIFO_MODE stays 0 (a full FIFO overwrites its oldest data). The AK8963 is not routed through the
/// I2C master into the FIFO: it stays on the host bus in bypass mode, read once per burst.
extension MPU9250Driver {
    /// FIFO registers (inv_mpu_iio.h names).
    public enum FIFORegister {
        public static let fifoEnable: UInt8 = 0x23
        public static let fifoCountH: UInt8 = 0x72
        public static let fifoReadWrite: UInt8 = 0x74
        public static let temperatureOutH: UInt8 = 0x41
    }

    /// FIFO_EN: accelerometer (0x08) and the three gyro axes (0x70); temperature and slaves off.
    public static let fifoEnableAccelGyro: UInt8 = 0x78
    /// USER_CTRL: FIFO_EN, I2C master off (the AK8963 stays reachable in bypass).
    public static let userCtrlFIFO: UInt8 = 0x40
    /// USER_CTRL: FIFO_RST (clears itself).
    public static let userCtrlFIFOReset: UInt8 = 0x04
    /// INT_ENABLE: FIFO_OFLOW_EN (0x10) and RAW_RDY_EN (0x01).
    public static let intEnableFIFO: UInt8 = 0x11

    /// Where the MPU-9250 keeps its FIFO.
    public static let fifoLayout = InvenSenseFIFOLayout(overflowStatusRegister: Register.intStatus, overflowMask: 0x10,
                                                        countHighRegister: FIFORegister.fifoCountH,
                                                        readWriteRegister: FIFORegister.fifoReadWrite,
                                                        temperatureHighRegister: FIFORegister.temperatureOutH)

    public static var fifoCapacitySamples: Int { InvenSenseFIFOLayout.usableSamples }

    /// The steps that (re)start the FIFO empty: off, reset, the data sets chosen, on.
    static let fifoRestart: [IMURegisterStep] = [
        .write(.primary, register: FIFORegister.fifoEnable, value: 0x00),
        .write(.primary, register: Register.userCtrl, value: userCtrlFIFOReset),
        .write(.primary, register: FIFORegister.fifoEnable, value: fifoEnableAccelGyro),
        .write(.primary, register: Register.userCtrl, value: userCtrlFIFO),
    ]

    public static func fifoProgram(watermarkSamples: Int) -> [IMURegisterStep] {
        [.write(.primary, register: Register.intEnable, value: intEnableFIFO)] + fifoRestart
    }

    public static func resetFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                              watermarkSamples: Int) throws(I2CError) {
        try runWrites(fifoRestart, bus: &bus, address: state.instance.primaryAddress)
    }

    public static func readFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                             into burst: inout IMUBurst) throws(I2CError) {
        let first = burst.count
        guard let raw = try fifoLayout.read(bus: &bus, address: state.instance.primaryAddress,
                                            accelerationScale: accelerationScale, gyroScale: gyroScale, into: &burst)
        else { return }
        let mag = try AKMagnetometer.read(bus: &bus, address: state.instance.address(of: .magnetometer),
                                          status1Register: AK8963Register.st1, count: 8,
                                          scale: magneticScalePerAxis(state))
        InvenSenseFIFOLayout.finish(&burst, from: first, temperatureCelsius: Double(raw) / temperatureLSBPerCelsius + 21,
                                    field: mag.field.map { magnetometerRemap.apply($0) }, overflow: mag.overflow)
    }
}

/// Runs the `.write` steps of `steps` on the primary die at `address` (FIFO resets in the sample path:
/// the steps are static data, so nothing allocates).
@inline(__always)
func runWrites<Bus: I2CBus>(_ steps: [IMURegisterStep], bus: inout Bus, address: UInt8) throws(I2CError) {
    for step in steps {
        if case .write(.primary, let register, let value) = step {
            try bus.writeByte(address: address, register: register, value: value)
        }
    }
}
