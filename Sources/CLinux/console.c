#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "clinux_console.h"

// Saved state, written once before raw mode starts and read by the restore path (also from signal
// handlers: plain integers and a struct, no locks).
static struct termios saved_termios;
static volatile sig_atomic_t saved_tty_fd = -1;
static volatile sig_atomic_t saved_flags_fd = -1;
static volatile int saved_flags = 0;
static volatile sig_atomic_t restore_hooks_installed = 0;

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT };
#define FATAL_SIGNAL_COUNT (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous_actions[FATAL_SIGNAL_COUNT];

void clinux_console_tty_restore(void) {
    int fd = saved_tty_fd;
    if (fd >= 0) {
        tcsetattr(fd, TCSANOW, &saved_termios);
        saved_tty_fd = -1;
    }
    int ffd = saved_flags_fd;
    if (ffd >= 0) {
        fcntl(ffd, F_SETFL, saved_flags);
        saved_flags_fd = -1;
    }
}

static void restore_on_fatal_signal(int signal_number) {
    clinux_console_tty_restore();
    // Hand the signal to whoever handled it before (the Swift runtime's backtracer, or the default).
    for (unsigned i = 0; i < FATAL_SIGNAL_COUNT; i++) {
        if (fatal_signals[i] == signal_number) {
            sigaction(signal_number, &previous_actions[i], NULL);
            break;
        }
    }
    raise(signal_number);
}

static void restore_at_exit(void) { clinux_console_tty_restore(); }

static void install_restore_hooks(void) {
    if (restore_hooks_installed) return;
    restore_hooks_installed = 1;
    atexit(restore_at_exit);
    for (unsigned i = 0; i < FATAL_SIGNAL_COUNT; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = restore_on_fatal_signal;
        action.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        sigaction(fatal_signals[i], &action, &previous_actions[i]);
    }
}

int clinux_console_tty_raw(int fd) {
    struct termios settings;
    if (tcgetattr(fd, &settings) != 0) return -errno;
    saved_termios = settings;
    saved_tty_fd = fd;
    install_restore_hooks();
    settings.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ECHONL | ISIG | IEXTEN);
    settings.c_iflag &= ~(tcflag_t)(IXON | IXOFF | ICRNL | INLCR | IGNCR | ISTRIP | BRKINT | PARMRK);
    settings.c_oflag &= ~(tcflag_t)OPOST;
    settings.c_cflag |= CS8;
    settings.c_cc[VMIN] = 1;
    settings.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSANOW, &settings) != 0) {
        int code = errno;
        saved_tty_fd = -1;
        return -code;
    }
    return 0;
}

int clinux_console_nonblocking_output(int fd) {
    struct stat info;
    if (fstat(fd, &info) != 0) return -errno;
    if (S_ISREG(info.st_mode) || (S_ISCHR(info.st_mode) && !isatty(fd))) return fd;
    if (S_ISFIFO(info.st_mode) || isatty(fd)) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        int reopened = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (reopened >= 0) return reopened;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -errno;
    if (!(flags & O_NONBLOCK)) {
        saved_flags = flags;
        saved_flags_fd = fd;
        install_restore_hooks();
        if (fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
            saved_flags_fd = -1;
            return -errno;
        }
    }
    return fd;
}

int clinux_console_terminal_rows(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_row;
}

int clinux_console_is_null_device(int fd) {
    struct stat info;
    if (fstat(fd, &info) != 0) return 0;
    return S_ISCHR(info.st_mode) && !isatty(fd);
}

int clinux_console_is_journal_stream(int fd) {
    const char *stream = getenv("JOURNAL_STREAM");
    if (stream == NULL) return 0;
    unsigned long long device = 0, inode = 0;
    if (sscanf(stream, "%llu:%llu", &device, &inode) != 2) return 0;
    struct stat info;
    if (fstat(fd, &info) != 0) return 0;
    return (unsigned long long)info.st_dev == device && (unsigned long long)info.st_ino == inode;
}

// Defined by the CMallocCounter target, which only tests and benchmarks link: a weak reference is
// null in the device binary.
extern uint64_t mc_thread_allocations(void) __attribute__((weak));

int64_t clinux_console_thread_allocations(void) {
    if (mc_thread_allocations == NULL) return -1;
    return (int64_t)mc_thread_allocations();
}
