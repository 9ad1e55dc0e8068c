/// Builds UBX frames: `B5 62`, class, id, little-endian length, payload, Fletcher checksum. The
/// payload builders follow the u-blox M8 and 9/10 interface descriptions as summarised in
/// docs/receivers.md (field layouts, the values puckd writes and why).
public enum UBXEncoder {
    /// Starts a frame in `out` (sync, class, id and a placeholder length); finish it with `finish`.
    public static func begin(_ message: UBXMessageID, into out: inout CommandBytes) {
        out.removeAll()
        out.append(0xB5)
        out.append(0x62)
        out.append(message.messageClass)
        out.append(message.id)
        out.appendLittleEndian(UInt16(0))
    }

    /// Writes the payload length and appends the checksum.
    public static func finish(_ out: inout CommandBytes) {
        let length = UInt16(truncatingIfNeeded: max(0, out.count - 6))
        out[4] = UInt8(truncatingIfNeeded: length)
        out[5] = UInt8(truncatingIfNeeded: length >> 8)
        var sum = UBXChecksum()
        for i in 2..<out.count { sum.add(out[i]) }
        out.append(sum.a)
        out.append(sum.b)
    }

    /// A poll: the message with an empty payload (e.g. MON-VER, answered with the receiver's versions).
    public static func poll(_ message: UBXMessageID, into out: inout CommandBytes) {
        begin(message, into: &out)
        finish(&out)
    }

    /// CFG-RATE: one measurement every `measurementMilliseconds`, one navigation solution per
    /// measurement, aligned to GPS time.
    public static func cfgRate(measurementMilliseconds: Int, into out: inout CommandBytes) {
        begin(.cfgRate, into: &out)
        out.appendLittleEndian(UInt16(clamping: measurementMilliseconds))
        out.appendLittleEndian(UInt16(1))   // navRate: cycles per solution
        out.appendLittleEndian(UInt16(1))   // timeRef: GPS time
        finish(&out)
    }

    /// CFG-PRT for UART1: 8N1 at `baudRate`, UBX + NMEA (+ RTCM3) in, UBX + NMEA out.
    public static func cfgPrtUART1(baudRate: Int, into out: inout CommandBytes) {
        begin(.cfgPrt, into: &out)
        out.append(1)                                   // portID: UART1
        out.append(0)                                   // reserved
        out.appendLittleEndian(UInt16(0))               // txReady: off
        out.appendLittleEndian(UInt32(0x0000_08D0))     // mode: 8 data bits, no parity, 1 stop bit (bit 4 set, as u-blox asks)
        out.appendLittleEndian(UInt32(clamping: baudRate))
        out.appendLittleEndian(UInt16(0x0007))          // inProtoMask: UBX, NMEA, RTCM
        out.appendLittleEndian(UInt16(0x0003))          // outProtoMask: UBX, NMEA
        out.appendLittleEndian(UInt16(0))               // flags
        out.appendLittleEndian(UInt16(0))               // reserved
        finish(&out)
    }

    /// CFG-MSG (short form): output NMEA sentence `sentence` on the port this arrives on every
    /// `rate` navigation solutions (0 = off).
    public static func cfgMsg(_ sentence: NMEASentenceType, rate: UInt8, into out: inout CommandBytes) {
        begin(.cfgMsg, into: &out)
        out.append(0xF0)                                // class: standard NMEA
        out.append(sentence.ubxMessageID)
        out.append(rate)
        finish(&out)
    }

    /// CFG-GNSS: one block per system (GPS, SBAS, Galileo, BeiDou, QZSS, GLONASS), enabled as
    /// `constellations` says, on the L1 signal of each, with the channel reservations ubxtool uses.
    public static func cfgGnss(_ constellations: GNSSConstellations, into out: inout CommandBytes) {
        begin(.cfgGnss, into: &out)
        out.append(0)       // msgVer
        out.append(0)       // numTrkChHw (read-only)
        out.append(0xFF)    // numTrkChUse: all
        out.append(6)       // numConfigBlocks
        // (gnssId, resTrkCh, maxTrkCh, constellation)
        let blocks: [6 of (UInt8, UInt8, UInt8, GNSSConstellations)] = [
            (0, 8, 16, .gps), (1, 1, 3, .sbas), (2, 4, 8, .galileo), (3, 8, 16, .beidou), (5, 0, 3, .qzss),
            (6, 8, 14, .glonass),
        ]
        for i in 0..<6 {
            let (gnssID, reserved, maximum, system) = blocks[i]
            out.append(gnssID)
            out.append(reserved)
            out.append(maximum)
            out.append(0)
            let enable: UInt32 = constellations.contains(system) ? 1 : 0
            // sigCfgMask (bits 16…23): L1C/A, E1, B1I, L1 (QZSS L1C/A), L1OF: 0x01 for each.
            out.appendLittleEndian(enable | 0x0001_0000)
        }
        finish(&out)
    }

    /// CFG-CFG: save the current configuration (every section) to battery-backed RAM, flash and
    /// EEPROM, wherever the receiver has them.
    public static func cfgSaveAll(into out: inout CommandBytes) {
        begin(.cfgCfg, into: &out)
        out.appendLittleEndian(UInt32(0))               // clearMask
        out.appendLittleEndian(UInt32(0x0000_FFFF))     // saveMask: every section
        out.appendLittleEndian(UInt32(0))               // loadMask
        out.append(0x17)                                // deviceMask: BBR, flash, EEPROM, SPI flash
        finish(&out)
    }

    /// CFG-VALSET layers: RAM (applies now), battery-backed RAM, flash.
    public struct Layers: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let ram = Layers(rawValue: 1)
        public static let batteryBackedRAM = Layers(rawValue: 2)
        public static let flash = Layers(rawValue: 4)
    }

    /// Starts a CFG-VALSET (version 0) in `layers`; add items with `valsetItem`, then `finish`.
    public static func beginValset(layers: Layers, into out: inout CommandBytes) {
        begin(.cfgValset, into: &out)
        out.append(0)                   // version
        out.append(layers.rawValue)
        out.appendLittleEndian(UInt16(0))
    }

    /// One key and its value; the value's size comes from the key (bits 28…30: 1 = one bit stored in a
    /// byte, 2 = one byte, 3 = two, 4 = four).
    public static func valsetItem(key: UInt32, value: UInt32, into out: inout CommandBytes) {
        out.appendLittleEndian(key)
        switch (key >> 28) & 0x7 {
        case 3: out.appendLittleEndian(UInt16(truncatingIfNeeded: value))
        case 4: out.appendLittleEndian(value)
        default: out.append(UInt8(truncatingIfNeeded: value))
        }
    }
}

/// Configuration keys of the u-blox 9/10 configuration interface (CFG-VALSET) that puckd writes.
public enum UBXConfigurationKey {
    public static let rateMeasurement: UInt32 = 0x3021_0001     // CFG-RATE-MEAS, U2 ms
    public static let rateNavigation: UInt32 = 0x3021_0002      // CFG-RATE-NAV, U2 cycles
    public static let uart1BaudRate: UInt32 = 0x4052_0001       // CFG-UART1-BAUDRATE, U4
    public static let signalGPS: UInt32 = 0x1031_001F           // CFG-SIGNAL-GPS_ENA
    public static let signalGPSL1CA: UInt32 = 0x1031_0001
    public static let signalSBAS: UInt32 = 0x1031_0020
    public static let signalSBASL1CA: UInt32 = 0x1031_0005
    public static let signalGalileo: UInt32 = 0x1031_0021
    public static let signalGalileoE1: UInt32 = 0x1031_0007
    public static let signalBeiDou: UInt32 = 0x1031_0022
    public static let signalBeiDouB1I: UInt32 = 0x1031_000D
    public static let signalQZSS: UInt32 = 0x1031_0024
    public static let signalQZSSL1CA: UInt32 = 0x1031_0012
    public static let signalGLONASS: UInt32 = 0x1031_0025
    public static let signalGLONASSL1: UInt32 = 0x1031_0018

    /// CFG-MSGOUT-NMEA_ID_<sentence>_UART1 (U1: output every N solutions).
    public static func nmeaOutputUART1(_ sentence: NMEASentenceType) -> UInt32 {
        switch sentence {
        case .gga: 0x2091_00BB
        case .gll: 0x2091_00CA
        case .gsa: 0x2091_00C0
        case .gsv: 0x2091_00C5
        case .rmc: 0x2091_00AC
        case .vtg: 0x2091_00B1
        case .grs: 0x2091_00CF
        case .gst: 0x2091_00D4
        case .zda: 0x2091_00D9
        case .gbs: 0x2091_00DE
        case .gns: 0x2091_00B6
        case .dtm: 0x2091_00A7
        case .vlw: 0x2091_00E8
        }
    }
}
