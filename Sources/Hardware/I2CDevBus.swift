import IMU
import SystemCalls

/// The real I2C bus: Linux i2c-dev (`/dev/i2c-N`), `ioctl(I2C_SLAVE)` to select the device, then
/// `ioctl(I2C_SMBUS)` byte-data and I2C-block-data transfers. SMBus only (no `read()/write()` or
/// `I2C_RDWR`), which works on the Pi's controllers and on the kernel's `i2c-stub` test adapter.
/// The selected address is cached, so a sample read costs one ioctl per transfer. No allocation
/// after `init`.
public final class I2CDevBus: I2CBus {
    /// The device node, e.g. "/dev/i2c-1".
    public let path: String
    /// The adapter's I2C_FUNCS mask.
    public let functionality: UInt
    private let fd: FileDescriptor
    private var selectedAddress: Int = -1

    /// Opens `path` and checks that the adapter can do the SMBus transfers the drivers use.
    public init(path: String) throws(I2CError) {
        self.path = path
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.openI2CBus(path) } catch {
            throw I2CDevBus.error(error, address: 0, opening: true)
        }
        let funcs: UInt
        do throws(Errno) { funcs = try fd.i2cFunctionality() } catch {
            fd.closeDroppingError()
            throw error == .notATerminal || error == .invalidArgument ? .notAnI2CBus
                : I2CDevBus.error(error, address: 0, opening: true)
        }
        let required = FileDescriptor.i2cRequiredFunctionality
        guard funcs & required == required else {
            fd.closeDroppingError()
            throw .unsupported(address: 0)
        }
        self.fd = fd
        self.functionality = funcs
    }

    /// Opens the bus whose adapter is called `adapterName` (see `I2CAdapterDirectory`).
    public convenience init(adapterName: String, directory: I2CAdapterDirectory = I2CAdapterDirectory()) throws(I2CDevBusLookupError) {
        guard let adapter = directory.adapter(named: adapterName) else {
            throw .noAdapter(name: adapterName, available: directory.adapters())
        }
        do throws(I2CError) {
            try self.init(path: adapter.devicePath)
        } catch {
            throw .open(path: adapter.devicePath, error: error)
        }
    }

    deinit { fd.closeDroppingError() }

    private func select(_ address: UInt8) throws(I2CError) {
        if selectedAddress == Int(address) { return }
        if let error = fd.selectI2CDevice(address) {
            selectedAddress = -1
            throw I2CDevBus.error(error, address: address, opening: false)
        }
        selectedAddress = Int(address)
    }

    public func readByte(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        try select(address)
        switch fd.i2cReadByte(register: register) {
        case .success(let value): return value
        case .failure(let error): throw I2CDevBus.error(error, address: address, opening: false)
        }
    }

    public func writeByte(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        try select(address)
        if let error = fd.i2cWriteByte(register: register, value: value) {
            throw I2CDevBus.error(error, address: address, opening: false)
        }
    }

    public func readBlock(address: UInt8, register: UInt8, count: Int) throws(I2CError) -> I2CBlock {
        precondition(count >= 1 && count <= I2CBlock.capacity, "I2C block reads carry 1…32 bytes")
        try select(address)
        var block = I2CBlock()
        let result = withUnsafeMutableBytes(of: &block.bytes) { raw in
            fd.i2cReadBlock(register: register, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]))
        }
        let rc: Int
        switch result {
        case .success(let n): rc = n
        case .failure(let error): throw I2CDevBus.error(error, address: address, opening: false)
        }
        guard rc == count else { throw .io(address: address) }     // short block: treat as an I/O error
        block.count = count
        return block
    }

    /// Maps an i2c-dev error to an `I2CError`.
    public static func error(_ e: Errno, address: UInt8, opening: Bool) -> I2CError {
        switch e {
        case .noSuchDeviceOrAddress, .remoteIO: return .noAcknowledge(address: address)
        case .noSuchDevice: return opening ? .noSuchBus : .noAcknowledge(address: address)
        case .noSuchFileOrDirectory: return .noSuchBus
        case .permissionDenied, .notPermitted: return .permissionDenied
        case .ioError: return .io(address: address)
        case .busy: return .busy(address: address)
        case .timedOut: return .timeout(address: address)
        case .notATerminal: return .notAnI2CBus
        case .notSupported: return .unsupported(address: address)
        default: return .other(e, address: address)
        }
    }
}

/// Why a bus could not be opened by adapter name.
public enum I2CDevBusLookupError: Error, Equatable, Sendable {
    /// No adapter has that name.
    case noAdapter(name: String, available: [I2CAdapter])
    /// The adapter's device node could not be opened.
    case open(path: String, error: I2CError)

    /// What is wrong and what to do.
    public var message: String {
        switch self {
        case .noAdapter(let name, let available):
            let list = available.isEmpty
                ? "none (is I2C enabled and the i2c-dev module loaded? sudo modprobe i2c-dev)"
                : available.map { "\($0.devicePath) \"\($0.name)\"" }.joined(separator: ", ")
            return "no I2C adapter named \"\(name)\"; adapters present: \(list); pass --adapter with one of those "
                + "names or --bus /dev/i2c-N"
        case .open(let path, let error):
            return "\(path): \(error.message)"
        }
    }
}
