# shellcheck shell=bash
# shellcheck disable=SC2034  # HIL_WAITED_S and the like are results for scenarios
# HIL scenario library: sourced by Tests/HIL/scenarios/*.sh, which run inside the rig's guest as root
# (bash, host root read-only, /tmp and /run writable). Functions are documented in Tests/HIL/README.md.
#
#   . "$HIL_DIR/guest/lib.sh"
#   check "NAME" COMMAND [ARG...]       ... one line per check
#   hil_finish                          prints "N passed, N failed" and exits 1 on any failure
#
# Devices: gpio.sh (gpio-sim lines), i2c.sh (i2c-stub + IMU register files), gps.sh (UART + feeder);
# app.sh runs the program under test with its console on a pipe.

HIL_PASSED=0
HIL_FAILED=0
HIL_FINISHED=0
HIL_POLL_S=${HIL_POLL_S:-0.1}
HIL_WAITED_S=0
declare -A HIL_BG=()

hil_uptime() { local u _; read -r u _ </proc/uptime; printf '%s' "$u"; }
hil_log() { local u _; read -r u _ </proc/uptime; printf '[%8s] %s\n' "$u" "$*"; }
hil_now_us() { printf '%s' "${EPOCHREALTIME/./}"; }   # wall clock, microseconds (no fork)
# hil_us SECONDS: HIL_US = SECONDS (a decimal such as 1.5 or 30) in microseconds, without a process:
# a fork under TCG can take most of a second, which must not eat into a measured window.
hil_us() {
    local whole=${1%%.*} fraction=000000
    [[ $1 == *.* ]] && fraction=${1#*.}000000
    HIL_US=$(( 10#${whole:-0} * 1000000 + 10#${fraction:0:6} ))
}

# hil_sleep SECONDS: sleeps without forking (a read with timeout on a private FIFO).
mkfifo "/run/hil-sleep.$$" && exec {HIL_SLEEP_FD}<>"/run/hil-sleep.$$" && rm -f "/run/hil-sleep.$$"
hil_sleep() { read -r -t "$1" -u "$HIL_SLEEP_FD" _ || true; }

# --- assertions ---------------------------------------------------------------------------------
hil_pass() { HIL_PASSED=$((HIL_PASSED + 1)); hil_log "ok   $((HIL_PASSED + HIL_FAILED)) - $1"; }
hil_fail() {
    HIL_FAILED=$((HIL_FAILED + 1))
    hil_log "FAIL $((HIL_PASSED + HIL_FAILED)) - $1"
    [ -n "${2:-}" ] && hil_log "     $2"
    return 0
}

# check NAME COMMAND [ARG...]: passes when COMMAND exits 0.
check() {
    local name=$1
    shift
    if "$@"; then hil_pass "$name"; else hil_fail "$name" "failed: $*"; fi
}

# hil_not COMMAND [ARG...]: inverts COMMAND's status (check "no LED" hil_not hil_led_is_on LED).
hil_not() { ! "$@"; }

# check_eq NAME EXPECTED ACTUAL
check_eq() {
    if [ "$2" = "$3" ]; then hil_pass "$1"; else hil_fail "$1" "expected '$2', got '$3'"; fi
}

# check_match NAME EXTENDED_REGEX ACTUAL
check_match() {
    if [[ $3 =~ $2 ]]; then hil_pass "$1"; else hil_fail "$1" "'$3' does not match /$2/"; fi
}

# check_range NAME MIN MAX ACTUAL (numbers, decimals allowed; inclusive)
check_range() {
    if awk -v lo="$2" -v hi="$3" -v x="$4" 'BEGIN { exit !(x != "" && x + 0 >= lo + 0 && x + 0 <= hi + 0) }'; then
        hil_pass "$1 ($4)"
    else
        hil_fail "$1" "expected $2 .. $3, got '$4'"
    fi
}

# wait_for TIMEOUT_S COMMAND [ARG...]: polls COMMAND every HIL_POLL_S s until it exits 0 (returns 0)
# or TIMEOUT_S passes (returns 1). HIL_WAITED_S = seconds waited. Use TCG-generous timeouts (~10x).
wait_for() {
    local start=${EPOCHREALTIME/./} limit now
    hil_us "$1"
    limit=$HIL_US
    shift
    while true; do
        if "$@"; then
            now=${EPOCHREALTIME/./}
            printf -v HIL_WAITED_S '%d.%02d' $(((now - start) / 1000000)) $(((now - start) % 1000000 / 10000))
            return 0
        fi
        now=${EPOCHREALTIME/./}
        if [ $((now - start)) -ge "$limit" ]; then
            printf -v HIL_WAITED_S '%d.%02d' $((limit / 1000000)) $((limit % 1000000 / 10000))
            return 1
        fi
        hil_sleep "$HIL_POLL_S"
    done
}

# hil_die MESSAGE: a set-up step failed; counts a failure and ends the scenario.
hil_die() { hil_fail "set-up: $1" "${2:-}"; exit 1; }

# --- background processes (stopped on exit) ------------------------------------------------------
# hil_bg NAME COMMAND [ARG...] (redirect the call to capture its output); hil_stop NAME [SIGNAL]
# returns the process's exit status (128+N when a signal ended it).
hil_bg() {
    local name=$1
    shift
    "$@" &
    HIL_BG[$name]=$!
}
hil_stop() {
    local pid=${HIL_BG[$1]:-} rc=0
    [ -n "$pid" ] || return 127
    kill -"${2:-TERM}" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null || rc=$?
    unset "HIL_BG[$1]"
    return "$rc"
}
# hil_wait NAME TIMEOUT_S: waits for a background process to end by itself; returns its status,
# or 124 after TIMEOUT_S (the process keeps running).
hil_wait() {
    local pid=${HIL_BG[$1]:-} rc=0
    [ -n "$pid" ] || return 127
    wait_for "$2" hil_not_running "$pid" || { hil_log "$1 (pid $pid) still runs after $2 s: $(hil_proc_state "$pid")"; return 124; }
    wait "$pid" 2>/dev/null || rc=$?
    unset "HIL_BG[$1]"
    return "$rc"
}
# hil_not_running PID: the process has ended: gone, or a zombie this shell has not reaped yet
# (kill -0 succeeds on a zombie, and bash reaps only when it handles SIGCHLD).
hil_not_running() {
    local stat
    kill -0 "$1" 2>/dev/null || return 0
    IFS= read -r stat <"/proc/$1/stat" 2>/dev/null || return 0
    stat=${stat##*) }
    [ "${stat%% *}" = Z ]
}
# hil_proc_state PID: "state S, in W" (the process's state letter and the kernel function it sleeps
# in), for a log line about a process that did not end.
hil_proc_state() {
    local stat wchan=""
    IFS= read -r stat <"/proc/$1/stat" 2>/dev/null || { printf 'gone'; return 0; }
    stat=${stat##*) }
    IFS= read -r wchan <"/proc/$1/wchan" 2>/dev/null
    printf 'state %s, in %s' "${stat%% *}" "${wchan:-?}"
}

# hil_python_checks SCRIPT [ARG...]: runs a Python checker (Tests/HIL/checks/, hil_checks.py) and
# serves its requests until it ends, in this shell (so `wait`, the app FIFOs and variables are this
# shell's): "call CMD" -> CMD's status; "out CMD" -> "STATUS OUTPUT" (OUTPUT on one line); "get VAR"
# -> VAR's value. The checker reports verdicts with "call hil_pass/hil_fail", so the numbering and
# the summary line stay lib.sh's. A checker that ends with a non-zero status counts as one failure.
hil_python_checks() {
    local req=/run/hil-checks.$$.req rep=/run/hil-checks.$$.rep req_fd rep_fd line rc out name pid
    mkfifo "$req" "$rep" || hil_die "hil_python_checks: cannot create $req and $rep"
    python3 "$@" 3>"$req" 4<"$rep" &
    pid=$!
    exec {req_fd}<"$req" {rep_fd}>"$rep"
    rm -f "$req" "$rep"
    while IFS= read -r -u "$req_fd" line; do
        case $line in
            call\ *) rc=0; eval "${line#call }" || rc=$?; printf '%s\n' "$rc" >&"$rep_fd" ;;
            out\ *) rc=0; out=$(eval "${line#out }") || rc=$?; printf '%s %s\n' "$rc" "${out//$'\n'/ }" >&"$rep_fd" ;;
            get\ *) name=${line#get }; printf '%s\n' "${!name-}" >&"$rep_fd" ;;
            *) hil_log "hil_python_checks: unknown request '$line'"; printf '127\n' >&"$rep_fd" ;;
        esac
    done
    exec {req_fd}<&- {rep_fd}>&-
    rc=0
    wait "$pid" || rc=$?
    [ "$rc" = 0 ] || hil_fail "checker $1 ended with status $rc"
}

# hil_finish: prints the summary line and exits (1 when anything failed or nothing was checked).
hil_finish() {
    HIL_FINISHED=1
    hil_app_save_logs
    echo "$HIL_PASSED passed, $HIL_FAILED failed"
    [ "$HIL_FAILED" = 0 ] && [ "$HIL_PASSED" -gt 0 ] && exit 0
    exit 1
}
hil_on_exit() {
    local rc=$? name
    for name in "${!HIL_BG[@]}"; do kill -KILL "${HIL_BG[$name]}" 2>/dev/null; done
    if [ "$HIL_FINISHED" = 0 ]; then
        hil_app_save_logs
        hil_fail "scenario ended before hil_finish (exit status $rc)"
        echo "$HIL_PASSED passed, $HIL_FAILED failed"
        exit 1
    fi
}
trap hil_on_exit EXIT

# hil_link ALIAS TARGET: device alias in the guest's /dev (e.g. hil_link /dev/ttyAMA0 ttyS1), so
# a Pi board profile's device paths can be used unchanged.
hil_link() { ln -sfn "$2" "$1"; }

# shellcheck source=gpio.sh
. "${HIL_DIR:?HIL_DIR is set by rig.sh}/guest/gpio.sh"
# shellcheck source=i2c.sh
. "$HIL_DIR/guest/i2c.sh"
# shellcheck source=gps.sh
. "$HIL_DIR/guest/gps.sh"
# shellcheck source=app.sh
. "$HIL_DIR/guest/app.sh"
