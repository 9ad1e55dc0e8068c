import Hardware

/// `puckd ports`: lists the serial ports libserialport finds, with what a user needs to pick the
/// GPS and to write a udev rule for it (transport, USB VID:PID, manufacturer, product, serial
/// number, description). Exits 0 also when there are none, and then says where to look.
enum PortsCommand {
    static let usage: StaticString = """
          puckd ports
              List serial ports (libserialport): device, transport, USB VID:PID, manufacturer,
              product, serial number, description. Pseudo-terminals are not listed; puckd still
              opens them through POSIX termios.
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        if let extra = arguments.first {
            StandardStreams.err("puckd ports: unexpected argument '\(extra)'; 'puckd ports' takes none\n")
            return ExitStatus.usage
        }
        let ports: [SerialPortInfo]
        do throws(SourceError) {
            ports = try SerialPortInfo.list()
        } catch {
            StandardStreams.err("puckd ports: \(error.message)\n")
            return ExitStatus.ioError
        }
        StandardStreams.out(render(ports))
        return ExitStatus.ok
    }

    /// The listing as text: one block per port, or a sentence saying there are none and why.
    static func render(_ ports: [SerialPortInfo]) -> String {
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
}
