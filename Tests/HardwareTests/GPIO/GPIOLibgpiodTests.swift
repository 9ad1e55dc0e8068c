import Glibc
import SystemCalls
import Testing
import TestSupport
@testable import Hardware

/// The libgpiod backend (v1 or v2, as built) against what this machine really has. The build container has no GPIO chip
/// (its kernel is built without GPIOLIB and without module support, so gpio-sim/gpio-mockup cannot be
/// loaded): these tests exercise the error paths for real. Requesting lines, edge events and outputs on a
/// real chip is verified in the HIL VM (gpio-sim) and on boards.
@Suite struct GPIOLibgpiodTests {
    /// The `gpiochipN` nodes in `directory` that are not symlinks, by number: what the scan must report.
    static func realChipNodes(in directory: String = "/dev") -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var found: [(number: Int, path: String)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.hasPrefix("gpiochip"), let number = Int(name.dropFirst(8)) else { continue }
            var status = stat()
            if lstat(directory + "/" + name, &status) != 0 || (status.st_mode & S_IFMT) == S_IFLNK { continue }
            found.append((number, directory + "/" + name))
        }
        return found.sorted { $0.number < $1.number }.map(\.path)
    }

    /// The scan of `directory` reports exactly its chip nodes, in order, each named after its node.
    static func expectScanMatchesNodes(in directory: String) {
        let nodes = realChipNodes(in: directory)
        let scanned = LibgpiodGPIOController.scanChips(deviceDirectory: directory)
        #expect(scanned.map(\.path) == nodes, "the scan of \(directory) missed or added a chip")
        for chip in scanned where chip.isReadable {
            #expect(chip.path.hasSuffix("/" + chip.name) && chip.lineCount > 0, "\(chip.summary)")
        }
    }

    /// The shim was compiled against the API of the library it runs with, and (under `make test`, which
    /// says which libgpiod each build must use in PUCKD_EXPECT_LIBGPIOD) against the intended one.
    @Test func libraryMatchesTheBuild() {
        let api = LibgpiodGPIOController.apiVersion
        let version = LibgpiodGPIOController.libraryVersion
        #expect(api == 1 || api == 2)
        #expect(version.hasPrefix("\(api)."), "shim compiled for API v\(api), library \(version)")
        #expect(LibgpiodGPIOController.libraryDescription == "libgpiod \(version) (GPIO uAPI v\(api))")
        if let expected = getenv("PUCKD_EXPECT_LIBGPIOD").map({ String(cString: $0) }) {
            #expect(version == expected)
        }
    }

    @Test func debouncePeriodsInMicroseconds() {
        #expect(LibgpiodGPIOController.microseconds(0) == 0)
        #expect(LibgpiodGPIOController.microseconds(-5) == 0)
        #expect(LibgpiodGPIOController.microseconds(30_000_000) == 30_000)
        #expect(LibgpiodGPIOController.microseconds(30_000_001) == 30_001)    // never shorter than asked
        #expect(LibgpiodGPIOController.microseconds(1) == 1)
        #expect(LibgpiodGPIOController.microseconds(.max) == UInt32.max)
        #expect(LibgpiodGPIOController.debounceStatus(kernelMicroseconds: 30_000) == .kernel(periodNanoseconds: 30_000_000))
        if case .unavailable = LibgpiodGPIOController.debounceStatus(kernelMicroseconds: 0) {} else {
            Issue.record("a line the kernel does not debounce must be debounced by puckd")
        }
    }

    /// Needs a GPIO chip (a board, the HIL VM's gpio-sim); the fake-directory test below runs the same
    /// comparison everywhere.
    @Test(.enabled(if: !GPIOLibgpiodTests.realChipNodes().isEmpty, "this machine has no /dev/gpiochipN"))
    func scanMatchesDevNodes() {
        Self.expectScanMatchesNodes(in: "/dev")
    }

    /// The same comparison on a directory with three chip entries (regular files: the scan reports them
    /// with the errno that kept them from opening) and a symlink and a name that are no chips.
    @Test func scanMatchesTheNodesOfAFakeDirectory() throws {
        let dir = try #require(makeTemporaryDirectory())
        defer { _ = runProcess(["rm", "-rf", dir]) }
        for name in ["gpiochip10", "gpiochip2", "gpiochip0", "gpiochipfoo"] { #expect(creat(dir + "/" + name, 0o644) >= 0) }
        #expect(symlink(dir + "/gpiochip0", dir + "/gpiochip4") == 0)
        #expect(Self.realChipNodes(in: dir) == [dir + "/gpiochip0", dir + "/gpiochip2", dir + "/gpiochip10"])
        Self.expectScanMatchesNodes(in: dir)
    }

    @Test(.enabled(if: GPIOLibgpiodTests.realChipNodes().isEmpty, "this machine has GPIO chips"))
    func noChipHereIsReportedClearly() {
        #expect(throws: GPIOError.noChips(directory: "/dev")) { _ = try LibgpiodGPIOController.open(.automatic) }
        #expect(throws: GPIOError.noChips(directory: "/dev")) { _ = try LibgpiodGPIOController.open(.label("pinctrl-bcm2711")) }
        let text = GPIOError.noChips(directory: "/dev").description
        #expect(text.contains("no GPIO chip found") && text.contains("gpiochip"))
    }

    @Test func missingPathAndName() {
        #expect(throws: GPIOError.chipMissing(path: "/dev/gpiochip99")) {
            _ = try LibgpiodGPIOController.open(.name("gpiochip99"))
        }
        #expect(throws: GPIOError.chipMissing(path: "/nonexistent/gpiochip4")) {
            _ = try LibgpiodGPIOController.open(.path("/nonexistent/gpiochip4"))
        }
    }

    @Test func characterDeviceThatIsNoChip() {
        // /dev/null is a character device: libgpiod's own sysfs check rejects it.
        #expect(throws: GPIOError.notAChip(path: "/dev/null")) { _ = try LibgpiodGPIOController.open(.path("/dev/null")) }
    }

    /// A directory with fake `gpiochip*` entries: a regular file (libgpiod refuses it), a symlink (skipped,
    /// it aliases another chip) and an unrelated name. The scan reports the file with its errno, and
    /// selection by label lists it in the error.
    @Test func scanOfAFakeDeviceDirectory() throws {
        let dir = try #require(makeTemporaryDirectory())
        defer { _ = runProcess(["rm", "-rf", dir]) }
        #expect(creat(dir + "/gpiochip0", 0o644) >= 0)
        #expect(symlink(dir + "/gpiochip0", dir + "/gpiochip4") == 0)
        #expect(creat(dir + "/gpiochipfoo", 0o644) >= 0)
        #expect(creat(dir + "/ttyS0", 0o644) >= 0)

        let scanned = LibgpiodGPIOController.scanChips(deviceDirectory: dir)
        #expect(scanned.count == 1)
        let chip = try #require(scanned.first)
        #expect(chip.path == dir + "/gpiochip0")
        #expect(!chip.isReadable && chip.openError == .notATerminal)
        #expect(chip.summary.contains("cannot open"))

        #expect(throws: GPIOError.chipNotFound(wanted: "label \"pinctrl-rp1\"", found: scanned)) {
            _ = try LibgpiodGPIOController.open(.label("pinctrl-rp1"), deviceDirectory: dir)
        }
        #expect(throws: GPIOError.notAChip(path: dir + "/gpiochip0")) {
            _ = try LibgpiodGPIOController.open(.name("gpiochip0"), deviceDirectory: dir)
        }
    }

    func makeTemporaryDirectory() -> String? {
        var template = Array("/tmp/puckd-gpio-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
    }
}
