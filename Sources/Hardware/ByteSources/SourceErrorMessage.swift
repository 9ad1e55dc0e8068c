import SystemCalls

extension SourceError {
    /// Writes the one-sentence message (what is wrong, how to fix it) as UTF-8 pieces to `sink`,
    /// without heap allocation: static text, the subject's bytes and decimal numbers.
    public func writeMessage(to sink: (UnsafeRawBufferPointer) -> Void) {
        func text(_ s: StaticString) {
            sink(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }
        func subjectText() {
            var copy = subject
            copy.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
        }
        func number(_ value: Int64) { writeDecimal(value, to: sink) }
        func seconds(_ milliseconds: Int64) {
            number(milliseconds / 1000)
            var fraction = milliseconds % 1000
            if fraction == 0 { return }
            text(".")
            var scale: Int64 = 100
            while fraction > 0 && scale > 0 {
                number(fraction / scale)
                fraction %= scale
                scale /= 10
            }
        }
        func errnoText() {
            guard let error = systemError else { return }
            text(" (")
            error.writeName(to: sink)
            text(")")
        }

        switch kind {
        case .notFound:
            subjectText(); text(" does not exist"); errnoText()
            if origin == .serial {
                text(": check that the receiver is plugged in and powered (for a HAT: that the UART is enabled in config.txt), then run 'puckd ports' to list this machine's serial ports.")
            } else {
                text(": check the path of the NMEA log to replay.")
            }
        case .permissionDenied:
            switch origin {
            case .serial:
                text("permission denied opening "); subjectText(); errnoText()
                text(": add the service user to group dialout (sudo usermod -aG dialout USER, then log in again) or install puckd's udev rules from udev/.")
            case .tcp, .gpsd:
                // What blocks it under puckd.service: its IP firewall lets only localhost through.
                text("permission denied connecting to "); subjectText(); errnoText()
                text(": the puckd.service unit allows only localhost (IPAddressDeny=any, IPAddressAllow=localhost); allow the receiver's address with a drop-in (sudo systemctl edit puckd: [Service] IPAddressAllow=192.168.1.0/24, then sudo systemctl restart puckd), or check a firewall on this machine.")
            default:
                text("permission denied opening "); subjectText(); errnoText()
                text(": make the file readable by this user (chmod a+r) or run puckd as its owner.")
            }
        case .busy:
            subjectText(); text(" is busy"); errnoText()
            text(": another program holds it exclusively, usually puckd itself running as the service (sudo systemctl stop puckd), else gpsd (sudo systemctl stop gpsd.socket gpsd, or read through it with gpsd://localhost).")
        case .notATerminal:
            subjectText(); text(" is not a serial device"); errnoText()
            text(": give a tty such as /dev/ttyUSB0 or /dev/ttyAMA0, or file:"); subjectText(); text(" to replay it as a recorded log.")
        case .unsupportedBaudRate:
            subjectText(); text(" does not accept "); number(detail); text(" baud"); errnoText()
            text(": use a standard rate such as 4800, 9600, 38400 or 115200 (the receiver's manual gives its rate).")
        case .disconnected:
            subjectText(); text(" went away mid-stream"); errnoText()
            if systemError == nil { text(" (hangup)") }
            text(": the receiver was unplugged, lost power or its driver reset; puckd reopens it with backoff when it comes back.")
        case .connectionRefused:
            if origin == .gpsd {
                text("gpsd is not listening on "); subjectText(); errnoText()
                text(": start it (sudo systemctl start gpsd.socket) or correct the host and port; puckd retries with backoff.")
            } else {
                text("nothing is listening on "); subjectText(); errnoText()
                text(": start the NMEA server (phone app or network receiver) or correct the host and port; puckd retries with backoff.")
            }
        case .connectionReset:
            subjectText(); text(" broke the connection"); errnoText()
            text(": the server restarted or the network dropped; puckd reconnects with backoff.")
        case .connectionClosed:
            if origin == .gpsd { text("gpsd at ") }
            subjectText(); text(" closed the connection: the server stopped or dropped this client; puckd reconnects with backoff.")
        case .unreachable:
            subjectText(); text(" is unreachable"); errnoText()
            text(": check the network connection, the address and the route to it; puckd retries with backoff.")
        case .hostNotFound:
            text("cannot resolve the host of "); subjectText()
            text(": check the spelling, /etc/hosts and DNS, or give an IP address; puckd retries with backoff.")
            if subject.hasSuffixBeforePort(".local") {
                text(" (puckd's static binary resolves no .local mDNS names: put the name into /etc/hosts.)")
            }
        case .connectTimedOut:
            text("no answer from "); subjectText(); text(" within "); seconds(detail); text(" s")
            text(": check that the host is up and that no firewall drops the port; puckd retries with backoff.")
        case .silent:
            subjectText(); text(" sent nothing for "); seconds(detail); text(" s")
            text(": the connection looks dead or the receiver stopped talking; puckd reconnects with backoff.")
        case .isADirectory:
            subjectText(); text(" is a directory: give the path of an NMEA log file inside it.")
        case .ioError:
            text("reading "); subjectText(); text(" failed"); errnoText()
            if origin == .serial || origin == .tcp || origin == .gpsd {
                text(": unexpected I/O error; puckd retries with backoff, and if it persists check dmesg and the cable or network.")
            } else {
                text(": unexpected I/O error; check the file and the storage it is on.")
            }
        }
    }
}

extension String {
    /// True when the host part of "HOST:PORT" (or the whole string) ends with `suffix`, ASCII case
    /// insensitive; compares bytes in place (no allocation).
    func hasSuffixBeforePort(_ suffix: StaticString) -> Bool {
        var copy = self
        return copy.withUTF8 { bytes in
            var end = bytes.count
            var i = bytes.count - 1
            while i >= 0 && bytes[i] >= 48 && bytes[i] <= 57 { i -= 1 }     // the port's digits
            if i >= 0 && i < bytes.count - 1 && bytes[i] == UInt8(ascii: ":") { end = i }
            let n = suffix.utf8CodeUnitCount
            guard end >= n else { return false }
            var k = 0
            while k < n {
                let a = bytes[end - n + k] | 0x20, b = suffix.utf8Start[k] | 0x20
                if a != b { return false }
                k += 1
            }
            return true
        }
    }
}

/// Writes a signed decimal integer to `sink` without allocating.
func writeDecimal(_ value: Int64, to sink: (UnsafeRawBufferPointer) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        var magnitude = value.magnitude
        var index = 20
        repeat {
            index -= 1
            digits[index] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 { index -= 1; digits[index] = 45 }
        sink(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: digits[index..<20])))
    }
}
