import IMU
import Configuration
import Hardware
import Heading
import Puckd
import Simulation
import SystemCalls

/// `puckd run`: the device. Loads the configuration (board profile ← config file ← `--set`), opens
/// what the board has (degrading around what is missing), and runs the loop until SIGTERM/SIGINT.
public enum RunCommand {
    public static let usage: StaticString = """
          puckd run [--board sim|NAME|FILE] [--config FILE] [--gps SOURCE] [--console stdio|none|DEVICE[:BAUD]]
                    [--set SECTION.KEY=VALUE]... [--status-interval S] [--check]
              Run the device: GPS → fixes, IMU → heading, both → puck and camera; buttons cycle the
              tracking mode, LEDs show fix, mode and faults; the console shows and changes everything
              (type help). Prints what it opened; SIGHUP reloads the configuration, SIGINT/SIGTERM stop
              it cleanly (LEDs off, state saved).
              --board   a built-in profile (sim, pi4-berrygps-imu-v4, pi5-berrygps-imu-v4,
                        zero2w-berrygps-imu-v4, adafruit-ultimate-gps-hat, sense-hat-usb-gps,
                        waveshare-l76x-hat, hil) or a profile file; sim runs without hardware
              --config  a configuration file on top of the profile (default /etc/puckd.conf when
                        neither --board nor --config is given)
              --gps     the GPS source ([gps] source); on the simulated board the NMEA log to replay
              --console where the console is ([console] device): stdio (default when run by hand:
                        interactive on a terminal; otherwise commands are read line by line, replies
                        go to standard output, logs to standard error, and the end of input stops
                        puckd after the last reply), none, or a serial port such as /dev/ttyGS0[:BAUD]
              --status-interval  without a console: a status line every S seconds
              --set     override one key (puckd --help-config lists them all)
              --check   only check the configuration (every key, the GPS source's form) and exit:
                        0 when it is valid, 78 with the sentence naming file, line and key when not
        """

    /// The default configuration file.
    public static let defaultConfigurationPath = "/etc/puckd.conf"

    public static func run(_ arguments: ArraySlice<String>) -> Int32 {
        var configuration = ConfigurationArguments()
        var gps: String?
        var checkOnly = false
        var rest = arguments
        while let option = rest.popFirst() {
            if option == "-h" || option == "--help" {
                StandardStreams.out("\(usage)\n")
                return ExitStatus.ok
            }
            if option == "--check" {
                checkOnly = true
                continue
            }
            guard let value = rest.popFirst() else { return usageError("\(option) needs a value") }
            if configuration.take(option, value) { continue }
            switch option {
            case "--gps": gps = value
            case "--console": configuration.overrides.append("console.device=" + value)
            case "--status-interval":
                guard let seconds = Double(value), seconds >= 0 else {
                    return usageError("--status-interval takes seconds (0 = off), not '\(value)'")
                }
                configuration.overrides.append("console.status_interval_s=" + value)
                _ = seconds
            default: return usageError("unknown option '\(option)'")
            }
        }
        var sources = configuration.sources()
        var loaded: LoadedConfiguration
        do throws(ConfigurationError) {
            loaded = try sources.load()
            if let gps {
                sources.overrides.append((loaded.configuration.board.simulated ? "sim.gps_log=" : "gps.source=") + gps)
                loaded = try sources.load()
            }
        } catch {
            StandardStreams.err("puckd: \(error)\n")
            return ExitStatus.config
        }
        var c = loaded.configuration
        if !c.board.simulated && (c.gps.source.isEmpty || ConfigurationKey.isNone(c.gps.source)) {
            let why = sources.board == nil && sources.file == nil
                ? defaultConfigurationPath + " does not exist and neither --board, --config nor --gps was given"
                : "[gps] source is not set in " + sources.summary
            StandardStreams.err("puckd: no GPS source: " + why + "; choose the board (sudo puckd setup BOARD; "
                + "puckd setup lists them), set it (e.g. source = /dev/serial0), pass --gps SOURCE, or try the "
                + "simulated board: puckd run --board sim\n")
            return ExitStatus.config
        }

        if !c.console.passwordFile.isEmpty {
            do throws(ConsolePassword.Failure) { _ = try ConsolePassword.load(path: c.console.passwordFile) } catch {
                StandardStreams.err("puckd: [console] password_file = " + error.message + "\n")
                return ExitStatus.config
            }
        }
        if checkOnly {
            if !c.board.simulated {
                do throws(SourceAddressError) { _ = try SourceAddress(parsing: c.gps.source) } catch {
                    StandardStreams.err("puckd: [gps] source = \(c.gps.source): \(error.message)\n")
                    return ExitStatus.config
                }
            }
            StandardStreams.out("puckd: configuration valid: " + sources.summary + "\n")
            return ExitStatus.ok
        }
        let signals = try? FileDescriptor.loopSignals()
        defer {
            do throws(Errno) { try signals?.close() } catch {}
            FileDescriptor.unblockLoopSignals()
        }
        let now = Int64(truncatingIfNeeded: SystemClock.monotonicNanoseconds())
        var setup: DeviceSetup
        let address: SourceAddress
        var options = SourceOptions()
        if c.board.simulated {
            let simulation: SimulatedBoard
            do throws(SimulatedBoardError) {
                simulation = try SimulatedBoard(configuration: c, startNanoseconds: now)
            } catch {
                StandardStreams.err("puckd: simulated board: " + error.message + "\n")
                return ExitStatus.noInput
            }
            let rate: Int
            if case .fixed(let fixed) = c.gps.baud { rate = fixed } else { rate = 115200 }
            address = .serial(path: simulation.receiver.slavePath, baudRate: rate)
            setup = DeviceSetup(loaded: loaded, sources: sources,
                                gpsDescription: simulation.receiver.slavePath + " at " + String(rate)
                                    + " baud (the simulated receiver's pty, read like a UART)")
            setup.simulation = simulation
            setup.gpsIsRecording = true
            if !c.gpio.disabled { setup.gpio = simulation.gpio }
            if let twin = simulation.imu, c.imu.chip != .none { setup.imuBus = .simulated(twin.bus) }
        } else {
            do throws(SourceAddressError) { address = try SourceAddress(parsing: c.gps.source) } catch {
                StandardStreams.err("puckd: [gps] source = \(c.gps.source): \(error.message)\n")
                return ExitStatus.config
            }
            var description = address.description
            if case .serial(_, let explicit?) = address { loaded.configuration.gps.baud = .fixed(explicit) }
            if case .serial(_, let explicit) = address {
                switch c.gps.baud {
                case .fixed(let rate):
                    options.defaultBaudRate = rate
                    description += explicit == nil ? " at \(rate) baud" : " baud"
                case .auto:
                    options.defaultBaudRate = SerialBaudRate.autoBaudOrder[0]
                    description += explicit == nil ? ", baud auto (hunting from \(options.defaultBaudRate))" : " baud"
                }
            }
            c = loaded.configuration
            setup = DeviceSetup(loaded: loaded, sources: sources, gpsDescription: description)
            if case .file = address { setup.gpsIsRecording = true }
            openHardware(c, into: &setup)
        }
        setup.signalDescriptor = signals
        // Ticks on demand (docs/power.md §2.1): full rate only while the camera animates.
        setup.ticksOnDemand = true
        // Socket activation (board/puckd.socket): the listeners systemd passed replace [server] listen/socket.
        (setup.gpsdServer, setup.gpsdServerReport) = Device.openGpsdServer(c, devicePath: setup.simulation?.receiver.slavePath,
                                                                           activated: SocketActivation.takePassedSockets())
        setup.console = resolveConsole(c.console.device, gpsOnStandardInput: address == .standardInput)
        // Logs go to standard error when the console owns standard output.
        setup.outputDescriptor = if case .standardStreams = setup.console { .standardError } else { .standardOutput }
        setup.notifier = SystemdNotifier.fromEnvironment()
        let device = Device(setup: setup, nowNanoseconds: now)
        var visitor = DeviceVisitor(device: device)
        return address.withSource(options: options, visitor: &visitor)
    }

    /// Where the console is: `auto` is standard input/output, except when systemd started puckd with
    /// standard input on /dev/null (then there is nobody to type: no console). Standard input carrying
    /// NMEA (`--gps -`) is no console either.
    static func resolveConsole(_ setting: ConsoleDeviceSetting, gpsOnStandardInput: Bool) -> DeviceConsoleEndpoint {
        switch setting {
        case .none:
            return .none
        case .serial(let path, let baud):
            return .serial(path: path, baudRate: baud)
        case .stdio:
            return gpsOnStandardInput ? .none : .standardStreams(input: .standardInput, output: .standardOutput, interactive: nil, rawMode: true)
        case .auto:
            if gpsOnStandardInput { return .none }
            let startedBySystemd = ProcessIdentity.environment("NOTIFY_SOCKET") != nil || FileDescriptor.standardOutput.isJournalStream
                || FileDescriptor.standardError.isJournalStream
            if FileDescriptor.standardInput.isNullDevice && startedBySystemd { return .none }
            return .standardStreams(input: .standardInput, output: .standardOutput, interactive: nil, rawMode: true)
        }
    }

    /// Opens the GPIO chip and the IMU bus of a real board; a failure becomes the reason in the setup.
    static func openHardware(_ c: PuckdConfiguration, into setup: inout DeviceSetup) {
        if !c.gpio.disabled {
            do throws(GPIOError) {
                setup.gpio = try LibgpiodGPIOController.open(GPIOChipSelector(parsing: c.gpio.chip))
            } catch {
                setup.gpioProblem = error.description
            }
        }
        if c.imu.chip != .none {
            if c.imu.bus.hasPrefix("adapter:") {
                do throws(I2CDevBusLookupError) {
                    setup.imuBus = .kernel(try I2CDevBus(adapterName: String(c.imu.bus.dropFirst(8))))
                } catch {
                    setup.imuProblem = error.message
                }
            } else {
                do throws(I2CError) { setup.imuBus = .kernel(try I2CDevBus(path: c.imu.bus)) } catch {
                    setup.imuProblem = c.imu.bus + ": " + error.message
                }
            }
        }
    }

    static func usageError(_ message: String) -> Int32 {
        StandardStreams.err("puckd run: \(message)\nusage:\n\(usage)\n")
        return ExitStatus.usage
    }
}

/// Runs the device with whichever source the address names, specialised per source type.
struct DeviceVisitor: ByteSourceVisitor {
    let device: Device

    mutating func visit<Source: ByteSource & ~Copyable>(_ source: inout Source) -> Int32 {
        device.run(gps: &source)
    }

    mutating func visitSerial(_ source: inout SerialSource) -> Int32 {
        device.runSerial(gps: &source, describe: { $0.backendChoice?.message })
    }
}
