import Testing
@testable import Configuration

/// The `[track]` keys (docs/track-log.md §3): their names, defaults and ranges as scripts rely on them.
struct TrackConfigurationKeyTests {
    func load(_ text: String, overrides: [String] = []) throws(ConfigurationError) -> PuckdConfiguration {
        try ConfigurationLoader.load(documents: [ConfigurationDocument(name: "/etc/puckd.conf", text: text)],
                                     overrides: overrides).configuration
    }

    @Test func defaultsAndValues() throws {
        let defaults = try load("")
        #expect(defaults.track == TrackSettings())
        #expect(defaults.track.enabled && defaults.track.directory == "track" && defaults.track.flushIntervalSeconds == 5
            && defaults.track.maximumSizeMegabytes == 64 && !defaults.track.rawNMEA)
        #expect(ConfigurationKeys.keys(in: "track").map(\.name) == ["enabled", "directory", "flush_interval_s", "max_size_mb", "raw_nmea"])
        let c = try load("""
            [track]
            enabled = false
            directory = /data/track
            flush_interval_s = 0.5
            max_size_mb = 512
            raw_nmea = true
            """)
        #expect(!c.track.enabled && c.track.directory == "/data/track" && c.track.flushIntervalSeconds == 0.5
            && c.track.maximumSizeMegabytes == 512 && c.track.rawNMEA)
        #expect(try load("", overrides: ["track.flush_interval_s=0"]).track.flushIntervalSeconds == 0)
    }

    @Test func badValuesNameTheKey() {
        for (text, says) in [("[track]\nmax_size_mb = 0\n", "max_size_mb = 0: out of range, allowed 1…1048576 (MiB)"),
                             ("[track]\nflush_interval_s = soon\n", "flush_interval_s = soon: not a number"),
                             ("[track]\nraw_nmea = maybe\n", "raw_nmea = maybe: not a boolean"),
                             ("[track]\ndirectory =\n", "empty, write e.g. track")] {
            do throws(ConfigurationError) {
                _ = try load(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect("\(error)".contains(says), "\(error)")
            }
        }
    }
}
