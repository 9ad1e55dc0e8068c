import Puckd

/// `puckd.8` (`puckd --help man`): the manual page of the program, made from `CommandTable`, the
/// same usage paragraphs `--help` prints and the exit statuses; a test keeps `man/puckd.8` equal to it.
enum CommandManual {
    static var page: String {
        var out = Roff.header("PUCKD", section: 8, manual: "System Administration", version: PuckdVersion.string.description)
        out += ".SH NAME\npuckd \\- GPS + IMU map puck and camera tracking for Linux boards\n"
        out += ".SH SYNOPSIS\n"
        var synopses: [String] = []
        for entry in CommandTable.all {
            for form in UsageParagraph(entry.usage).forms { synopses.append(form.synopsis) }
        }
        synopses.append(UsageParagraph.trimmed(CommandTable.globalUsage))
        for synopsis in synopses { out += ".B " + Roff.escape(synopsis) + "\n.br\n" }
        out += ".SH DESCRIPTION\n" + Roff.escape(
            "puckd shows the user's location on a headless Linux board the way the map SDKs of phones do: "
                + "NMEA from a serial GPS, a file, a TCP stream or gpsd, an I2C IMU fused into a true heading, "
                + "and a tracking core that computes the puck (position, accuracy, bearing) and the camera "
                + "(center, zoom, bearing, pitch) for the tracking modes; a GPIO button cycles the modes, LEDs "
                + "show fix, mode and faults, and a console shows and changes everything.") + "\n"
        out += ".PP\n" + Roff.escape(
            "As a service (puckd.service) it runs 'puckd run' on /etc/puckd.conf as the unprivileged puckd "
                + "user. A fresh package install starts nothing until a board is chosen: 'sudo puckd setup BOARD' "
                + "writes the board's profile as /etc/puckd.conf and checks it, then 'sudo systemctl restart "
                + "puckd' starts it. SIGHUP (systemctl reload puckd) reloads the configuration; SIGINT and "
                + "SIGTERM stop it cleanly (LEDs off, state saved).") + "\n"
        out += ".SH COMMANDS\n"
        for entry in CommandTable.all {
            out += ".SS \"puckd " + entry.name + "\"\n" + Roff.verbatim(UsageParagraph(entry.usage).lines.filter { !$0.isEmpty })
        }
        out += ".SH \"EXIT STATUS\"\n"
        for status in CommandTable.exitStatuses {
            out += ".TP\n.B " + String(status.status) + "\n" + Roff.escape(status.meaning) + "\n"
        }
        out += ".SH FILES\n"
        for (path, what) in files {
            out += ".TP\n.I " + Roff.escape(path) + "\n" + Roff.escape(what) + "\n"
        }
        out += ".SH \"SEE ALSO\"\n.BR puckd.conf (5),\n.BR systemctl (1),\n.BR journalctl (1),\n.BR gpsd (8)\n"
        return out
    }

    /// The files of an installed puckd, as the FILES section lists them.
    static let files: [(path: String, what: String)] = [
        ("/etc/puckd.conf", "the configuration (puckd.conf(5)); 'puckd setup BOARD' writes a board's profile there"),
        ("/usr/share/puckd/boards/", "the board profiles, one BOARD.conf each (also built into puckd: 'puckd run --board BOARD')"),
        ("/var/lib/puckd/", "the saved state: tracking mode, last fix, magnetometer calibration, gyroscope bias"),
        ("/usr/lib/systemd/system/puckd.service", "the systemd unit"),
        ("/usr/lib/udev/rules.d/99-puckd.rules", "udev rules: /dev/gps0 and group access to GPIO, I2C and PPS devices"),
        ("/usr/lib/sysusers.d/puckd.conf", "the puckd service user and its groups (dialout, gpio, i2c)"),
    ]
}
