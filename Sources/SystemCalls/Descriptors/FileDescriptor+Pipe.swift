import Glibc

extension FileDescriptor {
    /// pipe(2), both ends close-on-exec (and O_NONBLOCK when asked): the read end and the write end.
    public static func pipe(nonBlocking: Bool = false) throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var ends: (CInt, CInt) = (-1, -1)
        let result = withUnsafeMutableBytes(of: &ends) { raw in
            Glibc.pipe(raw.baseAddress!.assumingMemoryBound(to: CInt.self))
        }
        _ = try Errno.check(minusOne: result)
        let pair = (readEnd: FileDescriptor(known: ends.0), writeEnd: FileDescriptor(known: ends.1))
        do {
            for end in [pair.readEnd, pair.writeEnd] {
                try end.setCloseOnExec()
                if nonBlocking { try end.setNonBlocking(true) }
            }
        } catch {
            try? pair.readEnd.close()
            try? pair.writeEnd.close()
            throw error
        }
        return pair
    }
}
