import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every `docs/NAME.md §N.M` (or `PN`, `QN`) cited in the code, the tests, the scripts and the build is a
/// heading of that document, and nothing there cites a document outside the repository or an issue
/// number: a user's clone has only the repository. (`tracking.md N.M` and `rule_N_M_…` test names are
/// checked by DocumentationCitationTests.)
@Suite struct RepositoryCitationTests {
    static let root = DocumentationCitationTests.root

    /// Text files of the repository that may cite documents: sources, tests (fixture data aside), the
    /// benchmark, fuzz targets, scripts, the board and udev files, the Makefile and the CI script.
    static func citingFiles() -> [String] {
        var files: [String] = []
        for directory in ["Sources", "Tests", "Benchmarks", "Fuzz", "scripts", "board", "udev", ".ci"] {
            files += textFiles(root + "/" + directory)
        }
        return files.filter { !$0.contains("/Tests/Fixtures/") || $0.hasSuffix("/README.md") } + [root + "/Makefile"]
    }

    /// Every file under `directory` with a text suffix (or none, like `.ci/run`), recursively.
    static func textFiles(_ directory: String) -> [String] {
        var out: [String] = []
        for (name, isDirectory) in RepositoryFiles.entries(directory) {
            if name.hasPrefix(".") && name != ".ci" || name == "puckd.order" { continue }
            let path = directory + "/" + name
            if isDirectory {
                out += textFiles(path)
            } else if [".swift", ".sh", ".py", ".md", ".c", ".h", ".conf", ".rules", ".service"].contains(where: name.hasSuffix)
                        || !name.contains(".") {
                out.append(path)
            }
        }
        return out
    }

    /// Heading ids of `docs/NAME.md`: `## 4`, `### 1.5`, `#### 1.2.11`, `### P4`, `### Q8` give 4, 1.5,
    /// 1.2.11, P4, Q8. Nil when the document does not exist.
    static func headings(_ name: String) -> Set<String>? {
        guard let bytes = Fixtures.readFile(root + "/docs/" + name) else { return nil }
        var ids = Set<String>()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("##") {
            let title = line.drop(while: { $0 == "#" })
            guard title.hasPrefix(" ") else { continue }
            let id = title.dropFirst().prefix(while: { $0 != " " })
            if let first = id.first, first.isNumber || ((first == "P" || first == "Q") && id.count > 1) { ids.insert(String(id)) }
        }
        return ids
    }

    /// The citations in `text`: each `docs/NAME.md` with the section ids after it (`§1.2.2, §1.2.3`,
    /// `P4`, `§1.1–1.3`, `Q8 / §3`); a document named without a section gives no id.
    static func citations(in text: String) -> [(document: String, ids: [String])] {
        var found: [(String, [String])] = []
        var rest = Substring(text)
        while let range = rest.firstRange(of: "docs/") {
            rest = rest[range.upperBound...]
            let name = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
            guard name.hasSuffix(".md") || name.hasSuffix(".md.") else { continue }
            let document = name.hasSuffix(".") ? String(name.dropLast()) : String(name)
            var cursor = rest[name.endIndex...]
            var ids: [String] = []
            if cursor.hasPrefix(" ") || cursor.hasPrefix("'s ") {
                cursor = cursor.drop(while: { $0 != " " }).dropFirst()
                while true {
                    if cursor.hasPrefix("§") { cursor = cursor.dropFirst() }
                    let id = cursor.prefix(while: { $0.isNumber || $0 == "." || $0 == "P" || $0 == "Q" })
                    let trimmed = id.hasSuffix(".") ? id.dropLast() : id
                    guard let first = trimmed.first,
                          first.isNumber || ((first == "P" || first == "Q") && trimmed.dropFirst().allSatisfy(\.isNumber) && trimmed.count > 1)
                    else { break }
                    ids.append(String(trimmed))
                    cursor = cursor[id.endIndex...]
                    if let separator = [", ", " / ", "–", " and "].first(where: { cursor.hasPrefix($0) }) {
                        cursor = cursor.dropFirst(separator.count)
                    } else { break }
                }
            }
            found.append((document, ids))
        }
        return found
    }

    @Test func everyCitedDocumentSectionIsAHeading() {
        var documents: [String: Set<String>?] = [:]
        var cited = 0, sections = 0
        for file in Self.citingFiles() {
            let text = String(decoding: Fixtures.readFile(file) ?? [], as: UTF8.self)
            for (document, ids) in Self.citations(in: text) {
                if documents[document] == nil { documents[document] = .some(Self.headings(document)) }
                guard let headings = documents[document]! else {
                    if document.dropLast(3).allSatisfy(\.isUppercase) { continue }   // a placeholder: docs/NAME.md
                    Issue.record("\(file) cites docs/\(document), which does not exist")
                    continue
                }
                cited += 1
                for id in ids {
                    sections += 1
                    #expect(headings.contains(id), "\(file) cites docs/\(document) §\(id), which has no heading there")
                }
            }
        }
        #expect(cited > 50 && sections > 25, "\(cited) citations of docs/, \(sections) sections")
    }

    @Test func nothingCitesOutsideTheRepositoryOrAnIssue() {
        // The needles are split so that this file does not match them itself.
        let outside = ["/wo" + "rk/", "../sha" + "red", "tracking-" + "spec", "hil-" + "vm.md"]
        var checked = 0
        for file in Self.citingFiles() {
            let text = String(decoding: Fixtures.readFile(file) ?? [], as: UTF8.self)
            checked += 1
            for needle in outside {
                #expect(text.firstRange(of: needle) == nil, "\(file) cites \(needle), which a clone does not have")
            }
            for line in text.split(separator: "\n") {
                if let r = line.firstRange(of: "hardware" + ".md"), !line[..<r.lowerBound].hasSuffix("docs/") {
                    Issue.record("\(file): \(line): cite docs/hardware.md")
                }
                if Self.citesAnIssue(line) {
                    Issue.record("\(file): \(line): say why in a line instead of naming an issue")
                }
            }
        }
        #expect(checked > 300)
    }

    /// The word issue (or issues, Issue) followed by a number, with or without `#`; not `Issue.record`.
    static func citesAnIssue(_ line: Substring) -> Bool {
        var rest = line
        while let r = rest.firstRange(of: "ssue") {
            let before = rest[..<r.lowerBound]
            rest = rest[r.upperBound...]
            guard let letter = before.last, letter == "i" || letter == "I" else { continue }
            let beforeWord = before.dropLast().last
            if let c = beforeWord, c.isLetter { continue }
            var after = rest
            if after.hasPrefix("s") { after = after.dropFirst() }
            guard after.hasPrefix(" ") else { continue }
            after = after.dropFirst()
            if after.hasPrefix("#") { after = after.dropFirst() }
            if let digit = after.first, digit.isNumber { return true }
        }
        return false
    }

    @Test func theScannersFindWhatTheyMust() {
        let c = Self.citations(in: "(docs/hardware.md §1.2.2, §1.2.3) docs/hil.md P4; see docs/gpio.md. docs/tracking.md Q8 / §3.")
        #expect(c.map(\.document) == ["hard" + "ware.md", "hil.md", "gpio.md", "tracking.md"])
        #expect(c.map(\.ids) == [["1.2.2", "1.2.3"], ["P4"], [], ["Q8", "3"]])
        #expect(Self.citesAnIssue("the log line of is" + "sue 2.") && Self.citesAnIssue("(Is" + "sues #12)"))
        #expect(!Self.citesAnIssue("Issue.record(\"x\")") && !Self.citesAnIssue("tissue 3") && !Self.citesAnIssue("an issue with 3"))
        #expect(Self.headings("hil.md")?.contains("P4") == true && Self.headings("gpio.md") != nil)
    }
}
