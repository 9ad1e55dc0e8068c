# shellcheck shell=bash
# shellcheck disable=SC2034  # HIL_WATCH_* and HIL_GPS_TTY are for scenarios
# gpio-sim helpers (sourced by lib.sh). A simulated chip is a real gpiochip character device: apps
# use it through libgpiod or the uAPI exactly as on a board; the "outside world" is the sysfs
# attribute directory of each line: `pull` (pull-up / pull-down: what a button or a wire does to an
# input) and `value` (the level on the line: what the app drives on an output).

declare -A HIL_GPIO_CHIP=()    # label -> /dev/gpiochipN
declare -A HIL_GPIO_SYSFS=()   # label -> /sys/devices/platform/gpio-sim.N/gpiochipM
declare -A HIL_LINE_CHIP=()    # line name -> label
declare -A HIL_LINE_OFFSET=()  # line name -> offset
declare -A HIL_LINE_ACTIVE=()  # line name -> 1 (active-high) or 0 (active-low)
HIL_GPIO_COUNT=0

hil_gpio_load() {
    [ -d /sys/module/configfs ] || modprobe configfs || hil_die "modprobe configfs failed"
    mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config ||
        hil_die "cannot mount configfs on /sys/kernel/config"
    if [ ! -d /sys/module/gpio_sim ]; then
        [ -f "${HIL_GPIO_SIM_KO:-}" ] || hil_die "gpio-sim.ko not found at '${HIL_GPIO_SIM_KO:-}' (rig.sh builds it)"
        insmod "$HIL_GPIO_SIM_KO" || hil_die "insmod $HIL_GPIO_SIM_KO failed (see the kernel log: dmesg | tail)"
    fi
}

# hil_gpio_setup LABEL NUM_LINES "OFFSET:NAME[:active-low]"...
# Creates a live gpio-sim chip labelled LABEL with NUM_LINES lines, names the given ones (line
# names must be unique). Active-low lines (buttons to GND with a pull-up) idle high: their pull is
# set to pull-up at once, and pressing pulls them down.
hil_gpio_setup() {
    local label=$1 num=$2 spec offset name flags dir chip platform sysfs
    shift 2
    [[ $num =~ ^[0-9]+$ ]] && [ "$num" -gt 0 ] || hil_die "hil_gpio_setup $label: NUM_LINES '$num' is not a positive number"
    hil_gpio_load
    HIL_GPIO_COUNT=$((HIL_GPIO_COUNT + 1))
    dir=/sys/kernel/config/gpio-sim/hil$HIL_GPIO_COUNT
    local dirs=("$dir" "$dir/bank0")
    for spec in "$@"; do dirs+=("$dir/bank0/line${spec%%:*}"); done
    mkdir "${dirs[@]}" || hil_die "cannot create $dir and its lines in configfs ($*)"
    echo "$label" >"$dir/bank0/label"
    echo "$num" >"$dir/bank0/num_lines"
    for spec in "$@"; do
        IFS=: read -r offset name flags <<<"$spec"
        [[ $offset =~ ^[0-9]+$ ]] && [ "$offset" -lt "$num" ] ||
            hil_die "hil_gpio_setup $label: offset in '$spec' must be 0..$((num - 1))"
        [ -n "$name" ] || hil_die "hil_gpio_setup $label: '$spec' has no line name (OFFSET:NAME[:active-low])"
        [ -z "${HIL_LINE_CHIP[$name]:-}" ] || hil_die "hil_gpio_setup $label: line name $name is already used"
        case "${flags:-active-high}" in
            active-high) HIL_LINE_ACTIVE[$name]=1 ;;
            active-low) HIL_LINE_ACTIVE[$name]=0 ;;
            *) hil_die "hil_gpio_setup $label: flag '$flags' in '$spec' is not active-high or active-low" ;;
        esac
        echo "$name" >"$dir/bank0/line$offset/name"
        HIL_LINE_CHIP[$name]=$label
        HIL_LINE_OFFSET[$name]=$offset
    done
    echo 1 >"$dir/live" || hil_die "gpio-sim refused to go live for $label (dmesg | tail)"
    read -r chip <"$dir/bank0/chip_name"
    read -r platform <"$dir/dev_name"
    sysfs=/sys/devices/platform/$platform/$chip
    wait_for 20 test -c "/dev/$chip" || hil_die "/dev/$chip did not appear for $label"
    HIL_GPIO_CHIP[$label]=/dev/$chip
    HIL_GPIO_SYSFS[$label]=$sysfs
    for spec in "$@"; do
        IFS=: read -r offset name flags <<<"$spec"
        [ "${HIL_LINE_ACTIVE[$name]}" = 0 ] && hil_gpio_pull "$name" up
    done
    hil_log "gpio: $label is /dev/$chip ($num lines; $*)"
}

hil_gpio_attr() {   # hil_gpio_attr NAME ATTRIBUTE: path of a line's sysfs attribute
    local name=$1
    [ -n "${HIL_LINE_CHIP[$name]:-}" ] || hil_die "unknown GPIO line '$name' (declare it in hil_gpio_setup)"
    printf '%s/sim_gpio%s/%s' "${HIL_GPIO_SYSFS[${HIL_LINE_CHIP[$name]}]}" "${HIL_LINE_OFFSET[$name]}" "$2"
}

# hil_gpio_chip LABEL: prints /dev/gpiochipN. hil_gpio_offset NAME: prints the line's offset.
hil_gpio_chip() { printf '%s\n' "${HIL_GPIO_CHIP[$1]:?unknown gpio-sim chip label $1}"; }
hil_gpio_offset() { printf '%s\n' "${HIL_LINE_OFFSET[$1]:?unknown GPIO line $1}"; }

# hil_gpio_requested NAME [CONSUMER]: status 0 when some process (named CONSUMER) holds the line.
# Press buttons only after the app has requested the line: before that no edge event is queued.
hil_gpio_requested() {
    local name=$1 info
    info=$(gpioinfo "${HIL_LINE_CHIP[$name]:?unknown GPIO line $name}" 2>/dev/null | grep -E "^[[:space:]]*line +${HIL_LINE_OFFSET[$name]}:") || return 1
    [[ $info == *"[used"* ]] || return 1
    [ -z "${2:-}" ] || [[ $info == *"\"$2\""* ]]
}

# hil_gpio_pull NAME up|down: what the outside world does to the line (an input sees the edge).
hil_gpio_pull() { echo "pull-$2" >"$(hil_gpio_attr "$1" pull)"; }

# hil_gpio_value NAME: prints 0 or 1, the line's level (for an output: what the app drives; while
# no one holds the line, the pull).
hil_gpio_value() { local v; read -r v <"$(hil_gpio_attr "$1" value)"; printf '%s\n' "$v"; }

# hil_led_is_on NAME: status 0 when an output line is at its active level.
hil_led_is_on() { [ "$(hil_gpio_value "$1")" = "${HIL_LINE_ACTIVE[$1]}" ]; }
hil_led_is_off() { ! hil_led_is_on "$1"; }

# Buttons: press = drive the line to its active level, release = back to idle.
hil_button_press() { if [ "${HIL_LINE_ACTIVE[$1]:-1}" = 1 ]; then hil_gpio_pull "$1" up; else hil_gpio_pull "$1" down; fi; }
hil_button_release() { if [ "${HIL_LINE_ACTIVE[$1]:-1}" = 1 ]; then hil_gpio_pull "$1" down; else hil_gpio_pull "$1" up; fi; }
# hil_button_hold NAME SECONDS: press, hold, release (a click is ~0.1 s; a long press >= 1 s).
hil_button_hold() { hil_button_press "$1"; hil_sleep "$2"; hil_button_release "$1"; }

# hil_gpio_watch NAME SECONDS [INTERVAL_S=0.01]: samples a line's level and sets
#   HIL_WATCH_SAMPLES, HIL_WATCH_RISES, HIL_WATCH_FALLS, HIL_WATCH_HIGH_PERCENT (time at level 1),
#   HIL_WATCH_TRACE ("value@ms" for the first sample and every change, ms from the start).
# Enough to tell off / on / 1 Hz blink / fast blink / n blinks every 2 s apart under TCG.
hil_gpio_watch() {
    local file v last="" start now t_ms prev_ms=0 high_ms=0 end
    file=$(hil_gpio_attr "$1" value)
    hil_us "$2"
    start=$EPOCHREALTIME   # after the set-up above: the window is all sampling
    end=$(( ${start/./} + HIL_US ))
    HIL_WATCH_SAMPLES=0 HIL_WATCH_RISES=0 HIL_WATCH_FALLS=0 HIL_WATCH_TRACE=""
    while true; do
        read -r v <"$file"
        now=$EPOCHREALTIME
        t_ms=$(( (${now%.*} - ${start%.*}) * 1000 + (10#${now#*.} - 10#${start#*.}) / 1000 ))
        [ "$last" = 1 ] && high_ms=$((high_ms + t_ms - prev_ms))
        prev_ms=$t_ms
        HIL_WATCH_SAMPLES=$((HIL_WATCH_SAMPLES + 1))
        if [ "$v" != "$last" ]; then
            [ "$last" = 0 ] && [ "$v" = 1 ] && HIL_WATCH_RISES=$((HIL_WATCH_RISES + 1))
            [ "$last" = 1 ] && [ "$v" = 0 ] && HIL_WATCH_FALLS=$((HIL_WATCH_FALLS + 1))
            HIL_WATCH_TRACE="$HIL_WATCH_TRACE $v@$t_ms"
            last=$v
        fi
        [[ ${now/./} -ge $end ]] && break
        hil_sleep "${3:-0.01}"
    done
    HIL_WATCH_TRACE=${HIL_WATCH_TRACE# }
    HIL_WATCH_HIGH_PERCENT=$(( t_ms > 0 ? high_ms * 100 / t_ms : 0 ))
}

# Kernel GPIO trace (tracefs event gpio/gpio_value): every value any process sets on any line, with
# the kernel's own timestamp. It records what an app drove even in the microseconds before it
# releases a line (after release gpio-sim shows the pull again, so `value` cannot tell).
HIL_TRACE=/sys/kernel/tracing

# hil_gpio_trace_start: mounts tracefs when needed, clears the buffer and records gpio_value events.
hil_gpio_trace_start() {
    [ -d "$HIL_TRACE/events/gpio" ] || mount -t tracefs nodev "$HIL_TRACE" ||
        hil_die "cannot mount tracefs on $HIL_TRACE"
    [ -d "$HIL_TRACE/events/gpio/gpio_value" ] || hil_die "the kernel has no gpio/gpio_value trace event"
    echo 0 >"$HIL_TRACE/tracing_on"
    : >"$HIL_TRACE/trace"
    echo 1 >"$HIL_TRACE/events/gpio/gpio_value/enable"
    echo 1 >"$HIL_TRACE/tracing_on"
}

# hil_gpio_trace_stop: stops recording (the buffer stays readable).
hil_gpio_trace_stop() { echo 0 >"$HIL_TRACE/tracing_on"; echo 0 >"$HIL_TRACE/events/gpio/gpio_value/enable"; }

# hil_gpio_global NAME: prints the line's global GPIO number (chip base + offset), as the trace
# shows it; the base comes from /sys/class/gpio/gpiochipBASE/label.
hil_gpio_global() {
    local d label want=${HIL_LINE_CHIP[$1]:?unknown GPIO line $1}
    for d in /sys/class/gpio/gpiochip*; do
        read -r label <"$d/label" 2>/dev/null || continue
        [ "$label" = "$want" ] && { echo $(( ${d##*/gpiochip} + HIL_LINE_OFFSET[$1] )); return 0; }
    done
    return 1
}

# hil_gpio_trace_values NAME: prints the values set on the line since hil_gpio_trace_start, in
# order, space separated (e.g. "1 0"), raw line levels.
hil_gpio_trace_values() {
    local gpio
    gpio=$(hil_gpio_global "$1") || return 1
    awk -v g="$gpio" '{
        for (i = 1; i + 3 <= NF; i++)
            if ($i == "gpio_value:" && $(i + 1) == g && $(i + 2) == "set") { printf "%s%s", sep, $(i + 3); sep = " " }
    } END { print "" }' "$HIL_TRACE/trace"
}
