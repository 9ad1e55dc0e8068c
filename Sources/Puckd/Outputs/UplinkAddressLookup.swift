import SystemCalls
import UplinkClient

/// An uplink channel's server-name lookup (docs/uplink.md §9, "Name resolution"): the resolver's worker
/// looks the name up at start-up and again after every failed connect (addresses change on mobile
/// links); the client connects only once an address is known, and tries the next address of the last
/// answer after each failure. While the name does not resolve the positions wait in the journal and the
/// lookup is retried with backoff (1 s doubling to 60 s). Allocation-free after `init`.
struct UplinkAddressLookup {
    let resolver: AddressResolver
    /// The `[uplink]` key that names the host ("mqtt_url", "osmand_url"), for the fault's message.
    let key: StaticString
    /// An address was found (or the host is numeric): the client may connect.
    private(set) var hasAddress: Bool
    /// A lookup runs on the worker.
    private(set) var inFlight = false
    /// The last lookup's error, nil once one works or the client connected.
    private(set) var error: ResolveError?
    private(set) var failures: UInt64 = 0
    private var retryAtNanoseconds: Int64 = 0
    private var retryDelaySeconds: Int64 = 1
    private var attemptsAtLookup: UInt64 = 0
    private var failedConnects = 0
    /// While a lookup runs on a worker that has no eventfd (eventfd(2) failed at start-up), the loop looks
    /// for its answer this often; with the eventfd the loop sleeps until the worker signals it.
    static let answerPollWithoutWakeNanoseconds: Int64 = 250_000_000

    init(resolver: AddressResolver, key: StaticString) {
        self.resolver = resolver
        self.key = key
        hasAddress = resolver.isNumeric
        if !resolver.isNumeric {
            resolver.request()
            inFlight = true
        }
    }

    /// The descriptor the loop polls while a lookup runs: readable once the worker has its answer
    /// (nil when no lookup runs, or no worker and no eventfd).
    var wakeDescriptor: FileDescriptor? { inFlight ? resolver.wakeDescriptor : nil }

    /// Before the client's service: takes a finished lookup and gives its address to the client, and asks
    /// again when a failed lookup's retry is due. True when `error` changed (the channel says it once).
    mutating func service<Client: UplinkConnection>(_ client: Client, nowNanoseconds now: Int64) -> Bool {
        var changed = false
        if inFlight, let outcome = resolver.take() {
            inFlight = false
            switch outcome {
            case .found:
                client.use(address: resolver.address(failedConnects))
                hasAddress = true
                retryDelaySeconds = 1
                if error != nil { error = nil; changed = true }
            case .failed(let e):
                failures &+= 1
                retryAtNanoseconds = now &+ retryDelaySeconds * 1_000_000_000
                retryDelaySeconds = min(retryDelaySeconds * 2, 60)
                if error != e { error = e; changed = true }
            }
        }
        if error != nil && !inFlight && now >= retryAtNanoseconds {
            resolver.request()
            inFlight = true
        }
        return changed
    }

    /// After the client's service: a connect that failed moves to the next address and asks for a new
    /// lookup; a connection accepted clears a lookup error. True when `error` changed.
    mutating func afterService<Client: UplinkConnection>(_ client: Client) -> Bool {
        guard !resolver.isNumeric, hasAddress else { return false }
        if client.isConnected {
            attemptsAtLookup = client.attempts
            if error != nil { error = nil; return true }
            return false
        }
        if !client.isConnecting && client.fault != nil && client.attempts != attemptsAtLookup {
            attemptsAtLookup = client.attempts
            failedConnects &+= 1
            client.use(address: resolver.address(failedConnects))
            if !inFlight {
                resolver.request()
                inFlight = true
            }
        }
        return false
    }

    /// When the channel must look again: for a running lookup's answer, or a failed one's retry.
    func deadlineNanoseconds(lastNowNanoseconds now: Int64) -> Int64? {
        if inFlight {
            if resolver.wakeDescriptor != nil { return nil }   // the lookup slot wakes the loop
            // No worker: `request` looked up on the caller's thread, the answer is there already.
            return resolver.isThreaded ? now &+ Self.answerPollWithoutWakeNanoseconds : now
        }
        return error != nil ? retryAtNanoseconds : nil
    }

    /// The fault in one sentence with what to do (fault path only: allocates).
    var faultMessage: String? {
        guard let error else { return nil }
        return "host " + resolver.host + " not found (" + error.message + "); check [uplink] " + key.description
            + " and /etc/hosts or DNS; positions wait in the journal and go out when the name resolves"
    }

    /// Shutdown: the worker ends on its own, even inside a lookup.
    func stop() { resolver.stop() }
}
