import Glibc
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
        let terminal = isatty(0) == 1
        var saved = termios()
        if terminal {
            StandardStreams.err("password: ")
            tcgetattr(0, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSAFLUSH, &quiet)
        }
        var phrase: [UInt8] = []
        var byte: UInt8 = 0
        while read(0, &byte, 1) == 1 && byte != 0x0A { phrase.append(byte) }
        if terminal {
            tcsetattr(0, TCSAFLUSH, &saved)
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
