@testable import Commands
import Configuration
import Puckd
import Testing
import TestSupport

/// `puckd track`'s command line (docs/track-log.md §7): it finds the journal through the same
/// `--board`, `--config` and `--set` as `puckd run`, and says what is wrong with its arguments.
@Suite struct TrackCommandTests {
    @Test func helpListsTrack() throws {
        let r = try puckd(["--help"])
        #expect(r.status == 0 && r.output.contains("puckd track list | export --gpx|--geojson|--nmea [--from TIME] [--to TIME]"))
        let own = try puckd(["track", "--help"])
        #expect(own.status == 0 && own.output.contains("record    write a journal from an NMEA log"))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        for (arguments, says) in [(["track"], "usage"), (["track", "export"], "export needs --gpx, --geojson or --nmea"),
                                  (["track", "list", "--gpx"], "list takes no"), (["track", "frob"], "unknown action 'frob'"),
                                  (["track", "export", "--gpx", "--geojson"], "give one of"),
                                  (["track", "export", "--gpx", "--from", "noon"], "'noon' is not a time"),
                                  (["track", "export", "--gpx", "--from", "2020-03-19", "--to", "2020-03-18"], "--to must be later"),
                                  (["track", "list", "--set"], "--set needs a value"), (["track", "list", "extra"], "unexpected argument"),
                                  (["track", "list", "--frobnicate", "1"], "unknown option '--frobnicate'")] {
            let r = try puckd(arguments)
            #expect(r.status == ExitStatus.usage, "\(arguments)")
            #expect(r.errorOutput.contains(says), "\(arguments): \(r.errorOutput)")
        }
        let bad = try puckd(["track", "list", "--set", "track.max_size_mb=0"])
        #expect(bad.status == ExitStatus.config && bad.errorOutput.contains("track.max_size_mb"), "\(bad.errorOutput)")
    }

    @Test func theJournalIsFoundThroughConfigAndSetAsForRun() throws {
        let state = Fixtures.temporaryDirectory(prefix: "puckd-track-cli")
        defer { _ = runProcess(["rm", "-rf", state]) }
        let config = try #require(Fixtures.temporaryFile(named: "puckd.conf", contents: Array("""
            [state]
            directory = \(state)
            [track]
            directory = journal/
            """.utf8)))
        let recorded = try puckd(["track", "record", "--config", config])
        #expect(recorded.status == 0 && recorded.errorOutput.contains("122 records written to " + state + "/journal"),
                "\(recorded.errorOutput)")
        let list = try puckd(["track", "list", "--config", config])
        #expect(list.output.hasPrefix("journal " + state + "/journal: 1 segments\n"), "\(list.output)")
        // --set on top of the file, as for run: an absolute directory replaces the relative one.
        let elsewhere = try puckd(["track", "list", "--config", config, "--set", "track.directory=" + state + "/none"])
        #expect(elsewhere.status == ExitStatus.noInput)
        // The board profile's state directory (the simulated board keeps the default /var/lib/puckd).
        var c = PuckdConfiguration()
        #expect(c.track.resolvedDirectory(stateDirectory: c.state.directory) == "/var/lib/puckd/track")
        c.track.directory = "/srv/track/"
        #expect(c.track.resolvedDirectory(stateDirectory: "/x/") == "/srv/track/")
        #expect(TrackSettings().resolvedDirectory(stateDirectory: "/x/") == "/x/track")
    }
}
