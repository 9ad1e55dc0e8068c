import Glibc
@testable import IMU
import Testing

@Suite struct MountingOrientationTests {
    static let basis = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]

    /// Columns of the matrix (images of the sensor axes).
    static func columns(_ m: MountingOrientation) -> [Vector3] { basis.map { m.apply($0) } }

    static func dot(_ a: Vector3, _ b: Vector3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

    static func cross(_ a: Vector3, _ b: Vector3) -> Vector3 {
        Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    @Test func all24RightAngleMountingsAreDistinctProperRotations() {
        let all = MountingOrientation.allRightAngle
        #expect(all.count == 24)
        var seen = Set<[Double]>()
        for m in all {
            let c = Self.columns(m)
            for i in 0..<3 {
                for j in 0..<3 {
                    #expect(Self.dot(c[i], c[j]) == (i == j ? 1 : 0), "\(m.name) not orthonormal")
                }
            }
            #expect(Self.dot(Self.cross(c[0], c[1]), c[2]) == 1, "\(m.name) is a reflection")   // det = +1
            #expect(c.allSatisfy { [$0.x, $0.y, $0.z].allSatisfy { [-1.0, 0, 1].contains($0) } })
            seen.insert(c.flatMap { [$0.x, $0.y, $0.z] })
        }
        #expect(seen.count == 24)
    }

    @Test func everyMountingIsInvertibleAndItsNameParsesBack() throws {
        let v = Vector3(0.3, -1.7, 9.2)
        for base in MountingOrientation.allRightAngle {
            for yaw in [0.0, 3.5, -127.25] {
                let m = try #require(base.with(yawOffsetDegrees: yaw))
                let back = m.applyInverse(m.apply(v))
                #expect(abs(back.x - v.x) < 1e-12 && abs(back.y - v.y) < 1e-12 && abs(back.z - v.z) < 1e-12)
                #expect(try MountingOrientation(parsing: m.name) == m)
            }
        }
    }

    @Test func namesSayWhereTheSensorAxesPoint() throws {
        #expect(try MountingOrientation(parsing: "x-forward,z-up") == .identity)
        let v = Vector3(1, 2, 3)
        #expect(MountingOrientation.identity.apply(v) == v)
        // Sensor turned 90° left: its x points left, its y (= z × x) backward.
        let left = try MountingOrientation(parsing: "x-left,z-up")
        #expect(left.apply(Vector3(1, 0, 0)) == Vector3(0, 1, 0) && left.apply(Vector3(0, 1, 0)) == Vector3(-1, 0, 0))
        // Upside down, facing backward: accelerometer reading (0, 0, −g) becomes (0, 0, +g).
        let flipped = try MountingOrientation(parsing: " X-Backward , Z-Down ")
        #expect(flipped.apply(Vector3(0, 0, -9.81)) == Vector3(0, 0, 9.81))
        #expect(flipped.apply(Vector3(1, 0, 0)) == Vector3(-1, 0, 0))
    }

    @Test func yawOffsetTurnsTheSensorClockwiseSeenFromAbove() throws {
        // The vehicle faces magnetic north; the sensor is turned 30° clockwise, so north appears 30° to
        // its left: sensor-frame field (cos 30°, sin 30°, −). Corrected, the field is dead ahead again.
        let m = try MountingOrientation(parsing: "x-forward,z-up,yaw=30")
        let a = 30.0 * Double.pi / 180
        let field = m.apply(Vector3(20 * cos(a), 20 * sin(a), -40))
        #expect(abs(field.x - 20) < 1e-12 && abs(field.y) < 1e-12 && field.z == -40)
        let quarter = try MountingOrientation(parsing: "x-forward,z-up,yaw=90")
        #expect(quarter.apply(Vector3(1, 0, 0)) == Vector3(0, -1, 0))          // sensor x points right
    }

    @Test func badStringsSayWhatIsAccepted() {
        func failure(_ text: String) -> MountingOrientationError? {
            do { _ = try MountingOrientation(parsing: text); return nil } catch { return error }
        }
        #expect(failure("x-forward,z-forward") == .parallelAxes("x-forward,z-forward"))
        #expect(failure("x-north,z-up") == .unknownDirection("north"))
        #expect(failure("forward,up") == .malformed("forward,up"))
        #expect(failure("x-forward,z-up,yaw=abc") == .badYaw("yaw=abc"))
        #expect(failure("x-forward,z-up,yaw=nan") == .badYaw("yaw=nan"))
        #expect(failure("x-forward,z-up,yaw=abc")!.message.contains("x-DIR,z-DIR"))
        #expect(MountingOrientation(sensorX: .up, sensorZ: .down) == nil)
    }
}
