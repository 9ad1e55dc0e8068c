import Glibc
import TestSupport
import Testing
@testable import Hardware

/// `puckd ports` run as a real process (the binary built next to this test bundle).
@Suite struct PortsCommandTests {
    /// The puckd executable of the same build (debug or release) as the running tests.
    static let puckd: String = {
        var path = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &path, path.count - 1)
        let exe = n > 0 ? String(decoding: path[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]) + "/puckd"
    }()

    @Test func listsPortsOrSaysThereAreNone() throws {
        try #require(access(Self.puckd, X_OK) == 0, "build puckd first: swift build --build-tests")
        let result = try #require(runProcess([Self.puckd, "ports"]))
        #expect(result.status == 0, "\(result.errorOutput)")
        let listed = try SerialPortInfo.list()
        if listed.isEmpty {
            #expect(result.output.hasPrefix("no serial ports found (libserialport "))
        } else {
            // Every port libserialport finds is printed with its transport, and exists.
            for port in listed {
                #expect(result.output.contains("\(port.name)\n  transport:     \(port.transport.rawValue)\n"))
                var info = stat()
                #expect(stat(port.name, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "\(port.name)")
            }
            #expect(result.output.contains("\(listed.count) serial port"))
        }
    }

    @Test func rendersEverythingAUdevRuleNeeds() {
        var port = SerialPortInfo(name: "/dev/ttyACM0", description: "u-blox GNSS receiver", transport: .usb)
        port.usbVendorID = 0x1546
        port.usbProductID = 0x01a8
        port.usbBus = 1
        port.usbAddress = 4
        port.manufacturer = "u-blox AG - www.u-blox.com"
        port.product = "u-blox GNSS receiver"
        port.serialNumber = "1234"
        let uart = SerialPortInfo(name: "/dev/ttyAMA0", description: "ttyAMA0", transport: .native)
        #expect(SerialPortInfo.listing([port, uart]) == """
            /dev/ttyACM0
              transport:     USB
              USB VID:PID:   1546:01a8 (bus 1, address 4)
              manufacturer:  u-blox AG - www.u-blox.com
              product:       u-blox GNSS receiver
              serial number: 1234
              description:   u-blox GNSS receiver
            /dev/ttyAMA0
              transport:     native
              description:   ttyAMA0
            2 serial ports; use one as /dev/NAME[:BAUD], e.g. /dev/ttyACM0:9600

            """)
        let none = SerialPortInfo.listing([])
        #expect(none.hasPrefix("no serial ports found (libserialport \(SerialPort.libraryVersion) lists ttys under /sys/class/tty"))
        #expect(none.contains("enable_uart=1") && none.contains("pseudo-terminal"))
    }

    @Test func rejectsUnknownArguments() throws {
        let result = try #require(runProcess([Self.puckd, "ports", "--frobnicate"]))
        #expect(result.status == 64)
        #expect(result.errorOutput.contains("unexpected argument '--frobnicate'"))
    }

    @Test func probeOfAPtyChoosesTermiosAndSaysWhy() throws {
        let pty = try #require(PseudoTerminal())
        let sentence = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n".utf8)
        #expect(pty.write(sentence, from: 0) == sentence.count)  // waits in the slave's input queue
        let result = try #require(runProcess([Self.puckd, "ports", "--probe", pty.slavePath, "--seconds", "1"]))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("serial \(pty.slavePath): POSIX termios, because libserialport does not know the device"))
        #expect(result.output.contains("first line: $GPGGA,123519,4807.038,N"))
    }

    @Test func probeOfAMissingDeviceExitsWithItsMessage() throws {
        let result = try #require(runProcess([Self.puckd, "ports", "--probe", "/dev/ttyUSB-puckd-absent:4800"]))
        #expect(result.status == 66)
        #expect(result.errorOutput == "puckd ports: /dev/ttyUSB-puckd-absent does not exist (ENOENT): check that the receiver is plugged in and powered (for a HAT: that the UART is enabled in config.txt), then run 'puckd ports' to list this machine's serial ports.\n")
    }

    /// A real EACCES from the kernel: the pty slave (mode 620, root:tty) opened by a user outside
    /// group tty. As root the test drops to nobody with setpriv; otherwise it chmods the slave.
    @Test func permissionDeniedNamesDialoutAndUdev() throws {
        let pty = try #require(PseudoTerminal())
        var command = [Self.puckd, "ports", "--probe", pty.slavePath, "--seconds", "0"]
        if geteuid() == 0 {
            try #require(access("/usr/bin/setpriv", X_OK) == 0, "setpriv (util-linux) is needed to drop privileges")
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        } else {
            chmod(pty.slavePath, 0)
        }
        let result = try #require(runProcess(command))
        #expect(result.status == 77, "\(result.errorOutput)")
        #expect(result.errorOutput == "puckd ports: permission denied opening \(pty.slavePath) (EACCES): add the service user to group dialout (sudo usermod -aG dialout USER, then log in again) or install puckd's udev rules from udev/.\n")
    }

    /// A real EBUSY: this process holds the pty with TIOCEXCL (as puckd and gpsd do) and a second
    /// process without CAP_SYS_ADMIN opens it (nobody via setpriv when running as root).
    @Test func busyDeviceSuggestsGpsd() throws {
        let pty = try #require(PseudoTerminal())
        let holder = try TermiosPort.open(path: pty.slavePath, baudRate: 9600)
        defer { holder.close() }
        var command = [Self.puckd, "ports", "--probe", pty.slavePath, "--seconds", "0"]
        if geteuid() == 0 {
            try #require(access("/usr/bin/setpriv", X_OK) == 0, "setpriv (util-linux) is needed to drop privileges")
            chmod(pty.slavePath, 0o666)  // so that permissions are not what stops nobody
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        let result = try #require(runProcess(command))
        #expect(result.status == 69, "\(result.errorOutput)")
        #expect(result.errorOutput == "puckd ports: \(pty.slavePath) is busy (EBUSY): another program holds it exclusively, usually puckd itself running as the service (sudo systemctl stop puckd), else gpsd (sudo systemctl stop gpsd.socket gpsd, or read through it with gpsd://localhost).\n")
    }
}
