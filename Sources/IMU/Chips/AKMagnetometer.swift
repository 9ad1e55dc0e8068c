/// The AsahiKASEI AK8963 / AK09916 read cycle: one burst from ST1 through ST2 (reading ST2 releases
/// the data registers for the next measurement). ST1 bit 0 = DRDY; ST2 bit 3 = HOFL (overflow).
public enum AKMagnetometer {
    /// Reads ST1, HXL…HZH (little-endian), [TMPS], ST2 in one burst of `count` bytes (ST2 is the last).
    /// Returns the field in the magnetometer's own axes (µT), nil when not ready or overflowed.
    @inline(__always)
    public static func read<Bus: I2CBus>(bus: inout Bus, address: UInt8, status1Register: UInt8, count: Int,
                                         scale: (Double, Double, Double)) throws(I2CError) -> (field: Vector3?, overflow: Bool) {
        let block = try bus.readBlock(address: address, register: status1Register, count: count)
        guard block[0] & 0x01 != 0 else { return (nil, false) }
        if block[count - 1] & 0x08 != 0 { return (nil, true) }
        let field = Vector3(Double(block.int16LittleEndian(at: 1)) * scale.0,
                            Double(block.int16LittleEndian(at: 3)) * scale.1,
                            Double(block.int16LittleEndian(at: 5)) * scale.2)
        return (field, false)
    }
}
