#ifndef PUCKD_CLINUX_CONSOLE_H
#define PUCKD_CLINUX_CONSOLE_H
// Helpers for puckd's console on standard input/output: raw mode on a terminal that is restored on
// every way out (normal exit, the clean shutdown, and fatal signals such as a crash), a non-blocking
// descriptor for output that leaves the shell's own descriptor flags alone, the terminal size, and
// the malloc counter when a test links it (weak symbol).
#include <stdint.h>

/// Puts the terminal on `fd` into the console's raw mode: no echo, no line buffering, keys such as
/// Ctrl-C/Ctrl-Z/Ctrl-S arrive as bytes (no signals, no flow control), CR not turned into LF, output
/// written as is (the console ends its lines with CR LF itself). The previous settings are kept and
/// put back by `clinux_console_tty_restore`, at exit(), and on SIGSEGV/SIGBUS/SIGILL/SIGTRAP/SIGFPE/
/// SIGABRT before the previous handler of that signal runs. Returns 0 or -errno.
int clinux_console_tty_raw(int fd);
/// Puts the terminal settings (and descriptor flags changed by `clinux_console_nonblocking_output`)
/// back as they were. Safe to call twice and from a signal handler.
void clinux_console_tty_restore(void);
/// A descriptor for writing to what `fd` refers to without blocking and without changing `fd`'s
/// open file description (shared with the shell): a new one opened through /proc/self/fd with
/// O_NONBLOCK for terminals and pipes; `fd` itself for regular files and character devices that never
/// block (/dev/null); else `fd` switched to O_NONBLOCK (flags restored by `clinux_console_tty_restore`).
/// Returns the descriptor or -errno.
int clinux_console_nonblocking_output(int fd);
/// Rows of the terminal on `fd`, or 0 when unknown.
int clinux_console_terminal_rows(int fd);
/// 1 when `fd` is a character device that is not a terminal (/dev/null), else 0.
int clinux_console_is_null_device(int fd);
/// 1 when `fd` is the systemd journal stream named by $JOURNAL_STREAM ("DEVICE:INODE"), else 0.
int clinux_console_is_journal_stream(int fd);
/// Heap allocations of the calling thread when the malloc counter is linked (tests), else -1.
int64_t clinux_console_thread_allocations(void);
#endif
