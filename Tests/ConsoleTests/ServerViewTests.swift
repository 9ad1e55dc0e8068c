import Testing
@testable import Console

/// The `server` view's text and JSON, byte for byte, from one set of counters: the server's own
/// counter structs (`GpsdServerCounters`, `GpsdClientCounters`) are what the view shows (one struct,
/// no field-by-field mirror; docs/gpsd-protocol.md §4).
@Suite struct ServerViewTests {
    static func state() -> ConsoleDeviceState {
        var d = ConsoleDeviceState()
        d.server.isEnabled = true
        d.server.listening = ConsoleText(string: "127.0.0.1:2947, /run/puckd/gpsd.sock")
        d.server.maxClients = 32
        d.server.clientCount = 2
        d.server.clients[0].slot = 0
        d.server.clients[0].peer = ConsoleText(string: "127.0.0.1:40312")
        d.server.clients[0].watch = ConsoleText(string: "enable json puckd")
        d.server.clients[0].puckdHertz = 10
        d.server.clients[0].connectedNanoseconds = 12_400_000_000
        d.server.clients[0].queuedBytes = 0
        d.server.clients[0].counters.requests = 2
        d.server.clients[0].counters.reportsQueued = 120
        d.server.clients[0].counters.bytesSent = 9000
        d.server.clients[1].slot = 3
        d.server.clients[1].peer = ConsoleText(string: "unix")
        d.server.clients[1].connectedNanoseconds = 2_000_000_000
        d.server.clients[1].queuedBytes = 16_000
        d.server.clients[1].counters.requests = 1
        d.server.clients[1].counters.errors = 1
        d.server.clients[1].counters.reportsQueued = 40
        d.server.clients[1].counters.reportsDropped = 7
        var t = GpsdServerCounters()
        t.accepted = 5; t.refused = 1; t.closed = 3; t.requests = 9; t.errors = 2; t.reportsQueued = 300
        t.reportsDropped = 7; t.bytesSent = 45_000; t.sentencesForwarded = 11; t.socketErrors = 4
        d.server.totals = t
        return d
    }

    @Test func textShowsTheServersCounters() {
        var out = OutputBuffer(capacity: 4096)
        ServerView.appendText(Self.state(), to: &out)
        #expect(out.string == """
            listening   127.0.0.1:2947, /run/puckd/gpsd.sock
            clients     2 of 32 slots
            slot peer                     connected  queued    drops  watch
               0 127.0.0.1:40312          12 s            0        0  enable json puckd @10 Hz
               3 unix                     2 s         16000        7  (not watching)
            totals      5 accepted, 1 refused (slots full), 9 requests, 2 errors
            reports     300 queued, 7 dropped for slow clients, 45000 bytes sent, 11 sentences forwarded, 4 socket errors

            """)
    }

    @Test func jsonShowsTheServersCounters() {
        var out = OutputBuffer(capacity: 4096)
        ServerView.appendJSON(Self.state(), to: &out)
        #expect(out.string == """
            {"reply":"server","enabled":true,"listening":"127.0.0.1:2947, /run/puckd/gpsd.sock","maxClients":32,\
            "clientCount":2,"clients":[{"slot":0,"peer":"127.0.0.1:40312","watch":"enable json puckd","puckdHz":10,\
            "connectedSeconds":12.4,"queuedBytes":0,"reportsQueued":120,"reportsDropped":0,"requests":2},\
            {"slot":3,"peer":"unix","watch":"","puckdHz":0,"connectedSeconds":2.0,"queuedBytes":16000,\
            "reportsQueued":40,"reportsDropped":7,"requests":1}],"accepted":5,"refused":1,"requests":9,"errors":2,\
            "reportsQueued":300,"reportsDropped":7,"bytesSent":45000,"sentencesForwarded":11,"socketErrors":4}
            """)
    }
}
