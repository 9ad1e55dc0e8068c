import CSerialPort
import SystemCalls

/// One serial port as libserialport describes it (`puckd ports`): what a user needs to pick the
/// GPS among several ports and to write a udev rule for it.
public struct SerialPortInfo: Equatable, Sendable {
    /// How the port is attached.
    public enum Transport: String, Sendable {
        case native = "native"
        case usb = "USB"
        case bluetooth = "Bluetooth"
        case unknown = "unknown"
    }

    /// The device path, e.g. /dev/ttyACM0.
    public var name: String
    /// libserialport's one-line description (USB product name or driver name).
    public var description: String
    /// How it is attached.
    public var transport: Transport
    /// USB vendor id (nil when not USB or unknown).
    public var usbVendorID: UInt16?
    /// USB product id.
    public var usbProductID: UInt16?
    /// USB bus number and device address.
    public var usbBus: Int?
    public var usbAddress: Int?
    /// USB manufacturer, product and serial-number strings (nil when absent).
    public var manufacturer: String?
    public var product: String?
    public var serialNumber: String?
    /// Bluetooth MAC address (Bluetooth serial ports only).
    public var bluetoothAddress: String?

    /// "1546:01a7", or nil when the ids are unknown.
    public var usbIDs: String? {
        guard let vendor = usbVendorID, let product = usbProductID else { return nil }
        return hex4(vendor) + ":" + hex4(product)
    }

    /// Every port libserialport finds (ttys in /sys/class/tty with a driver; pseudo-terminals
    /// are never listed), sorted by name. Allocates; for the command line.
    public static func list() throws(SourceError) -> [SerialPortInfo] {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let result = sp_list_ports(&list)
        guard result.rawValue == SP_OK.rawValue, let ports = list else {
            let error = result.rawValue == SP_ERR_FAIL.rawValue ? SerialPort.lastError() ?? .ioError : .ioError
            throw SourceError.classifying(error, origin: .serial, subject: "/sys/class/tty")
        }
        defer { sp_free_port_list(ports) }
        var infos: [SerialPortInfo] = []
        var index = 0
        while let port = ports[index] {
            infos.append(info(port))
            index += 1
        }
        return infos.sorted { $0.name < $1.name }
    }

    private static func info(_ port: OpaquePointer) -> SerialPortInfo {
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
            guard let pointer else { return nil }
            let value = String(cString: pointer)
            return value.isEmpty ? nil : value
        }
        let transport: Transport
        switch sp_get_port_transport(port).rawValue {
        case SP_TRANSPORT_NATIVE.rawValue: transport = .native
        case SP_TRANSPORT_USB.rawValue: transport = .usb
        case SP_TRANSPORT_BLUETOOTH.rawValue: transport = .bluetooth
        default: transport = .unknown
        }
        var info = SerialPortInfo(name: text(sp_get_port_name(port)) ?? "?",
                                  description: text(sp_get_port_description(port)) ?? "",
                                  transport: transport)
        if transport == .usb {
            var vendor: Int32 = 0, product: Int32 = 0, bus: Int32 = 0, address: Int32 = 0
            if sp_get_port_usb_vid_pid(port, &vendor, &product).rawValue == SP_OK.rawValue {
                info.usbVendorID = UInt16(truncatingIfNeeded: vendor)
                info.usbProductID = UInt16(truncatingIfNeeded: product)
            }
            if sp_get_port_usb_bus_address(port, &bus, &address).rawValue == SP_OK.rawValue {
                info.usbBus = Int(bus)
                info.usbAddress = Int(address)
            }
            info.manufacturer = text(sp_get_port_usb_manufacturer(port))
            info.product = text(sp_get_port_usb_product(port))
            info.serialNumber = text(sp_get_port_usb_serial(port))
        }
        if transport == .bluetooth {
            info.bluetoothAddress = text(sp_get_port_bluetooth_address(port))
        }
        return info
    }

    /// The `puckd ports` text: one block per port, or a sentence saying there are none and why.
    public static func listing(_ ports: [SerialPortInfo]) -> String {
        if ports.isEmpty {
            return """
                no serial ports found (libserialport \(SerialPort.libraryVersion) lists ttys under /sys/class/tty \
                that have a driver): plug in the USB receiver or enable the HAT's UART (enable_uart=1 or \
                dtparam=uart0=on in /boot/firmware/config.txt), then run 'puckd ports' again; a pseudo-terminal \
                is never listed but works as a source (e.g. /dev/pts/3).

                """
        }
        var text = ""
        for port in ports {
            text += port.name + "\n"
            text += "  transport:     " + port.transport.rawValue + "\n"
            if let ids = port.usbIDs {
                var line = "  USB VID:PID:   " + ids
                if let bus = port.usbBus, let address = port.usbAddress { line += " (bus \(bus), address \(address))" }
                text += line + "\n"
            }
            if let value = port.manufacturer { text += "  manufacturer:  " + value + "\n" }
            if let value = port.product { text += "  product:       " + value + "\n" }
            if let value = port.serialNumber { text += "  serial number: " + value + "\n" }
            if let value = port.bluetoothAddress { text += "  Bluetooth:     " + value + "\n" }
            if !port.description.isEmpty { text += "  description:   " + port.description + "\n" }
        }
        text += "\(ports.count) serial port\(ports.count == 1 ? "" : "s"); use one as /dev/NAME[:BAUD], e.g. \(ports[0].name):9600\n"
        return text
    }

    /// Creates a description (tests and the simulated board build these by hand).
    public init(name: String, description: String, transport: Transport) {
        self.name = name
        self.description = description
        self.transport = transport
    }
}

private func hex4(_ value: UInt16) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int(value >> UInt16(shift) & 0xF)]) }
    return String(decoding: out, as: UTF8.self)
}
