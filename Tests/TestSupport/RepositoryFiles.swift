#if canImport(Glibc)
import Glibc
#endif

/// The repository the tests were built from, for the tests that read its own files (citations, the
/// syscall-layer rule): its root and the entries of its directories.
public enum RepositoryFiles {
    /// The repository's root directory.
    public static let root: String = {
        var path = Fixtures.directory                 // …/Tests/Fixtures
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// The entries of `directory` (`.` and `..` left out), sorted by name; [] when it cannot be read.
    public static func entries(_ directory: String) -> [(name: String, isDirectory: Bool)] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var out: [(name: String, isDirectory: Bool)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name == "." || name == ".." { continue }
            out.append((name, entry.pointee.d_type == UInt8(DT_DIR)))
        }
        return out.sorted { $0.name < $1.name }
    }

    /// Every `.swift` file under `directory`, recursively (dot files and folders left out), sorted.
    public static func swiftFiles(under directory: String) -> [String] {
        entries(directory).filter { !$0.name.hasPrefix(".") }.flatMap { entry in
            let path = directory + "/" + entry.name
            return entry.isDirectory ? swiftFiles(under: path) : entry.name.hasSuffix(".swift") ? [path] : []
        }
    }
}
