# shellcheck shell=bash
# i2c-stub helpers (sourced by lib.sh). i2c-stub is a real i2c adapter ("SMBus stub driver") whose
# chips are plain 256-byte register files: apps use /dev/i2c-N with I2C_SLAVE + I2C_SMBUS exactly
# as on a board. It is SMBus-only (no read()/write()/I2C_RDWR), and a word read does not combine
# adjacent byte registers: use byte and I2C-block transfers.
#
# IMU model: LSM6DSL (accel + gyro) + LIS3MDL (magnetometer), the BerryGPS-IMU v4 pair. Registers
# (docs/hardware.md §1.2.2, §1.2.3): LSM6DSL WHO_AM_I 0x0F = 0x6A, CTRL1_XL 0x10, CTRL2_G 0x11, CTRL3_C 0x12,
# STATUS 0x1E, gyro 0x22..0x27 then accel 0x28..0x2D (int16 little-endian); LIS3MDL WHO_AM_I
# 0x0F = 0x3D, CTRL_REG1..5 0x20..0x24, STATUS 0x27, mag 0x28..0x2D. Physical values are encoded
# with the full scale the app has configured (read back from the control registers), like the chip.

HIL_I2C_BUS=""
HIL_I2C_DEV=""
HIL_IMU_AG=0x6a
HIL_IMU_M=0x1c
HIL_IMU_ACCEL=(0 0 9.80665)   # m/s^2, specific force (level and at rest: +g on z)
HIL_IMU_GYRO=(0 0 0)          # rad/s
HIL_IMU_MAG=(19.5 0 -48.5)    # microtesla
HIL_IMU_FIELD_H_UT=19.5       # default horizontal field, microtesla (northern mid-latitudes)
HIL_IMU_FIELD_DOWN_UT=48.5    # default downward field, microtesla (inclination ~68 degrees)
HIL_IMU_BYTES_FILE=/run/hil-imu-bytes   # the 18 output bytes last encoded (for hil_imu_noise_start)

# hil_i2c_stub ADDR...: loads i2c-dev and i2c-stub with chips at the 7-bit addresses (at most 10;
# one load per boot), finds the adapter by name (its number depends on the machine type) and sets
# HIL_I2C_BUS (number) and HIL_I2C_DEV (/dev/i2c-N).
hil_i2c_stub() {
    local addrs f
    addrs=$(IFS=,; echo "$*")
    [ -n "$addrs" ] || hil_die "hil_i2c_stub needs at least one address"
    [ -d /sys/module/i2c_stub ] && hil_die "i2c-stub is already loaded; load it once with every address"
    modprobe i2c-dev || hil_die "modprobe i2c-dev failed"
    modprobe i2c-stub chip_addr="$addrs" || hil_die "modprobe i2c-stub chip_addr=$addrs failed (dmesg | tail)"
    for f in /sys/class/i2c-adapter/i2c-*/name; do
        if [ "$(cat "$f")" = "SMBus stub driver" ]; then
            HIL_I2C_BUS=${f%/name}
            HIL_I2C_BUS=${HIL_I2C_BUS##*/i2c-}
        fi
    done
    [ -n "$HIL_I2C_BUS" ] || hil_die "no i2c adapter named 'SMBus stub driver' after loading i2c-stub"
    HIL_I2C_DEV=/dev/i2c-$HIL_I2C_BUS
    wait_for 20 test -c "$HIL_I2C_DEV" || hil_die "$HIL_I2C_DEV did not appear"
    hil_log "i2c: i2c-stub is $HIL_I2C_DEV with chips at $addrs"
}

# hil_i2c_write ADDR REG BYTE...: writes consecutive registers (one I2C block write per 32 bytes).
hil_i2c_write() {
    local addr=$1 reg=$2
    shift 2
    if [ $# -eq 1 ]; then
        i2cset -y "$HIL_I2C_BUS" "$addr" "$reg" "$1" b || return 1
        return 0
    fi
    while [ $# -gt 0 ]; do
        local chunk=("${@:1:32}")
        i2cset -y "$HIL_I2C_BUS" "$addr" "$reg" "${chunk[@]}" i || return 1
        shift "${#chunk[@]}"
        reg=$((reg + ${#chunk[@]}))
    done
}

# hil_i2c_read ADDR REG: prints one register ("0x6a").
hil_i2c_read() { i2cget -y "$HIL_I2C_BUS" "$1" "$2" b; }

# hil_i2c_read_block ADDR REG LEN: prints LEN registers from REG ("0x01 0x02 ..."), I2C block read.
hil_i2c_read_block() { i2cget -y "$HIL_I2C_BUS" "$1" "$2" i "$3" | tr '\n' ' ' | sed 's/ *$//'; }

# hil_imu_lsm6dsl_lis3mdl [AG_ADDR=0x6a] [M_ADDR=0x1c]: preloads the two chips' identity, reset
# values of the control registers, "data ready" status, 25 degC temperature, and the current
# physical state (default: level, at rest, facing magnetic north).
hil_imu_lsm6dsl_lis3mdl() {
    HIL_IMU_AG=${1:-0x6a}
    HIL_IMU_M=${2:-0x1c}
    [ -n "$HIL_I2C_BUS" ] || hil_die "load i2c-stub first: hil_i2c_stub $HIL_IMU_AG $HIL_IMU_M"
    hil_i2c_write "$HIL_IMU_AG" 0x0f 0x6a || hil_die "no chip at $HIL_IMU_AG on $HIL_I2C_DEV (give it to hil_i2c_stub)"
    hil_i2c_write "$HIL_IMU_AG" 0x10 0x00 0x00 0x04                  # CTRL1_XL, CTRL2_G, CTRL3_C (IF_INC)
    hil_i2c_write "$HIL_IMU_AG" 0x1e 0x07                            # STATUS: XLDA | GDA | TDA
    hil_i2c_write "$HIL_IMU_AG" 0x20 0x00 0x00                       # OUT_TEMP = 25 degC
    hil_i2c_write "$HIL_IMU_M" 0x0f 0x3d || hil_die "no chip at $HIL_IMU_M on $HIL_I2C_DEV (give it to hil_i2c_stub)"
    hil_i2c_write "$HIL_IMU_M" 0x20 0x10 0x00 0x03 0x00 0x00         # CTRL_REG1..5 reset values
    hil_i2c_write "$HIL_IMU_M" 0x27 0x0f                             # STATUS: ZYXDA + X/Y/Z DA
    hil_i2c_write "$HIL_IMU_M" 0xa7 0x0f                             # same at 0x27|0x80 (status + data burst)
    hil_i2c_write "$HIL_IMU_M" 0x2e 0x00 0x00                        # TEMP_OUT = 25 degC
    hil_imu_refresh
    hil_log "i2c: LSM6DSL at $HIL_IMU_AG, LIS3MDL at $HIL_IMU_M"
}

# Physical state (board frame = chip frame here: x forward, y left, z up). Each call re-encodes
# all outputs with the full scales currently configured in the chips.
hil_imu_set_accel() { HIL_IMU_ACCEL=("$1" "$2" "$3"); hil_imu_refresh; }   # m/s^2
hil_imu_set_gyro() { HIL_IMU_GYRO=("$1" "$2" "$3"); hil_imu_refresh; }     # rad/s
hil_imu_set_mag() { HIL_IMU_MAG=("$1" "$2" "$3"); hil_imu_refresh; }       # microtesla

# hil_imu_set_level_heading DEGREES [H_uT] [DOWN_uT]: the board at rest and level, its x axis at
# DEGREES clockwise from magnetic north: mag = (H cos, H sin, -DOWN) (north lies to the left, +y,
# when facing east). "Turn the board" by calling it again with another heading.
hil_imu_set_level_heading() {
    local h=${2:-$HIL_IMU_FIELD_H_UT} down=${3:-$HIL_IMU_FIELD_DOWN_UT}
    HIL_IMU_ACCEL=(0 0 9.80665)
    HIL_IMU_GYRO=(0 0 0)
    read -r -a HIL_IMU_MAG < <(awk -v d="$1" -v h="$h" -v z="$down" \
        'BEGIN { r = d * atan2(0, -1) / 180; printf "%.6f %.6f %.6f\n", h * cos(r), h * sin(r), -z }')
    hil_imu_refresh
}

# hil_imu_refresh: writes the physical state into the output registers (call again after the app
# has configured new full scales, e.g. after hil_imu_wait_configured).
hil_imu_refresh() {
    local xl g m bytes
    xl=$(hil_i2c_read "$HIL_IMU_AG" 0x10) && g=$(hil_i2c_read "$HIL_IMU_AG" 0x11) &&
        m=$(hil_i2c_read "$HIL_IMU_M" 0x21) || hil_die "cannot read the IMU control registers on $HIL_I2C_DEV"
    bytes=$(hil_imu_encode "$xl" "$g" "$m") || hil_die "cannot encode IMU state ${HIL_IMU_ACCEL[*]} / ${HIL_IMU_GYRO[*]} / ${HIL_IMU_MAG[*]}"
    read -r -a bytes <<<"$bytes"
    printf '%s\n' "${bytes[*]}" >"$HIL_IMU_BYTES_FILE"   # a torn read has < 18 bytes: skipped
    hil_i2c_write "$HIL_IMU_AG" 0x22 "${bytes[@]:0:12}" &&     # gyro x,y,z then accel x,y,z
        hil_i2c_write "$HIL_IMU_M" 0x28 "${bytes[@]:12:6}" &&   # mag x,y,z
        hil_i2c_write "$HIL_IMU_M" 0xa8 "${bytes[@]:12:6}" ||  # same at 0x28|0x80 (auto-increment reads)
        hil_die "cannot write the IMU output registers on $HIL_I2C_DEV"
}

# hil_imu_encode CTRL1_XL CTRL2_G CTRL_REG2: prints 18 bytes (gyro, accel, mag; int16 LE each).
hil_imu_encode() {
    awk -v xl="$(($1))" -v g="$(($2))" -v m="$(($3))" \
        -v a="${HIL_IMU_ACCEL[*]}" -v w="${HIL_IMU_GYRO[*]}" -v b="${HIL_IMU_MAG[*]}" '
    function le(raw,   v) {   # int16 two-s complement, little-endian, clamped
        v = raw < 0 ? int(raw - 0.5) : int(raw + 0.5)
        if (v > 32767) v = 32767
        if (v < -32768) v = -32768
        if (v < 0) v += 65536
        return sprintf("0x%02x 0x%02x", v % 256, int(v / 256))
    }
    BEGIN {
        split(a, A, " "); split(w, W, " "); split(b, B, " ")
        fs = int(xl / 4) % 4                       # CTRL1_XL FS_XL[3:2]: 2, 16, 4, 8 g
        xl_mg = fs == 0 ? 0.061 : fs == 1 ? 0.488 : fs == 2 ? 0.122 : 0.244
        if (int(g / 2) % 2 == 1) g_mdps = 4.375    # CTRL2_G FS_125
        else { fs = int(g / 4) % 4; g_mdps = fs == 0 ? 8.75 : fs == 1 ? 17.5 : fs == 2 ? 35 : 70 }
        fs = int(m / 32) % 4                       # CTRL_REG2 FS[6:5]: 4, 8, 12, 16 gauss
        m_lsb_per_gauss = fs == 0 ? 6842 : fs == 1 ? 3421 : fs == 2 ? 2281 : 1711
        deg = 180 / atan2(0, -1)
        out = ""
        for (i = 1; i <= 3; i++) out = out " " le(W[i] * deg * 1000 / g_mdps)
        for (i = 1; i <= 3; i++) out = out " " le(A[i] / 9.80665 * 1000 / xl_mg)
        for (i = 1; i <= 3; i++) out = out " " le(B[i] / 100 * m_lsb_per_gauss)
        print substr(out, 2)
    }'
}

# hil_imu_wait_configured TIMEOUT_S: waits until the app has started both chips (LSM6DSL accel ODR
# set, LIS3MDL in continuous mode), then refreshes the outputs with the configured full scales.
hil_imu_wait_configured() {
    wait_for "$1" hil_imu_is_configured || return 1
    hil_imu_refresh
}
hil_imu_is_configured() {
    local xl m
    xl=$(hil_i2c_read "$HIL_IMU_AG" 0x10) && m=$(hil_i2c_read "$HIL_IMU_M" 0x22) || return 1
    [ $((xl & 0xf0)) -ne 0 ] && [ $((m & 0x03)) -eq 0 ]
}

# hil_int16_le LO HI: prints the signed value of two register bytes (for checks).
hil_int16_le() { local v=$(( ($2 << 8) | $1 )); [ "$v" -ge 32768 ] && v=$((v - 65536)); echo "$v"; }

# hil_imu_noise_start [PERIOD_S=0.2]: a real MEMS chip never repeats a sample bit for bit, and an
# app may rightly treat identical samples as a stuck sensor (puckd faults the IMU after 100 in a
# row). i2c-stub's registers do not change by themselves, so this background process flips the
# least significant bit of the accelerometer's x output (0.122 mg at ±4 g) every PERIOD_S seconds,
# on top of the value hil_imu_refresh last encoded (read from HIL_IMU_BYTES_FILE each time, so a
# turn of the board is never undone). Stopped with hil_stop imu-noise, or at the scenario's end.
hil_imu_noise_start() {
    [ -f "$HIL_IMU_BYTES_FILE" ] || hil_die "hil_imu_noise_start: no IMU state yet (call hil_imu_lsm6dsl_lis3mdl first)"
    hil_bg imu-noise hil_imu_noise_loop "${1:-0.2}"
}
hil_imu_noise_loop() {
    local flip=0 bytes
    while true; do
        flip=$((flip ^ 1))
        read -r -a bytes <"$HIL_IMU_BYTES_FILE" 2>/dev/null && [ "${#bytes[@]}" = 18 ] &&
            i2cset -y "$HIL_I2C_BUS" "$HIL_IMU_AG" 0x28 $(( bytes[6] ^ flip )) b 2>/dev/null
        hil_sleep "$1"
    done
}
