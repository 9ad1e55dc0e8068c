import Testing
import TestSupport

/// scripts/puckd.order, the symbol order the device binary is linked with, was made from the sources
/// as they are: its first line names the git tree of Sources/ it was profiled on
/// (scripts/sources-hash). A stale order still links but scatters every function added since over
/// the text segment, and peak RSS counts each 64 KB block touched: 8.4 MB instead of 6.6 MB after a
/// day of changes (docs/power.md §3.2). So a changed source fails here until `make order` is run.
@Suite struct SymbolOrderTests {
    static let repository = GeneratedFilesTests.repository

    /// The `# sources TREE` line `scripts/link-order` writes first.
    static func recordedSourcesTree(_ order: String) -> String? {
        guard let first = order.split(separator: "\n", maxSplits: 1).first, first.hasPrefix("# sources ") else { return nil }
        return String(first.dropFirst("# sources ".count))
    }

    @Test func theOrderWasMadeFromTheseSources() throws {
        let order = try #require(GeneratedFilesTests.file("scripts/puckd.order"), "scripts/puckd.order is missing: make order")
        let recorded = try #require(Self.recordedSourcesTree(order),
                                    "scripts/puckd.order has no '# sources TREE' first line: regenerate it with make order")
        guard let result = runProcess([Self.repository + "/scripts/sources-hash"]), result.status == 0 else {
            // Not a git checkout (a source tarball): nothing to compare with.
            return
        }
        let now = result.output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(recorded == now, """
            scripts/puckd.order was profiled on Sources/ tree \(recorded), the sources are now \(now): \
            regenerate it with make order (valgrind, about 2 minutes) and commit it
            """)
    }

    @Test func theRecordedTreeIsReadFromTheFirstLineOnly() {
        #expect(Self.recordedSourcesTree("# sources abc123\nmain\n") == "abc123")
        #expect(Self.recordedSourcesTree("main\n# sources abc123\n") == nil)
        #expect(Self.recordedSourcesTree("") == nil)
    }
}
