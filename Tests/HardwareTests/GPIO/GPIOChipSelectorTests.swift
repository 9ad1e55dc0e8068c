import Glibc
import SystemCalls
import Testing
@testable import Hardware

/// Chip selection over chip lists as the boards in docs/hardware.md §1.5.1 report them.
@Suite struct GPIOChipSelectorTests {
    static let pi4 = [
        GPIOChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711", lineCount: 58),
        GPIOChipInfo(path: "/dev/gpiochip1", name: "gpiochip1", label: "raspberrypi-exp-gpio", lineCount: 8),
    ]
    /// Pi 5 with a kernel before 6.6.45: the header chip is gpiochip4.
    static let pi5Old = [
        GPIOChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "gpio-brcmstb@107d508500", lineCount: 32),
        GPIOChipInfo(path: "/dev/gpiochip1", name: "gpiochip1", label: "gpio-brcmstb@107d508520", lineCount: 4),
        GPIOChipInfo(path: "/dev/gpiochip2", name: "gpiochip2", label: "gpio-brcmstb@107d517c00", lineCount: 17),
        GPIOChipInfo(path: "/dev/gpiochip3", name: "gpiochip3", label: "gpio-brcmstb@107d517c20", lineCount: 6),
        GPIOChipInfo(path: "/dev/gpiochip4", name: "gpiochip4", label: "pinctrl-rp1", lineCount: 54),
    ]
    /// Pi 5 with a kernel from 6.6.45 on: header chip gpiochip0, SoC chips 10–13.
    static let pi5New = [
        GPIOChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-rp1", lineCount: 54),
        GPIOChipInfo(path: "/dev/gpiochip10", name: "gpiochip10", label: "gpio-brcmstb@107d508500", lineCount: 32),
    ]
    static let pi3 = [
        GPIOChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2835", lineCount: 54),
    ]

    @Test func automaticFindsTheHeaderChipOnEveryPi() throws {
        #expect(try GPIOChipSelector.automatic.select(from: Self.pi4).get().path == "/dev/gpiochip0")
        #expect(try GPIOChipSelector.automatic.select(from: Self.pi5Old).get().path == "/dev/gpiochip4")
        #expect(try GPIOChipSelector.automatic.select(from: Self.pi5New).get().path == "/dev/gpiochip0")
        #expect(try GPIOChipSelector.automatic.select(from: Self.pi3).get().label == "pinctrl-bcm2835")
    }

    @Test func labelSelectsAcrossKernelRenumbering() throws {
        let selector = GPIOChipSelector(parsing: "pinctrl-rp1")
        #expect(selector == .label("pinctrl-rp1"))
        #expect(try selector.select(from: Self.pi5Old).get().name == "gpiochip4")
        #expect(try selector.select(from: Self.pi5New).get().name == "gpiochip0")
    }

    @Test func missingLabelListsTheChipsFound() {
        let result = GPIOChipSelector.label("pinctrl-rp1").select(from: Self.pi4)
        guard case .failure(let error) = result else {
            Issue.record("selected a chip that does not have the label")
            return
        }
        #expect(error == .chipNotFound(wanted: "label \"pinctrl-rp1\"", found: Self.pi4))
        let text = error.description
        #expect(text.contains("/dev/gpiochip0 (gpiochip0, label pinctrl-bcm2711, 58 lines)"))
        #expect(text.contains("raspberrypi-exp-gpio"))
        #expect(text.contains("puckd gpio chips"))
    }

    @Test func noChipsAtAll() {
        #expect(GPIOChipSelector.automatic.select(from: []) == .failure(.noChips(directory: "/dev")))
    }

    @Test func unreadableChipMeansPermissionDenied() {
        let locked = [GPIOChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "", lineCount: 0, openError: .permissionDenied)]
        #expect(GPIOChipSelector.automatic.select(from: locked) == .failure(.permissionDenied(path: "/dev/gpiochip0")))
        #expect(GPIOChipSelector.name("gpiochip0").select(from: locked) == .failure(.permissionDenied(path: "/dev/gpiochip0")))
        #expect(GPIOError.permissionDenied(path: "/dev/gpiochip0").description.contains("group gpio"))
        #expect(GPIOError.permissionDenied(path: "/dev/gpiochip0").description.contains("udev/"))
    }

    @Test func parsing() {
        #expect(GPIOChipSelector(parsing: "auto") == .automatic)
        #expect(GPIOChipSelector(parsing: "") == .automatic)
        #expect(GPIOChipSelector(parsing: "gpiochip4") == .name("gpiochip4"))
        #expect(GPIOChipSelector(parsing: "gpiochipX") == .label("gpiochipX"))
        #expect(GPIOChipSelector(parsing: "/dev/gpiochip4") == .path("/dev/gpiochip4"))
        #expect(GPIOChipSelector(parsing: "label:gpiochip0") == .label("gpiochip0"))
        #expect(GPIOChipSelector(parsing: "name:gpiochip1") == .name("gpiochip1"))
        #expect(GPIOChipSelector(parsing: "hil-gpio") == .label("hil-gpio"))
        #expect(GPIOChipSelector.name("gpiochip4").directPath() == "/dev/gpiochip4")
        #expect(GPIOChipSelector.label("x").directPath() == nil)
    }

    @Test func biasNames() {
        for bias in GPIOBias.allCases { #expect(GPIOBias(name: "\(bias.name)") == bias) }
        #expect(GPIOBias(name: "sideways") == nil)
    }
}
