import Glibc
import Testing
import TestSupport
@testable import Configuration

/// docs/configuration.md documents every configuration key (README links it): its table is
/// `puckd --help-config markdown`, generated from the key table, so the two cannot drift apart.
@Suite struct ReadmeConfigurationTableTests {
    static let readme: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return String(decoding: Fixtures.readFile(path + "/docs/configuration.md") ?? [], as: UTF8.self)
    }()

    @Test func readmeKeyTableIsTheKeyTable() throws {
        let begin = "<!-- config-keys:begin -->\n", end = "<!-- config-keys:end -->"
        let start = try #require(Self.readme.firstRange(of: begin), "docs/configuration.md has no key table")
        let stop = try #require(Self.readme[start.upperBound...].firstRange(of: end))
        let table = String(Self.readme[start.upperBound..<stop.lowerBound])
        #expect(table == ConfigurationHelp.markdown,
                "docs/configuration.md's key table is out of date: replace it with the output of puckd --help-config markdown")
        // One row per key, each with its default and reload decision.
        let rows = table.split(separator: "\n").dropFirst(2)
        #expect(rows.count == ConfigurationKeys.all.count)
        for key in ConfigurationKeys.all {
            #expect(rows.contains { $0.hasPrefix("| `" + key.qualifiedName + "` |") }, "docs/configuration.md lists \(key.qualifiedName)")
        }
    }
}
