/// A geographic position on WGS84: latitude north-positive, longitude east-positive, both in degrees.
public struct GeoCoordinate: Sendable, Equatable {
    /// Latitude, degrees north, −90...90 (Web Mercator maths clamps it to ±85.0511).
    public var latitudeDegrees: Double
    /// Longitude, degrees east, −180...180 (values outside are wrapped where it matters).
    public var longitudeDegrees: Double

    public init(latitudeDegrees: Double, longitudeDegrees: Double) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
    }

    /// True when both values are finite and inside −90...90 / −180...180 (CLLocationCoordinate2DIsValid).
    public var isValid: Bool {
        latitudeDegrees.isFinite && longitudeDegrees.isFinite
            && abs(latitudeDegrees) <= 90 && abs(longitudeDegrees) <= 180
    }
}

/// A point on the screen in points (pt = px at scale 1), origin top-left, y down.
public struct ScreenPoint: Sendable, Equatable {
    /// Horizontal position, points from the left edge.
    public var xPoints: Double
    /// Vertical position, points from the top edge.
    public var yPoints: Double

    public init(xPoints: Double, yPoints: Double) {
        self.xPoints = xPoints
        self.yPoints = yPoints
    }
}

/// A view size in points.
public struct ScreenSize: Sendable, Equatable {
    /// Width, points (> 0).
    public var widthPoints: Double
    /// Height, points (> 0).
    public var heightPoints: Double

    public init(widthPoints: Double, heightPoints: Double) {
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
    }

    /// The official 7-inch Raspberry Pi display: 800 × 480 pt.
    public static let raspberryPiDisplay = ScreenSize(widthPoints: 800, heightPoints: 480)
}

/// Insets from the four view edges in points (UIEdgeInsets order: top, left, bottom, right).
/// Camera padding uses the same type; padding values may be negative (tracking.md 5.3).
public struct EdgeInsets: Sendable, Equatable {
    /// Inset from the top edge, points.
    public var topPoints: Double
    /// Inset from the left edge, points.
    public var leftPoints: Double
    /// Inset from the bottom edge, points.
    public var bottomPoints: Double
    /// Inset from the right edge, points.
    public var rightPoints: Double

    public init(topPoints: Double = 0, leftPoints: Double = 0, bottomPoints: Double = 0, rightPoints: Double = 0) {
        self.topPoints = topPoints
        self.leftPoints = leftPoints
        self.bottomPoints = bottomPoints
        self.rightPoints = rightPoints
    }

    /// No inset.
    public static let zero = EdgeInsets()

    /// Component-wise linear interpolation (`t` = 0 gives `from`, 1 gives `to`).
    static func interpolate(_ from: EdgeInsets, _ to: EdgeInsets, _ t: Double) -> EdgeInsets {
        EdgeInsets(topPoints: from.topPoints + (to.topPoints - from.topPoints) * t,
                   leftPoints: from.leftPoints + (to.leftPoints - from.leftPoints) * t,
                   bottomPoints: from.bottomPoints + (to.bottomPoints - from.bottomPoints) * t,
                   rightPoints: from.rightPoints + (to.rightPoints - from.rightPoints) * t)
    }

    static func + (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
        EdgeInsets(topPoints: a.topPoints + b.topPoints, leftPoints: a.leftPoints + b.leftPoints,
                   bottomPoints: a.bottomPoints + b.bottomPoints, rightPoints: a.rightPoints + b.rightPoints)
    }
}

/// A rectangle on the screen in points (origin top-left).
struct ScreenRect: Equatable {
    var minX: Double
    var minY: Double
    var width: Double
    var height: Double

    var maxX: Double { minX + width }
    var maxY: Double { minY + height }
    var midX: Double { minX + width / 2 }
    var midY: Double { minY + height / 2 }
    var isEmpty: Bool { !(width > 0) || !(height > 0) }

    /// The rectangle shrunk by `insets` (CGRect UIEdgeInsetsInsetRect).
    func inset(by insets: EdgeInsets) -> ScreenRect {
        ScreenRect(minX: minX + insets.leftPoints, minY: minY + insets.topPoints,
                   width: width - insets.leftPoints - insets.rightPoints,
                   height: height - insets.topPoints - insets.bottomPoints)
    }
}
