/// A colour with red, green, blue and alpha components, each 0...1 (sRGB, not premultiplied).
public struct RGBAColor: Sendable, Equatable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = RGBAColor(red: 1, green: 1, blue: 1)
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// iOS `systemBlue` (0, 122, 255): the default `tintColor` a MapLibre map view inherits
    /// **[derived]**; every nil colour of the MapLibre style object falls back to the tint (tracking.md 8.8).
    public static let systemBlue = RGBAColor(red: 0, green: 122.0 / 255.0, blue: 1)
}

/// The appearance properties of the puck, as MapLibre's `MLNUserLocationAnnotationViewStyle` plus the
/// fixed sizes of the default puck (tracking.md 8.2–8.8). Colours that MapLibre leaves nil (tint fallback)
/// are given resolved: the default is the tint colour.
public struct PuckStyleProperties: Sendable, Equatable {
    /// Map tint colour; the default for every tinted part.
    public var tintColor: RGBAColor = .systemBlue
    /// Fill of the dot's white border disc and of the course puck disc (default white).
    public var puckFillColor: RGBAColor = .white
    /// Puck shadow colour (default black).
    public var puckShadowColor: RGBAColor = .black
    /// Puck shadow opacity, 0...1 (MLN style default **0.25**).
    public var puckShadowOpacity: Double = 0.25
    /// Course puck arrow fill (default: tint).
    public var puckArrowFillColor: RGBAColor = .systemBlue
    /// Halo fill (default: tint).
    public var haloFillColor: RGBAColor = .systemBlue
    /// Accuracy ring fill (default: tint) and its opacity 0...1 (MapLibre **0.1**, tracking.md 8.3).
    public var accuracyRingFillColor: RGBAColor = .systemBlue
    public var accuracyRingOpacity: Double = 0.1
    /// Approximate (reduced accuracy) circle fill (default: tint).
    public var approximateHaloFillColor: RGBAColor = .systemBlue
    /// Approximate circle border colour (default black).
    public var approximateHaloBorderColor: RGBAColor = .black
    /// Approximate circle border width, points (MLN style default **2.0**; 1 pt below zoom 7, tracking.md 8.7).
    public var approximateHaloBorderWidthPoints: Double = 2.0
    /// Approximate circle opacity 0...1: **0.25**, MapLibre's value with no style override (tracking.md
    /// 8.7, Q3); a MapLibre style object starts at 0.15 (tracking.md 8.8).
    public var approximateHaloOpacity: Double = 0.25
    /// Diameter of the dot's white disc, points (MapLibre **22**, tracking.md 8.2).
    public var dotDiameterPoints: Double = 22
    /// Diameter of the course puck disc, points (MapLibre **45**, tracking.md 8.6).
    public var coursePuckDiameterPoints: Double = 45
    /// Size of the course puck's chevron, points (MapLibre **22.5**, tracking.md 8.6).
    public var courseArrowSizePoints: Double = 22.5
    /// Base diameter of the halo when the ring is hidden, points (MapLibre **115**, tracking.md 8.4).
    public var haloDiameterPoints: Double = 115

    public init() {}
}
