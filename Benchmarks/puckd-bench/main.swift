import Glibc
import Puckd

// `puckd-bench AREA [ARGUMENTS]`: figures, not tests (`make bench` runs scripts/bench, which calls this).
// Each area adds one case here and its own file.
let arguments = CommandLine.arguments
let usage = """
    usage: puckd-bench AREA [ARGUMENTS]
      nmea FILE    framer, parser and assembler throughput on FILE (an NMEA log)
      tracking     tracking core: ns per tick with every feature active
      heading [PEERS]
                   heading estimator: samples/s, the ten BROAD trials (PEERS: scripts/broad_peers.py
                   output), Fusion example data, the GNSS-aided synthetic drive
      imu          IMU drivers on the simulated bus: µs per sample
      console      console: ns per status render, watch frame and command line
      device [PUCKD [SECONDS]]
                   puckd run --board sim at real rates: CPU/wall, peak RSS, start to READY
      fleet [TRACKERS [RATE_SECONDS [FLAT_OUT_PER_TRACKER]]]
                   TRACKERS (1000) MQTT uplink clients into one mosquitto it starts on loopback, against
                   mosquitto_pub: connect time, memory per connection, messages/s, CPU, no gap/duplicate

    """

guard arguments.count >= 2 else {
    StandardStreams.err(usage)
    exit(64)
}
switch arguments[1] {
case "nmea":
    exit(NMEABenchmark.run(Array(arguments.dropFirst(2))))
case "tracking":
    runTrackingBench()
case "heading":
    runHeadingBench(Array(arguments.dropFirst(2)))
case "imu":
    runIMUBench()
case "console":
    runConsoleBench()
case "device":
    exit(runDeviceBench(Array(arguments.dropFirst(2))))
case "fleet":
    exit(runFleetBench(Array(arguments.dropFirst(2))))
default:
    StandardStreams.err("puckd-bench: unknown area '\(arguments[1])'\n" + usage)
    exit(64)
}
