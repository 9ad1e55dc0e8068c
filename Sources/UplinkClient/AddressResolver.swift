import Synchronization
import SystemCalls

/// Looks up an uplink server's host name off the loop (docs/uplink.md §9, "Name resolution"): getaddrinfo
/// (SystemCalls' `SocketAddress.resolve`, /etc/hosts and DNS) runs on the resolver's own worker thread.
/// The loop asks with `request()` and takes the outcome with `take()` once `wakeDescriptor` (an
/// eventfd the worker signals when its answer is stored) polls readable, so a stalled lookup costs the
/// loop no wake-up; `request` and `take` only touch a few fields under
/// a mutex the worker never holds across the lookup, so a stalled resolver never stalls the loop. The
/// result keeps at most `slotCount` addresses (fixed slots, in getaddrinfo's order). A numeric host
/// needs no thread. `request`, `take` and `address(_:)` allocate nothing.
public final class AddressResolver: @unchecked Sendable {
    /// The lookup itself (the device: `SocketAddress.resolve`; tests: a name table that changes or stalls).
    public typealias LookUp = @Sendable (String, UInt16) -> Result<[SocketAddress], ResolveError>

    /// What a finished lookup found.
    public enum Outcome: Equatable, Sendable {
        /// `count` addresses (1…`slotCount`), now readable with `address(_:)`.
        case found(count: Int)
        /// getaddrinfo's error ("Name or service not known", "Temporary failure in name resolution").
        case failed(ResolveError)
    }

    public static let slotCount = 4
    public let host: String
    public let port: UInt16
    /// The host is an IP address: no lookup, no thread.
    public let isNumeric: Bool
    private let lookUp: LookUp
    /// Lookups finished (found or failed).
    public var lookups: UInt64 { lookupCount.load(ordering: .relaxed) }
    private let lookupCount = Atomic<UInt64>(0)

    // Under `lock`: the loop's request, the worker's result.
    private let lock = ThreadLock(conditionCount: 1)
    private var requested = false
    private var stopping = false
    private var resultReady = false
    private var resultSlots: [SocketAddress]
    private var resultCount = 0
    private var resultError = ResolveError(code: 0)
    private var thread: WorkerThread?
    /// eventfd(2) the worker signals once an answer is ready (nil for a numeric host or without a worker);
    /// `take` clears it. Closed when the resolver ends, after its worker: the worker never writes to a
    /// closed (or reused) descriptor.
    public private(set) var wakeDescriptor: FileDescriptor?
    /// The loop's copy of the last addresses found (read with `address(_:)`).
    private var slots: [SocketAddress]
    public private(set) var count = 0

    /// Starts the worker (start-up; allocates). `lookUp` defaults to getaddrinfo.
    public init(host: String, port: UInt16, lookUp: @escaping LookUp = { SocketAddress.resolve($0, port: $1) }) {
        self.host = host
        self.port = port
        self.lookUp = lookUp
        let placeholder = SocketAddress.ipv4(address: (0, 0, 0, 0), port: port)
        resultSlots = [SocketAddress](repeating: placeholder, count: Self.slotCount)
        slots = [SocketAddress](repeating: placeholder, count: Self.slotCount)   // its own storage: no copy-on-write in `take`
        if let numeric = SocketAddress.numeric(host, port: port) {
            isNumeric = true
            slots[0] = numeric
            resultSlots[0] = numeric
            count = 1
            resultCount = 1
            return
        }
        isNumeric = false
        wakeDescriptor = try? FileDescriptor.eventCounter()
        // The thread holds the resolver until it ends (`stop` lets it end even inside a lookup).
        let context = Unmanaged.passRetained(self).toOpaque()
        do throws(Errno) {
            thread = try WorkerThread.start(stackBytes: 256 << 10, context: context) { context in
                let resolver = Unmanaged<AddressResolver>.fromOpaque(context!)
                resolver.takeUnretainedValue().serve()
                resolver.release()
                return nil
            }
        } catch {
            Unmanaged<AddressResolver>.fromOpaque(context).release()
            try? wakeDescriptor?.close()
            wakeDescriptor = nil
        }
    }

    deinit { try? wakeDescriptor?.close() }

    /// True while the lookups run on the worker (false for a numeric host, or when no thread could be made:
    /// then `request` looks up on the caller's thread, at start-up).
    public var isThreaded: Bool { thread != nil }

    /// Starts a lookup unless one is running (the loop: returns at once). A numeric host's outcome is ready at once.
    public func request() {
        if isNumeric {
            resultReady = true
            return
        }
        guard thread != nil else {
            finish(lookUp(host, port))
            return
        }
        lock.lock()
        requested = true
        lock.signal(condition: 0)
        lock.unlock()
    }

    /// The outcome of the lookup finished since the last call, nil while it runs (or none was asked).
    public func take() -> Outcome? {
        if isNumeric {
            guard resultReady else { return nil }
            resultReady = false
            return .found(count: 1)
        }
        lock.lock()
        defer { lock.unlock() }
        guard resultReady else { return nil }
        resultReady = false
        wakeDescriptor?.drainEventCounter()
        guard resultCount > 0 else { return .failed(resultError) }
        var k = 0
        while k < resultCount {
            slots[k] = resultSlots[k]
            k += 1
        }
        count = resultCount
        return .found(count: resultCount)
    }

    /// The `index`th address of the last lookup that found any, wrapping around (0 ..< `count`).
    public func address(_ index: Int) -> SocketAddress { slots[count == 0 ? 0 : index % count] }

    /// Ends the worker without waiting for a lookup in progress (shutdown).
    public func stop() {
        guard let thread else { return }
        lock.lock()
        stopping = true
        lock.signal(condition: 0)
        lock.unlock()
        thread.detach()
        self.thread = nil
    }

    /// The worker: one lookup per request, outside the lock.
    private func serve() {
        while true {
            lock.lock()
            while !requested && !stopping { lock.wait(onCondition: 0) }
            if stopping {
                lock.unlock()
                return
            }
            requested = false
            lock.unlock()
            let outcome = lookUp(host, port)
            lock.lock()
            store(outcome)
            if !stopping { wakeDescriptor?.signalEventCounter() }
            lock.unlock()
        }
    }

    /// Without a thread: the lookup's outcome stored for `take`.
    private func finish(_ outcome: Result<[SocketAddress], ResolveError>) {
        lock.lock()
        store(outcome)
        lock.unlock()
    }

    /// With the lock held: at most `slotCount` addresses, or the error.
    private func store(_ outcome: Result<[SocketAddress], ResolveError>) {
        switch outcome {
        case .success(let found) where !found.isEmpty:
            resultCount = min(found.count, Self.slotCount)
            for k in 0..<resultCount { resultSlots[k] = found[k] }
        case .success:
            resultCount = 0
            resultError = .noName
        case .failure(let error):
            resultCount = 0
            resultError = error
        }
        resultReady = true
        lookupCount.add(1, ordering: .relaxed)
    }
}
