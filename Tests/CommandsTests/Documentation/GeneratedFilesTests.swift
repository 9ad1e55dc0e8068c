import Configuration
import Glibc
import Testing
import TestSupport
@testable import Commands

/// The manual pages and the bash completion in the repository (`man/`, `completions/`, installed by
/// the Debian package) are what puckd generates from its command and configuration tables, as
/// docs/configuration.md's key table is `--help-config markdown`: a changed command, option, board or
/// key fails here until the files are regenerated (the message says how).
@Suite struct GeneratedFilesTests {
    static let repository: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    static func file(_ relative: String) -> String? {
        Fixtures.readFile(repository + "/" + relative).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [
        ("man/puckd.8", "--help man"),
        ("man/puckd.conf.5", "--help-config man"),
        ("completions/puckd.bash", "--completion bash"),
    ])
    func repositoryCopyIsTheGeneratedOne(path: String, arguments: String) throws {
        let generated: String
        switch path {
        case "man/puckd.8": generated = CommandManual.page
        case "man/puckd.conf.5": generated = ConfigurationManual.page
        default: generated = BashCompletion.script
        }
        let stored = try #require(Self.file(path), "\(path) is missing: puckd \(arguments) > \(path)")
        #expect(stored == generated, "\(path) is out of date: regenerate it with puckd \(arguments) > \(path)")
    }

    /// Every command, each of its synopses and every usage line are in puckd.8, as --help prints them.
    @Test func commandManualHasEveryCommandAndUsageLine() {
        let page = CommandManual.page
        for entry in CommandTable.all {
            #expect(page.contains(".SS \"puckd " + entry.name + "\"\n"))
            let paragraph = UsageParagraph(entry.usage)
            #expect(!paragraph.forms.isEmpty, "\(entry.name): no synopsis line in its usage")
            for form in paragraph.forms {
                #expect(form.words.first == entry.name, "\(entry.name): a synopsis of another command: \(form.synopsis)")
                #expect(page.contains(".B " + Roff.escape(form.synopsis) + "\n"))
            }
            for line in paragraph.lines where !line.isEmpty { #expect(page.contains("\n" + Roff.escape(line) + "\n")) }
        }
        for status in CommandTable.exitStatuses { #expect(page.contains(".TP\n.B " + String(status.status) + "\n")) }
    }

    /// Every key of every section is in puckd.conf.5 with its default, doc line and allowed values.
    @Test func configurationManualHasEveryKey() {
        let page = ConfigurationManual.page
        for section in ConfigurationKeys.sections { #expect(page.contains(".SS \"[" + section + "]\"\n")) }
        for key in ConfigurationKeys.all {
            let shown = key.defaultValue.isEmpty ? "\"\"" : key.defaultValue
            #expect(page.contains(".TP\n\\fB" + Roff.escape(key.name) + "\\fR = \\fI" + Roff.escape(shown) + "\\fR\n"
                + Roff.escape(key.doc) + "\n"), "puckd.conf.5 lacks \(key.qualifiedName)")
            #expect(page.contains(Roff.escape("Allowed: " + key.allowed + ";")))
        }
    }

    /// The example in puckd.conf.5 is a configuration that loads and chooses a board.
    @Test func configurationManualExampleLoads() throws {
        let page = ConfigurationManual.page
        let start = try #require(page.firstRange(of: ".SH EXAMPLE\n.nf\n"))
        let end = try #require(page[start.upperBound...].firstRange(of: ".fi\n"))
        let text = page[start.upperBound..<end.lowerBound].replacing(".sp\n", with: "\n").replacing("\\-", with: "-")
        let loaded = try ConfigurationLoader.load(documents: [ConfigurationDocument(name: "example", text: String(text))])
        #expect(SetupCommand.choosesBoard(loaded.configuration))
    }

    /// Roff escapes: a backslash, a hyphen (an option's minus) and a line that would be a request.
    @Test func roffEscapes() {
        #expect(Roff.escape("--set a\\b") == "\\-\\-set a\\eb")
        #expect(Roff.escape(".conf files") == "\\&.conf files")
        #expect(Roff.escape("'quoted'") == "\\&'quoted'")
        #expect(Roff.verbatim(["a", "", "b"]) == ".nf\na\n.sp\nb\n.fi\n")
    }

    /// The usage parser finds each form's words, its options, and which of them take a value.
    @Test func usageParagraphForms() {
        let imu = UsageParagraph(IMUCommand.usage).forms
        #expect(imu.map(\.words) == [["imu", "probe"], ["imu", "read"]])
        #expect(imu[0].options == ["--bus", "--adapter"] && imu[0].valueOptions == ["--bus", "--adapter"])
        #expect(imu[1].options == ["--bus", "--adapter", "--count", "--mounting"])
        let run = UsageParagraph(RunCommand.usage).forms
        #expect(run.count == 1 && run[0].words == ["run"])
        #expect(run[0].options == ["--board", "--config", "--gps", "--console", "--set", "--status-interval", "--check"])
        #expect(!run[0].valueOptions.contains("--check") && run[0].valueOptions.contains("--status-interval"))
        let gpio = UsageParagraph(GPIOCommand.usage).forms
        #expect(gpio.map(\.words) == [["gpio", "chips"], ["gpio", "watch"], ["gpio", "set"], ["gpio", "pps"]])
        #expect(gpio[0].synopsis == "puckd gpio chips", "the description beside a synopsis is not part of it")
        #expect(gpio[1].options.contains("--seconds") && gpio[1].options.contains("--active-high"))
        let setup = UsageParagraph(SetupCommand.usage).forms
        #expect(setup.map(\.words) == [["setup"], ["setup"]] && setup[1].options == ["--condition", "--config"])
        #expect(!setup[1].valueOptions.contains("--condition"))
    }
}
