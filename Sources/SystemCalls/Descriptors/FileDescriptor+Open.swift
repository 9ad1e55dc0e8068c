import Glibc

extension FileDescriptor {
    /// How a file is opened for access (O_RDONLY, O_WRONLY, O_RDWR).
    public enum AccessMode: Sendable {
        case readOnly, writeOnly, readWrite

        var flags: CInt {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// The other open(2) flags puckd uses.
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: CInt
        public init(rawValue: CInt) { self.rawValue = rawValue }

        public static let create = OpenOptions(rawValue: O_CREAT)
        public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        public static let append = OpenOptions(rawValue: O_APPEND)
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        public static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    }

    /// open(2) of a NUL-terminated path. `permissions` (e.g. 0o644) applies when `.create` makes the file.
    public static func open(_ path: UnsafePointer<CChar>, _ mode: AccessMode, options: OpenOptions = [],
                            permissions: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        let flags = mode.flags | options.rawValue
        return FileDescriptor(known: try retryingInterrupts { Glibc.open(path, flags, mode_t(permissions)) })
    }

    /// open(2) of a path String (no allocation for a native String: its storage is NUL-terminated).
    public static func open(_ path: String, _ mode: AccessMode, options: OpenOptions = [],
                            permissions: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        let flags = mode.flags | options.rawValue
        let result = path.withCString { pointer in
            while true {
                let fd = Glibc.open(pointer, flags, mode_t(permissions))
                if fd != -1 || Errno.current != .interrupted { return fd }
            }
        }
        return try FileDescriptor.check(minusOne: result)
    }

    /// Sets or clears O_NONBLOCK in the descriptor's status flags (fcntl F_GETFL/F_SETFL).
    public func setNonBlocking(_ on: Bool) throws(Errno) {
        let flags = try retryingInterrupts { Glibc.fcntl(rawValue, F_GETFL) }
        let wanted = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        if wanted != flags { _ = try retryingInterrupts { Glibc.fcntl(rawValue, F_SETFL, wanted) } }
    }

    /// Sets FD_CLOEXEC (fcntl F_SETFD): the descriptor does not leak into a child program.
    public func setCloseOnExec() throws(Errno) {
        _ = try retryingInterrupts { Glibc.fcntl(rawValue, F_SETFD, FD_CLOEXEC) }
    }
}
