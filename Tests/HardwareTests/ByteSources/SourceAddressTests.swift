import Testing
@testable import Hardware

@Suite struct SourceAddressTests {
    @Test(arguments: [
        ("/dev/ttyAMA0", SourceAddress.serial(path: "/dev/ttyAMA0", baudRate: nil)),
        ("/dev/ttyUSB0:115200", .serial(path: "/dev/ttyUSB0", baudRate: 115200)),
        ("/dev/serial0:9600", .serial(path: "/dev/serial0", baudRate: 9600)),
        ("serial:/tmp/gps:4800", .serial(path: "/tmp/gps", baudRate: 4800)),
        ("serial:/tmp/gps", .serial(path: "/tmp/gps", baudRate: nil)),
        ("/tmp/gps:38400", .serial(path: "/tmp/gps", baudRate: 38400)),
        ("/dev/serial/by-path/pci-0000:00:14.0-usb-0:1:1.0-port0",
         .serial(path: "/dev/serial/by-path/pci-0000:00:14.0-usb-0:1:1.0-port0", baudRate: nil)),
        ("-", .standardInput),
        ("drive.nmea", .file(path: "drive.nmea")),
        ("Tests/Fixtures/nmea/gpsd/hemi.nmea", .file(path: "Tests/Fixtures/nmea/gpsd/hemi.nmea")),
        ("file:/dev/stdin", .file(path: "/dev/stdin")),
        ("file:log:1", .file(path: "log:1")),
        ("tcp://192.168.1.20:10110", .tcp(host: "192.168.1.20", port: 10110)),
        ("tcp://phone.local:11123", .tcp(host: "phone.local", port: 11123)),
        ("tcp://[fe80::1]:10110", .tcp(host: "fe80::1", port: 10110)),
        ("gpsd://", .gpsd(host: "localhost", port: 2947)),
        ("gpsd://pi.local", .gpsd(host: "pi.local", port: 2947)),
        ("gpsd://127.0.0.1:2948", .gpsd(host: "127.0.0.1", port: 2948)),
        ("gpsd://[::1]", .gpsd(host: "::1", port: 2947)),
    ])
    func parsesEverySpelling(text: String, expected: SourceAddress) throws {
        let address = try SourceAddress(parsing: text)
        #expect(address == expected)
        // The canonical spelling parses back to the same address.
        #expect(try SourceAddress(parsing: address.description) == address)
    }

    @Test(arguments: [
        ("", SourceAddressError.Kind.empty),
        ("udp://1.2.3.4:5", .unknownScheme),
        ("http://x", .unknownScheme),
        ("tcp://host", .missingPort),
        ("tcp://host:", .badPort),
        ("tcp://host:0", .badPort),
        ("tcp://host:65536", .badPort),
        ("tcp://host:port", .badPort),
        ("tcp://:10110", .badHost),
        ("tcp://fe80::1:10110", .badHost),
        ("tcp://[fe80::1:10110", .badHost),
        ("gpsd://host/dev/ttyUSB0", .unexpectedPath),
        ("tcp://user@host:1", .unexpectedPath),
        ("/dev/ttyUSB0:9601", .badBaudRate),
        ("/dev/ttyUSB0:0", .badBaudRate),
        ("serial:", .missingPath),
        ("serial::9600", .missingPath),
        ("file:", .missingPath),
        ("/dev/tty\nUSB0", .badCharacter),
    ])
    func rejectsWithAClearMessage(text: String, kind: SourceAddressError.Kind) {
        #expect {
            _ = try SourceAddress(parsing: text)
        } throws: { error in
            guard let error = error as? SourceAddressError else { return false }
            let message = error.message
            return error.kind == kind && message.hasSuffix(".") && message.contains(": ") && message.count < 220
        }
    }

    @Test func unknownSchemeNamesTheSchemeAndTheForms() throws {
        do {
            _ = try SourceAddress(parsing: "ntrip://caster:2101")
            Issue.record("ntrip:// must not parse")
        } catch {
            #expect(error.message == "'ntrip://' is not a source puckd can read: give one of /dev/ttyAMA0[:BAUD], FILE, -, tcp://HOST:PORT or gpsd://HOST[:PORT].")
        }
    }

    /// Records which concrete source `withSource` built, without opening it.
    struct TypeRecorder: ByteSourceVisitor {
        var sawSerialEntryPoint = false
        mutating func visit<Source: ByteSource & ~Copyable>(_ source: inout Source) -> String {
            "\(Source.self) \(source.status)"
        }
        mutating func visitSerial(_ source: inout SerialSource) -> String {
            sawSerialEntryPoint = true
            return "SerialSource \(source.path) \(source.baudRate)"
        }
    }

    @Test(arguments: [
        ("/dev/ttyUSB0:115200", "SerialSource /dev/ttyUSB0 115200", true),
        ("/dev/ttyAMA0", "SerialSource /dev/ttyAMA0 4800", true),
        ("drive.nmea", "FileSource connecting", false),
        ("-", "FileSource connecting", false),
        ("tcp://127.0.0.1:10110", "TCPSource connecting", false),
        ("gpsd://", "GpsdSource connecting", false),
    ])
    func withSourceBuildsTheConcreteSource(text: String, expected: String, serial: Bool) throws {
        var options = SourceOptions()
        options.defaultBaudRate = 4800
        var recorder = TypeRecorder()
        let description = try SourceAddress(parsing: text).withSource(options: options, visitor: &recorder)
        #expect(description == expected)
        #expect(recorder.sawSerialEntryPoint == serial)
    }
}
