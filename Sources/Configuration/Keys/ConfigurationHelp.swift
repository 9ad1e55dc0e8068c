/// `puckd --help-config`: every key with its default, the values it accepts, whether a reload applies
/// it, and its doc line, section by section; generated from `ConfigurationKeys`.
public enum ConfigurationHelp {
    /// The whole text.
    public static var text: String {
        var out = """
            puckd configuration (/etc/puckd.conf, --config FILE, board profiles in board/*.conf)
            Format: [section] headers, key = value lines, # comments. Override any key with
            --set section.key=value. A SIGHUP reloads the file: keys marked "reload: live" take effect at
            once, the others at the next start. Keys marked "console: full" shape the device: the console
            sets them only with [console] access = full.

            """
        for section in ConfigurationKeys.sections {
            out += "\n[" + section + "]\n"
            for key in ConfigurationKeys.keys(in: section) {
                let shown = key.defaultValue.isEmpty ? "\"\"" : key.defaultValue
                out += "  " + key.name + " = " + shown + "\n"
                out += "      " + key.doc + "\n"
                out += "      allowed: " + key.allowed + "; reload: " + (key.live ? "live" : "restart")
                    + "; console: " + (key.shapesDevice ? "full" : "operate") + "\n"
            }
        }
        return out
    }

    /// The same table in Markdown (`puckd --help-config markdown`): docs/configuration.md's key table is
    /// this text, and a test keeps the two equal.
    public static var markdown: String {
        var out = "| Key | Default | Allowed values | Reload | Console | What it does |\n|---|---|---|---|---|---|\n"
        for section in ConfigurationKeys.sections {
            for key in ConfigurationKeys.keys(in: section) {
                let shown = key.defaultValue.isEmpty ? "\"\"" : key.defaultValue
                out += "| `" + key.qualifiedName + "` | `" + shown + "` | " + cell(key.allowed) + " | "
                    + (key.live ? "live" : "restart") + " | " + (key.shapesDevice ? "full" : "operate") + " | "
                    + cell(key.doc) + " |\n"
            }
        }
        return out
    }

    /// Text safe inside a Markdown table cell.
    static func cell(_ text: String) -> String {
        var out = ""
        for character in text { out += character == "|" ? "\\|" : String(character) }
        return out
    }
}
