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

        // Pure core: bytes, samples and monotonic nanoseconds in; values out. No I/O, no clock.
        .target(name: "NMEA", swiftSettings: strict),
        .target(name: "Heading", dependencies: ["NMEA"], swiftSettings: strict),
        .target(name: "Tracking", dependencies: ["NMEA"], swiftSettings: strict),
        // The receiver's command languages (UBX, PMTK) and the configuration state machine.
        .target(name: "Receiver", swiftSettings: strict),
        .target(name: "Console", dependencies: ["NMEA", "Heading", "Tracking", "Receiver"], swiftSettings: strict),
        // Scenario files (parser, runner, JSON lines) for `puckd scenario` and `replay --script`.
        .target(name: "TrackingScenario", dependencies: ["NMEA", "Tracking", "Console"], swiftSettings: strict),

        // Thin edges: real hardware backends and their simulated twins.
        .target(name: "Hardware", dependencies: ["CSerialPort", "CGPIOD", "CLinux", "Heading", "Receiver"],
                swiftSettings: strict),

        // The device: wires sources, core, GPIO and console into one loop.
        .target(name: "Puckd", dependencies: ["NMEA", "Heading", "Tracking", "Receiver", "Console", "TrackingScenario",
                                              "Hardware", "CBundledData", "CCrypt"],
                swiftSettings: strict),
        .executableTarget(name: "puckd", dependencies: ["Puckd"], swiftSettings: strict),

        // `make bench`: figures, not tests.
        .executableTarget(name: "puckd-bench", dependencies: ["Puckd", "CMallocCounter", "TestSupport"],
                          path: "Benchmarks/puckd-bench", swiftSettings: strict),

        // Tests (Swift Testing only).
        .target(name: "TestSupport", dependencies: ["CMallocCounter", "Heading", "NMEA"], path: "Tests/TestSupport",
                swiftSettings: strict),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HeadingTests", dependencies: ["Heading", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "NMEA", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ReceiverTests", dependencies: ["Receiver", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HardwareTests", dependencies: ["Hardware", "Heading", "NMEA", "Receiver", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "ConsoleTests", dependencies: ["Console", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TrackingScenarioTests", dependencies: ["TrackingScenario", "Tracking", "Console", "NMEA", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "PuckdTests", dependencies: ["Puckd", "CBundledData", "TestSupport"], swiftSettings: strict),
    ]
)
