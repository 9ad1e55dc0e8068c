// libFuzzer target: bytes a gpsd-protocol client sends (docs/gpsd-protocol.md §1), cut into reads
// by the first byte, through GpsdCommandReader; every request's reply is written as the server would
// (WATCH applied, DEVICES/WATCH/POLL-shaped objects, ERROR). Traps on a crash, on a reply that is not
// one CR LF-ended line starting with `{`, or on a request count that does not add up.
// fuzz-max-len: 8192
import Console
import GpsdProtocol

nonisolated(unsafe) private var out = OutputBuffer(capacity: 8192)

@_cdecl("LLVMFuzzerTestOneInput")
public func gpsdFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let piece = 1 + Int(data[0])
    let bytes = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    var reader = GpsdCommandReader()
    var watch = GpsdWatchFlags()
    var device = GpsdShortText()
    for b in "/dev/ttyAMA0".utf8 { device.append(b) }
    let info = GpsdDeviceInfo(path: device, bitsPerSecond: 9600)
    var offset = 0
    var requests = 0
    var terminators = 0
    while offset < bytes.count {
        let n = min(piece, bytes.count - offset)
        let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
        offset += n
        reader.feed(chunk) { command in
            requests += 1
            out.removeAll()
            switch command {
            case .version: GpsdReports.appendVersion(release: "fuzz", to: &out)
            case .devices: GpsdReports.appendDevices(info, to: &out)
            case .device: GpsdReports.appendDevice(info, to: &out)
            case .watch(let r):
                if let r { watch.apply(r) }
                GpsdReports.appendWatch(watch, to: &out)
            case .poll: GpsdReports.appendVersion(release: "poll", to: &out)
            case .invalid(let e): GpsdReports.appendError(e, to: &out)
            }
            // One line: `{` … `}` CR LF, no other line break inside.
            guard !out.overflowed, out.count >= 4, out[0] == UInt8(ascii: "{"), out[out.count - 2] == 0x0D,
                  out[out.count - 1] == 0x0A, out[out.count - 3] == UInt8(ascii: "}") else { fatalError("bad reply") }
            var i = 0
            while i < out.count - 2 { if out[i] == 0x0A || out[i] == 0x0D { fatalError("line break in a reply") }; i += 1 }
        }
    }
    // Every request the reader finished ended at a `;` or newline it saw (or was cut as too long, which
    // reports once per request): more requests than terminators plus overlong cuts cannot happen.
    for i in 0..<bytes.count where bytes[i] == UInt8(ascii: ";") || bytes[i] == 0x0A { terminators += 1 }
    if requests > terminators + bytes.count / GpsdCommandReader.capacity + 1 { fatalError("more requests than ends") }
    return 0
}
