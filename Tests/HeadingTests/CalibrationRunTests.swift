@testable import IMU
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Heading

@Suite struct CalibrationRunTests {
    @Test func eigenDecompositionOfASymmetricMatrix() {
        let m = SymmetricMatrix3(xx: 4, xy: 1, xz: 0.5, yy: 3, yz: -0.25, zz: 2)
        let (values, vectors) = m.eigen()
        #expect(values.x <= values.y && values.y <= values.z)
        for (value, vector) in [(values.x, vectors.0), (values.y, vectors.1), (values.z, vectors.2)] {
            #expect((m.multiply(vector) - vector * value).length < 1e-12)
            #expect(abs(vector.length - 1) < 1e-12)
        }
        #expect(abs(values.x * values.y * values.z - m.determinant) < 1e-9)
        let root = m.squareRoot()!
        let rows = [root.row(0), root.row(1), root.row(2)]
        for i in 0..<3 {
            let product = Vector3(rows[i].dot(root.row(0)), rows[i].dot(root.row(1)), rows[i].dot(root.row(2)))
            #expect((product - m.row(i)).length < 1e-12)
        }
        #expect(SymmetricMatrix3(xx: -1, xy: 0, xz: 0, yy: 1, yz: 0, zz: 1).squareRoot() == nil)
    }

    /// Exact points on a known ellipsoid: the fit returns its centre and shape to rounding.
    @Test func exactEllipsoidIsRecovered() throws {
        let center = Vector3(12, -30, 4)
        let shape = SymmetricMatrix3(xx: 1.1, xy: 0.05, xz: 0, yy: 0.9, yz: 0.02, zz: 1.0)   // m = shape·u·R + h
        var points: [Vector3] = []
        for i in 0..<200 {
            let z = -1 + 2 * (Double(i) + 0.5) / 200, phi = Double(i) * 2.399963
            let r = (1 - z * z).squareRoot()
            points.append(shape.multiply(Vector3(r * cos(phi), r * sin(phi), z) * 45) + center)
        }
        let fit = try points.withUnsafeBufferPointer { buffer throws(MagnetometerCalibrationError) in
            try EllipsoidFit.fit(buffer, expectedFieldMicrotesla: 45)
        }
        #expect((fit.center - center).length < 1e-9)
        #expect(fit.residualFraction < 1e-12)
        let s0 = shape.row(0), s1 = shape.row(1), s2 = shape.row(2)
        for (i, row) in [fit.transform.row(0), fit.transform.row(1), fit.transform.row(2)].enumerated() {
            let ws = Vector3(row.dot(s0), row.dot(s1), row.dot(s2))
            #expect((ws - Vector3(i == 0 ? 1 : 0, i == 1 ? 1 : 0, i == 2 ? 1 : 0)).length < 1e-9)
        }
    }

    @Test func runReportsCoverageAndRefusesTooLittleData() {
        var run = MagnetometerCalibrationRun(capacity: 512)
        #expect(run.coverageFraction == 0)
        #expect(throws: MagnetometerCalibrationError.tooFewSamples(count: 0, needed: 50)) { try run.fit() }
        // A board held still adds one sample however long it is held.
        for _ in 0..<1000 { run.add(Vector3(20, 5, -40)) }
        #expect(run.count == 1 && run.offered == 1000)
        // Half a sphere (z ≥ 0 only) covers half the bins: not enough.
        for i in 0..<2000 {
            let z = Double(i) / 2000, phi = Double(i) * 2.399963, r = (1 - z * z).squareRoot()
            run.add(Vector3(r * cos(phi), r * sin(phi), z) * 45 + Vector3(3, 4, 5))
        }
        #expect(run.coverageFraction <= 0.6)
        #expect(run.count <= 512)
        let message = MagnetometerCalibrationError.insufficientCoverage(fraction: 0.5, needed: 0.5).message
        #expect(message.contains("50 %") && message.contains("rotate the board"))
    }

    @Test func binsAreEqualAreaAndComplete() {
        var seen = Set<Int>()
        for i in 0..<5000 {
            let z = -1 + 2 * (Double(i) + 0.5) / 5000, phi = Double(i) * 2.399963, r = (1 - z * z).squareRoot()
            seen.insert(CalibrationCoverage.bin(of: Vector3(r * cos(phi), r * sin(phi), z)))
        }
        #expect(seen == Set(0..<32))
        var coverage = CalibrationCoverage()
        for i in 0..<3200 {
            let z = -1 + 2 * (Double(i) + 0.5) / 3200, phi = Double(i) * 2.399963, r = (1 - z * z).squareRoot()
            coverage.add(direction: Vector3(r * cos(phi), r * sin(phi), z))
        }
        for b in 0..<32 { #expect(abs(Int(coverage.counts[b]) - 100) <= 3, "bin \(b): \(coverage.counts[b])") }
        #expect(coverage.fraction == 1)
    }
}
