import Glibc
import Hardware
import Testing
import TestSupport
@testable import Commands
@testable import Puckd

/// `puckd gpio …` as a user runs it: the built binary, its exit status and its messages. This machine
/// has no GPIO chip and no PPS device, so these are the diagnostics a user sees when something is
/// missing; on a board the same command lists the chips and watches lines.
@Suite struct GPIOCommandTests {
    static var binary: String {
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
        return root + "/.build/\(configuration)/puckd"
    }

    static var hasNoChips: Bool { LibgpiodGPIOController.scanChips().isEmpty }

    func puckd(_ arguments: String...) throws -> ProcessResult {
        try #require(access(Self.binary, X_OK) == 0, "build puckd first: \(Self.binary)")
        return try #require(runProcess([Self.binary] + arguments))
    }

    @Test(.enabled(if: GPIOCommandTests.hasNoChips, "this machine has GPIO chips"))
    func chipsWithoutAnyChip() throws {
        let r = try puckd("gpio", "chips")
        #expect(r.status == ExitStatus.unavailable)
        #expect(r.errorOutput.contains("no GPIO chip found (no /dev/gpiochip* device)"))
        let watch = try puckd("gpio", "watch", "--chip", "pinctrl-bcm2711", "17")
        #expect(watch.status == ExitStatus.unavailable && watch.errorOutput.contains("no GPIO chip found"))
    }

    @Test func wrongDevices() throws {
        let chip = try puckd("gpio", "watch", "--chip", "/dev/null", "17")
        #expect(chip.status == ExitStatus.config)
        #expect(chip.errorOutput.contains("/dev/null is not a GPIO chip device"))
        let pps = try puckd("gpio", "pps", "/dev/null")
        #expect(pps.status == ExitStatus.config && pps.errorOutput.contains("not a PPS device"))
        let missing = try puckd("gpio", "set", "--chip", "gpiochip4", "22=1")
        #expect(missing.status == ExitStatus.unavailable && missing.errorOutput.contains("/dev/gpiochip4 does not exist"))
    }

    @Test func usageErrors() throws {
        for arguments in [["gpio"], ["gpio", "blink"], ["gpio", "set", "17=2"], ["gpio", "watch"],
                          ["gpio", "watch", "--bias", "sideways", "17"], ["gpio", "watch", "--long", "10", "17"],
                          ["gpio", "watch", "--frobnicate", "17"], ["gpio", "chips", "extra"]] {
            let r = try #require(runProcess([Self.binary] + arguments))
            #expect(r.status == ExitStatus.usage, "\(arguments)")
            #expect(r.errorOutput.contains("usage:") && r.errorOutput.contains("puckd gpio watch"), "\(arguments)")
        }
        let help = try puckd("--help")
        #expect(help.output.contains("puckd gpio chips"))
    }

    @Test func chipListingNamesTheAutomaticChoice() {
        let pi5 = [GPIOChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "gpio-brcmstb@107d508500", lineCount: 32),
                   GPIOChipInfo(path: "/dev/gpiochip4", name: "gpiochip4", label: "pinctrl-rp1", lineCount: 54)]
        let text = GPIOCommand.chipListing(pi5)
        #expect(text.contains("  /dev/gpiochip4 (gpiochip4, label pinctrl-rp1, 54 lines)\n"))
        #expect(text.contains("--chip auto picks /dev/gpiochip4 (label pinctrl-rp1)"))
        #expect(GPIOCommand.chipListing([pi5[0]]).contains("finds no Raspberry Pi header chip"))
    }

    @Test func exitStatusesAndTimeFormat() {
        #expect(GPIOCommand.exitStatus(for: .permissionDenied(path: "/dev/gpiochip0")) == ExitStatus.permission)
        #expect(GPIOCommand.exitStatus(for: .lineBusy(offset: 4, consumer: nil, chip: "c")) == ExitStatus.unavailable)
        #expect(GPIOCommand.seconds9(12_345_678_901) == "12.345678901")
        #expect(GPIOCommand.seconds9(5) == "0.000000005")
        #expect(GPIOCommand.seconds9(-1_500_000_000) == "-1.500000000")
    }
}
