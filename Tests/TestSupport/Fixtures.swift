#if canImport(Glibc)
import Glibc
#endif

/// Reference data copied into `Tests/Fixtures/` (each dataset with its README and licence).
/// Paths are resolved from this source file, so tests run from any working directory.
public enum Fixtures {
    /// Absolute path of `Tests/Fixtures`.
    public static let directory: String = {
        var path = #filePath                      // …/Tests/TestSupport/Fixtures.swift
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Fixtures"
    }()

    /// Absolute path of `Tests/Fixtures/<relative>`.
    public static func path(_ relative: String) -> String { directory + "/" + relative }

    /// The whole file, or nil when it cannot be read.
    public static func bytes(_ relative: String) -> [UInt8]? { readFile(path(relative)) }

    /// Reads a whole file with POSIX calls (no Foundation in this package).
    public static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    /// Names of the files in `Tests/Fixtures/<relative>` whose names end with `suffix`, sorted.
    public static func files(in relative: String, suffix: String) -> [String] {
        guard let dir = opendir(path(relative)) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasSuffix(suffix) { names.append(name) }
        }
        return names.sorted()
    }
}
