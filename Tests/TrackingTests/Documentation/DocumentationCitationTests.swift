import Testing
import TestSupport

/// Every rule the code and the tests cite (`tracking.md 3.4`, `tracking.md 2.4, 12.4`, `tracking.md Q8`,
/// test names `rule_3_4_…`) is a heading of docs/tracking.md, and no rule is given twice.
@Suite struct DocumentationCitationTests {
    static let root = RepositoryFiles.root

    /// Rule ids of the headings (`## 6 …`, `### 3.4 …`, `### Q8 …`).
    static func headings() -> [String] {
        let text = String(decoding: Fixtures.readFile(root + "/docs/tracking.md") ?? [], as: UTF8.self)
        var ids: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("## ") || line.hasPrefix("### ") {
            let title = line.drop(while: { $0 == "#" }).dropFirst()
            let id = title.prefix(while: { $0 != " " })
            if let first = id.first, first.isNumber || first == "Q" { ids.append(String(id)) }
        }
        return ids
    }

    /// Every `.swift` file under `directory`, recursively.
    static func swiftFiles(_ directory: String) -> [String] { RepositoryFiles.swiftFiles(under: directory) }

    /// The ids cited in `text`: after each `tracking.md `, a list of ids joined by `, `, ` / ` or `–`.
    static func citations(in text: String) -> [String] {
        var ids: [String] = []
        var rest = Substring(text)
        while let range = rest.firstRange(of: "tracking.md ") {
            rest = rest[range.upperBound...]
            var cursor = rest
            while true {
                let id = cursor.prefix(while: { $0.isNumber || $0 == "." || $0 == "Q" })
                let trimmed = id.hasSuffix(".") ? id.dropLast() : id
                guard let first = trimmed.first, first.isNumber || (first == "Q" && trimmed.count > 1) else { break }
                ids.append(String(trimmed))
                cursor = cursor[id.endIndex...]
                if cursor.hasPrefix(", ") { cursor = cursor.dropFirst(2) } else if cursor.hasPrefix(" / ") {
                    cursor = cursor.dropFirst(3)
                } else if cursor.hasPrefix("–") { cursor = cursor.dropFirst() } else { break }
            }
        }
        return ids
    }

    @Test func everyCitedRuleIsAHeadingOfTheTrackingRules() {
        let headings = Set(Self.headings())
        #expect(headings.count > 100)
        var cited: [(String, String)] = []
        for file in Self.swiftFiles(Self.root + "/Sources") + Self.swiftFiles(Self.root + "/Tests") {
            let text = String(decoding: Fixtures.readFile(file) ?? [], as: UTF8.self)
            for id in Self.citations(in: text) { cited.append((id, file)) }
            // The old form cited a spec outside the repository (the needles are split so this file passes).
            let oldForms = ["Spec " + "\u{A7}", "spec " + "\u{A7}"]
            #expect(oldForms.allSatisfy { text.firstRange(of: $0) == nil },
                    "\(file) cites the old spec; cite docs/tracking.md as 'tracking.md N.M'")
            // Test names: rule_3_4_…, rule_6_…
            var rest = Substring(text)
            while let range = rest.firstRange(of: "func rule_") {
                rest = rest[range.upperBound...]
                let parts = rest.prefix(while: { $0.isNumber || $0 == "_" }).split(separator: "_", omittingEmptySubsequences: true)
                if let major = parts.first {
                    cited.append((parts.count > 1 && parts[1].allSatisfy(\.isNumber) ? "\(major).\(parts[1])" : String(major), file))
                }
            }
        }
        #expect(cited.count > 200)
        for (id, file) in cited {
            #expect(headings.contains(id), "\(file) cites tracking.md \(id), which has no heading in docs/tracking.md")
        }
    }

    @Test func everyRuleHasOneHeading() {
        var seen = Set<String>()
        for id in Self.headings() {
            #expect(!seen.contains(id), "docs/tracking.md has two headings for \(id)")
            seen.insert(id)
        }
        #expect(Self.citations(in: "x (tracking.md 2.4, 12.4 / Q8, 3.2–3.6) y tracking.md 6.") == ["2.4", "12.4", "Q8", "3.2", "3.6", "6"])
    }
}
