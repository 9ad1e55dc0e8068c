#!/bin/bash
# Smoke scenario: proves the rig itself, end to end, with standard tools (libgpiod's CLI, i2c-tools,
# stty/cat) and no puckd: gpio-sim edges and levels, i2c-stub identity and data registers (with
# the physical-value encoder), the GPS feeder's NMEA on a real 16550A and the capture of what the
# guest transmits, and the feeder's unplug/plug/send controls. Runs inside the guest (rig.sh).
# shellcheck disable=SC2016  # NMEA text in single quotes, not expansions
# shellcheck source=../guest/lib.sh
. "$HIL_DIR/guest/lib.sh"

hil_log "smoke: kernel $(uname -r), run directory $HIL_RUN_DIR"
check_eq "the guest runs the kernel the rig chose" "$HIL_KVER" "$(uname -r)"
check "ttyS1 is a 16550A UART" grep -q '^1: uart:16550A' /proc/tty/driver/serial

# --- GPIO: the Pi 4 header chip (label, 58 lines, BCM offsets) with the board/HIL.md wiring: a
# button on BCM 17 (to GND, pull-up) and LEDs on BCM 22/23/24.
hil_gpio_setup pinctrl-bcm2711 58 17:BUTTON:active-low 22:LED_FIX 23:LED_MODE 24:LED_FAULT 27:SPARE
chip=$(hil_gpio_chip pinctrl-bcm2711)
check_match "gpiodetect lists the chip by its label" "${chip#/dev/} \[pinctrl-bcm2711\] \(58 lines\)" "$(gpiodetect)"
check_eq "gpiofind finds the button by name" "${chip#/dev/} 17" "$(gpiofind BUTTON)"
check_eq "the idle button reads high (pull-up)" 1 "$(gpioget pinctrl-bcm2711 17)"

hil_bg mon gpiomon --num-events=1 --falling-edge --format='%e %o' pinctrl-bcm2711 17 >/run/mon-press.txt
check "gpiomon holds the button line" wait_for 30 hil_gpio_requested BUTTON gpiomon
hil_button_press BUTTON
check "gpiomon ends after the press" hil_wait mon 30
check_eq "the press is one falling edge on offset 17" "0 17" "$(cat /run/mon-press.txt)"
check_eq "the pressed button reads low" 0 "$(gpioget pinctrl-bcm2711 17)"

hil_bg mon gpiomon --num-events=1 --rising-edge --format='%e %o' pinctrl-bcm2711 17 >/run/mon-release.txt
check "gpiomon holds the button line again" wait_for 30 hil_gpio_requested BUTTON gpiomon
hil_button_release BUTTON
check "gpiomon ends after the release" hil_wait mon 30
check_eq "the release is one rising edge on offset 17" "1 17" "$(cat /run/mon-release.txt)"

# An app that asks for pull-up bias (as puckd does for buttons) sets the simulated pull itself; a
# press still pulls the line down.
hil_bg mon gpiomon -B pull-up --num-events=1 --format='%e %o' pinctrl-bcm2711 27 >/run/mon-bias.txt
check "gpiomon -B pull-up holds line 27" wait_for 30 hil_gpio_requested SPARE gpiomon
check_eq "the app's pull-up bias request sets the simulated pull" pull-up "$(cat "$(hil_gpio_attr SPARE pull)")"
hil_gpio_pull SPARE down
check "a pull-down against the app's pull-up bias ends gpiomon" hil_wait mon 30
check_eq "... with one falling edge" "0 27" "$(cat /run/mon-bias.txt)"

check "the fix LED is off before anyone drives it" hil_led_is_off LED_FIX
hil_bg led gpioset --mode=signal pinctrl-bcm2711 22=1
check "gpioset 22=1: the sim's value file reads 1" wait_for 30 hil_led_is_on LED_FIX
hil_stop led
hil_gpio_pull LED_FAULT up
hil_bg led gpioset --mode=signal pinctrl-bcm2711 24=0
check "gpioset 24=0 against a pull-up: value reads 0" wait_for 30 hil_led_is_off LED_FAULT
hil_stop led
check "released, the fault line falls back to its pull (1)" wait_for 30 hil_led_is_on LED_FAULT

# A blink (0.25 s on by gpioset, 0.25 s off plus process start-up) seen by the pattern sampler; the
# blinker logs each cycle, so the check holds however slow the guest is.
blink() { while :; do echo >>/run/blinks; gpioset --mode=time --usec=250000 pinctrl-bcm2711 23=1; hil_sleep 0.25; done; }
: >/run/blinks
hil_bg blink blink
wait_for 30 test -s /run/blinks
mapfile -t lines </run/blinks; before=${#lines[@]}   # builtins only: no process start-up skew
hil_gpio_watch LED_MODE 4
mapfile -t lines </run/blinks; after=${#lines[@]}
hil_stop blink
hil_log "blink trace: $HIL_WATCH_TRACE ($((after - before)) cycles started)"
check "hil_gpio_watch saw blinking (rises: $HIL_WATCH_RISES)" test "$HIL_WATCH_RISES" -ge 2
check_range "hil_gpio_watch counts each blink (±1 at the window's ends)" \
    $((after - before - 1)) $((after - before + 1)) "$HIL_WATCH_RISES"
check_range "hil_gpio_watch: on 0.25 s of each cycle (%)" 10 75 "$HIL_WATCH_HIGH_PERCENT"

# --- I2C: LSM6DSL at 0x6A + LIS3MDL at 0x1C on i2c-stub ---------------------------------------
hil_i2c_stub 0x6a 0x1c
check_match "the stub adapter is found by name" '^[0-9]+$' "$HIL_I2C_BUS"
hil_imu_lsm6dsl_lis3mdl 0x6a 0x1c
bus=$HIL_I2C_BUS
check_eq "LSM6DSL WHO_AM_I (0x0F) via i2cget" 0x6a "$(i2cget -y "$bus" 0x6a 0x0f b)"
[ "$bus" = 1 ] || hil_link /dev/i2c-1 "i2c-$bus"
check_eq "the Pi's bus name /dev/i2c-1 reaches the stub through hil_link" 0x6a "$(i2cget -y 1 0x6a 0x0f b)"
check_eq "LIS3MDL WHO_AM_I (0x0F) via i2cget" 0x3d "$(i2cget -y "$bus" 0x1c 0x0f b)"
# Level, at rest, facing north, reset full scales (±2 g: 0.061 mg/LSB -> +1 g = 16393 = 0x4009).
check_eq "gyro+accel block read 0x22..0x2D at rest, ±2 g" \
    "0x00 0x00 0x00 0x00 0x00 0x00 0x00 0x00 0x00 0x00 0x09 0x40" "$(i2cget -y "$bus" 0x6a 0x22 i 12)"
# Mag (19.5, 0, -48.5) µT at ±4 G (6842 LSB/G): 1334 = 0x0536, -3318 = 0xF30A.
check_eq "mag block read 0x28..0x2D facing north" "0x36 0x05 0x00 0x00 0x0a 0xf3" "$(i2cget -y "$bus" 0x1c 0x28 i 6)"
check_eq "mag block read from 0xA8 (auto-increment address) matches" \
    "0x36 0x05 0x00 0x00 0x0a 0xf3" "$(i2cget -y "$bus" 0x1c 0xa8 i 6)"

# The app configures the chips (as a driver would); the model re-encodes with the new full scales.
check "the chips are not configured yet" hil_not hil_imu_is_configured
i2cset -y "$bus" 0x6a 0x10 0x48 b   # CTRL1_XL: 104 Hz, ±4 g
i2cset -y "$bus" 0x6a 0x11 0x4c b   # CTRL2_G: 104 Hz, ±2000 dps
i2cset -y "$bus" 0x1c 0x22 0x00 b   # LIS3MDL CTRL_REG3: continuous
check "hil_imu_wait_configured sees the app's configuration" hil_imu_wait_configured 30
hil_imu_set_gyro 0 0 0.5            # 0.5 rad/s = 28.648 dps / 70 mdps = 409 = 0x0199
check_eq "gyro z 0.5 rad/s at ±2000 dps, accel +1 g at ±4 g (8197 = 0x2005)" \
    "0x00 0x00 0x00 0x00 0x99 0x01 0x00 0x00 0x00 0x00 0x05 0x20" "$(i2cget -y "$bus" 0x6a 0x22 i 12)"

heading_from_mag() {   # compass heading of a level board from the LIS3MDL registers
    local b
    read -r -a b <<<"$(i2cget -y "$bus" 0x1c 0x28 i 4)"
    awk -v x="$(hil_int16_le "${b[0]}" "${b[1]}")" -v y="$(hil_int16_le "${b[2]}" "${b[3]}")" \
        'BEGIN { h = atan2(y, x) * 180 / atan2(0, -1); if (h < 0) h += 360; printf "%.1f", h }'
}
for heading in 90 225 359; do
    hil_imu_set_level_heading "$heading"
    check_range "turned to $heading°: heading from the mag registers" "$((heading - 1)).5" "$heading.5" "$(heading_from_mag)"
done

# --- GPS UART: the feeder's NMEA on ttyS1, and what the guest sends back -------------------------
hil_link /dev/ttyAMA0 "${HIL_GPS_TTY#/dev/}"   # the Pi 4's GPS UART name (board/HIL.md)
hil_uart_raw /dev/ttyAMA0 9600
exec {gps}<>/dev/ttyAMA0
check "the feeder answers on the control line" hil_gps ping
t_play=${EPOCHREALTIME/./}
check "the feeder starts playing" hil_gps play
timeout 2 cat <&"$gps" | tr -d '\r' >/run/nmea.txt
t_read=${EPOCHREALTIME/./}
rmc_count=$(grep -c '^\$G.RMC,' /run/nmea.txt)
check_range "RMC per second from play to the end of reading: the drive's 5 Hz" 3.5 6.0 \
    "$(awk -v n="$rmc_count" -v us=$((t_read - t_play)) 'BEGIN { printf "%.2f", n / (us / 1e6) }')"
head -n -1 /run/nmea.txt >/run/nmea-complete.txt   # the last line may still be incomplete
read -r total bad < <(nmea_check /run/nmea-complete.txt)
check "every complete sentence ($total) has a valid checksum ($bad bad)" test "$total" -gt 0 -a "$bad" = 0
rmc=$(grep -m 1 '^\$G.RMC,' /run/nmea.txt)
check "nmea_valid accepts an RMC" nmea_valid "$rmc"
check "nmea_valid rejects it with one digit changed" hil_not nmea_valid "${rmc/4/5}"
steps=$(grep '^\$G.RMC,' /run/nmea.txt | cut -d, -f2 | awk '{ t = substr($1, 1, 2) * 3600 + substr($1, 3, 2) * 60 + substr($1, 5) }
    NR > 1 { printf "%.1f\n", t - p } { p = t }' | sort -u | tr '\n' ' ')
check_eq "consecutive RMC epochs are 0.2 s apart (none dropped)" "0.2 " "$steps"

printf '$PMTK220,200*2C\r\n' >&"$gps"
check "what the guest writes on ttyS1 reaches the feeder's capture file" \
    wait_for 30 hil_gps_captured '$PMTK220,200*2C'
check_range "the feeder counts the received bytes" 17 100000 "$(hil_gps_status bytes_received)"

check "the feeder unplugs the GPS" hil_gps unplug
sent_at_unplug=$(hil_gps_status bytes_sent)
hil_log "drained $(hil_uart_drain "$gps" 2) bytes that arrived before the unplug"
check_eq "no bytes arrive while unplugged (2 s)" 0 "$(timeout 2 cat <&"$gps" | wc -c)"
check_eq "the feeder sent nothing after the unplug" "$sent_at_unplug" "$(hil_gps_status bytes_sent)"
check "the feeder plugs the GPS back in" hil_gps plug
check_range "NMEA resumes after plugging in (RMC in 2 s)" 4 50 "$(timeout 2 cat <&"$gps" | grep -c 'RMC,')"
check "the feeder injects a receiver reply" hil_gps send '$PMTK001,220,3*30'
check "the injected reply arrives on ttyS1" eval "timeout 3 cat <&$gps | grep -qF '\$PMTK001,220,3*30'"
check_eq "an unknown control command is refused" 1 "$(hil_gps bogus >/dev/null; echo $?)"
exec {gps}<&-

# --- The program-under-test helpers, with a stand-in console program -----------------------------
hil_app_start echo bash -c 'echo ready; trap "echo bye; exit 3" TERM; while read -r l; do echo "reply: $l"; done'
check "the app prints its banner" hil_app_wait_output echo 30 '^ready$'
hil_app_mark echo
hil_app_send echo "hello"
check "a console command gets its reply" hil_app_wait_output echo 30 '^reply: hello$'
check "the output since the mark is only the reply" test "$(hil_app_output echo)" = "reply: hello"
rc=0
hil_app_stop echo TERM 30 || rc=$?   # not in $(...): only this shell can wait for its child
check_eq "SIGTERM: the app exits with its own status" 3 "$rc"
check "the app's last words are in its log" grep -qx bye "$(hil_app_log echo)"
hil_app_start --stderr-apart split bash -c 'echo reply; echo log >&2; exit 5'
rc=0
hil_app_wait_exit split 30 || rc=$?
check_eq "--stderr-apart: the app ran to its end (status 5)" 5 "$rc"
check_eq "--stderr-apart: standard output alone in the app's log" reply "$(cat "$(hil_app_log split)")"
check_eq "--stderr-apart: standard error alone in its own file" log "$(cat "$(hil_app_errlog split)")"

hil_finish
