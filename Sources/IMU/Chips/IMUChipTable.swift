/// The chips puckd has drivers for, in probe-priority order: gpsd's driver table for IMUs. A new chip is
/// one driver file (its driver, identification parts and row) and one line here.
public enum IMUChipTable {
    /// Every supported chip. The probe reads their identification registers address group by
    /// address group in this order, and the first chip found (with its magnetometer) wins.
    public static let all: [IMUChip] = [
        .lsm6dslWithLIS3MDL,
        .lsm9ds1,
        .icm20948,
        .mpu9250,
        .bno055,
    ]

    /// The supported chip `part` identifies, or nil (a magnetometer, or a part puckd has no driver for).
    public static func chip(identifiedBy part: IMUPart) -> IMUChip? {
        var i = 0
        while i < all.count {
            var j = 0
            while j < all[i].parts.count {
                if all[i].parts[j] == part { return all[i] }
                j += 1
            }
            i += 1
        }
        return nil
    }
}
