/// The configurator's run: which setting and part comes next, replies, timeouts, restarts and the
/// line-speed watchdog.
extension ReceiverConfigurator {
    /// The commands of the receiver's family (a u-blox of unknown generation: the legacy set).
    var commandSet: ReceiverFamily.CommandSet { (status.identity.family ?? .ublox(generation: 0)).commandSet }

    /// NMEA after a silence this long means the receiver came back: three periods, at least the timing's.
    var restartSilenceNanoseconds: Int64 {
        max(timing.restartSilenceNanoseconds, Int64(3 * (settings.measurementPeriodMilliseconds ?? 1000)) * 1_000_000)
    }

    mutating func resetOutcomes() {
        let s = settings
        let asked: [5 of Bool] = [s.baudRate != nil, s.sentences != nil, s.constellations != nil,
                                  s.measurementPeriodMilliseconds != nil, s.save]
        for i in 0..<5 { status.outcomes[i] = asked[i] && s.mode == .auto ? .pending : .notAsked }
        status.refusedSentences = []
        status.lastRefusalFlag = -1
    }

    /// Starts a configuration run (nothing to write: keeps listening).
    mutating func beginRun(_ reason: ReceiverReconfigureReason, nowNanoseconds now: Int64) {
        guard phase != .off else { return }
        guard settings.wantsChanges else {
            phase = .listening
            status.phase = .listening
            return
        }
        status.counters.runs &+= 1
        runStartedNanoseconds = now
        resetOutcomes()
        events.push(.configuring(reason))
        phase = .waitingForLink
        status.phase = .waitingForReceiver
        validAtMark = validSentences
        needsWrite = false
        deadlineNanoseconds = .max
    }

    /// The link works: ask who the receiver is when that is not known well enough, else configure.
    mutating func startProbeOrSteps(_ now: Int64) {
        let identity = status.identity
        var probes = 0
        switch identity.family {
        case nil: probes = timing.attempts
        case .ublox(let generation)? where generation == 0: probes = timing.attempts
        case _? where identity.evidence == .configuration || identity.model.isEmpty:
            probes = 1      // learn the model (and check the family); not needed to go on
        default: probes = 0
        }
        if probes > 0 {
            phase = .probing
            status.phase = .identifying
            attempt = 1
            probeAttempts = probes
            needsWrite = true
            return
        }
        startSetting(from: .baud, now)
    }

    /// Starts the first pending setting at or after `first`; ends the run when none is left.
    mutating func startSetting(from first: ReceiverSetting, _ now: Int64) {
        var index = Int(first.rawValue)
        while index < ReceiverSetting.count {
            let candidate = ReceiverSetting(rawValue: UInt8(index))!
            index += 1
            guard status.outcome(candidate) == .pending else { continue }
            if commandSet.partCount(candidate) == 0 {
                record(candidate, .unsupported)
                continue
            }
            if candidate == .baud, settings.baudRate == status.portBaudRate {
                record(candidate, .applied)     // NMEA arrives at that speed already
                continue
            }
            if candidate == .baud || assumedFamily == nil { assumedFamily = status.identity.family }
            setting = candidate
            part = 0
            attempt = 1
            partsApplied = 0
            partsRefused = 0
            partsSilent = 0
            phase = .awaitingReply
            status.phase = .configuring
            needsWrite = true
            return
        }
        phase = .done
        status.phase = .done
        deadlineNanoseconds = .max
        needsWrite = false
        status.counters.completedRuns &+= 1
        status.lastRunNanoseconds = now &- runStartedNanoseconds
        events.push(.finished)
    }

    mutating func record(_ s: ReceiverSetting, _ outcome: ReceiverOutcome) {
        status.outcomes[Int(s.rawValue)] = outcome
        events.push(.outcome(s, outcome))
    }

    /// The current setting is over with `outcome`: on to the next.
    mutating func finishSetting(_ outcome: ReceiverOutcome, _ now: Int64) {
        record(setting, outcome)
        let next = ReceiverSetting(rawValue: setting.rawValue + 1)
        if let next { startSetting(from: next, now) } else { startSetting(from: .save, now) }
    }

    /// One part of the current setting ended; the setting ends with its last part.
    mutating func partDone(_ result: ReceiverOutcome, _ now: Int64) {
        switch result {
        case .applied: partsApplied += 1
        case .refused:
            partsRefused += 1
            if setting == .sentences && commandSet == .ubxLegacy {
                status.refusedSentences.insert(NMEASentenceSet(ReceiverFamily.CommandSet.ubxManagedSentences[part]))
            }
        default: partsSilent += 1
        }
        part += 1
        if part < commandSet.partCount(setting) {
            attempt = 1
            needsWrite = true
            return
        }
        let outcome: ReceiverOutcome
        if partsRefused == 0 && partsSilent == 0 {
            outcome = .applied
        } else if partsApplied > 0 {
            outcome = .partlyApplied
        } else {
            outcome = partsRefused > 0 ? .refused : .noAnswer
        }
        finishSetting(outcome, now)
    }

    /// The wait for a reply ended without one.
    mutating func timeout(_ now: Int64) {
        status.counters.timeouts &+= 1
        if phase == .probing {
            if attempt < probeAttempts {
                attempt += 1
                status.counters.retries &+= 1
                needsWrite = true
                return
            }
            guard status.identity.family != nil else {
                for i in 0..<ReceiverSetting.count where status.outcomes[i] == .pending {
                    status.outcomes[i] = .notSent
                }
                phase = .done
                status.phase = .unrecognized
                deadlineNanoseconds = .max
                events.push(.notRecognized)
                return
            }
            startSetting(from: .baud, now)
            return
        }
        if attempt < timing.attempts {
            attempt += 1
            status.counters.retries &+= 1
            needsWrite = true
            return
        }
        partDone(.noAnswer, now)
    }

    mutating func noteValid(_ now: Int64) {
        if lastValidNanoseconds != .min && now &- lastValidNanoseconds >= restartSilenceNanoseconds && phase == .done {
            lastValidNanoseconds = now
            beginRun(.linkRestored, nowNanoseconds: now)
        }
        lastValidNanoseconds = now
        watchSinceNanoseconds = now
        validSentences &+= 1
        bytesSinceValid = 0
    }

    mutating func handle(_ clue: ReceiverRecognizer.Clue, _ now: Int64) {
        if clue.contains(.identity) { events.push(.recognized) }
        if clue.contains(.restarted) {
            status.counters.receiverRestarts &+= 1
            switch phase {
            case .off, .listening, .waitingForLink: break
            default: beginRun(.receiverRestarted, nowNanoseconds: now)
            }
            return
        }
        guard clue.contains(.identity) else { return }
        if phase == .probing, let family = status.identity.family {
            let generationKnown = if case .ublox(0) = family { false } else { true }
            if generationKnown || status.identity.evidence == .versionReply {
                startSetting(from: .baud, now)
            }
        } else if assumedFamily != nil, status.identity.family != assumedFamily,
                  status.identity.evidence > .configuration, phase != .off, phase != .listening {
            assumedFamily = status.identity.family
            beginRun(.familyChanged, nowNanoseconds: now)
        }
    }

    mutating func handle(_ reply: ReceiverReply, _ now: Int64) {
        switch (phase, reply, expected) {
        case (.awaitingReply, .ubxAck(let id), .ubx(let want)) where id == want:
            status.counters.acknowledged &+= 1
            partDone(.applied, now)
        case (.awaitingReply, .ubxNak(let id), .ubx(let want)) where id == want:
            status.counters.refused &+= 1
            status.lastRefusalFlag = -1
            partDone(.refused, now)
        case (.awaitingReply, .pmtk(let command, let flag), .pmtk(let want)) where command == want:
            if flag == 3 {
                status.counters.acknowledged &+= 1
                partDone(.applied, now)
            } else if flag == 2 && attempt < timing.attempts {
                // "Valid command, but the action failed": worth another try.
                status.counters.retries &+= 1
                attempt += 1
                needsWrite = true
            } else {
                status.counters.refused &+= 1
                status.lastRefusalFlag = flag
                partDone(.refused, now)
            }
        case (.awaitingSwitch, .ubxAck(let id), .ubx(let want)) where id == want:
            status.counters.acknowledged &+= 1     // accepted at the old speed; switch at the deadline
        case (.awaitingSwitch, .ubxNak(let id), .ubx(let want)) where id == want:
            status.counters.refused &+= 1
            status.lastRefusalFlag = -1
            finishSetting(.refused, now)
        case (.verifyingNew, .ubxAck(let id), .ubx(let want)) where id == want:
            status.counters.acknowledged &+= 1
            baudAcknowledged = true
        default:
            status.counters.unexpectedReplies &+= 1
        }
    }

    /// Fixed line speed: no valid NMEA for a while but bytes arrive (noise) — the receiver may have lost
    /// power and come back at its default speed (or kept the one it was told): try the other one.
    mutating func watchLink(_ now: Int64) -> Action? {
        guard !autoBaud, let target = settings.baudRate, target != baseBaudRate,
              watchSinceNanoseconds != .min, status.outcome(.baud) != .notAsked else { return nil }
        switch phase {
        case .awaitingSwitch, .verifyingNew, .verifyingOld, .off, .listening: return nil
        default: break
        }
        guard now &- watchSinceNanoseconds >= timing.linkLossNanoseconds, bytesSinceValid > 0 else { return nil }
        let other = status.portBaudRate == target ? baseBaudRate : target
        events.push(.linkLost(from: status.portBaudRate, to: other))
        bytesSinceValid = 0
        if phase != .done {
            // A run cannot go on without the receiver: wait for it at the other speed.
            phase = .waitingForLink
            status.phase = .waitingForReceiver
            needsWrite = false
            deadlineNanoseconds = .max
            resetOutcomes()
        }
        return switchPort(to: other, now)
    }
}
