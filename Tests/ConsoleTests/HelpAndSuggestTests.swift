import Testing
@testable import Console

/// `help`, `help CMD` for every command, and the edit-distance suggestions.
struct HelpAndSuggestTests {
    @Test func helpListsEveryCommand() {
        let out = ConsoleDriver(interactive: false).type("help\n")
        #expect(out.hasPrefix("Commands (help CMD for details):\n"))
        for i in 0..<ConsoleCommandName.count {
            let name = ConsoleCommandName.at(i)
            #expect(out.contains("\n  \(name.word)"), "help does not list \(name.word)")
            #expect(out.contains(String(describing: HelpText.summary(name)) + "\n"))
        }
        #expect(out.split(separator: "\n").count == ConsoleCommandName.count + 2)
    }

    @Test func helpForEveryCommandGivesUsageWhatAndUnits() {
        let d = ConsoleDriver(interactive: false)
        for i in 0..<ConsoleCommandName.count {
            let name = ConsoleCommandName.at(i)
            let out = d.type("help \(name.word)\n")
            let expected = "usage: \(HelpText.usage(name))\n\(HelpText.summary(name)).\n\(HelpText.details(name))"
            #expect(out == expected)
            #expect(String(describing: HelpText.details(name)).count > 20)
        }
        // Units and ranges the parser enforces appear in the help.
        let units: [(String, [String])] = [
            ("zoom", ["0…25.5", "512-pt tiles"]), ("pitch", ["0…85", "degrees"]), ("rotate", ["-360…360", "degrees"]),
            ("pan", ["-10000…10000", "points"]), ("watch", ["0.1…60", "per second"]), ("events", ["1…64", "seconds"]),
            ("viewport", ["0…25.5", "0…85 degrees", "0…360 degrees"]), ("gps", ["m/s", "degrees", "(m)"]),
            ("sats", ["dB-Hz", "degrees"]), ("heading", ["degrees", "µT"]), ("precise", ["1…64"]),
            ("config", ["120 bytes"]), ("stats", ["ns"]),
        ]
        for (command, words) in units {
            let out = d.type("help \(command)\n")
            for w in words { #expect(out.contains(w), "help \(command) does not mention \(w)") }
        }
        #expect(d.type("? zoom\n") == d.type("help zoom\n"))
    }

    @Test func editDistance() {
        func dist(_ a: String, _ b: StaticString) -> Int {
            var s = a
            return s.withUTF8 { SuggestNearest.distance(UnsafeRawBufferPointer($0), b) }
        }
        #expect(dist("status", "status") == 0)
        #expect(dist("STATUS", "status") == 0)
        #expect(dist("stauts", "status") == 1)      // a swap counts once
        #expect(dist("stat", "status") == 2)
        #expect(dist("", "gps") == 3)
        #expect(dist("gsp", "gps") == 1)
        #expect(dist("kitten", "sitting") == 3)
        #expect(SuggestNearest.threshold(forLength: 3) == 1)
        #expect(SuggestNearest.threshold(forLength: 7) == 2)
        #expect(SuggestNearest.threshold(forLength: 12) == 3)
    }

    @Test func suggestionsPreferPrefixesAndStayWithinTheThreshold() {
        func suggest(_ word: String) -> String? {
            var s = word
            return s.withUTF8 { SuggestNearest.command(for: UnsafeRawBufferPointer($0)) }.map { String(describing: $0.word) }
        }
        #expect(suggest("stat") == "stats")
        #expect(suggest("statu") == "status")
        #expect(suggest("hlep") == "help")
        #expect(suggest("gsp") == "gps")
        #expect(suggest("led") == "leds")
        #expect(suggest("configure") == "config")
        #expect(suggest("versoin") == "version")
        #expect(suggest("quti") == "quit")
        #expect(suggest("zzzzzz") == nil)
        #expect(suggest("a") == nil || suggest("a")!.count <= 2)
    }
}
