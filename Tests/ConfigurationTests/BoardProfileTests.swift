import Glibc
import Testing
import TestSupport
import Hardware
@testable import Configuration

/// Every profile in board/: parses, validates, equals the copy built into puckd, and says what a user
/// needs (GPS, I2C, chip, lines, config.txt).
@Suite struct BoardProfileTests {
    static let boardDirectory: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/board"
    }()

    static var files: [String] {
        guard let dir = opendir(boardDirectory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".conf") { names.append(String(name.dropLast(5))) }
        }
        return names.sorted()
    }

    @Test func theBuiltInProfilesAreExactlyTheFiles() throws {
        #expect(Self.files == BoardProfiles.names.sorted())
        #expect(Self.files.count == 9)
        for name in Self.files {
            let text = String(decoding: Fixtures.readFile(Self.boardDirectory + "/" + name + ".conf")!, as: UTF8.self)
            #expect(BoardProfiles.builtIn(name) == text, "board/\(name).conf differs from the built-in copy: rebuild")
        }
    }

    @Test(arguments: BoardProfileTests.files) func profileIsValidAndComplete(name: String) throws {
        let path = Self.boardDirectory + "/" + name + ".conf"
        let loaded = try ConfigurationLoader.load(documents: [BoardProfiles.document(for: path)])
        let c = loaded.configuration
        #expect(c.board.name != PuckdConfiguration().board.name, "\(name): [board] name")
        #expect(loaded.origins["gpio.button"] != nil && loaded.origins["gpio.led_fix"] != nil, "\(name): button and LED lines")
        if c.board.simulated {
            #expect(name == "sim")
            return
        }
        #expect(!c.gps.source.isEmpty, "\(name): [gps] source")
        #expect(loaded.origins["gps.baud"] != nil, "\(name): [gps] baud")
        #expect(loaded.origins["imu.bus"] != nil && loaded.origins["imu.chip"] != nil, "\(name): I2C bus and chip")
        #expect(loaded.origins["gpio.chip"] != nil, "\(name): GPIO chip")
        #expect(loaded.origins["pps.line"] != nil && loaded.origins["pps.device"] != nil, "\(name): PPS")
        let text = BoardProfiles.builtIn(name)!
        if name != "hil" { #expect(text.contains("config.txt"), "\(name): the config.txt lines") }
        if case .serial(let path, _) = try SourceAddress(parsing: c.gps.source) { #expect(path.hasPrefix("/dev/")) }
    }

    @Test func piProfilesMatchTheHILWiring() throws {
        for (name, label) in [("pi4-berrygps-imu-v4", "pinctrl-bcm2711"), ("pi5-berrygps-imu-v4", "pinctrl-rp1"),
                              ("zero2w-berrygps-imu-v4", "pinctrl-bcm2835"), ("hil", "pinctrl-bcm2711")] {
            let c = try ConfigurationLoader.load(documents: [BoardProfiles.document(for: name)]).configuration
            #expect(c.gpio.chip == label)
            #expect(c.gpio.button == 17 && c.gpio.buttonActiveLow && c.gpio.buttonBias == .pullUp)
            #expect(c.gpio.ledFix == 22 && c.gpio.ledMode == 23 && c.gpio.ledFault == 24 && !c.gpio.ledActiveLow)
            #expect(c.imu.chip == .chip(.lsm6dslWithLIS3MDL))
        }
        let sim = try ConfigurationLoader.load(documents: [BoardProfiles.document(for: "sim")]).configuration
        #expect(sim.gpio.button == 17 && sim.gpio.ledFix == 22 && sim.gpio.ledMode == 23 && sim.gpio.ledFault == 24)
        let hil = try ConfigurationLoader.load(documents: [BoardProfiles.document(for: "hil")]).configuration
        #expect(hil.imu.bus == "adapter:SMBus stub driver" && hil.gps.source == "/dev/ttyS1")
    }

    @Test func unknownBoardListsTheProfiles() {
        #expect(throws: ConfigurationError(location: "--board pi9", reason: "no such board profile; built-in profiles are "
            + BoardProfiles.names.joined(separator: ", ") + ", or give the path of a profile file")) {
            _ = try BoardProfiles.document(for: "pi9")
        }
    }
}
