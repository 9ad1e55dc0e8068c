import Console
import Tracking

/// The `set FIELD VALUE` lines of a scenario: a chosen set of `TrackingConfiguration` fields (the
/// behaviour switches and limits a scenario is likely to need), spelt as the Swift field names.
/// Ranges are checked afterwards by `TrackingConfiguration.validationError()`.
enum ScenarioSettings {
    /// The fields `set` accepts, as listed in messages.
    static let fieldList = "headingFallsBackToCourse, showsUserHeadingIndicator, dynamicCameraAnimationDuration, "
        + "puckSmoothing, haloGating, puckBearingWhenUnavailable, showsAccuracyRing, staleStateEnabled, "
        + "staleTimeoutSeconds, courseMinimumSpeedMetersPerSecond, minimumZoom, maximumZoom, minimumPitchDegrees, "
        + "maximumPitchDegrees, wanderExtentFactor, navigationPointHeightFactor, initialZoomScale, "
        + "initialZoomScaleConvention, compassNavigationReference, arcGISUsesCourseSymbolOnMovement, "
        + "transitionsToIdleUponUserInteraction, approximateHaloOpacity"

    /// Sets `field` to `value` in `configuration`; returns what is wrong, or nil.
    static func apply(field fieldBytes: UnsafeRawBufferPointer, value valueBytes: UnsafeRawBufferPointer,
                      to c: inout TrackingConfiguration) -> String? {
        let field = String(decoding: fieldBytes, as: UTF8.self)
        let value = String(decoding: valueBytes, as: UTF8.self)
        func bool(_ set: (inout TrackingConfiguration, Bool) -> Void) -> String? {
            switch value.lowercased() {
            case "true", "on", "yes": set(&c, true); return nil
            case "false", "off", "no": set(&c, false); return nil
            default: return "set \(field): '\(value)' is not true or false"
            }
        }
        func number(_ set: (inout TrackingConfiguration, Double) -> Void) -> String? {
            guard let v = CommandNumber.parse(valueBytes) else { return "set \(field): '\(value)' is not a number" }
            set(&c, v)
            return nil
        }
        func choice<T>(_ names: [(String, T)], _ set: (inout TrackingConfiguration, T) -> Void) -> String? {
            for (name, v) in names where name.lowercased() == value.lowercased() { set(&c, v); return nil }
            return "set \(field): '\(value)' is not one of \(names.map { $0.0 }.joined(separator: ", "))"
        }
        switch field {
        case "headingFallsBackToCourse": return bool { $0.headingFallsBackToCourse = $1 }
        case "showsUserHeadingIndicator": return bool { $0.showsUserHeadingIndicator = $1 }
        case "dynamicCameraAnimationDuration": return bool { $0.dynamicCameraAnimationDuration = $1 }
        case "showsAccuracyRing": return bool { $0.showsAccuracyRing = $1 }
        case "staleStateEnabled": return bool { $0.staleStateEnabled = $1 }
        case "arcGISUsesCourseSymbolOnMovement": return bool { $0.arcGISUsesCourseSymbolOnMovement = $1 }
        case "transitionsToIdleUponUserInteraction": return bool { $0.transitionsToIdleUponUserInteraction = $1 }
        case "staleTimeoutSeconds": return number { $0.staleTimeoutSeconds = $1 }
        case "courseMinimumSpeedMetersPerSecond": return number { $0.courseMinimumSpeedMetersPerSecond = $1 }
        case "minimumZoom": return number { $0.minimumZoom = $1 }
        case "maximumZoom": return number { $0.maximumZoom = $1 }
        case "minimumPitchDegrees": return number { $0.minimumPitchDegrees = $1 }
        case "maximumPitchDegrees": return number { $0.maximumPitchDegrees = $1 }
        case "wanderExtentFactor": return number { $0.wanderExtentFactor = $1 }
        case "navigationPointHeightFactor": return number { $0.navigationPointHeightFactor = $1 }
        case "initialZoomScale": return number { $0.initialZoomScale = $1 }
        case "approximateHaloOpacity": return number { $0.style.approximateHaloOpacity = $1 }
        case "puckSmoothing": return choice([("mapLibre", PuckSmoothing.mapLibre), ("mapbox", .mapbox)]) { $0.puckSmoothing = $1 }
        case "haloGating":
            return choice([("accuracyAtMost10Meters", HaloGating.accuracyAtMost10Meters), ("always", .always),
                           ("never", .never)]) { $0.haloGating = $1 }
        case "puckBearingWhenUnavailable":
            return choice([("keepLast", PuckBearingFallback.keepLast), ("north", .north)]) { $0.puckBearingWhenUnavailable = $1 }
        case "initialZoomScaleConvention":
            return choice([("trueScaleAtLatitude", ScaleConvention.trueScaleAtLatitude),
                           ("nominalEquatorial", .nominalEquatorial)]) { $0.initialZoomScaleConvention = $1 }
        case "compassNavigationReference":
            return choice([("trueNorthPreferred", HeadingReference.trueNorthPreferred),
                           ("magneticNorth", .magneticNorth)]) { $0.compassNavigationReference = $1 }
        default:
            return "set: '\(field)' is not a field a scenario can set; fields: \(fieldList)"
        }
    }
}
