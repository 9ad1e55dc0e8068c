/// CRC-32 (IEEE 802.3: reflected, polynomial 0xEDB88320, initial and final value 0xFFFFFFFF), the
/// checksum of every record puckd persists. Bit by bit, no table: the records are a few hundred bytes.
public enum CRC32 {
    /// The CRC-32 of `bytes` ("123456789" → 0xCBF43926). Allocation-free.
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        var i = 0
        while i < bytes.count {
            crc ^= UInt32(bytes[i])
            var bit = 0
            while bit < 8 {
                crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
                bit += 1
            }
            i += 1
        }
        return ~crc
    }
}
