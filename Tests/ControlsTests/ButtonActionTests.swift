import Testing
@testable import Controls

/// Stand-in for the Tracking module's mode enum (the cycle is generic over it).
enum TestMode: Equatable, Sendable {
    case none, follow, followWithCourse, followWithHeading, overview
}

@Suite struct ButtonActionTests {
    @Test func defaultMap() {
        let map = ButtonActionMap()
        func press(_ b: ButtonID, _ k: ButtonPressKind) -> ButtonPress {
            ButtonPress(button: b, kind: k, timeNanoseconds: 0, pressedAtNanoseconds: 0)
        }
        #expect(map.action(for: press(.primary, .short)) == .nextTrackingMode)
        #expect(map.action(for: press(.primary, .long)) == .toggleOverview)
        #expect(map.action(for: press(.secondary, .short)) == .toggleLocationVisible)
        #expect(map.action(for: press(.secondary, .long)) == .startMagnetometerCalibration)
        let custom = ButtonActionMap(primaryLong: .requestFullAccuracy)
        #expect(custom.action(for: press(.primary, .long)) == .requestFullAccuracy)
    }

    @Test func actionNamesRoundTrip() throws {
        for action in ButtonAction.allCases { #expect(try ButtonAction(name: "\(action.name)") == action) }
        do {
            _ = try ButtonAction(name: "reboot")
            Issue.record("accepted an unknown action")
        } catch {
            #expect(error == .unknownAction("reboot"))
            #expect(error.description.contains("next-mode") && error.description.contains("toggle-overview"))
        }
    }

    @Test func defaultCycleOfTheDevice() throws {
        let cycle = try ButtonModeCycle<TestMode>([.none, .follow, .followWithCourse, .followWithHeading])
        var mode = TestMode.none
        var seen: [TestMode] = []
        for _ in 0..<5 {
            mode = cycle.next(after: mode)
            seen.append(mode)
        }
        #expect(seen == [.follow, .followWithCourse, .followWithHeading, .none, .follow])
        #expect(cycle.position(of: .followWithHeading) == 3)
        #expect(cycle.position(of: .overview) == nil)
        #expect(cycle.next(after: .overview) == .none)           // a mode outside the cycle restarts it
        #expect(cycle[1] == .follow && cycle.count == 4)
    }

    @Test func customCycleWithOverview() throws {
        let cycle = try ButtonModeCycle<TestMode>([.follow, .overview])
        #expect(cycle.next(after: .follow) == .overview)
        #expect(cycle.next(after: .overview) == .follow)
        #expect(cycle.next(after: .none) == .follow)
    }

    @Test func invalidCycles() {
        #expect(throws: ButtonConfigurationError.emptyModeCycle) { _ = try ButtonModeCycle<TestMode>([]) }
        #expect(throws: ButtonConfigurationError.duplicateMode(position: 2)) {
            _ = try ButtonModeCycle<TestMode>([.none, .follow, .none])
        }
        #expect(throws: ButtonConfigurationError.tooManyModes(count: 9, capacity: 8)) {
            _ = try ButtonModeCycle<Int>(Array(0..<9))
        }
        #expect(ButtonConfigurationError.duplicateMode(position: 2).description.contains("mode 3"))
    }
}

@Suite struct ButtonTimingTests {
    @Test func validatedTimes() throws {
        #expect(try ButtonTiming.validated(debounceNanoseconds: ms(20), longPressNanoseconds: ms(800)) ==
                ButtonTiming(debounceNanoseconds: ms(20), longPressNanoseconds: ms(800)))
        #expect(try ButtonTiming.validated(debounceNanoseconds: 0, longPressNanoseconds: nil).longPressNanoseconds == nil)
        #expect(throws: ButtonConfigurationError.invalidTiming(debounceNanoseconds: ms(50), longPressNanoseconds: ms(40))) {
            _ = try ButtonTiming.validated(debounceNanoseconds: ms(50), longPressNanoseconds: ms(40))
        }
        #expect(throws: ButtonConfigurationError.self) {
            _ = try ButtonTiming.validated(debounceNanoseconds: -1, longPressNanoseconds: nil)
        }
        let text = ButtonConfigurationError.invalidTiming(debounceNanoseconds: ms(50), longPressNanoseconds: ms(40)).description
        #expect(text.contains("50 ms") && text.contains("40 ms") && text.contains("30 is typical"))
    }
}
