# shellcheck shell=bash
# Helpers to run the program under test (sourced by lib.sh): its console on a pipe (stdin from a
# FIFO held open, so it never sees end of file; stdout and stderr to a log file, or stderr to a file
# of its own), commands sent as lines, replies awaited by pattern, signals, exit status. Logs are
# copied to $HIL_RUN_DIR (the writable run directory on the host) when the scenario ends.

declare -A HIL_APP_IN=()    # name -> fd of the stdin FIFO
declare -A HIL_APP_MARK=()  # name -> log offset (bytes) where hil_app_output starts

hil_app_log() { printf '/run/hil-app-%s.log\n' "$1"; }
# hil_app_errlog NAME: the standard error file of an app started with --stderr-apart.
hil_app_errlog() { printf '/run/hil-app-%s.err\n' "$1"; }

# hil_app_start [--stderr-apart] NAME COMMAND [ARG...]: stdout and stderr to hil_app_log NAME, or
# with --stderr-apart stderr to hil_app_errlog NAME (a program that logs on stderr and replies on
# stdout: each stream stays whole, never interleaved in the middle of a line).
hil_app_start() {
    local name fifo fd log err=""
    if [ "$1" = --stderr-apart ]; then err=1; shift; fi
    name=$1
    shift
    [[ $name =~ ^[A-Za-z0-9_-]+$ ]] || hil_die "hil_app_start: name '$name' must be letters, digits, '_' or '-'"
    [ -z "${HIL_APP_IN[$name]:-}" ] || hil_die "hil_app_start: an app named $name was already started"
    fifo=/run/hil-app-$name.in
    log=$(hil_app_log "$name")
    mkfifo "$fifo" && exec {fd}<>"$fifo" || hil_die "hil_app_start: cannot create the FIFO $fifo"
    : >"$log"
    HIL_APP_IN[$name]=$fd
    HIL_APP_MARK[$name]=0
    if [ -n "$err" ]; then
        err=$(hil_app_errlog "$name")
        : >"$err"
        "$@" <&"$fd" >>"$log" 2>>"$err" {fd}<&- &
    else
        "$@" <&"$fd" >>"$log" 2>&1 {fd}<&- &
    fi
    HIL_BG["app-$name"]=$!
    hil_log "app $name: pid $! runs: $*"
}

hil_app_pid() { printf '%s\n' "${HIL_BG["app-$1"]:-}"; }
hil_app_running() { local pid=${HIL_BG["app-$1"]:-}; [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }

# hil_app_send NAME TEXT: one line on the app's stdin.
hil_app_send() { printf '%s\n' "$2" >&"${HIL_APP_IN[$1]:?no app named $1}"; }

# hil_app_mark NAME: later hil_app_output / hil_app_wait_output only look at what comes after.
hil_app_mark() { HIL_APP_MARK[$1]=$(stat -c %s "$(hil_app_log "$1")"); }

# hil_app_output NAME: prints the output since the last mark.
hil_app_output() { tail -c +"$((${HIL_APP_MARK[$1]:-0} + 1))" "$(hil_app_log "$1")"; }
hil_app_has_output() { hil_app_output "$1" | grep -qE -- "$2"; }

# hil_app_wait_output NAME TIMEOUT_S EXTENDED_REGEX: waits until the output since the mark has a
# line matching the pattern.
hil_app_wait_output() { wait_for "$2" hil_app_has_output "$1" "$3"; }

# hil_app_stop NAME [SIGNAL=TERM] [TIMEOUT_S=30]: signals the app and waits for it to exit; returns
# its exit status (124 when it did not exit in time: it is then killed).
hil_app_stop() {
    local name=$1 rc=0 pid=${HIL_BG["app-$1"]:-}
    [ -n "$pid" ] || return 127
    kill -"${2:-TERM}" "$pid" 2>/dev/null
    hil_wait "app-$name" "${3:-30}" || rc=$?
    if [ "$rc" = 124 ]; then
        hil_log "app $name did not exit within ${3:-30} s after SIG${2:-TERM}; killing it"
        hil_stop "app-$name" KILL
    fi
    return "$rc"
}

# hil_app_wait_exit NAME TIMEOUT_S: waits for the app to exit by itself; returns its status (124
# after TIMEOUT_S, the app still running).
hil_app_wait_exit() { hil_wait "app-$1" "$2"; }

hil_app_save_logs() {
    local name
    for name in "${!HIL_APP_IN[@]}"; do
        cp "$(hil_app_log "$name")" "$HIL_RUN_DIR/app-$name.log" 2>/dev/null || true
        [ -e "$(hil_app_errlog "$name")" ] && { cp "$(hil_app_errlog "$name")" "$HIL_RUN_DIR/app-$name.err" 2>/dev/null || true; }
    done
}
