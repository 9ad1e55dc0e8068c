/// The help of every console command: its usage line, a one-line summary (the `help` list) and a
/// description with the units of every argument and output (`help CMD`). Static text only.
public enum HelpText {
    /// The usage line, e.g. `zoom Z`.
    public static func usage(_ name: ConsoleCommandName) -> StaticString {
        switch name {
        case .help: "help [CMD]"
        case .status: "status"
        case .gps: "gps"
        case .sats: "sats"
        case .heading: "heading"
        case .puck: "puck"
        case .camera: "camera"
        case .mode: "mode [NAME|next] [immediate]"
        case .viewport: "viewport [follow [zoom=Z] [pitch=P] [bearing=heading|course|DEG] [immediate] | overview [immediate] | idle]"
        case .show: "show [on|off]"
        case .accuracy: "accuracy [full|reduced]"
        case .precise: "precise PURPOSEKEY"
        case .pan: "pan DX DY"
        case .rotate: "rotate DEG"
        case .zoom: "zoom Z"
        case .pitch: "pitch P"
        case .calibrate: "calibrate mag|gyro|stop"
        case .leds: "leds"
        case .stats: "stats"
        case .events: "events [N]"
        case .nmea: "nmea [N]"
        case .track: "track"
        case .uplink: "uplink"
        case .server: "server"
        case .config: "config [KEY [VALUE]] | config save"
        case .watch: "watch CMD [HZ]"
        case .json: "json [on|off]"
        case .version: "version"
        case .press: "press [long] [1|2]"
        case .quit: "quit"
        case .login: "password: (a console locked by [console] password_file)"
        }
    }

    /// One line for the `help` list.
    public static func summary(_ name: ConsoleCommandName) -> StaticString {
        switch name {
        case .help: "list the commands, or explain one"
        case .status: "one-screen summary: fix, satellites, heading, mode, viewport, faults, uptime"
        case .gps: "the full GPS fix: position, time, DOPs, accuracies, quality"
        case .sats: "satellites in view per constellation: PRN, elevation, azimuth, SNR, used"
        case .heading: "IMU heading: magnetic/true, declination, accuracy, roll, pitch, calibration"
        case .puck: "the puck as the map draws it"
        case .camera: "the map camera: centre, zoom, bearing, pitch, viewport"
        case .mode: "show or set the tracking mode"
        case .viewport: "show the viewport, follow the puck, show an overview, or go idle"
        case .show: "show or hide the user location (showsUserLocation)"
        case .accuracy: "set the location accuracy authorization"
        case .precise: "request temporary full accuracy with a purpose key"
        case .pan: "drag the map by DX, DY points"
        case .rotate: "rotate the map by DEG degrees"
        case .zoom: "pinch to zoom level Z"
        case .pitch: "tilt the camera to P degrees"
        case .calibrate: "start or stop a magnetometer or gyroscope calibration"
        case .leds: "LED states and patterns"
        case .stats: "every counter: sentences, drops, I2C errors, GPIO events, ticks, console"
        case .events: "the last N tracking events"
        case .nmea: "the receiver's raw sentences and puckd's commands to it (watch nmea: as they arrive)"
        case .track: "the track journal: segments, size, records, last and durable sequence, last flush, errors"
        case .uplink: "the fleet uplinks (MQTT, OsmAnd): url, state, cursor, backlog, last ack, last error, counters"
        case .server: "the gpsd-compatible server: listening addresses, clients, watch flags, queued bytes, drops"
        case .config: "show or change configuration values, or save them"
        case .watch: "redraw a view in place HZ times per second (Ctrl-C stops)"
        case .json: "reply with one JSON object per line"
        case .version: "puckd version"
        case .press: "press the simulated board's button"
        case .quit: "end the console session (also: exit, Ctrl-D)"
        case .login: "unlock a serial console with its password"
        }
    }

    /// The full description (lines end with `\n`): what it does, arguments with ranges and units.
    public static func details(_ name: ConsoleCommandName) -> StaticString {
        switch name {
        case .help:
            "Without CMD, lists every command. With CMD, prints its usage, what it does and the units.\n"
        case .status:
            """
            One screen: fix (mode, position in degrees, accuracy in metres, age in seconds), satellites \
            used/in view, heading (degrees from true north) and its source, tracking mode, viewport, \
            authorization, faults with their reasons, uptime.\n
            """
        case .gps:
            """
            The last fix: UTC time, latitude/longitude (degrees, WGS84), altitude MSL and ellipsoid (m), \
            geoid separation (m), speed (m/s), course and true heading (degrees from true north), \
            magnetic variation (degrees, east positive), HDOP/VDOP/PDOP, horizontal/vertical accuracy (m) \
            and their source, the GST error ellipse (m, degrees), satellites, differential age (s).\n
            """
        case .sats:
            """
            One table per constellation from the last complete GSV set: PRN (gpsd numbering), elevation \
            (degrees above the horizon), azimuth (degrees from true north), SNR (dB-Hz), signal ID, used \
            in the solution (yes/-).\n
            """
        case .heading:
            """
            The IMU heading estimate: magnetic and true heading, declination (degrees, east positive), \
            heading accuracy (degrees; invalid when negative), roll (degrees, right side down positive), \
            pitch (degrees, nose up positive), magnetometer calibration state, stored calibration \
            (coverage %, field in µT) and a running calibration's coverage.\n
            """
        case .puck:
            """
            The puck: visibility, coordinate (degrees), screen point (points), accuracy (m), bearing and \
            its source (degrees), style, ring/halo sizes (points), stale and reduced-accuracy flags.\n
            """
        case .camera:
            """
            The camera: centre (degrees), zoom (512-pt tiles), bearing (degrees from true north), pitch \
            (degrees from straight down), padding (points), metres per point, tracking mode and state, \
            viewport status and progress (%).\n
            """
        case .mode:
            """
            Without NAME, prints the tracking mode. NAME is one of none, follow, followWithCourse, \
            followWithHeading (MapLibre) or off, recenter, navigation, compassNavigation (ArcGIS); next \
            steps through the button's mode cycle. Changes are animated unless immediate is given.\n
            """
        case .viewport:
            """
            Without arguments, prints the viewport status. follow: follow the puck with zoom Z (0…25.5), \
            pitch P (0…85 degrees) and bearing heading, course or a fixed DEG (0…360 degrees from true \
            north); defaults zoom 16.35, pitch 45, bearing heading. overview: fit the recent track. \
            idle: stop and leave the camera. immediate jumps instead of animating.\n
            """
        case .show:
            "Without an argument, prints showsUserLocation. on starts locating (the puck appears), off stops.\n"
        case .accuracy:
            """
            Without an argument, prints the authorization. full or reduced sets the accuracy \
            authorization; reduced coarsens the puck to an approximate circle.\n
            """
        case .precise:
            """
            Requests temporary full accuracy with PURPOSEKEY (1…64 letters, digits, '.', '_', '-'); \
            granted only for a configured key while authorized.\n
            """
        case .pan:
            "Drags the map by DX (right positive) and DY (down positive) points, -10000…10000 each. Ends tracking.\n"
        case .rotate:
            "Rotates the map by DEG degrees, -360…360, clockwise on screen positive.\n"
        case .zoom:
            "Pinches to zoom level Z, 0…25.5 (512-pt tiles), clamped to the configured zoom limits.\n"
        case .pitch:
            "Tilts the camera to P degrees from straight down, 0…85, clamped to the configured maximum pitch.\n"
        case .calibrate:
            """
            mag starts a magnetometer calibration: turn the board slowly through every orientation; it is \
            fitted and applied by itself once enough directions are covered (75 % by default). gyro \
            measures the gyroscope bias (rad/s, shown in degrees per second): keep the board still for 5 s. \
            stop ends the running one, fitting a magnetometer run when at least 50 % is covered. Results are \
            saved with the state.\n
            """
        case .leds:
            "Each LED: on/off now and the pattern it shows (fix, mode, fault, heartbeat).\n"
        case .stats:
            """
            Every counter: NMEA bytes and sentences with drops by reason, epochs, device counters (I2C \
            errors, GPIO events, ticks, allocations, loop latency in ns) and the console's own counters.\n
            """
        case .events:
            "The last N tracking events (1…64, default 10) with their time in seconds since start.\n"
        case .nmea:
            """
            The last N lines (1…64, default 20) of the receiver's traffic, as it arrived: NMEA sentences with \
            their checksum, UBX frames as name, class, id, length and payload bytes in hex, and after `>` the \
            commands puckd sent to configure the receiver; each with its time in seconds since start. \
            `watch nmea` prints the new lines as they arrive (at most 64 are kept: a line the console had no \
            room for is counted, not shown).\n
            """
        case .track:
            """
            The track journal ([track]): its directory, segments, bytes and records, the oldest segment's day \
            and the newest record's time, the sequence of the last record appended and of the last one on \
            disk (fdatasync'ed), records waiting for the next flush, the last flush, segments dropped for the \
            size cap, fixes lost while the disk failed, and the disk's error now.\n
            """
        case .uplink:
            """
            The fleet uplinks ([uplink] mqtt_url, osmand_url), one block each: the server's URL (never a \
            password) and the device id, the connection's state, the cursor (the journal sequence through \
            which every record was delivered or filtered), the backlog waiting, messages in flight, the last \
            acknowledgement's age, the last error said, and the counters (connections, attempts, sent, \
            acknowledged, re-sent, filtered by the rate keys, given up by backlog_limit, faults).\n
            """
        case .server:
            """
            The gpsd-compatible server ([server]): where it listens, its clients (slot, peer address, \
            connected time, bytes queued for it, reports dropped because it read too slowly, its ?WATCH \
            flags and PUCK/CAMERA rate), and the totals: clients accepted and refused, requests, errors, \
            reports queued and dropped, bytes sent, receiver sentences forwarded, socket errors.\n
            """
        case .config:
            """
            Without KEY, lists every configuration value. With KEY, prints one. With KEY VALUE, sets it \
            (VALUE is the rest of the line, at most 120 bytes; the device checks type and range; a key that \
            cannot change while running says it needs a restart). save writes the values changed here back \
            to the configuration file, keeping its comments and order.\n
            """
        case .watch:
            """
            Redraws CMD (status, gps, sats, heading, puck, camera, leds, stats, events, track, uplink, server) in place HZ times \
            per second, 0.1…60, default 1. Ctrl-C (or q) stops. Without a terminal, prints one frame per \
            interval; in json mode, one JSON line per frame. watch nmea prints the receiver's new lines as \
            they arrive instead (every 50 ms; HZ does not apply).\n
            """
        case .json:
            """
            Without an argument, prints the setting. on: every reply is exactly one JSON object per line \
            (field names carry units, absent values are null). off: text replies.\n
            """
        case .version:
            "Prints the puckd version.\n"
        case .press:
            """
            Presses button 1 (default) or 2 of the simulated board (--board sim): a short press, or a long \
            press (held 1 s or more) with long. A real board's buttons are pressed by hand.\n
            """
        case .quit:
            """
            Ends the console session. On standard input/output puckd then shuts down cleanly (LEDs off, \
            state saved); on a serial port a fresh session starts.\n
            """
        case .login:
            """
            With [console] password_file set, a serial console asks for the password before anything else \
            (nothing is echoed). After a wrong one it refuses every attempt for [console] login_delay_s \
            seconds, twice as long after each further failure (at most 60 s).\n
            """
        }
    }

    /// Appends `help` (every command with its usage and summary) as text.
    public static func appendList(to out: inout OutputBuffer) {
        out.append("Commands (help CMD for details):\n")
        var i = 0
        while i < ConsoleCommandName.count {
            let name = ConsoleCommandName.at(i)
            out.append("  ")
            let shown: StaticString = name == .viewport ? "viewport [follow|overview|idle]"
                : name == .config ? "config [KEY [VALUE]]|save" : usage(name)
            RenderFormat.label(shown, width: 33, to: &out)
            out.append(summary(name))
            out.append(UInt8(ascii: "\n"))
            i += 1
        }
        out.append("Keys: Tab completes, Up/Down recall, Ctrl-U clears the line, Ctrl-C stops a watch.\n")
    }

    /// Appends `help CMD` as text.
    public static func appendCommand(_ name: ConsoleCommandName, to out: inout OutputBuffer) {
        out.append("usage: ")
        out.append(usage(name))
        out.append(UInt8(ascii: "\n"))
        out.append(summary(name))
        out.append(".\n")
        out.append(details(name))
    }
}
