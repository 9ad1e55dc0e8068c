import Testing
import TestSupport

/// The rule of DEVELOPERS.md "The syscall layer": the operating system is reached only through the
/// SystemCalls module. Outside it no Swift source imports Glibc or CLinux for an OS call, names `errno`
/// or calls a libc syscall by its C name; pure modules may import Glibc for libm alone (sin, atan2, …).
/// Modules not migrated yet are listed with the reason, and the list may only shrink: a listed module
/// that has become clean fails too, so it is taken off.
@Suite struct SyscallLayerRuleTests {
    static let root = RepositoryFiles.root

    /// Modules that may import Glibc for libm only (no OS call, no errno).
    static let mathModules: Set<String> = ["Angles", "NMEA", "IMU", "Heading", "Tracking", "Simulation", "Uplink"]

    /// Modules still calling the OS directly, and why they are not migrated yet.
    static let notYetMigrated: [String: String] = [:]

    /// The libc calls that are OS calls (not libm), as written at a call site: `open(`, `Glibc.read(`.
    static let systemCallNames: [String] = [
        "open", "openat", "close", "read", "pread", "write", "pwrite", "poll", "ppoll", "fsync", "fdatasync",
        "rename", "unlink", "mkdir", "rmdir", "ioctl", "fcntl", "stat", "fstat", "lstat", "access", "socket",
        "connect", "accept", "bind", "listen", "send", "recv", "shutdown", "getsockopt", "setsockopt",
        "getaddrinfo", "getenv", "setenv", "clock_gettime", "nanosleep", "isatty", "pipe", "pipe2", "dup",
        "dup2", "mkstemp", "realpath", "opendir", "readdir", "closedir", "kill", "signal", "sigaction",
        "geteuid", "getegid", "getuid", "getgid", "getpwuid", "getgrgid", "tcgetattr", "tcsetattr",
        "cfmakeraw", "cfsetspeed", "tcflush", "tcdrain", "strerror", "fchmod", "fchown", "ftruncate", "lseek",
        "eventfd", "timerfd_create", "signalfd", "exit", "_exit",
    ]

    /// The problems of one source file's text (comments and string literals left out).
    static func problems(in text: String, module: String) -> [String] {
        var found: [String] = []
        let code = Self.code(of: text)
        let words = Self.identifiers(in: code)
        if words.contains(where: { $0.word == "errno" && !$0.afterDot }) { found.append("names errno") }
        for line in code.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@preconcurrency import ") {
            let name = line.split(separator: " ").last.map(String.init) ?? ""
            if name == "CLinux" { found.append("imports CLinux") }
            if name == "Glibc" && !mathModules.contains(module) { found.append("imports Glibc") }
        }
        for (index, word) in words.enumerated() where !word.afterDot || word.qualifier == "Glibc" {
            guard systemCallNames.contains(word.word), word.followedByParenthesis else { continue }
            // A function of the file's own type with that name (`func read(`) is called, not libc's.
            if word.qualifier != "Glibc" && code.contains("func " + word.word + "(") { continue }
            if index > 0, ["func", "case", "var", "let"].contains(words[index - 1].word) { continue }
            found.append("calls " + word.word + "()")
        }
        return found
    }

    struct Identifier { var word: String; var afterDot: Bool; var qualifier: String; var followedByParenthesis: Bool }

    /// Identifiers of `code` with what surrounds them (`x.read(` is a method call, `Glibc.read(` is not).
    static func identifiers(in code: String) -> [Identifier] {
        let bytes = Array(code.utf8)
        var out: [Identifier] = []
        var i = 0
        func isWord(_ b: UInt8) -> Bool { b == 95 || (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
        while i < bytes.count {
            guard isWord(bytes[i]) else { i += 1; continue }
            let start = i
            while i < bytes.count && isWord(bytes[i]) { i += 1 }
            let word = String(decoding: bytes[start..<i], as: UTF8.self)
            let afterDot = start > 0 && bytes[start - 1] == UInt8(ascii: ".")
            var qualifier = ""
            if afterDot {
                var q = start - 1
                while q > 0 && isWord(bytes[q - 1]) { q -= 1 }
                qualifier = String(decoding: bytes[q..<(start - 1)], as: UTF8.self)
            }
            out.append(Identifier(word: word, afterDot: afterDot, qualifier: qualifier,
                                  followedByParenthesis: i < bytes.count && bytes[i] == UInt8(ascii: "(")))
        }
        return out
    }

    /// `text` without `//` and `/* */` comments and without the contents of string literals.
    static func code(of text: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0, inString = false
        while i < bytes.count {
            let b = bytes[i], next: UInt8 = i + 1 < bytes.count ? bytes[i + 1] : 0
            if inString {
                if b == UInt8(ascii: "\\") { i += 2; continue }
                if b == UInt8(ascii: "\"") { inString = false; out.append(b) }
                if b == UInt8(ascii: "\n") { out.append(b) }
                i += 1
                continue
            }
            if b == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
                while i < bytes.count && bytes[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            }
            if b == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                i += 2
                while i + 1 < bytes.count && !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i += 2
                continue
            }
            if b == UInt8(ascii: "\"") { inString = true }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func onlySystemCallsReachesTheOperatingSystem() throws {
        var dirtyModules = Set<String>()
        var failures: [String] = []
        let modules = RepositoryFiles.entries(Self.root + "/Sources").filter(\.isDirectory).map(\.name)
        #expect(modules.contains("SystemCalls") && modules.contains("State"))
        for module in modules where module != "SystemCalls" {
            for file in RepositoryFiles.swiftFiles(under: Self.root + "/Sources/" + module) {
                guard let bytes = Fixtures.readFile(file) else { continue }
                let problems = Self.problems(in: String(decoding: bytes, as: UTF8.self), module: module)
                guard !problems.isEmpty else { continue }
                dirtyModules.insert(module)
                if Self.notYetMigrated[module] == nil {
                    failures.append(String(file.dropFirst(Self.root.count + 1)) + ": " + problems.joined(separator: ", "))
                }
            }
        }
        #expect(failures.isEmpty, Comment(rawValue: "OS calls outside SystemCalls (use FileDescriptor, FileSystem, Errno …):\n"
            + failures.joined(separator: "\n")))
        for module in Self.notYetMigrated.keys.sorted() where !dirtyModules.contains(module) {
            Issue.record("\(module) no longer calls the OS directly: take it off SyscallLayerRuleTests.notYetMigrated")
        }
    }

    /// The scanner itself: it finds what the rule forbids and passes what it allows.
    @Test func scannerFindsCallsAndIgnoresMethodsCommentsAndMath() {
        #expect(Self.problems(in: "import Glibc\nlet n = read(fd, p, 1)\n", module: "State")
            == ["imports Glibc", "calls read()"])
        #expect(Self.problems(in: "let e = errno // errno in a comment\n", module: "Heading") == ["names errno"])
        #expect(Self.problems(in: "_ = Glibc.close(fd)\n", module: "Heading") == ["calls close()"])
        #expect(Self.problems(in: "import CLinux\n", module: "State") == ["imports CLinux"])
        #expect(Self.problems(in: "import Glibc\nlet y = atan2(a, b) + sin(c)\n", module: "Heading").isEmpty)
        #expect(Self.problems(in: "try fd.read(into: b)\nfunc write(_ x: Int) {}\n// open(\nlet s = \"close(1)\"\n",
                              module: "State").isEmpty)
        #expect(Self.problems(in: "case .unreadable(let e): e.errno\n", module: "State").isEmpty)
        #expect(Self.problems(in: "func read(_ t: Int) {}\nlet r = read(now)\n", module: "IMU").isEmpty)
        #expect(Self.problems(in: "func read(_ t: Int) {}\nlet r = Glibc.read(fd, p, 1)\n", module: "IMU") == ["calls read()"])
    }
}
