# shellcheck shell=bash
# shellcheck disable=SC2034  # HIL_WATCH_* and HIL_GPS_TTY are for scenarios
# GPS UART and feeder-control helpers (sourced by lib.sh). /dev/ttyS1 is a real 16550A whose other
# end is the host's feeder.py; /dev/ttyS2 is the control line to the same feeder. What the guest
# writes to ttyS1 is kept by the feeder in $HIL_GPS_CAPTURE, a host file the guest reads over 9p.

HIL_GPS_TTY=/dev/ttyS1
HIL_CTL_TTY=/dev/ttyS2
HIL_CTL_FD=""
HIL_CTL_REPLY=""

# hil_uart_raw DEVICE [BAUD=9600]: raw mode, no echo (n_tty would otherwise echo received NMEA
# back to the feeder). An app that configures the port itself does not need this.
hil_uart_raw() { stty -F "$1" raw -echo -echoe -echok -echoctl -echoke "${2:-9600}"; }

# hil_ctl_open: opens the control line (raw, no echo: an echo would bounce the feeder's replies
# back as commands). lib.sh calls it when the rig runs a feeder, so that commands sent from
# subshells ($(hil_gps_status ...)) share one descriptor.
hil_ctl_open() {
    [ -n "$HIL_CTL_FD" ] && return 0
    exec {HIL_CTL_FD}<>"$HIL_CTL_TTY" || hil_die "cannot open $HIL_CTL_TTY"
    stty raw -echo -echoe -echok -echoctl -echoke <&"$HIL_CTL_FD" || hil_die "stty on $HIL_CTL_TTY failed"
}

# hil_ctl COMMAND...: sends one command to the feeder and waits (20 s) for its reply line, kept in
# HIL_CTL_REPLY. Status 0 for "ok ...", 1 for "error ..." or no reply.
hil_ctl() {
    local line deadline
    [ "${HIL_FEEDER:-1}" = 1 ] || hil_die "the rig runs without a feeder (--no-feeder): no control channel"
    hil_ctl_open
    printf '%s\n' "$*" >&"$HIL_CTL_FD"
    deadline=$((${EPOCHREALTIME%.*} + 20))
    HIL_CTL_REPLY=""
    while [ "${EPOCHREALTIME%.*}" -lt "$deadline" ]; do
        IFS= read -r -t 20 -u "$HIL_CTL_FD" line || break
        line=${line%$'\r'}
        case "$line" in
            ok*) HIL_CTL_REPLY=$line; return 0 ;;
            error*) HIL_CTL_REPLY=$line; hil_log "feeder: $line"; return 1 ;;
        esac
    done
    hil_log "feeder: no reply to '$*' within 20 s"
    return 1
}

# hil_gps play|pause|unplug|plug|rewind|loop on|off|send TEXT|status|ping: see feeder.py.
hil_gps() { hil_ctl "$@"; }

# hil_gps_status KEY: prints one field of the feeder's status (e.g. bytes_received, state).
hil_gps_status() {
    hil_ctl status || return 1
    local word
    for word in $HIL_CTL_REPLY; do
        case "$word" in "$1"=*) printf '%s\n' "${word#*=}"; return 0 ;; esac
    done
    return 1
}

# hil_uart_drain FD [QUIET_S=1]: reads and discards what the port behind FD holds (the kernel's tty
# buffer keeps up to 64 KB that arrived while nobody read) until nothing arrives for QUIET_S s;
# prints the byte count. Status 1 when the line never goes quiet (20 rounds).
hil_uart_drain() {
    local fd=$1 quiet=${2:-1} n total=0
    for _ in $(seq 20); do
        n=$(timeout "$quiet" cat <&"$fd" | wc -c)
        total=$((total + n))
        [ "$n" = 0 ] && { echo "$total"; return 0; }
    done
    echo "$total"
    return 1
}

# hil_gps_captured TEXT: status 0 when the guest has sent TEXT on the GPS UART (feeder capture).
hil_gps_captured() { [ -f "$HIL_GPS_CAPTURE" ] && grep -qF -- "$1" "$HIL_GPS_CAPTURE"; }

# nmea_valid SENTENCE: status 0 when "$...*HH" carries the right XOR checksum.
nmea_valid() {
    local s=${1%$'\r'} body sum=0 i c want
    [[ $s =~ ^[\$!]([^*]*)\*([0-9A-Fa-f]{2})$ ]] || return 1
    body=${BASH_REMATCH[1]}
    want=$((16#${BASH_REMATCH[2]}))
    for ((i = 0; i < ${#body}; i++)); do
        printf -v c '%d' "'${body:i:1}"
        sum=$((sum ^ c))
    done
    [ "$sum" -eq "$want" ]
}

# nmea_check FILE: prints "TOTAL BAD": how many lines of FILE are sentences, and how many of them
# lack a valid "$...*HH" checksum (one awk pass; the per-line nmea_valid is slow for whole logs).
nmea_check() {
    awk '
    BEGIN { for (i = 32; i < 127; i++) code[sprintf("%c", i)] = i }
    function xor(a, b,   r, bit) {
        r = 0
        for (bit = 1; bit < 256; bit *= 2) {
            if ((int(a / bit) % 2) != (int(b / bit) % 2)) r += bit
        }
        return r
    }
    {
        sub(/\r$/, "")
        if ($0 == "") next
        total++
        if ($0 !~ /^[$!][^*]*\*[0-9A-Fa-f][0-9A-Fa-f]$/) { bad++; next }
        star = index($0, "*")
        sum = 0
        for (i = 2; i < star; i++) sum = xor(sum, code[substr($0, i, 1)])
        if (sprintf("%02X", sum) != toupper(substr($0, star + 1, 2))) bad++
    }
    END { printf "%d %d\n", total, bad }' "$1"
}

[ "${HIL_FEEDER:-1}" = 1 ] && [ -c "$HIL_CTL_TTY" ] && hil_ctl_open
