@testable import IMU
import Testing

@Suite struct IMUAxisRemapTests {
    @Test func parsesSignedAxesAndApplies() throws {
        let ak8963 = try #require(IMUAxisRemap(parsing: "y,x,-z"))
        #expect(ak8963.apply(1, 2, 3) == Vector3(2, 1, -3))
        let lsm9ds1 = try #require(IMUAxisRemap(parsing: " -x , +y , z "))
        #expect(lsm9ds1.apply(1, 2, 3) == Vector3(-1, 2, 3))
        #expect(ak8963.description == "y,x,-z")
    }

    @Test func rejectsRepeatedOrUnknownAxes() {
        for text in ["x,x,z", "x,y", "a,b,c", "x,y,z,x", "--x,y,z", ""] {
            #expect(IMUAxisRemap(parsing: text) == nil, "\(text)")
        }
    }

    @Test func all48SignedPermutationsInvert() {
        let v = Vector3(1.5, -2.25, 4)
        var count = 0
        for a in 0..<3 {
            for b in 0..<3 where b != a {
                let c = 3 - a - b
                for signs in 0..<8 {
                    let s = [(signs & 1) == 0 ? 1 : -1, (signs & 2) == 0 ? 1 : -1, (signs & 4) == 0 ? 1 : -1]
                    let r = IMUAxisRemap(x: (a, s[0]), y: (b, s[1]), z: (c, s[2]))!
                    #expect(r.inverse.apply(r.apply(v)) == v)
                    #expect(r.apply(r.inverse.apply(v)) == v)
                    #expect(IMUAxisRemap(parsing: r.description) == r)
                    count += 1
                }
            }
        }
        #expect(count == 48)
    }
}
