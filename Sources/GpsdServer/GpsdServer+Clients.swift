import Console
import GpsdProtocol
import SystemCalls

/// Accepting, reading, answering, queueing and writing, per client slot.
extension GpsdServer {
    /// Accepts every pending connection on a listener; a connection beyond the last free slot gets
    /// one ERROR line and is closed (counted in `refused`). Returns the connections opened.
    func acceptAll(listener index: Int, nowNanoseconds now: Int64) -> Int {
        guard index < listeners.count else { return 0 }
        let listener = listeners[index]
        var opened = 0
        while true {
            let (accepted, outcome) = Socket.accept(listener.descriptor)
            guard let fd = accepted else {
                if case .failed = outcome { counters.socketErrors &+= 1 }   // EMFILE and the like: try on the next wake-up
                return opened
            }
            guard let slot = freeSlot() else {
                counters.refused &+= 1
                scratch.removeAll()
                scratch.append("{\"class\":\"ERROR\",\"message\":\"Too many clients: all ")
                scratch.append(int: slots.count)
                scratch.append(" of puckd's client slots are taken ([server] max_clients)\"}\r\n")
                scratch.withBytes { _ = Socket.send(fd, $0) }
                Socket.close(fd)
                continue
            }
            let serial = nextSerial
            nextSerial &+= 1
            slots[slot] = GpsdClientSlot()
            slots[slot].descriptor = fd
            slots[slot].serial = serial
            if case .unix = listener.address { slots[slot].transport = .unix }
            slots[slot].connectedAtNanoseconds = now
            withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { buffer in
                let n = Socket.peerName(fd, into: buffer)
                slots[slot].peer = GpsdShortText(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            }
            EventPoll.control(pollDescriptor, .add, fd, writable: false, token: Self.clientToken(slot, serial: serial))
            counters.accepted &+= 1
            opened += 1
            // gpsd greets every client with its VERSION.
            scratch.removeAll()
            GpsdReports.appendVersion(release: configuration.release, to: &scratch)
            enqueueScratch(slot: slot)
            if !flush(slot: slot) { closeClient(slot: slot) }
        }
    }

    func freeSlot() -> Int? {
        var i = 0
        while i < slots.count { if !slots[i].isOpen { return i }; i += 1 }
        return nil
    }

    /// Reads up to 16 KiB of requests and answers them. False when the client is gone.
    func readRequests(slot: Int, nowNanoseconds now: Int64) -> Bool {
        guard let fd = slots[slot].descriptor else { return false }
        var chunks = 0
        while chunks < 4 {
            chunks += 1
            switch Socket.receive(fd, into: readBuffer) {
            case .processed(let n):
                var reader = slots[slot].reader
                reader.feed(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])) { command in
                    answer(command, slot: slot, nowNanoseconds: now)
                }
                slots[slot].reader = reader
                if n < readBuffer.count { return true }
            case .wouldBlock:
                return true
            case .closed:
                return false
            case .failed:
                counters.socketErrors &+= 1
                return false
            }
        }
        return true
    }

    /// The reply to one request: only the asking client's watch changes (read-only socket).
    func answer(_ command: GpsdCommand, slot: Int, nowNanoseconds now: Int64) {
        slots[slot].counters.requests &+= 1
        counters.requests &+= 1
        scratch.removeAll()
        switch command {
        case .version:
            GpsdReports.appendVersion(release: configuration.release, to: &scratch)
        case .devices:
            GpsdReports.appendDevices(device, to: &scratch)
        case .device:
            GpsdReports.appendDevice(device, to: &scratch)
        case .watch(let request):
            if let request {
                slots[slot].watch.apply(request)
                slots[slot].nextPuckdNanoseconds = now
            }
            if slots[slot].watch.enable { GpsdReports.appendDevices(device, to: &scratch) }
            GpsdReports.appendWatch(slots[slot].watch, to: &scratch)
        case .poll:
            appendPoll(to: &scratch)
        case .invalid(let error):
            slots[slot].counters.errors &+= 1
            counters.errors &+= 1
            GpsdReports.appendError(error, to: &scratch)
        }
        enqueueScratch(slot: slot)
    }

    /// gpsd's POLL object: the last TPV and SKY (and GST) in arrays.
    func appendPoll(to out: inout OutputBuffer) {
        out.append("{\"class\":\"POLL\"")
        if let utc = lastFix?.utcNanoseconds {
            out.append(",\"time\":\""); out.append(isoTime: utc, fractionDigits: 3); out.append(UInt8(ascii: "\""))
        }
        out.append(",\"active\":"); out.append(int: lastFix == nil ? 0 : 1)
        out.append(",\"tpv\":[")
        if let fix = lastFix {
            GpsdFixReports.appendTPV(fix, device: device.path, to: &out)
            out.removeLast(2)
        }
        out.append("],\"gst\":[")
        if let fix = lastFix, GpsdFixReports.appendGST(fix, device: device.path, to: &out) { out.removeLast(2) }
        out.append("],\"sky\":[")
        if hasSky, let fix = lastFix {
            GpsdFixReports.appendSKY(lastSky, fix: fix, device: device.path, to: &out)
            out.removeLast(2)
        }
        out.append("]}\r\n")
    }

    /// Copies `scratch` whole into the slot's queue, or drops it whole and counts it.
    @discardableResult
    func enqueueScratch(slot: Int) -> Bool {
        if scratch.isEmpty { return true }
        let capacity = configuration.clientBufferBytes
        let length = scratch.count
        if scratch.overflowed || slots[slot].queueCount + length > capacity {
            slots[slot].counters.reportsDropped &+= 1
            counters.reportsDropped &+= 1
            return false
        }
        let region = queueStorage.baseAddress! + slot * capacity
        if slots[slot].queueHead + slots[slot].queueCount + length > capacity {
            // Compact: move the queued bytes to the region's start.
            region.copyMemory(from: region + slots[slot].queueHead, byteCount: slots[slot].queueCount)   // may overlap (memmove)
            slots[slot].queueHead = 0
        }
        let end = region + slots[slot].queueHead + slots[slot].queueCount
        scratch.withBytes { end.copyMemory(from: $0.baseAddress!, byteCount: length) }
        slots[slot].queueCount += length
        slots[slot].counters.reportsQueued &+= 1
        counters.reportsQueued &+= 1
        return true
    }

    /// Writes what the kernel takes of the slot's queue; watches writability while bytes remain.
    /// False when the client is gone.
    func flush(slot: Int) -> Bool {
        guard let fd = slots[slot].descriptor else { return false }
        let region = queueStorage.baseAddress! + slot * configuration.clientBufferBytes
        while slots[slot].queueCount > 0 {
            let bytes = UnsafeRawBufferPointer(start: region + slots[slot].queueHead, count: slots[slot].queueCount)
            switch Socket.send(fd, bytes) {
            case .processed(let n):
                slots[slot].queueHead += n
                slots[slot].queueCount -= n
                slots[slot].counters.bytesSent &+= UInt64(n)
                counters.bytesSent &+= UInt64(n)
                if n == 0 { break }
            case .wouldBlock:
                if !slots[slot].watchingWritable {
                    slots[slot].watchingWritable = true
                    EventPoll.control(pollDescriptor, .modify, fd, writable: true,
                                             token: Self.clientToken(slot, serial: slots[slot].serial))
                }
                return true
            case .closed:
                return false
            case .failed:
                counters.socketErrors &+= 1
                return false
            }
        }
        slots[slot].queueHead = 0
        if slots[slot].watchingWritable {
            slots[slot].watchingWritable = false
            EventPoll.control(pollDescriptor, .modify, fd, writable: false,
                                     token: Self.clientToken(slot, serial: slots[slot].serial))
        }
        return true
    }

    /// Closes a client's socket and frees its slot.
    func closeClient(slot: Int) {
        guard let fd = slots[slot].descriptor else { return }
        EventPoll.control(pollDescriptor, .remove, fd, writable: false, token: 0)
        Socket.close(fd)
        slots[slot].descriptor = nil
        slots[slot].queueCount = 0
        slots[slot].queueHead = 0
        counters.closed &+= 1
    }
}
