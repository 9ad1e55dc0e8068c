import Testing
@testable import Hardware

@Suite struct GpsdLineFilterTests {
    /// What gpsd 3.22 sent a WATCH client in GpsdSourceTests (JSON reports, forwarded NMEA with
    /// the receiver's own line endings, an ERROR report).
    static let stream = Array("""
        {"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}\r
        {"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/0","bps":38400}]}\r
        {"class":"WATCH","enable":true,"json":false,"nmea":true,"raw":0}\r
        $GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D
        $GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D\r
        {"class":"ERROR","message":"Unrecognized request '?FOO'"}\r
        !AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26\r

        """.utf8)
    static let nmeaOnly = Array("""
        $GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D
        $GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D\r
        !AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26\r

        """.utf8)

    func run(_ input: [UInt8], chunk: Int) -> ([UInt8], GpsdLineFilter) {
        var filter = GpsdLineFilter()
        var output: [UInt8] = []
        var start = 0
        while start < input.count {
            var piece = Array(input[start..<min(start + chunk, input.count)])
            let kept = piece.withUnsafeMutableBytes { filter.filter($0, count: $0.count) }
            output += piece[0..<kept]
            start += chunk
        }
        return (output, filter)
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func keepsNMEAAndDropsJSONWhereverReadsSplit(chunk: Int) {
        let (output, filter) = run(Self.stream, chunk: chunk)
        #expect(output == Self.nmeaOnly)
        #expect(filter.jsonLinesSkipped == 4)
    }

    @Test func resetStartsANewStream() {
        var filter = GpsdLineFilter()
        var partial = Array(#"{"class":"SKY","satellites":["#.utf8)
        _ = partial.withUnsafeMutableBytes { filter.filter($0, count: $0.count) }
        filter.reset()  // the connection dropped in the middle of a JSON line
        var next = Array("$GPGSA,A,3,,,,,,,,,,,,,2.0,1.1,1.7*3C\r\n".utf8)
        let kept = next.withUnsafeMutableBytes { filter.filter($0, count: $0.count) }
        #expect(kept == next.count)
    }
}
