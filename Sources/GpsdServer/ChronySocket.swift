import GpsdProtocol
import SystemCalls

/// Sends `ChronySample`s to the socket chrony's `refclock SOCK PATH` creates (a Unix datagram socket
/// chrony binds; puckd only sends, as gpsd does). chrony not running yet, or restarted, is normal:
/// a failed send is counted and the socket re-connected on the next sample, at most once a second.
public final class ChronySocket {
    public let path: String
    var descriptor: FileDescriptor?
    let datagram: UnsafeMutableRawBufferPointer
    var nextConnectNanoseconds: Int64 = 0
    /// Samples chrony took, and samples lost (no socket yet, chrony gone, its queue full).
    public private(set) var samplesSent: UInt64 = 0
    public private(set) var samplesLost: UInt64 = 0
    /// The errno of the last failure, nil after a success.
    public private(set) var lastError: Errno?

    public init(path: String) {
        self.path = path
        datagram = .allocate(byteCount: ChronySample.byteCount, alignment: 8)
    }

    deinit {
        if let fd = descriptor { Socket.close(fd) }
        datagram.deallocate()
    }

    /// Sends one sample; `now` is the monotonic clock (for the reconnect pace).
    public func send(_ sample: ChronySample, nowNanoseconds now: Int64) {
        if descriptor == nil {
            guard now >= nextConnectNanoseconds else { samplesLost &+= 1; return }
            nextConnectNanoseconds = now + 1_000_000_000
            switch Socket.connectDatagram(path) {
            case .success(let fd): descriptor = fd
            case .failure(let e): lastError = e; samplesLost &+= 1; return
            }
        }
        guard let fd = descriptor else { return }
        sample.encode(into: datagram)
        switch Socket.send(fd, UnsafeRawBufferPointer(datagram)) {
        case .processed:
            samplesSent &+= 1
            lastError = nil
        case .wouldBlock:
            samplesLost &+= 1
        case .closed, .failed:
            samplesLost &+= 1
            Socket.close(fd)
            descriptor = nil
        }
    }
}
