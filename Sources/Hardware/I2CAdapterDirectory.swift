import SystemCalls

/// One I2C adapter the kernel lists in sysfs.
public struct I2CAdapter: Sendable, Equatable {
    /// Bus number N (the adapter is `i2c-N`).
    public var number: Int
    /// The adapter's name, e.g. "bcm2835 (i2c@7e804000)" or "SMBus stub driver".
    public var name: String
    /// The i2c-dev node, "/dev/i2c-N".
    public var devicePath: String { "/dev/i2c-\(number)" }
}

/// Finds I2C adapters by name in `/sys/class/i2c-adapter/i2c-N/name`, because bus numbers differ
/// between boards and kernels (the i2c-stub adapter is i2c-0 on one VM and i2c-1 on another).
public struct I2CAdapterDirectory: Sendable {
    /// The sysfs directory listing the adapters (a test fixture directory in tests).
    public var root: String

    public init(root: String = "/sys/class/i2c-adapter") { self.root = root }

    /// Every adapter, by bus number.
    public func adapters() -> [I2CAdapter] {
        guard let names = try? FileSystem.entries(ofDirectory: root) else { return [] }
        var found: [I2CAdapter] = []
        for entryName in names {
            guard entryName.hasPrefix("i2c-"), let number = Int(entryName.dropFirst(4)) else { continue }
            guard let name = readFirstLine(root + "/" + entryName + "/name") else { continue }
            found.append(I2CAdapter(number: number, name: name))
        }
        return found.sorted { $0.number < $1.number }
    }

    /// The adapter called exactly `name`; failing that, the lowest-numbered adapter whose name
    /// contains `name` (so "bcm2835" finds "bcm2835 (i2c@7e804000)").
    public func adapter(named name: String) -> I2CAdapter? {
        let all = adapters()
        return all.first { $0.name == name } ?? all.first { $0.name.contains(name) }
    }

    private func readFirstLine(_ path: String) -> String? {
        guard let fd = try? FileDescriptor.open(path, .readOnly, options: [.closeOnExec]) else { return nil }
        defer { try? fd.close() }
        var buffer = [UInt8](repeating: 0, count: 256)
        guard let n = try? buffer.withUnsafeMutableBytes({ raw throws(Errno) in try fd.read(into: raw) }), n > 0 else { return nil }
        return String(decoding: buffer[0..<n].prefix { $0 != 0x0A }, as: UTF8.self)
    }
}
