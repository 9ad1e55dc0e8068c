import GpsdProtocol
import Testing

/// The request parser and reader against gpsd_json(5)'s commands and gpsd's ERROR replies
/// (docs/gpsd-protocol.md §1).
@Suite struct GpsdCommandParserTests {
    static func commands(_ text: String) -> [GpsdCommand] {
        var reader = GpsdCommandReader()
        var out: [GpsdCommand] = []
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in reader.feed(UnsafeRawBufferPointer(raw)) { out.append($0) } }
        return out
    }

    static func errorText(_ c: GpsdCommand) -> String {
        guard case .invalid(let e) = c else { return "" }
        var out = OutputBufferBox()
        GpsdReports.appendError(e, to: &out.buffer)
        return out.buffer.string
    }

    @Test func theFourCommandsAreRecognised() {
        #expect(Self.commands("?VERSION;") == [.version])
        #expect(Self.commands("?DEVICES;") == [.devices])
        #expect(Self.commands("?POLL;") == [.poll])
        #expect(Self.commands("?WATCH;") == [.watch(nil)])
        #expect(Self.commands("?DEVICE;") == [.device])
    }

    @Test func watchMembersAreParsedAndTheRestLeftUnset() {
        var expected = GpsdWatchRequest()
        expected.enable = true
        expected.json = true
        #expect(Self.commands("?WATCH={\"enable\":true,\"json\":true};") == [.watch(expected)])
        var nmea = GpsdWatchRequest()
        nmea.enable = true; nmea.nmea = true; nmea.raw = 1; nmea.puckd = true; nmea.puckdHertz = 10
        #expect(Self.commands(" ?WATCH={ \"enable\" : true , \"nmea\":true,\"raw\":1, \"puckd\":true,\"puckd_hz\":10 } ;")
            == [.watch(nmea)])
    }

    @Test func aDevicePathWithASemicolonInItsStringStaysOneRequest() {
        let c = Self.commands("?WATCH={\"enable\":true,\"device\":\"/dev/odd;name\"};")
        #expect(c.count == 1)
        guard case .watch(let r?) = c.first else { Issue.record("not a watch: \(c)"); return }
        let path = Array("/dev/odd;name".utf8)
        #expect(path.withUnsafeBytes { r.device?.equals($0) ?? false })
    }

    @Test func severalRequestsInOneReadAndOneSplitAcrossReads() {
        #expect(Self.commands("?VERSION;?DEVICES;\n?POLL;") == [.version, .devices, .poll])
        var reader = GpsdCommandReader()
        var out: [GpsdCommand] = []
        for piece in ["?WAT", "CH={\"ena", "ble\":true}", ";"] {
            var bytes = Array(piece.utf8)
            bytes.withUnsafeMutableBytes { reader.feed(UnsafeRawBufferPointer($0)) { out.append($0) } }
        }
        var r = GpsdWatchRequest()
        r.enable = true
        #expect(out == [.watch(r)])
    }

    @Test func aNewlineEndsARequestLikeASemicolon() {
        #expect(Self.commands("?VERSION\n?POLL\r\n") == [.version, .poll])
    }

    @Test func unknownRequestsGetGpsdsUnrecognizedError() {
        let c = Self.commands("?FOO;")
        #expect(c.count == 1)
        #expect(Self.errorText(c[0]) == "{\"class\":\"ERROR\",\"message\":\"Unrecognized request 'FOO'\"}\r\n")
        #expect(Self.errorText(Self.commands("hello world;")[0])
            == "{\"class\":\"ERROR\",\"message\":\"Unrecognized request 'hello world'\"}\r\n")
    }

    @Test func badWatchBodiesGetInvalidWatch() {
        for body in ["{\"enable\":yes}", "{\"colour\":true}", "{\"enable\":true", "[1]", "{\"raw\":7}", "{\"enable\":true}x"] {
            let c = Self.commands("?WATCH=" + body + ";")
            #expect(c.count == 1, "\(body)")
            guard case .invalid(let e) = c.first else { Issue.record("accepted \(body)"); continue }
            #expect(e.kind == .invalidWatch, "\(body)")
            #expect(Self.errorText(c[0]).hasPrefix("{\"class\":\"ERROR\",\"message\":\"Invalid WATCH: "))
        }
    }

    @Test func changingTheDeviceIsRefusedAsReadOnly() {
        let c = Self.commands("?DEVICE={\"path\":\"/dev/ttyS0\",\"bps\":4800};")
        guard case .invalid(let e) = c.first else { Issue.record("accepted"); return }
        #expect(e.kind == .readOnly)
    }

    @Test func anOverlongRequestIsRefusedOnceAndTheNextOneWorks() {
        let long = "?" + String(repeating: "A", count: 5000) + ";?VERSION;"
        let c = Self.commands(long)
        #expect(c.count == 2)
        guard case .invalid(let e) = c.first else { Issue.record("accepted"); return }
        #expect(e.kind == .tooLong)
        #expect(c.last == .version)
    }

    @Test func controlBytesInAnErrorAreEscapedToValidJSON() {
        let text = Self.errorText(Self.commands("?\u{01}\"\\\u{7f}\n")[0])
        #expect(text == "{\"class\":\"ERROR\",\"message\":\"Unrecognized request '\\u0001\\\"\\\\\\u007f'\"}\r\n")
    }

    @Test func watchFlagsMergeLikeGpsd() {
        var flags = GpsdWatchFlags()
        var r = GpsdWatchRequest()
        r.enable = true
        flags.apply(r)
        #expect(flags.enable && flags.json)       // a bare enable turns JSON on
        var n = GpsdWatchRequest()
        n.nmea = true
        flags.apply(n)
        #expect(flags.json && flags.nmea)         // members not given keep their values
        var off = GpsdWatchRequest()
        off.enable = false
        flags.apply(off)
        #expect(!flags.wantsJSON && !flags.wantsSentences)
    }
}
