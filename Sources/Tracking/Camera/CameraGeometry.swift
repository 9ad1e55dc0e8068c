import Angles
import Glibc

/// Screen ↔ ground maths of the mbgl camera: perspective camera 1.5 × view height from the centre
/// (vertical field of view 2·atan(1/3)), tilted by the pitch, principal point at the padded centre
/// (mbgl `TransformState` with its centre-offset frustum shift, tracking.md 5.3, 12.6).
enum CameraGeometry {
    /// Screen point of the camera centre: view centre + ½(left − right), ½(top − bottom) (tracking.md 5.3).
    static func anchor(padding: EdgeInsets, size: ScreenSize) -> ScreenPoint {
        ScreenPoint(xPoints: size.widthPoints / 2 + (padding.leftPoints - padding.rightPoints) / 2,
                    yPoints: size.heightPoints / 2 + (padding.topPoints - padding.bottomPoints) / 2)
    }

    /// Distance from the camera to the centre, points (mbgl `getCameraToCenterDistance`).
    @inline(__always)
    static func cameraDistance(size: ScreenSize) -> Double {
        0.5 * size.heightPoints / tan(WebMercator.verticalFieldOfViewRadians / 2)
    }

    /// Largest pitch for this padding (maplibre-native `Transform::getMaxPitchForEdgeInsets` since
    /// maplibre-native #3011, tracking.md 5.7), degrees: with the centre offset cy = ½(top − bottom),
    /// maxPitch + fov/2 − atan((0.5 + cy/H)·2·tan(fov/2)), at least `minimumPitch`; `maximumPitch`
    /// itself when cy = 0. (A negative cy, centre above the middle, allows more than `maximumPitch`; the
    /// camera's own maximum still applies to every target.)
    static func maximumPitchDegrees(padding: EdgeInsets, size: ScreenSize, maximumPitch: Double,
                                    minimumPitch: Double) -> Double {
        let centerOffsetY = 0.5 * (padding.topPoints - padding.bottomPoints)
        if centerOffsetY == 0 { return maximumPitch }
        let fov = WebMercator.verticalFieldOfViewRadians
        let tangent = (0.5 + centerOffsetY / size.heightPoints) * 2 * tan(fov / 2)
        let limit = maximumPitch * Angle.radiansPerDegree + fov / 2 - atan(tangent)
        return max(minimumPitch, limit * Angle.degreesPerRadian)
    }

    /// Where a world-unit point appears on screen, or nil when it is behind the camera.
    static func screenPoint(of point: MercatorPoint, camera: CameraValues, size: ScreenSize) -> ScreenPoint? {
        let worldSize = WebMercator.worldSizePoints(zoom: camera.zoom)
        var dxUnits = point.x - camera.center.x
        // Shortest way round the world.
        if dxUnits > 0.5 { dxUnits -= 1 } else if dxUnits < -0.5 { dxUnits += 1 }
        let dx = dxUnits * worldSize
        let dy = (point.y - camera.center.y) * worldSize
        let beta = camera.bearingDegrees * Angle.radiansPerDegree
        let gx = dx * cos(beta) + dy * sin(beta)
        let gy = -dx * sin(beta) + dy * cos(beta)
        let theta = camera.pitchDegrees * Angle.radiansPerDegree
        let distance = cameraDistance(size: size)
        let depth = distance - gy * sin(theta)
        if !(depth > 1e-6 * distance) { return nil }
        let scale = distance / depth
        let a = anchor(padding: camera.padding, size: size)
        return ScreenPoint(xPoints: a.xPoints + gx * scale, yPoints: a.yPoints + gy * cos(theta) * scale)
    }

    /// The world-unit point under a screen point, or nil above the horizon.
    static func worldPoint(at screen: ScreenPoint, camera: CameraValues, size: ScreenSize) -> MercatorPoint? {
        let a = anchor(padding: camera.padding, size: size)
        let ox = screen.xPoints - a.xPoints, oy = screen.yPoints - a.yPoints
        let theta = camera.pitchDegrees * Angle.radiansPerDegree
        let distance = cameraDistance(size: size)
        let denominator = distance * cos(theta) + oy * sin(theta)
        if !(denominator > 1e-9) { return nil }
        let gy = oy * distance / denominator
        let gx = ox * (distance - gy * sin(theta)) / distance
        let beta = camera.bearingDegrees * Angle.radiansPerDegree
        let dx = gx * cos(beta) - gy * sin(beta)
        let dy = gx * sin(beta) + gy * cos(beta)
        let worldSize = WebMercator.worldSizePoints(zoom: camera.zoom)
        return MercatorPoint(x: camera.center.x + dx / worldSize, y: camera.center.y + dy / worldSize)
    }

    /// The centre that keeps world point `point` under screen point `screen` at the camera's zoom,
    /// bearing, pitch and padding (used for gestures anchored at a point, tracking.md 5.6).
    static func center(keeping point: MercatorPoint, at screen: ScreenPoint, camera: CameraValues,
                       size: ScreenSize) -> MercatorPoint? {
        var probe = camera
        probe.center = point
        guard let underScreen = worldPoint(at: screen, camera: probe, size: size) else { return nil }
        return MercatorPoint(x: point.x - (underScreen.x - point.x), y: point.y - (underScreen.y - point.y))
    }

    /// The camera centre and zoom that fit the world-unit box with these corners into the view inset
    /// by `padding`, seen at `bearingDegrees` and pitch 0 (Mapbox `camera(for:)`, MapLibre
    /// `setVisibleCoordinates`), zoom clamped to `minZoom...maxZoom`. The returned centre is for a
    /// camera whose own padding is `cameraPadding` (the box lands in the middle of the fit region).
    static func fit(corners: InlineArray<4, MercatorPoint>, bearingDegrees: Double, padding: EdgeInsets,
                    cameraPadding: EdgeInsets, size: ScreenSize, minZoom: Double,
                    maxZoom: Double) -> (center: MercatorPoint, zoom: Double) {
        let beta = bearingDegrees * Angle.radiansPerDegree
        let c = cos(beta), s = sin(beta)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        var i = 0
        while i < 4 {
            let p = corners[i]
            let rx = p.x * c + p.y * s
            let ry = -p.x * s + p.y * c
            minX = min(minX, rx); maxX = max(maxX, rx)
            minY = min(minY, ry); maxY = max(maxY, ry)
            i += 1
        }
        let availableWidth = max(1, size.widthPoints - padding.leftPoints - padding.rightPoints)
        let availableHeight = max(1, size.heightPoints - padding.topPoints - padding.bottomPoints)
        let spanX = (maxX - minX) * WebMercator.tileSizePoints
        let spanY = (maxY - minY) * WebMercator.tileSizePoints
        var zoom = maxZoom
        if spanX > 0 || spanY > 0 {
            let zx = spanX > 0 ? log2(availableWidth / spanX) : Double.infinity
            let zy = spanY > 0 ? log2(availableHeight / spanY) : Double.infinity
            zoom = min(zx, zy)
        }
        zoom = min(max(zoom, minZoom), maxZoom)
        // Shift so the box centre lands at the fit region's centre, not at the camera anchor.
        let worldSize = WebMercator.worldSizePoints(zoom: zoom)
        let regionX = padding.leftPoints + availableWidth / 2
        let regionY = padding.topPoints + availableHeight / 2
        let a = anchor(padding: cameraPadding, size: size)
        let rcx = (minX + maxX) / 2 - (regionX - a.xPoints) / worldSize
        let rcy = (minY + maxY) / 2 - (regionY - a.yPoints) / worldSize
        let center = MercatorPoint(x: rcx * c - rcy * s, y: rcx * s + rcy * c)
        return (center, zoom)
    }

    /// The camera centre and zoom that fit two world points into the view inset by `padding`, seen with
    /// `camera` (its pitch, bearing and padding): mbgl `cameraForLatLngs`. Both points are projected with
    /// the camera; the zoom grows by log2 of the smaller of (W − left − right)/width and
    /// (H − top − bottom)/height of their screen box (clamped to `minZoom...maxZoom`) and the centre is
    /// the ground point under the box's middle. When a point is behind the camera (pitched far ahead)
    /// the pitch-0 fit of `fit(corners:…)` is used instead.
    static func fitAtCamera(_ a: MercatorPoint, _ b: MercatorPoint, padding: EdgeInsets, camera: CameraValues,
                            size: ScreenSize, minZoom: Double, maxZoom: Double) -> (center: MercatorPoint, zoom: Double) {
        guard let pa = screenPoint(of: a, camera: camera, size: size), let pb = screenPoint(of: b, camera: camera, size: size) else {
            let corners: InlineArray<4, MercatorPoint> = [a, b, a, b]
            return fit(corners: corners, bearingDegrees: camera.bearingDegrees, padding: padding, cameraPadding: padding,
                       size: size, minZoom: minZoom, maxZoom: maxZoom)
        }
        let width = abs(pa.xPoints - pb.xPoints), height = abs(pa.yPoints - pb.yPoints)
        var zoom = camera.zoom
        if width > 0 || height > 0 {
            let scaleX = width > 0 ? (size.widthPoints - padding.leftPoints - padding.rightPoints) / width : Double.infinity
            let scaleY = height > 0 ? (size.heightPoints - padding.topPoints - padding.bottomPoints) / height : Double.infinity
            let scale = min(scaleX, scaleY)
            if scale > 0 { zoom = camera.zoom + log2(scale) }
        } else {
            zoom = maxZoom
        }
        zoom = min(max(zoom, minZoom), maxZoom)
        let middle = ScreenPoint(xPoints: (pa.xPoints + pb.xPoints) / 2, yPoints: (pa.yPoints + pb.yPoints) / 2)
        let center = worldPoint(at: middle, camera: camera, size: size) ?? MercatorPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        return (center, zoom)
    }
}
