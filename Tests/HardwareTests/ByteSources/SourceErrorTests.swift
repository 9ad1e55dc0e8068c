import Glibc
import TestSupport
import SystemCalls
import Testing
@testable import Hardware

@Suite struct SourceErrorTests {
    static let origins: [SourceOrigin] = [.serial, .file, .standardInput, .tcp, .gpsd, .simulated]

    @Test func everyKindHasOneSentenceThatSaysWhatToDo() {
        #expect(SourceError.Kind.allCases.count == SourceError.Kind.count)
        for kind in SourceError.Kind.allCases {
            for origin in Self.origins {
                let error = SourceError(kind, origin: origin, subject: "/dev/ttyUSB0", systemError: Errno(rawValue: EIO), detail: 9600)
                let message = error.message
                #expect(message.hasSuffix("."), "\(kind) \(origin): \(message)")
                #expect(message.contains(": "), "\(kind) \(origin): what is wrong, then how to fix it")
                // One sentence: no full stop before the end except inside names like udev/ or .nmea.
                #expect(!message.dropLast().contains(". "), "\(kind) \(origin): \(message)")
                #expect(message.contains("/dev/ttyUSB0"), "\(kind) \(origin): names the subject")
            }
        }
    }

    @Test func permissionDeniedNamesTheGroupAndTheUdevRules() {
        let error = SourceError.classifying(Errno(rawValue: EACCES), origin: .serial, subject: "/dev/ttyAMA0")
        #expect(error.kind == .permissionDenied)
        #expect(error.message == "permission denied opening /dev/ttyAMA0 (EACCES): add the service user to group dialout (sudo usermod -aG dialout USER, then log in again) or install puckd's udev rules from udev/.")
        #expect(SourceError.classifying(Errno(rawValue: EPERM), origin: .serial, subject: "x").kind == .permissionDenied)
    }

    /// Under puckd.service a connect to anything but localhost fails with EPERM (the unit's IP firewall):
    /// the message names those settings and the drop-in that widens them.
    @Test func networkPermissionNamesTheUnitsIPFirewall() {
        for origin in [SourceOrigin.tcp, .gpsd] {
            let error = SourceError.classifying(Errno(rawValue: EPERM), origin: origin, subject: "192.168.1.20:10110")
            #expect(error.kind == .permissionDenied)
            #expect(error.message.hasPrefix("permission denied connecting to 192.168.1.20:10110 (EPERM): "))
            #expect(error.message.contains("IPAddressDeny=any, IPAddressAllow=localhost")
                && error.message.contains("sudo systemctl edit puckd: [Service] IPAddressAllow="))
        }
    }

    /// A .local name needs mDNS, which the static binary never loads (README): the message says so.
    @Test func unresolvedLocalNamesPointAtEtcHosts() {
        let local = SourceError(.hostNotFound, origin: .tcp, subject: "phone.local:10110", detail: Int64(EAI_NONAME))
        #expect(local.message.hasSuffix("(puckd's static binary resolves no .local mDNS names: put the name into /etc/hosts.)"))
        #expect(SourceError(.hostNotFound, origin: .gpsd, subject: "PI.LOCAL:2947").message.contains(".local mDNS"))
        for subject in ["gpshost:10110", "local:1", "phone.localnet:10110", "phone.local.example:1"] {
            #expect(!SourceError(.hostNotFound, origin: .tcp, subject: subject).message.contains("mDNS"), "\(subject)")
        }
    }

    @Test func busyPointsAtGpsd() {
        let error = SourceError.classifying(Errno(rawValue: EBUSY), origin: .serial, subject: "/dev/ttyAMA0")
        #expect(error.kind == .busy)
        #expect(error.message == "/dev/ttyAMA0 is busy (EBUSY): another program holds it exclusively, usually puckd itself running as the service (sudo systemctl stop puckd), else gpsd (sudo systemctl stop gpsd.socket gpsd, or read through it with gpsd://localhost).")
    }

    @Test func missingDeviceSuggestsPuckdPorts() {
        let error = SourceError.classifying(Errno(rawValue: ENOENT), origin: .serial, subject: "/dev/ttyUSB0")
        #expect(error.kind == .notFound)
        #expect(error.message.hasPrefix("/dev/ttyUSB0 does not exist (ENOENT): "))
        #expect(error.message.contains("'puckd ports'"))
    }

    @Test func errnoClassification() {
        let serial: [(Int32, Bool, SourceError.Kind)] = [
            (ENOENT, false, .notFound), (ENOTDIR, false, .notFound), (ENXIO, false, .notFound),
            (ENXIO, true, .disconnected), (EIO, true, .disconnected), (EIO, false, .notFound), (ENODEV, true, .disconnected),
            (ENOTTY, false, .notATerminal), (EISDIR, false, .isADirectory), (EMFILE, false, .ioError),
        ]
        for (code, open, kind) in serial {
            #expect(SourceError.classifying(Errno(rawValue: code), origin: .serial, subject: "s", whileOpen: open).kind == kind, "errno \(code)")
        }
        let network: [(Int32, Bool, SourceError.Kind)] = [
            (ECONNREFUSED, false, .connectionRefused), (ECONNRESET, true, .connectionReset), (EPIPE, true, .connectionReset),
            (ETIMEDOUT, false, .connectTimedOut), (ETIMEDOUT, true, .connectionReset), (ENETUNREACH, false, .unreachable),
            (EHOSTUNREACH, false, .unreachable), (EIO, true, .ioError),
        ]
        for (code, open, kind) in network {
            #expect(SourceError.classifying(Errno(rawValue: code), origin: .tcp, subject: "h:1", whileOpen: open).kind == kind, "errno \(code)")
        }
    }

    @Test func permanenceDependsOnTheSource() {
        #expect(SourceError(.notFound, origin: .file, subject: "f").isPermanent)
        #expect(!SourceError(.notFound, origin: .serial, subject: "d").isPermanent)
        #expect(!SourceError(.permissionDenied, origin: .serial, subject: "d").isPermanent)
        #expect(SourceError(.notATerminal, origin: .serial, subject: "d").isPermanent)
        #expect(SourceError(.unsupportedBaudRate, origin: .serial, subject: "d").isPermanent)
        #expect(!SourceError(.connectionRefused, origin: .gpsd, subject: "h").isPermanent)
    }

    @Test func unknownErrnoIsShownAsANumber() {
        let error = SourceError(.ioError, origin: .serial, subject: "/dev/ttyS1", systemError: Errno(rawValue: 4242))
        #expect(error.message.hasPrefix("reading /dev/ttyS1 failed (errno 4242): "))
        var digits: [UInt8] = []
        writeDecimal(-9_223_372_036_854_775_807, to: { digits += $0 })
        #expect(String(decoding: digits, as: UTF8.self) == "-9223372036854775807")
    }

    @Test func writingTheMessageAllocatesNothing() {
        let error = SourceError(.disconnected, origin: .serial, subject: "/dev/serial/by-id/usb-u-blox_GNSS-if00",
                                systemError: Errno(rawValue: EIO))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 1)
        defer { buffer.deallocate() }
        var length = 0
        func render() {
            length = 0
            error.writeMessage { piece in
                let n = min(piece.count, buffer.count - length)
                UnsafeMutableRawBufferPointer(rebasing: buffer[length..<(length + n)]).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: piece[0..<n]))
                length += n
            }
        }
        render()
        let allocations = allocationCount { for _ in 0..<1000 { render() } }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[0..<length]), as: UTF8.self)
        #expect(allocations == 0)
        #expect(text == error.message)
    }
}
