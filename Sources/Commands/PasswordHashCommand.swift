import SystemCalls
import Puckd

/// `puckd password-hash`: reads a password (without echo on a terminal) and prints its crypt(3)
/// yescrypt hash, the line `[console] password_file` holds.
enum PasswordHashCommand {
    static let usage: StaticString = """
          puckd password-hash
              Read a password from standard input (not echoed on a terminal) and print its crypt(3) hash
              for [console] password_file, e.g.
                puckd password-hash > console.passwd
                sudo install -D -m 0640 -o root -g puckd console.passwd /etc/puckd/console.passwd
              The file must be readable only by root and puckd's user (puckd refuses it otherwise).
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        guard arguments.isEmpty else {
            StandardStreams.err("puckd password-hash takes no arguments; it reads the password from standard input\n")
            return ExitStatus.usage
        }
        let input = FileDescriptor.standardInput
        let saved = input.isTerminal ? try? input.terminalSettings() : nil
        if let saved {
            StandardStreams.err("password: ")
            var quiet = saved
            quiet.echoes = false
            try? input.setTerminalSettings(quiet, when: .afterOutputDiscardingInput)
        }
        var phrase: [UInt8] = []
        var byte: UInt8 = 0
        while (try? withUnsafeMutableBytes(of: &byte) { one throws(Errno) in try input.read(into: one) }) == 1 && byte != 0x0A {
            phrase.append(byte)
        }
        if let saved {
            try? input.setTerminalSettings(saved, when: .afterOutputDiscardingInput)
            StandardStreams.err("\n")
        }
        if phrase.last == 0x0D { phrase.removeLast() }
        defer { for i in phrase.indices { phrase[i] = 0 } }
        guard !phrase.isEmpty else {
            StandardStreams.err("puckd password-hash: the password is empty; type one (printable ASCII)\n")
            return ExitStatus.dataError
        }
        guard phrase.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            StandardStreams.err("puckd password-hash: the console accepts printable ASCII only; choose such a password\n")
            return ExitStatus.dataError
        }
        guard let hash = ConsolePassword.make(String(decoding: phrase, as: UTF8.self)) else {
            StandardStreams.err("puckd password-hash: libcrypt could not make a yescrypt hash\n")
            return ExitStatus.unavailable
        }
        StandardStreams.out(hash + "\n")
        return ExitStatus.ok
    }
}
