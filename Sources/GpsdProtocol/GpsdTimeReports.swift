import Console

/// gpsd's `PPS` and `TOFF` reports (gpsd_json(5)): a pulse's (or a fix's) true UTC second and the
/// system clock when it was seen, as seconds and nanoseconds. Allocation-free.
public enum GpsdTimeReports {
    /// `PPS`: `realUTCNanoseconds` the second the pulse marks, `clockNanoseconds` CLOCK_REALTIME at
    /// the edge; `precision` log2 seconds (−20 ≈ 1 µs for a kernel PPS, as gpsd reports it).
    public static func appendPPS(device: borrowing GpsdShortText, realUTCNanoseconds: Int64, clockNanoseconds: Int64,
                                 precision: Int = -20, to out: inout OutputBuffer) {
        append("PPS", device: device, real: realUTCNanoseconds, clock: clockNanoseconds, &out)
        out.append(",\"precision\":"); out.append(int: precision)
        out.append("}\r\n")
    }

    /// `TOFF`: the fix's UTC second and the system clock when its first sentence arrived.
    public static func appendTOFF(device: borrowing GpsdShortText, realUTCNanoseconds: Int64, clockNanoseconds: Int64,
                                  to out: inout OutputBuffer) {
        append("TOFF", device: device, real: realUTCNanoseconds, clock: clockNanoseconds, &out)
        out.append(",\"precision\":-1}\r\n")
    }

    private static func append(_ cls: StaticString, device: borrowing GpsdShortText, real: Int64, clock: Int64,
                               _ out: inout OutputBuffer) {
        out.append("{\"class\":\""); out.append(cls); out.append("\",\"device\":")
        device.withBytes { JSONWriter.string($0, &out) }
        out.append(",\"real_sec\":"); out.append(int: floorDiv(real))
        out.append(",\"real_nsec\":"); out.append(int: floorMod(real))
        out.append(",\"clock_sec\":"); out.append(int: floorDiv(clock))
        out.append(",\"clock_nsec\":"); out.append(int: floorMod(clock))
    }

    static func floorDiv(_ ns: Int64) -> Int64 { ns >= 0 ? ns / 1_000_000_000 : (ns - 999_999_999) / 1_000_000_000 }
    static func floorMod(_ ns: Int64) -> Int64 { ns - floorDiv(ns) * 1_000_000_000 }
}
