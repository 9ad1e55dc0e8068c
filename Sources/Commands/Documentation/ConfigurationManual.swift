import Configuration
import Puckd

/// `puckd.conf.5` (`puckd --help-config man`): the configuration file's manual page, made from
/// `ConfigurationKeys` like `--help-config`; a test keeps `man/puckd.conf.5` equal to it.
enum ConfigurationManual {
    static var page: String {
        var out = Roff.header("PUCKD.CONF", section: 5, manual: "File Formats", version: PuckdVersion.string.description)
        out += ".SH NAME\npuckd.conf \\- configuration of puckd, the GPS + IMU tracking daemon\n"
        out += ".SH SYNOPSIS\n.I /etc/puckd.conf\n"
        out += ".SH DESCRIPTION\n" + Roff.escape(
            "puckd run reads the built-in defaults, then a board profile (--board), then the configuration "
                + "file (--config FILE, or /etc/puckd.conf when neither is given), then the --set "
                + "section.key=value overrides. The file has [section] headers, key = value lines and # "
                + "comments. A bad value stops the start with exit status 78 and one sentence naming the file, "
                + "line, key and the allowed values.") + "\n"
        out += ".PP\n" + Roff.escape(
            "A SIGHUP (systemctl reload puckd) reads the file again: a bad file is rejected and the running "
                + "configuration stays; keys marked reload: live apply at once, the others at the next start. "
                + "Keys marked console: full shape the device: a console sets them only with [console] access = full. "
                + "The file must be owned by root or puckd's user and writable by no one else.") + "\n"
        out += ".SH KEYS\n"
        for section in ConfigurationKeys.sections {
            out += ".SS \"[" + section + "]\"\n"
            for key in ConfigurationKeys.keys(in: section) {
                let shown = key.defaultValue.isEmpty ? "\"\"" : key.defaultValue
                out += ".TP\n\\fB" + Roff.escape(key.name) + "\\fR = \\fI" + Roff.escape(shown) + "\\fR\n"
                out += Roff.escape(key.doc) + "\n.br\n"
                out += Roff.escape("Allowed: " + key.allowed + "; reload: " + (key.live ? "live" : "restart")
                    + "; console: " + (key.shapesDevice ? "full" : "operate") + ".") + "\n"
            }
        }
        out += ".SH EXAMPLE\n" + Roff.verbatim([
            "[gps]", "source = /dev/serial0", "baud = 9600", "", "[imu]", "bus = /dev/i2c-1", "chip = lsm6dsl",
            "", "[gpio]", "chip = pinctrl-bcm2711", "button = 17",
        ])
        out += ".SH FILES\n.TP\n.I /etc/puckd.conf\n" + Roff.escape("the configuration puckd.service runs with") + "\n"
        out += ".TP\n.I /usr/share/puckd/boards/\n" + Roff.escape("the board profiles, in the same format") + "\n"
        out += ".SH \"SEE ALSO\"\n.BR puckd (8)\n"
        return out
    }
}
