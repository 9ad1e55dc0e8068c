/// The `leds` view: every LED with its state now, the pattern it shows, its colour and GPIO line.
/// Allocation-free.
public enum LEDsView {
    /// Text table.
    public static func appendText(_ device: borrowing ConsoleDeviceState, to out: inout OutputBuffer) {
        let leds = device.leds
        if leds.count == 0 {
            out.append("leds: no LEDs (none configured, or GPIO unavailable: see status for faults)\n")
            return
        }
        out.append("LED        now  line  pattern\n")
        var i = 0
        while i < leds.count {
            let led = leds[i]
            RenderFormat.label(led.name, width: 11, to: &out)
            out.append(led.isOn ? "on " : "off")
            RenderFormat.rightAligned(led.line >= 0 ? Int64(led.line) : nil, width: 6, to: &out)
            out.append("  ")
            out.append(led.pattern)
            if led.meaning.utf8CodeUnitCount > 0 { out.append(": "); out.append(led.meaning) }
            if led.color.utf8CodeUnitCount > 0 { out.append(" ("); out.append(led.color); out.append(")") }
            out.append(UInt8(ascii: "\n"))
            i += 1
        }
        if leds.overflow > 0 { out.append("(+"); out.append(int: leds.overflow); out.append(" more not shown)\n") }
    }

    /// `{"reply":"leds","leds":[{"name":…,"on":…,"line":…|null,"pattern":…,"color":…|null}]}`.
    public static func appendJSON(_ device: borrowing ConsoleDeviceState, to out: inout OutputBuffer) {
        let leds = device.leds
        var o = JSONWriter.begin(&out)
        o.string("reply", "leds", &out)
        o.key("leds", &out)
        out.append(UInt8(ascii: "["))
        var i = 0
        while i < leds.count {
            let led = leds[i]
            if i > 0 { out.append(UInt8(ascii: ",")) }
            var g = JSONWriter.begin(&out)
            g.string("name", led.name, &out)
            g.bool("on", led.isOn, &out)
            g.integer("line", led.line >= 0 ? led.line : nil, &out)
            g.string("pattern", led.pattern, &out)
            g.string("meaning", led.meaning.utf8CodeUnitCount > 0 ? led.meaning : nil, &out)
            g.string("color", led.color.utf8CodeUnitCount > 0 ? led.color : nil, &out)
            g.end(&out)
            i += 1
        }
        out.append(UInt8(ascii: "]"))
        o.end(&out)
    }
}
