import Glibc

extension FileSystem {
    /// The names in directory `path` (opendir/readdir), without "." and "..", in the directory's
    /// order. Allocates: start-up, scans and commands only.
    public static func entries(ofDirectory path: String) throws(Errno) -> [String] {
        guard let directory = opendir(path) else { throw Errno.current }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// access(2) with F_OK: true when `path` exists (a dangling symbolic link does not).
    public static func exists(_ path: String) -> Bool { path.withCString { Glibc.access($0, F_OK) } == 0 }
}
