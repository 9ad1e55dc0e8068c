// swift-tools-version: 6.2
// puckd: location, heading and map-camera tracking for Linux single-board computers.
// Module map and rules: DEVELOPERS.md. No Swift package dependencies; C libraries come from Debian.
import PackageDescription

/// Settings shared by every Swift target: Swift 6 language mode, warnings are errors.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "puckd",
    products: [
        .executable(name: "puckd", targets: ["puckd"]),
    ],
    targets: [
        // C libraries from Debian packages, wrapped as system-library targets.
        .systemLibrary(name: "CSerialPort", pkgConfig: "libserialport", providers: [.apt(["libserialport-dev"])]),
        .systemLibrary(name: "CLibgpiod", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        // puckd's one GPIO API, a C shim compiled against libgpiod v1 or v2, whichever <gpiod.h> pkg-config
        // finds (Debian 12: 1.6.3, Debian 13: 2.2.1): the API is chosen at build time, never at run time.
        .target(name: "CGPIOD", dependencies: ["CLibgpiod"]),
        // OpenSSL (libssl, libcrypto): TLS for the fleet uplink (docs/uplink.md §10), linked statically into the device.
        // Without pkgConfig for the same reason as CCrypt below: SwiftPM passes openssl.pc's -L${libdir}
        // (/usr/lib/x86_64-linux-gnu) on, which finds the system libgpiod.a before the other API's in
        // `make build-other`. The headers are in the compiler's default (multiarch) include paths.
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // libcrypt (libxcrypt): crypt(3) checks the serial console's password hash.
        // Without pkgConfig: libcrypt.pc adds -L/usr/lib/x86_64-linux-gnu, which SwiftPM passes on and which
        // would then find the system libgpiod.a before the other API's in `make build-other`.
        .systemLibrary(name: "CCrypt", providers: [.apt(["libcrypt-dev"])]),
        // Linux uAPI pieces that do not import into Swift (ioctl numbers, unions, inline helpers).
        .target(name: "CLinux"),
        // Data compiled into the binary with #embed: the default replay drive and its licence.
        .target(name: "CBundledData"),
        // Thread-local malloc counter: linked into tests and the benchmark only, never into puckd.
        .target(name: "CMallocCounter"),

        // The one syscall layer (as apple/swift-system): FileDescriptor, Errno, poll, open/read/write/
        // close/fsync/rename/ioctl, clocks. Every other module reaches the OS through it.
        .target(name: "SystemCalls", dependencies: ["CLinux"], swiftSettings: strict),

        // Pure core: bytes, samples and monotonic nanoseconds in; values out. No I/O, no clock.
        // Angles: wrapping, shortest arcs, degrees ↔ radians (the one place for each).
        .target(name: "Angles", swiftSettings: strict),
        .target(name: "NMEA", dependencies: ["Angles"], swiftSettings: strict),
        // The IMU: I2C bus protocol, chip table and drivers, probe, device state machine, mounting, samples.
        .target(name: "IMU", dependencies: ["Angles", "SystemCalls"], swiftSettings: strict),
        // Heading: the fusion math (AHRS filter, calibration, magnetic model) over IMU samples.
        .target(name: "Heading", dependencies: ["Angles", "IMU", "NMEA"], swiftSettings: strict),
        .target(name: "Tracking", dependencies: ["Angles", "NMEA"], swiftSettings: strict),
        // The receiver's command languages (UBX, PMTK) and the configuration state machine.
        .target(name: "Receiver", swiftSettings: strict),
        .target(name: "Console", dependencies: ["NMEA", "IMU", "Heading", "Tracking", "Receiver"], swiftSettings: strict),
        // gpsd's client protocol (gpsd_json(5) 3.x): request parser and report encoders into caller-owned buffers.
        .target(name: "GpsdProtocol", dependencies: ["NMEA", "IMU", "Heading", "Tracking", "Console"], swiftSettings: strict),
        // The gpsd-protocol server's edge: listeners, fixed client slots with bounded queues, one epoll descriptor.
        .target(name: "GpsdServer", dependencies: ["GpsdProtocol", "SystemCalls", "NMEA", "IMU", "Heading", "Tracking", "Console"],
                swiftSettings: strict),
        // Scenario files (parser, runner, JSON lines) for `puckd scenario` and `replay --script`.
        .target(name: "TrackingScenario", dependencies: ["NMEA", "Tracking", "Console", "Controls"], swiftSettings: strict),

        // The GPIO interface the loop and the controls use: the GPIOController protocol, line and event
        // values, GPIOError. No C library: the libgpiod backend is in Hardware, the twin in Simulation.
        .target(name: "GPIO", dependencies: ["SystemCalls"], swiftSettings: strict),

        // Thin edges: the real hardware backends (their simulated twins are in Simulation).
        .target(name: "Hardware", dependencies: ["CSerialPort", "CGPIOD", "IMU", "GPIO", "SystemCalls"],
                swiftSettings: strict),

        // Buttons, LEDs and PPS pairing (debouncer, mode cycle, LED patterns): pure, GPIO through GPIOController.
        .target(name: "Controls", dependencies: ["GPIO", "SystemCalls"], swiftSettings: strict),

        // Configuration: keys, files (document, loader, writer), board profiles, whole-file reads.
        .target(name: "Configuration", dependencies: ["NMEA", "IMU", "Heading", "Tracking", "Receiver", "Console", "Hardware",
                                                      "Controls", "SystemCalls", "CBundledData", "GpsdServer"],
                swiftSettings: strict),

        // Persistent state: the state record, the calibration record inside it, one CRC-32, the atomic store.
        .target(name: "State", dependencies: ["NMEA", "IMU", "Heading", "Tracking", "Configuration", "SystemCalls"],
                swiftSettings: strict),

        // The track journal: fixed-size records with a CRC in segments rotated by size and UTC day, the
        // writer behind a file-system protocol (real and simulated), start-up recovery, GPX/GeoJSON export.
        // Its exports format numbers and times with Console's OutputBuffer (the one formatter; Console is
        // already below TrackLog through State → Configuration, so no cycle).
        .target(name: "TrackLog", dependencies: ["NMEA", "Console", "State", "SystemCalls"], swiftSettings: strict),

        // The fleet uplink, pure: MQTT 3.1.1 client protocol, Traccar's OsmAnd requests and an HTTP/1.1
        // response parser, the position JSON, store-and-forward from the journal, backoff. No I/O, no clock.
        .target(name: "Uplink", dependencies: ["Angles", "NMEA", "Console", "TrackLog"], swiftSettings: strict),
        // TLS client connections through OpenSSL, and the byte stream (plain TCP or TLS) the uplink's clients run over.
        // A fixed pool for OpenSSL's small per-record allocations (CRYPTO_set_mem_functions), so a connected TLS session
        // does not reach malloc per message.
        .target(name: "CTLSMemory", dependencies: ["COpenSSL"]),
        .target(name: "TLS", dependencies: ["COpenSSL", "CTLSMemory", "SystemCalls"], swiftSettings: strict),
        // The uplink's edge: a non-blocking TCP client (SystemCalls' sockets) driving the pure Uplink types.
        .target(name: "UplinkClient", dependencies: ["Uplink", "SystemCalls", "TrackLog", "State", "TLS"], swiftSettings: strict),

        // Every simulated twin (board, receivers, IMU chips, GPIO, motion, recordings), apart from the
        // real backends as swift-nio keeps NIOEmbedded apart from NIOPosix.
        .target(name: "Simulation", dependencies: ["Angles", "NMEA", "IMU", "Heading", "Receiver", "Console", "Hardware", "Controls",
                                                   "Configuration", "SystemCalls", "CBundledData"],
                swiftSettings: strict),

        // The device: the loop that wires sources, core, GPIO, state and console.
        .target(name: "Puckd", dependencies: ["Angles", "NMEA", "IMU", "Heading", "Tracking", "Receiver", "Console", "Hardware", "Controls",
                                              "GpsdServer", "GpsdProtocol",
                                              "Configuration", "State", "Simulation", "SystemCalls", "CCrypt", "TrackLog",
                                              "Uplink", "UplinkClient", "TLS"],
                swiftSettings: strict),
        // The command line: `puckd run`, `replay`, `scenario`, `heading`, `imu`, `gpio`, `ports`, `password-hash`.
        .target(name: "Commands", dependencies: ["NMEA", "IMU", "Heading", "Tracking", "Console", "TrackingScenario", "Hardware",
                                                 "GpsdServer", "GpsdProtocol",
                                                 "Controls", "Configuration", "Simulation", "Puckd", "SystemCalls",
                                                 "CBundledData", "TrackLog", "TLS"],
                swiftSettings: strict),
        .executableTarget(name: "puckd", dependencies: ["Commands", "SystemCalls"], swiftSettings: strict),

        // `make bench`: figures, not tests.
        .executableTarget(name: "puckd-bench", dependencies: ["Puckd", "Configuration", "Simulation", "Angles", "IMU",
                                                             "Heading", "SystemCalls", "CMallocCounter", "TestSupport",
                                                             "TrackLog", "Uplink", "UplinkClient"],
                          path: "Benchmarks/puckd-bench", swiftSettings: strict),

        // Tests (Swift Testing only).
        .target(name: "TestSupport", dependencies: ["CMallocCounter", "Angles", "IMU", "Heading", "NMEA", "Tracking", "Hardware",
                                                   "State"],
                path: "Tests/TestSupport", swiftSettings: strict),
        // The invariant checks shared by the fuzz tests and `make fuzz` (NMEA, scenario); not linked into puckd.
        .target(name: "FuzzSupport", dependencies: ["NMEA", "Tracking", "Console", "TrackingScenario"], path: "Fuzz/Support",
                swiftSettings: strict),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "FuzzSupport", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "AnglesTests", dependencies: ["Angles"], swiftSettings: strict),
        // The drivers run against the register-level simulated chips (SimulatedIMU, in Simulation).
        .testTarget(name: "IMUTests", dependencies: ["IMU", "Heading", "Simulation", "SystemCalls", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HeadingTests", dependencies: ["Angles", "IMU", "Heading", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TrackingTests", dependencies: ["Angles", "Tracking", "NMEA", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ReceiverTests", dependencies: ["Receiver", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HardwareTests", dependencies: ["Hardware", "SystemCalls", "Simulation", "IMU", "Heading", "NMEA", "Receiver",
                                                          "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "ConsoleTests", dependencies: ["Angles", "Console", "IMU", "Heading", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "GpsdProtocolTests", dependencies: ["GpsdProtocol", "NMEA", "IMU", "Heading", "Tracking", "Console",
                                                              "TestSupport"], swiftSettings: strict),
        .testTarget(name: "GpsdServerTests", dependencies: ["GpsdServer", "GpsdProtocol", "SystemCalls", "NMEA", "Tracking", "Heading", "IMU",
                                                            "Console", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TrackingScenarioTests", dependencies: ["TrackingScenario", "FuzzSupport", "Tracking", "Console", "NMEA",
                                                                  "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "ControlsTests", dependencies: ["Controls", "GPIO", "Hardware", "Simulation", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "ConfigurationTests", dependencies: ["Configuration", "Controls", "Hardware", "IMU", "Heading",
                                                               "Tracking", "Receiver", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "StateTests", dependencies: ["State", "SystemCalls", "IMU", "Heading", "NMEA", "Tracking", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "SystemCalls", "Configuration", "Hardware", "IMU", "Heading",
                                                            "CBundledData", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "CommandsTests", dependencies: ["Commands", "Puckd", "Configuration", "Simulation", "IMU",
                                                          "CBundledData", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "TrackLogTests", dependencies: ["TrackLog", "NMEA", "CBundledData", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "UplinkTests", dependencies: ["Uplink", "UplinkClient", "TLS", "Console", "SystemCalls", "TrackLog", "NMEA", "CBundledData", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "PuckdTests", dependencies: ["Puckd", "TLS", "TrackLog", "GpsdServer", "Commands", "Controls", "Configuration", "State",
                                                       "Simulation", "SystemCalls", "Angles", "IMU", "Heading", "CBundledData", "TestSupport"],
                    swiftSettings: strict),
    ]
)
