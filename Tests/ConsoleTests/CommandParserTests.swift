import Testing
import Tracking
@testable import Console

/// Every command's parse: the good forms, and each bad-argument class with its exact message.
struct CommandParserTests {
    func command(_ line: String) -> ConsoleCommand? {
        if case .command(let c) = CommandParser.parse(line) { return c }
        return nil
    }

    func message(_ line: String) -> String? {
        guard case .error(let e) = CommandParser.parse(line) else { return nil }
        return rendered { e.appendMessage(to: &$0) }
    }

    @Test func blankLinesAndCommentsAreEmpty() {
        #expect(CommandParser.parse("") == .empty)
        #expect(CommandParser.parse("   \t ") == .empty)
        #expect(CommandParser.parse("# a comment in a script") == .empty)
    }

    @Test func viewsAndSimpleCommands() {
        #expect(command("status") == .view(.status))
        #expect(command("  GPS  ") == .view(.gps))
        #expect(command("sats") == .view(.sats))
        #expect(command("heading") == .view(.heading))
        #expect(command("puck") == .view(.puck))
        #expect(command("camera") == .view(.camera))
        #expect(command("leds") == .view(.leds))
        #expect(command("stats") == .view(.stats))
        #expect(command("version") == .version)
        #expect(command("quit") == .quit(.command))
        #expect(command("exit") == .quit(.command))
        #expect(command("help") == .help(nil))
        #expect(command("?") == .help(nil))
        #expect(command("help zoom") == .help(.zoom))
        #expect(command("help exit") == .help(.quit))
        #expect(message("status now") == "status: unexpected argument 'now'; usage: status")
        #expect(message("version 2") == "version: unexpected argument '2'; usage: version")
        #expect(message("help zom") == "help: unknown command 'zom'; did you mean 'zoom'? Type 'help' for the list.")
        #expect(message("help a b") == "help: unexpected argument 'b'; usage: help [CMD]")
    }

    @Test func unknownCommandsSuggestTheNearest() {
        #expect(message("stauts") == "unknown command 'stauts'; did you mean 'status'? Type 'help' for the list.")
        #expect(message("satz") == "unknown command 'satz'; did you mean 'sats'? Type 'help' for the list.")
        #expect(message("calibrat mag") == "unknown command 'calibrat'; did you mean 'calibrate'? Type 'help' for the list.")
        #expect(message("vewport") == "unknown command 'vewport'; did you mean 'viewport'? Type 'help' for the list.")
        #expect(message("exti") == "unknown command 'exti'; did you mean 'quit'? Type 'help' for the list.")
        #expect(message("xyzzy") == "unknown command 'xyzzy'; type 'help' for the list of commands.")
    }

    @Test func events() {
        #expect(command("events") == .view(.events(count: 10)))
        #expect(command("events 1") == .view(.events(count: 1)))
        #expect(command("events 64") == .view(.events(count: 64)))
        #expect(message("events 0") == "events: 0 is out of range, allowed 1…64 events")
        #expect(message("events 65") == "events: 65 is out of range, allowed 1…64 events")
        #expect(message("events 2.5") == "events: '2.5' is not a number (a whole number of events); usage: events [N]")
        #expect(message("events many") == "events: 'many' is not a number (a whole number of events); usage: events [N]")
        #expect(message("events 1 2") == "events: unexpected argument '2'; usage: events [N]")
    }

    @Test func mode() {
        #expect(command("mode") == .mode(.show))
        let names = ["none", "follow", "followWithCourse", "followWithHeading", "off", "recenter", "navigation",
                     "compassNavigation"]
        for (i, name) in names.enumerated() {
            #expect(command("mode \(name)") == .mode(.set(TrackingMode(rawValue: UInt8(i))!, animated: true)))
            #expect(command("mode \(name.uppercased()) immediate") == .mode(.set(TrackingMode(rawValue: UInt8(i))!, animated: false)))
        }
        #expect(command("mode next") == .mode(.next(animated: true)))
        #expect(command("mode next immediate") == .mode(.next(animated: false)))
        #expect(message("mode folow") == "mode: 'folow' is not one of none, follow, followWithCourse, followWithHeading, "
            + "off, recenter, navigation, compassNavigation, next; did you mean 'follow'?")
        #expect(message("mode banana") == "mode: 'banana' is not one of none, follow, followWithCourse, followWithHeading, "
            + "off, recenter, navigation, compassNavigation, next")
        #expect(message("mode follow now") == "mode: 'now' is not one of immediate")
        #expect(message("mode follow imediate") == "mode: 'imediate' is not one of immediate; did you mean 'immediate'?")
        #expect(message("mode follow immediate x") == "mode: unexpected argument 'x'; usage: mode [NAME|next] [immediate]")
    }

    @Test func viewport() {
        #expect(command("viewport") == .viewport(.show))
        #expect(command("viewport follow") == .viewport(.follow(zoom: nil, pitchDegrees: nil, bearing: nil, immediate: false)))
        #expect(command("viewport follow zoom=15.5 pitch=30 bearing=course immediate")
            == .viewport(.follow(zoom: 15.5, pitchDegrees: 30, bearing: .course, immediate: true)))
        #expect(command("viewport follow bearing=heading") == .viewport(.follow(zoom: nil, pitchDegrees: nil, bearing: .heading, immediate: false)))
        #expect(command("viewport follow bearing=90") == .viewport(.follow(zoom: nil, pitchDegrees: nil, bearing: .degrees(90), immediate: false)))
        #expect(command("viewport follow bearing=360") == .viewport(.follow(zoom: nil, pitchDegrees: nil, bearing: .degrees(0), immediate: false)))
        #expect(command("viewport overview") == .viewport(.overview(immediate: false)))
        #expect(command("viewport overview immediate") == .viewport(.overview(immediate: true)))
        #expect(command("viewport idle") == .viewport(.idle))
        #expect(message("viewport follow zoom=30") == "viewport: zoom 30 is out of range, allowed 0…25.5")
        #expect(message("viewport follow pitch=90") == "viewport: pitch 90 is out of range, allowed 0…85 degrees")
        #expect(message("viewport follow bearing=-5") == "viewport: bearing -5 is out of range, allowed 0…360 degrees")
        #expect(message("viewport follow bearing=north") == "viewport: 'north' is not one of heading, course or degrees 0…360")
        #expect(message("viewport follow bearing=cours") == "viewport: 'cours' is not one of heading, course or degrees 0…360; did you mean 'course'?")
        #expect(message("viewport follow zoom=") == "viewport: missing zoom level after zoom=; usage: " + String(describing: HelpText.usage(.viewport)))
        #expect(message("viewport follow zoom=x") == "viewport: 'x' is not a number (zoom level); usage: " + String(describing: HelpText.usage(.viewport)))
        #expect(message("viewport follow zom=3") == "viewport: 'zom=3' is not one of zoom=Z, pitch=P, bearing=heading|course|DEG, immediate; did you mean 'zoom='?")
        #expect(message("viewport follow fast") == "viewport: 'fast' is not one of zoom=Z, pitch=P, bearing=heading|course|DEG, immediate")
        #expect(message("viewport overveiw") == "viewport: 'overveiw' is not one of follow, overview, idle; did you mean 'overview'?")
        #expect(message("viewport overview now") == "viewport: 'now' is not one of immediate")
        #expect(message("viewport idle now") == "viewport: unexpected argument 'now'; usage: " + String(describing: HelpText.usage(.viewport)))
    }

    @Test func viewportRequestsMapToTheTrackingCore() {
        let follow = ConsoleViewportRequest.follow(zoom: 15, pitchDegrees: nil, bearing: .degrees(90), immediate: true)
        #expect(follow.target == .followPuck(FollowPuckOptions(zoom: 15, pitchDegrees: 45, bearing: .constant(90))))
        #expect(follow.transition == .immediate)
        #expect(ConsoleViewportRequest.overview(immediate: false).target == .overview(OverviewOptions()))
        #expect(ConsoleViewportRequest.overview(immediate: false).transition == .default)
        #expect(ConsoleViewportRequest.idle.target == nil)
    }

    @Test func onOffAndKeywordCommands() {
        #expect(command("show") == .showUserLocation(nil))
        #expect(command("show on") == .showUserLocation(true))
        #expect(command("show OFF") == .showUserLocation(false))
        #expect(command("json on") == .json(true))
        #expect(command("json off") == .json(false))
        #expect(command("json") == .json(nil))
        #expect(command("accuracy") == .accuracy(nil))
        #expect(command("accuracy full") == .accuracy(.full))
        #expect(command("accuracy reduced") == .accuracy(.reduced))
        #expect(command("calibrate mag") == .calibrate(.magnetometer))
        #expect(command("calibrate gyro") == .calibrate(.gyroscope))
        #expect(command("calibrate stop") == .calibrate(.stop))
        #expect(message("show yes") == "show: 'yes' is not one of on, off")
        #expect(message("show on off") == "show: unexpected argument 'off'; usage: show [on|off]")
        #expect(message("json of") == "json: 'of' is not one of on, off; did you mean 'off'?")
        #expect(message("accuracy reduce") == "accuracy: 'reduce' is not one of full, reduced; did you mean 'reduced'?")
        #expect(message("calibrate") == "calibrate: missing mag, gyro or stop; usage: calibrate mag|gyro|stop")
        #expect(message("calibrate compass") == "calibrate: 'compass' is not one of mag, gyro, stop")
        #expect(message("calibrate gyro now") == "calibrate: unexpected argument 'now'; usage: calibrate mag|gyro|stop")
    }

    @Test func precise() {
        #expect(command("precise MLNAccuracyAuthorizationDescription")
            == .precise(purposeKey: ConsoleText("MLNAccuracyAuthorizationDescription")))
        #expect(message("precise") == "precise: missing purpose key; usage: precise PURPOSEKEY")
        #expect(message("precise a/b") == "precise: 'a/b' is not a valid purpose key: use 1…64 letters, digits, '.', '_' or '-'")
        #expect(message("precise " + String(repeating: "k", count: 65)) == "precise: '" + String(repeating: "k", count: 65)
            + "' is not a valid purpose key: use 1…64 letters, digits, '.', '_' or '-'")
        #expect(message("precise a b") == "precise: unexpected argument 'b'; usage: precise PURPOSEKEY")
    }

    @Test func gestures() {
        #expect(command("pan 10 -20.5") == .pan(dxPoints: 10, dyPoints: -20.5))
        #expect(command("pan -10000 10000") == .pan(dxPoints: -10_000, dyPoints: 10_000))
        #expect(command("rotate -45") == .rotate(degrees: -45))
        #expect(command("zoom 25.5") == .zoom(level: 25.5))
        #expect(command("zoom 0") == .zoom(level: 0))
        #expect(command("zoom 1e1") == .zoom(level: 10))
        #expect(command("zoom .5") == .zoom(level: 0.5))
        #expect(command("pitch 85") == .pitch(degrees: 85))
        #expect(message("zoom 30") == "zoom: 30 is out of range, allowed 0…25.5")
        #expect(message("zoom -1") == "zoom: -1 is out of range, allowed 0…25.5")
        #expect(message("zoom 25.51") == "zoom: 25.51 is out of range, allowed 0…25.5")
        #expect(message("zoom") == "zoom: missing zoom level; usage: zoom Z")
        #expect(message("zoom in") == "zoom: 'in' is not a number (zoom level); usage: zoom Z")
        #expect(message("zoom nan") == "zoom: 'nan' is not a number (zoom level); usage: zoom Z")
        #expect(message("zoom 1e400") == "zoom: 1e400 is out of range, allowed 0…25.5")
        #expect(message("zoom 3 4") == "zoom: unexpected argument '4'; usage: zoom Z")
        #expect(message("pitch 90") == "pitch: 90 is out of range, allowed 0…85 degrees")
        #expect(message("pitch") == "pitch: missing pitch in degrees; usage: pitch P")
        #expect(message("rotate 400") == "rotate: 400 is out of range, allowed -360…360 degrees")
        #expect(message("rotate left") == "rotate: 'left' is not a number (rotation in degrees); usage: rotate DEG")
        #expect(message("pan") == "pan: missing DX and DY (points); usage: pan DX DY")
        #expect(message("pan 5") == "pan: missing DY (points); usage: pan DX DY")
        #expect(message("pan 5 x") == "pan: 'x' is not a number (DY in points); usage: pan DX DY")
        #expect(message("pan 20000 0") == "pan: 20000 is out of range, allowed -10000…10000 points")
        #expect(message("pan 1 2 3") == "pan: unexpected argument '3'; usage: pan DX DY")
    }

    @Test func config() {
        #expect(command("config") == .config(.list))
        #expect(command("config save") == .config(.save))
        #expect(command("config gps.device") == .config(.show(key: ConsoleText("gps.device"))))
        #expect(command("config gps.device /dev/ttyUSB0:115200") == .config(.set(key: ConsoleText("gps.device"),
                                                                                 value: ConsoleText("/dev/ttyUSB0:115200"))))
        #expect(command("config board.name  my board  ") == .config(.set(key: ConsoleText("board.name"), value: ConsoleText("my board"))))
        #expect(message("config save now") == "config: unexpected argument 'now'; usage: config [KEY [VALUE]] | config save")
        #expect(message("config gps/device") == "config: 'gps/device' is not a valid config key: use 1…48 letters, digits, '.', '_' or '-' (config lists the keys)")
        #expect(message("config k " + String(repeating: "v", count: 121)) == "config: the value has 121 bytes, at most 120 are allowed")
    }

    @Test func watch() {
        #expect(command("watch status") == .watch(.status, hertz: 1))
        #expect(command("watch status 60") == .watch(.status, hertz: 60))
        #expect(command("watch sats 0.1") == .watch(.sats, hertz: 0.1))
        #expect(command("watch events 2") == .watch(.events(count: 10), hertz: 2))
        for name in ["gps", "heading", "puck", "camera", "leds", "stats"] { #expect(command("watch \(name)") != nil) }
        #expect(message("watch") == "watch: missing the view to watch (status, gps, …); usage: watch CMD [HZ]")
        #expect(message("watch mode") == "watch: 'mode' cannot be watched; watch one of status, gps, sats, heading, puck, camera, leds, stats, events, nmea, track, uplink, server")
        #expect(message("watch stauts") == "watch: unknown command 'stauts'; did you mean 'status'? Type 'help' for the list.")
        #expect(message("watch status 61") == "watch: 61 is out of range, allowed 0.1…60 Hz")
        #expect(message("watch status 0") == "watch: 0 is out of range, allowed 0.1…60 Hz")
        #expect(message("watch status fast") == "watch: 'fast' is not a number (rate in hertz); usage: watch CMD [HZ]")
        #expect(message("watch status 1 2") == "watch: unexpected argument '2'; usage: watch CMD [HZ]")
    }

    @Test func press() {
        #expect(command("press") == .press(button: 1, long: false))
        #expect(command("press long") == .press(button: 1, long: true))
        #expect(command("press 2") == .press(button: 2, long: false))
        #expect(command("press 2 long") == .press(button: 2, long: true))
        #expect(command("press long 2") == .press(button: 2, long: true))
        #expect(message("press 3") == "press: '3' is not one of long, 1, 2; did you mean '1'?")
        #expect(message("press hard") == "press: 'hard' is not one of long, 1, 2")
        #expect(message("press long 2 1") == "press: unexpected argument '1'; usage: press [long] [1|2]")
    }

    @Test func numbersParseLikeTheyRead() {
        func n(_ s: String) -> Double? { var t = s; return t.withUTF8 { CommandNumber.parse(UnsafeRawBufferPointer($0)) } }
        #expect(n("0") == 0)
        #expect(n("-0.5") == -0.5)
        #expect(n("+3.") == 3)
        #expect(n("16.35") == 16.35)
        #expect(n("0.1") == 0.1)
        #expect(n("2.5e-1") == 0.25)
        #expect(n("123456789012345678901") == 123456789012345678901.0)
        #expect(n("") == nil)
        #expect(n("-") == nil)
        #expect(n(".") == nil)
        #expect(n("1e") == nil)
        #expect(n("1x") == nil)
        #expect(n("inf") == nil)
        #expect(n("0x10") == nil)
    }

    @Test func tooManyWordsAreRejected() {
        let line = "press " + Array(repeating: "long", count: 20).joined(separator: " ")
        #expect(message(line) == "press: unexpected argument 'long'; usage: press [long] [1|2]")
        #expect(message("viewport follow " + Array(repeating: "immediate", count: 20).joined(separator: " "))
            == "viewport: unexpected argument 'immediate'; usage: " + String(describing: HelpText.usage(.viewport)))
    }
}
