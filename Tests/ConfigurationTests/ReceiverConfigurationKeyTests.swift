import Testing
import Receiver
@testable import Configuration

/// The `[gps]` keys that configure the receiver: parsing, `keep`, refusals with the reason, the round
/// trip `config save` relies on, and what the board profiles ask of their receivers.
@Suite struct ReceiverConfigurationKeyTests {
    static func load(_ overrides: [String], board: String? = nil) throws -> ReceiverSettings {
        try ConfigurationSources(board: board, file: nil, overrides: overrides).load().configuration.gps.receiver
    }

    static func problem(_ override: String) -> String {
        do throws(ConfigurationError) {
            _ = try ConfigurationSources(board: nil, file: nil, overrides: [override]).load()
            return ""
        } catch {
            return error.description
        }
    }

    @Test func defaultsKeepEverything() throws {
        let s = try Self.load([])
        #expect(s.mode == .auto && s.family == nil && !s.wantsChanges && !s.save)
    }

    @Test func valuesParse() throws {
        let s = try Self.load(["gps.rate_hz=10", "gps.configure_baud=115200", "gps.constellations=GPS, galileo,sbas",
                               "gps.sentences=rmc,gga,gsv", "gps.receiver=ublox-m9", "gps.save=true", "gps.configure=never"])
        #expect(s.measurementPeriodMilliseconds == 100)
        #expect(s.baudRate == 115200)
        #expect(s.constellations == [.gps, .galileo, .sbas])
        #expect(s.sentences == [NMEASentenceSet(.rmc), NMEASentenceSet(.gga), NMEASentenceSet(.gsv)])
        #expect(s.family == .ublox(generation: 9))
        #expect(s.save && s.mode == .never)
        #expect(try Self.load(["gps.sentences=needed"]).sentences == .needed)
        #expect(try Self.load(["gps.rate_hz=3"]).measurementPeriodMilliseconds == 333)
    }

    @Test func badValuesSayWhy() {
        #expect(Self.problem("gps.rate_hz=50").contains("out of range, allowed keep or 0.1…25 (hertz)"))
        #expect(Self.problem("gps.configure_baud=1000").contains("not allowed, use one of keep or 4800, 9600"))
        #expect(Self.problem("gps.constellations=gps,navic").contains("'navic' is not a satellite system"))
        #expect(Self.problem("gps.constellations=sbas,qzss").contains("needs at least one of gps, glonass, galileo, beidou"))
        #expect(Self.problem("gps.sentences=gsv,gsa").contains("needs RMC, GGA or GNS"))
        #expect(Self.problem("gps.sentences=rmc,txt").contains("'TXT' is not a sentence puckd can switch"))
        #expect(Self.problem("gps.receiver=sirf").contains("not allowed, use one of auto, ublox, ublox-m8"))
    }

    @Test func valuesRoundTrip() throws {
        var c = PuckdConfiguration()
        for (key, value) in [("rate_hz", "5"), ("configure_baud", "57600"), ("constellations", "gps,glonass,qzss"),
                             ("sentences", "GGA,RMC,ZDA"), ("receiver", "quectel"), ("rate_hz", "keep"), ("sentences", "needed")] {
            let k = try #require(ConfigurationKeys.key(section: "gps", name: key))
            #expect(k.write(value, into: &c) == nil)
            let text = k.read(c)
            var again = c
            #expect(k.write(text, into: &again) == nil)
            #expect(again.gps.receiver == c.gps.receiver, "\(key) = \(value) → \(text)")
            #expect(k.read(again) == text)
        }
    }

    @Test func boardProfilesAskTheirReceivers() throws {
        let berry = try Self.load([], board: "pi4-berrygps-imu-v4")
        #expect(berry.family == .ublox(generation: 8))
        #expect(berry.measurementPeriodMilliseconds == 100 && berry.baudRate == 115200 && berry.sentences == .needed)
        #expect(berry.constellations == [.gps, .glonass, .sbas, .qzss])
        let adafruit = try Self.load([], board: "adafruit-ultimate-gps-hat")
        #expect(adafruit.family == .mediatek && adafruit.constellations == nil && adafruit.baudRate == 115200)
        let waveshare = try Self.load([], board: "waveshare-l76x-hat")
        #expect(waveshare.family == .quectel && waveshare.constellations == [.gps, .beidou, .qzss])
        for board in ["sim", "hil", "sense-hat-usb-gps"] {
            #expect(try !Self.load([], board: board).wantsChanges, "\(board) leaves its receiver alone")
        }
    }
}
