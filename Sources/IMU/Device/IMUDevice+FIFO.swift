/// The burst path of `IMUDevice`: with `IMUDeviceConfiguration.burstIntervalNanoseconds` and a chip
/// whose driver reads its FIFO, each poll reads every sample the FIFO holds into the caller's
/// `IMUBurst`, gives each its time (`IMUSampleClock`) and the mounting; an overrun is counted, the
/// FIFO reset and the next burst marked `followsGap`. A magnetometer without a FIFO is read once per
/// burst and its field rides on the newest sample only: the heading filter weighs each field reading
/// by the time since the previous one (docs/heading.md §4.1). Chips without a FIFO driver deliver their
/// one polled sample through the same call. Allocation-free.
extension IMUDevice {
    /// Time between FIFO bursts in use, nanoseconds: the configured interval, shortened for a shallow
    /// FIFO (`IMUDriver.burstIntervalNanoseconds`); 0 while polled.
    public var fifoBurstIntervalNanoseconds: Int64 { driver?.burstIntervalNanoseconds ?? 0 }
    /// Samples per burst the FIFO's watermark is set to (0 while polled): what an interrupt line would
    /// signal.
    public var fifoWatermarkSamples: Int { driver?.fifoWatermarkSamples ?? 0 }

    /// Advances the state machine and fills `burst` (emptied first) with the new readings, oldest
    /// first, board frame, SI units, each with its time. `watermarkEdgeNanoseconds`: the kernel's
    /// timestamp of the INT1 rising edge that woke the caller (`signalsWatermark`), i.e. when the FIFO
    /// reached its watermark; it times the burst's samples exactly (nil: timed from the read).
    public mutating func poll(nowNanoseconds now: Int64, into burst: inout IMUBurst, watermarkEdgeNanoseconds edge: Int64? = nil) {
        burst.removeAll()
        guard status.state == .running, let d = driver, d.readsFIFO else {
            if let reading = poll(nowNanoseconds: now) { burst.append(reading) }
            return
        }
        readFIFO(now, d, &burst, d.signalsWatermark ? edge : nil)
    }

    private mutating func readFIFO(_ now: Int64, _ start: IMUDriver, _ burst: inout IMUBurst, _ edge: Int64?) {
        var d = start
        nextPollNanoseconds = now + start.burstIntervalNanoseconds
        do throws(I2CError) {
            try d.readFIFO(bus: &bus, into: &burst)
            if burst.overrun { try d.resetFIFO(bus: &bus) }
            driver = d
        } catch {
            driver = d
            burst.removeAll()
            status.errors.count(error)
            status.consecutiveErrors += 1
            if status.consecutiveErrors >= configuration.maximumConsecutiveErrors {
                status.consecutiveErrors = 0
                fault(.bus(error), now, alreadyCounted: true)
            }
            return
        }
        status.consecutiveErrors = 0
        status.fifoBursts += 1
        if burst.overrun {
            // The samples in the FIFO are dropped with the reset; the estimator sees the gap in the
            // times of the next burst, which is anchored at its own read.
            status.fifoOverruns += 1
            sampleClock.restart()
            fifoGapPending = true
            lastNewDataNanoseconds = now
            burst.removeAll()
            burst.overrun = true
            return
        }
        guard burst.count > 0 else {
            if now - lastNewDataNanoseconds > configuration.dataTimeoutNanoseconds {
                fault(.dataTimeout(milliseconds: Int((now - lastNewDataNanoseconds) / 1_000_000)), now)
            }
            return
        }
        lastNewDataNanoseconds = now
        sampleClock.place(count: burst.count, readNanoseconds: now)
        if let edge { sampleClock.anchor(sample: d.fifoWatermarkSamples - 1, count: burst.count, atNanoseconds: edge, readNanoseconds: now) }
        var i = 0
        while i < burst.count {
            var reading = burst[i]
            if reading.rawDataFingerprint == lastFingerprint {
                identicalSamples += 1
                if configuration.stuckSampleLimit > 0, identicalSamples >= configuration.stuckSampleLimit {
                    burst.removeAll()
                    fault(.stuckData(samples: identicalSamples + 1), now)
                    return
                }
            } else {
                identicalSamples = 0
                lastFingerprint = reading.rawDataFingerprint
            }
            if reading.magnetometerOverflow { status.errors.countMagnetometerOverflow() }
            reading.sample.timestampNanoseconds = sampleClock.time(ofSample: i, count: burst.count)
            reading.sample = configuration.mounting.apply(to: reading.sample)
            burst[i] = reading
            i += 1
        }
        burst.followsGap = fifoGapPending
        fifoGapPending = false
        backoffNanoseconds = configuration.initialBackoffNanoseconds
        recoveryAttempts = 0
        status.samples += burst.count
        if burst.moreAvailable { nextPollNanoseconds = now }
    }
}
