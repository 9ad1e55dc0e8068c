import Configuration
import Testing
import TestSupport
@testable import Commands

/// The generated bash completion, run in a real bash: what Tab offers for a command line, checked
/// against the tables it is made from (commands, each form's options, board names, keys).
@Suite struct BashCompletionTests {
    /// The words bash's Tab offers after `line` (its last word is the one being completed).
    static func complete(_ line: [String]) throws -> [String] {
        let quoted = line.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = BashCompletion.script + """
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(line.count - 1)
            _puckd
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try #require(runProcess(["bash", "--norc", "--noprofile", "-c", program]))
        #expect(result.status == 0, "\(result.errorOutput)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func commandsAtTheFirstWord() throws {
        let all = try Self.complete(["puckd", ""])
        for entry in CommandTable.all { #expect(all.contains(entry.name)) }
        #expect(try Self.complete(["puckd", "se"]) == ["setup"])
        #expect(try Self.complete(["puckd", "--help-c"]) == ["--help-config"])
    }

    @Test func everyOptionOfEveryForm() throws {
        for entry in CommandTable.all {
            for form in UsageParagraph(entry.usage).forms {
                let offered = try Self.complete(["puckd"] + form.words + ["--"])
                for option in form.options { #expect(offered.contains(option), "puckd \(form.words) -- lacks \(option)") }
            }
        }
        #expect(try Self.complete(["puckd", "gpio", ""]) == ["chips", "watch", "set", "pps"])
        #expect(try Self.complete(["puckd", "run", "--ch"]) == ["--check"])
    }

    @Test func boardNames() throws {
        #expect(try Self.complete(["puckd", "setup", ""]) == BoardProfiles.names)
        #expect(try Self.complete(["puckd", "setup", "pi5"]) == ["pi5-berrygps-imu-v4"])
        let boards = try Self.complete(["puckd", "run", "--board", "pi"])
        #expect(boards == BoardProfiles.names.filter { $0.hasPrefix("pi") })
    }

    @Test func configurationKeysAfterSet() throws {
        let keys = try Self.complete(["puckd", "run", "--set", ""])
        #expect(keys == ConfigurationKeys.all.map { $0.qualifiedName + "=" })
        #expect(try Self.complete(["puckd", "run", "--set", "gps.sou"]) == ["gps.source="])
    }

    /// Option values the table names: words, or nothing for a value only the user knows.
    @Test func optionValues() throws {
        #expect(try Self.complete(["puckd", "run", "--console", "st"]) == ["stdio"])
        #expect(try Self.complete(["puckd", "replay", "--track", "followWith"]) == ["followWithCourse", "followWithHeading"])
        #expect(try Self.complete(["puckd", "scenario", "x.scenario", "--hz", ""]).isEmpty)
        #expect(try Self.complete(["puckd", "heading", "replay", "a.csv", "--config", ""]).isEmpty)
        // Every option the table lists is an option of some command.
        let options = Set(CommandTable.all.flatMap { UsageParagraph($0.usage).forms.flatMap(\.valueOptions) })
        for (option, _) in BashCompletion.optionValues {
            #expect(options.contains(String(option.split(separator: " ").last!)), "\(option) is no value option any more")
        }
    }
}
