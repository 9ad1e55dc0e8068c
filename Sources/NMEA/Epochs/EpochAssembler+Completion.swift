/// Turning the open epoch into a `Fix`: date, mode, position, accuracy, derived velocity.
extension EpochAssembler {
    /// Turns the open epoch into `lastFix`.
    mutating func completeOpenEpoch() {
        if usedSets[usedIndex].count > 0 {
            usedIndex = 1 - usedIndex                      // the open epoch's set becomes the latest
            usedSets[usedIndex].removeAll()
        }
        if sky.publishIfComplete(used: usedSets[1 - usedIndex]) { counters.skyViews += 1 }

        let previousUTC = lastFix.utcNanoseconds
        let previousTime = lastFix.timeOfDayNanoseconds
        let previousLatitude = lastFix.hasPosition ? lastFix.latitudeDegrees : nil
        let previousLongitude = lastFix.longitudeDegrees

        lastFix = Fix(timeOfDayNanoseconds: acc.timeOfDay.nanoseconds)
        lastFix.isLeapSecond = acc.timeOfDay.isLeapSecond
        if let day = resolveDay(),
           let utc = UTCDateResolver.utcNanoseconds(days: day, timeOfDayNanoseconds: acc.timeOfDay.nanoseconds) {
            lastFix.utcNanoseconds = utc
        } else { counters.epochsWithoutDate += 1 }

        if acc.hasFix {
            lastFix.mode = mode()
            lastFix.quality = acc.quality ?? acc.modeQuality ?? .gps
            lastFix.latitudeDegrees = acc.latitude
            lastFix.longitudeDegrees = acc.longitude
            lastFix.altitudeMSLMeters = acc.altitudeMSL
            lastFix.geoidSeparationMeters = acc.geoidSeparation
            lastFix.speedMetersPerSecond = acc.speed
            lastFix.courseDegrees = acc.course
            lastFix.magneticVariationDegrees = acc.magneticVariation
            lastFix.differentialAgeSeconds = acc.differentialAge
            lastFix.differentialStationID = acc.differentialStation
            holdAltitude()
        }
        lastFix.trueHeadingDegrees = acc.heading
        lastFix.hdop = acc.hdop ?? acc.ggaHDOP
        lastFix.vdop = acc.vdop
        lastFix.pdop = acc.pdop
        lastFix.satellitesUsed = acc.satellitesUsed
        lastFix.satellitesInView = counters.skyViews > 0 ? sky.publishedDistinctSatellites : nil
        lastFix.errorEllipse = acc.ellipse
        configuration.accuracy.apply(to: &lastFix)

        if hasPrevious {
            let dt = Self.interval(fromUTC: previousUTC, timeOfDay: previousTime,
                                   toUTC: lastFix.utcNanoseconds, timeOfDay: lastFix.timeOfDayNanoseconds)
            if dt < 0 { counters.timeWentBackwards += 1 }
            if dt > Self.gapThresholdNanoseconds { counters.gaps += 1 }
            if lastFix.hasPosition, lastFix.speedMetersPerSecond == nil,
               let lat1 = previousLatitude, let lon1 = previousLongitude,
               dt > 0, dt <= configuration.maximumDerivationIntervalNanoseconds {
                deriveVelocity(fromLatitude: lat1, longitude: lon1, intervalNanoseconds: dt)
            }
        }
        hasPrevious = true
        counters.epochs += 1
        if lastFix.mode != .noFix { counters.epochsWithFix += 1 }
    }

    /// 2D or 3D as gpsd decides it (`FixModeRules`); where gpsd's rules say no fix although the epoch
    /// holds one (a GGA with an empty satellite count next to a valid RMC …), the epoch's own
    /// evidence: GSA's fix type, else an altitude from 4 or more satellites.
    private func mode() -> FixMode {
        switch modeRules.mode {
        case 3: return .threeD
        case 2: return .twoD
        default:
            switch acc.gsaFixType {
            case 3: return .threeD
            case 2: return .twoD
            default: return acc.altitudeMSL != nil && (acc.satellitesUsed ?? 4) >= 4 ? .threeD : .twoD
            }
        }
    }

    /// A 3D epoch without an altitude of its own takes the last one (at most `altitudeHoldNanoseconds`
    /// old); a 3D epoch with one remembers it.
    private mutating func holdAltitude() {
        guard lastFix.mode == .threeD else { return }
        if let msl = acc.altitudeMSL {
            heldAltitude = (msl, acc.geoidSeparation, lastFix.utcNanoseconds, lastFix.timeOfDayNanoseconds)
            return
        }
        guard let held = heldAltitude else { return }
        let age = Self.interval(fromUTC: held.utc, timeOfDay: held.timeOfDay,
                                toUTC: lastFix.utcNanoseconds, timeOfDay: lastFix.timeOfDayNanoseconds)
        guard age > 0, age <= configuration.altitudeHoldNanoseconds else { return }
        lastFix.altitudeMSLMeters = held.msl
        lastFix.geoidSeparationMeters = held.separation
        lastFix.altitudeHeld = true
    }

    private mutating func deriveVelocity(fromLatitude lat1: Double, longitude lon1: Double, intervalNanoseconds: Int64) {
        guard let lat2 = lastFix.latitudeDegrees, let lon2 = lastFix.longitudeDegrees else { return }
        let (distance, bearing) = Geodesy.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
        let speed = distance / (Double(intervalNanoseconds) / 1e9)
        guard speed.isFinite, speed <= 10_000 else { return }
        lastFix.speedMetersPerSecond = speed
        if lastFix.courseDegrees == nil, speed >= configuration.minimumSpeedForCourse {
            lastFix.courseDegrees = bearing
        }
        lastFix.speedAndCourseDerived = true
        counters.derivedVelocities += 1
    }
}
