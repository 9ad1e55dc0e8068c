import Console
import GpsdProtocol
import NMEA
import SystemCalls

/// puckd's gpsd-compatible server (gpsd_json(5), docs/gpsd-protocol.md): TCP listeners and a Unix
/// socket, a fixed table of client slots each with a bounded output queue, and one epoll descriptor
/// the device loop polls for all of them. Read-only: requests change only the asking client's watch.
///
/// Everything is allocated in `init`; `service`, the `publish` inputs and the queries allocate nothing.
/// A report is encoded once and copied whole into each watching client's queue, or dropped whole
/// (and counted for that client) when the queue has no room: a slow client never blocks the loop or
/// another client.
public final class GpsdServer {
    public let configuration: GpsdServerConfiguration
    /// The descriptor the loop polls for readability: ready when any listener or client is.
    public let pollDescriptor: FileDescriptor
    /// The listening sockets with the address each serves and, for TCP, the port bound.
    public private(set) var listeners: [(descriptor: FileDescriptor, address: ListenAddress, port: UInt16?)] = []
    var slots: [GpsdClientSlot]
    let queueStorage: UnsafeMutableRawBufferPointer
    let readBuffer: UnsafeMutableRawBufferPointer
    let readyTokens: UnsafeMutablePointer<UInt64>
    let readyEvents: UnsafeMutablePointer<UInt32>
    static let readyCapacity = 64
    /// Reports are encoded here once, then copied to each client.
    var scratch = OutputBuffer(capacity: 32_768)
    var nextSerial: UInt64 = 1
    public internal(set) var counters = GpsdServerCounters()
    /// The sky-view count of the last view published (the router compares its own against it).
    public var publishedSkyViews = 0
    /// The receiver as DEVICE describes it (updated by the router).
    public var device: GpsdDeviceInfo
    // For ?POLL and the climb rate.
    var lastFix: Fix?
    var lastSky = SkyView()
    var hasSky = false
    var previousAltitude: (utc: Int64, meters: Double)?
    // The receiver's bytes cut into sentences for `nmea`/`raw` watchers.
    let sentence: UnsafeMutableRawBufferPointer
    var sentenceCount = 0
    var sentenceOverlong = false

    /// Opens every configured listener. A listener that cannot be opened is left out and named in
    /// `problems` (the device runs without it); the server needs at least one to be useful.
    /// `activated`: the listening sockets systemd passed (socket activation, `SocketActivation`); when
    /// there are any, the server serves on those instead of `listen`/`socketPath` (the socket unit
    /// decides where, as with gpsd.socket) and leaves their files to systemd.
    public init(configuration: GpsdServerConfiguration, device: GpsdDeviceInfo, activated: [ActivatedSocket] = []) throws(Errno) {
        precondition(configuration.maxClients > 0 && configuration.clientBufferBytes >= 4096)
        self.configuration = configuration
        self.device = device
        pollDescriptor = try EventPoll.create()
        slots = [GpsdClientSlot](repeating: GpsdClientSlot(), count: configuration.maxClients)
        queueStorage = .allocate(byteCount: configuration.maxClients * configuration.clientBufferBytes, alignment: 16)
        readBuffer = .allocate(byteCount: 4096, alignment: 16)
        readyTokens = .allocate(capacity: Self.readyCapacity)
        readyEvents = .allocate(capacity: Self.readyCapacity)
        sentence = .allocate(byteCount: 1024, alignment: 1)
        if !activated.isEmpty {
            isSocketActivated = true
            adopt(activated)
            return
        }
        var all = configuration.listen
        if let path = configuration.socketPath { all.append(.unix(path: path)) }
        for address in all {
            do throws(Errno) {
                let fd = try Socket.listen(address.socketAddress)
                let index = listeners.count
                EventPoll.control(pollDescriptor, .add, fd, writable: false, token: Self.listenerToken(index))
                var port: UInt16?
                if case .unix = address { port = nil } else { port = Socket.boundPort(fd) }
                listeners.append((fd, address, port))
            } catch {
                problems.append(address.description + ": " + error.description)
            }
        }
    }

    /// Listeners that could not be opened, one sentence each (start-up report).
    public private(set) var problems: [String] = []
    /// True when the listeners are the ones systemd passed (socket activation).
    public private(set) var isSocketActivated = false

    /// Takes the passed sockets that are listening stream sockets of a known family; the others are
    /// closed and named in `problems`.
    private func adopt(_ activated: [ActivatedSocket]) {
        for socket in activated {
            let label = socket.name.isEmpty ? "passed descriptor " + String(socket.descriptor.rawValue) : socket.name
            guard socket.isListeningStream, let address = socket.address.map(ListenAddress.init(socketAddress:)) else {
                problems.append(label + ": not a listening stream socket (the socket unit needs ListenStream=)")
                Socket.close(socket.descriptor)
                continue
            }
            let index = listeners.count
            EventPoll.control(pollDescriptor, .add, socket.descriptor, writable: false, token: Self.listenerToken(index))
            var port: UInt16?
            if case .unix = address { port = nil } else { port = Socket.boundPort(socket.descriptor) }
            listeners.append((socket.descriptor, address, port))
        }
    }

    deinit {
        for i in 0..<slots.count { closeClient(slot: i) }
        for l in listeners {
            Socket.close(l.descriptor)
            if case .unix(let path) = l.address, !isSocketActivated { Socket.unlinkSocket(path) }
        }
        Socket.close(pollDescriptor)
        queueStorage.deallocate()
        readBuffer.deallocate()
        readyTokens.deallocate()
        readyEvents.deallocate()
        sentence.deallocate()
    }

    static func listenerToken(_ index: Int) -> UInt64 { 1 << 63 | UInt64(index) }
    static func clientToken(_ slot: Int, serial: UInt64) -> UInt64 { serial << 16 | UInt64(slot) }

    /// Clients connected now.
    public var clientCount: Int {
        var n = 0
        for i in 0..<slots.count where slots[i].isOpen { n += 1 }
        return n
    }

    /// The client in `slot`, nil when the slot is free.
    public func client(at slot: Int) -> GpsdClientInfo? {
        guard slot >= 0, slot < slots.count, slots[slot].isOpen else { return nil }
        let s = slots[slot]
        return GpsdClientInfo(slot: slot, serial: s.serial, transport: s.transport, watch: s.watch,
                              connectedAtNanoseconds: s.connectedAtNanoseconds, peer: s.peer, queuedBytes: s.queueCount, counters: s.counters)
    }

    /// One wake-up: accepts, reads and answers requests, writes what clients can take. Call it when
    /// `pollDescriptor` is readable (calling it otherwise does no harm). Returns the number of
    /// connections opened or closed in it (the console's view changes then).
    @discardableResult
    public func service(nowNanoseconds now: Int64) -> Int {
        var changes = 0
        var rounds = 0
        while rounds < 4 {   // bounded: four batches of ready descriptors per wake-up
            rounds += 1
            let n = EventPoll.ready(pollDescriptor, tokens: readyTokens, events: readyEvents, capacity: Self.readyCapacity)
            if n == 0 { break }
            var i = 0
            while i < n {
                let token = readyTokens[i]
                let flags = readyEvents[i]
                i += 1
                if token & (1 << 63) != 0 {
                    changes += acceptAll(listener: Int(token & 0xFFFF), nowNanoseconds: now)
                    continue
                }
                let slot = Int(token & 0xFFFF)
                guard slot < slots.count, slots[slot].isOpen, slots[slot].serial == token >> 16 else { continue }
                if flags & (EventPoll.readable | EventPoll.hangUp | EventPoll.error | EventPoll.peerClosed) != 0 {
                    if !readRequests(slot: slot, nowNanoseconds: now) { closeClient(slot: slot); changes += 1; continue }
                }
                if slots[slot].queueCount > 0 && !flush(slot: slot) { closeClient(slot: slot); changes += 1 }
            }
            if n < Self.readyCapacity { break }
        }
        return changes
    }
}
