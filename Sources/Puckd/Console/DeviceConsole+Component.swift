import Console
import SystemCalls

/// The console link's own parts of the loop (the component contract): its two poll slots, its row
/// of the console snapshot and its rows of `stats`. Its service stays with the router
/// (`Device.serviceConsole`): the commands it reads act on the core and on every other part.
extension DeviceConsole {
    /// Input while it may be read (not ended, not paused for a slow reader, no command awaiting its
    /// tick); output while replies wait and the output is not closed for good.
    func fillPollSlots(_ poll: inout PollSet) {
        guard let slots else { return }
        poll.set(slots[0], descriptor: inputEnded || inputPaused ? nil : transport.inputPollRequest.fileDescriptor,
                 events: .readable)
        poll.set(slots[1], descriptor: session.pendingOutputCount > 0 && !outputClosed ? transport.outputDescriptor : nil,
                 events: .writable)
    }

    /// When to read the input even without readiness (a serial console's reopen time).
    var deadlineNanoseconds: Int64? {
        let deadline = transport.inputPollRequest.deadlineNanoseconds
        return deadline == .max ? nil : deadline
    }

    /// The `console` source row: what it is, the transport's state, healthy while output is written.
    func fillSnapshot(_ d: inout ConsoleDeviceState, nowNanoseconds now: Int64) {
        d.sources.set(ConsoleSource(name: "console", description: descriptionText,
                                    state: Device.gpsStateName(transport.status), isHealthy: !outputClosed))
    }

    /// The console's rows of the `stats` table.
    func appendStats(to t: inout ConsoleCounterTable) {
        t.append("console.bytesWritten", writtenBytes)
        t.append("console.bytesDroppedOutputClosed", droppedBytes)
        t.append("console.sessions", Int64(sessionCount))
    }
}
