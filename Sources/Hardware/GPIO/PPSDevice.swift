import SystemCalls

/// Why the kernel PPS device could not be used. `description` says what to do.
public enum PPSDeviceError: Error, Equatable, CustomStringConvertible {
    /// The device node does not exist (the pps-gpio overlay is not loaded).
    case missing(path: String)
    /// The user may not open the device.
    case permissionDenied(path: String)
    /// The path is not a PPS device (PPS_GETCAP answered ENOTTY).
    case notAPPSDevice(path: String)
    /// The device cannot capture assert (rising) edges.
    case cannotCaptureAssert(path: String, capabilities: Int32)
    /// open or ioctl failed for another reason.
    case failed(path: String, operation: String, error: Errno)

    public var description: String {
        switch self {
        case .missing(let path):
            return "\(path) does not exist: add dtoverlay=pps-gpio,gpiopin=N (4 on the Adafruit Ultimate GPS HAT, "
                + "18 on Uputronics) to /boot/firmware/config.txt and reboot, or use the PPS GPIO line instead"
        case .permissionDenied(let path):
            return "permission denied opening \(path): give the puckd user read access (a udev rule for "
                + "SUBSYSTEM==\"pps\", or run with the group that owns it)"
        case .notAPPSDevice(let path):
            return "\(path) is not a PPS device: give the /dev/ppsN node created by the pps-gpio overlay"
        case .cannotCaptureAssert(let path, let capabilities):
            return "\(path) cannot capture assert edges (capabilities 0x\(String(capabilities, radix: 16))): "
                + "check the pps-gpio overlay parameters"
        case .failed(let path, let operation, let code):
            return "\(operation) on \(path) failed: \(code.description)"
        }
    }
}

/// The last pulse the kernel PPS device captured.
public struct PPSReading: Sendable, Equatable {
    /// Count of assert (rising, on-time) edges since the device appeared; changes once per pulse.
    public var assertSequence: UInt32
    /// Kernel CLOCK_REALTIME timestamp of the last assert edge, nanoseconds since 1970 (0 before the first).
    public var assertRealtimeNanoseconds: Int64

    public init(assertSequence: UInt32, assertRealtimeNanoseconds: Int64) {
        self.assertSequence = assertSequence
        self.assertRealtimeNanoseconds = assertRealtimeNanoseconds
    }
}

/// The kernel PPS device (`/dev/pps0` from `dtoverlay=pps-gpio`): the pulse timestamped in the interrupt
/// handler, better than user-space edge events.
///
/// Timestamps are CLOCK_REALTIME (what the kernel PPS API gives), so pair them with the fix's UTC to get
/// the system clock's offset from GPS time. `descriptor` polls readable when a pulse has not been fetched
/// yet (Linux ≥ 6.1; on older kernels call `fetch()` from the tick and compare sequence numbers).
/// `fetch()` never blocks and allocates nothing.
public final class PPSDevice {
    /// The device path.
    public let path: String
    /// The open descriptor, for `poll()`.
    public let descriptor: FileDescriptor
    /// PPS_GETCAP capability bits (0x01 capture assert, 0x02 capture clear, …).
    public let capabilities: Int32

    /// Opens `path` read-only and checks it can capture assert edges.
    public init(path: String = "/dev/pps0") throws(PPSDeviceError) {
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking]) } catch {
            switch error {
            case .noSuchFileOrDirectory, .noSuchDevice, .noSuchDeviceOrAddress: throw .missing(path: path)
            case .permissionDenied, .notPermitted: throw .permissionDenied(path: path)
            default: throw .failed(path: path, operation: "open", error: error)
            }
        }
        let mode: Int32
        do throws(Errno) { mode = try fd.pulseCapabilities() } catch {
            try? fd.close()
            if error == .notATerminal || error == .invalidArgument { throw .notAPPSDevice(path: path) }
            throw .failed(path: path, operation: "PPS_GETCAP", error: error)
        }
        if mode & 0x01 == 0 {
            try? fd.close()
            throw .cannotCaptureAssert(path: path, capabilities: mode)
        }
        self.path = path
        self.descriptor = fd
        self.capabilities = mode
    }

    deinit { try? descriptor.close() }

    /// The last captured pulse (PPS_FETCH with a zero timeout).
    public func fetch() throws(PPSDeviceError) -> PPSReading {
        do throws(Errno) {
            let pulse = try descriptor.fetchPulse()
            return PPSReading(assertSequence: pulse.assertSequence, assertRealtimeNanoseconds: pulse.assertRealtimeNanoseconds)
        } catch {
            throw .failed(path: path, operation: "PPS_FETCH", error: error)
        }
    }

    /// PPS_GETCAP / PPS_FETCH request numbers of this platform (they encode the pointer size:
    /// 0x800870A3 / 0xC00870A4 on 64-bit, 0x800470A3 / 0xC00470A4 on 32-bit armhf).
    public static var ioctlRequests: (getCapabilities: UInt, fetch: UInt) {
        FileDescriptor.pulseRequestNumbers
    }
}
