#!/bin/bash
# Runs HIL scenarios, one fresh VM each (clean gpio-sim, i2c-stub and feeder state), and fails when
# any of them fails. `make hil` runs this.
#
#   Tests/HIL/run-scenarios.sh [SCENARIO.sh...]   (default: Tests/HIL/scenarios/*.sh)
#
# Each scenario prints "N passed, N failed"; the last line is the same for all checks together (a
# scenario that ends without its summary counts as one failure). Logs are in .build/hil/run/NAME/
# (console.log, feeder.log, gps-rx.bin = what the guest sent to the GPS, app-*.log = the program's
# output). A scenario may carry header lines
#   # hil-feeder-args: --loop --speed 2     (arguments for feeder.py)
#   # hil-timeout: 400                      (seconds for the whole VM run; default 240)
#   # hil-libgpiod: both                    (also run it on the other libgpiod API's device binary)
# Environment: HIL_LIBGPIOD (the libgpiod version of .build/device/release/puckd; default: this
# machine's, from pkg-config), HIL_PUCKD_OTHER and HIL_LIBGPIOD_OTHER (the device binary built against
# the other API and its version: `make hil` passes them). Scenarios get HIL_PUCKD (the binary to run)
# and HIL_EXPECT_LIBGPIOD (the version it must carry).
set -euo pipefail
HIL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HIL_DIR/../.." && pwd)
cd "$REPO"

if [ $# -eq 0 ]; then
    set -- "$HIL_DIR"/scenarios/*.sh
fi
for s in "$@"; do
    [ -f "$s" ] || { echo "hil: no scenario file $s" >&2; exit 2; }
done

system_puckd=.build/device/release/puckd
system_libgpiod=${HIL_LIBGPIOD:-$(pkg-config --modversion libgpiod 2>/dev/null || true)}
other_puckd=${HIL_PUCKD_OTHER:-}
other_libgpiod=${HIL_LIBGPIOD_OTHER:-}
if [ -n "$other_puckd" ]; then
    [ -x "$other_puckd" ] || { echo "hil: HIL_PUCKD_OTHER=$other_puckd is not an executable (make build-other)" >&2; exit 2; }
    [ -n "$other_libgpiod" ] || other_libgpiod=$("$other_puckd" --version | sed -n 's/^libgpiod \([0-9.]*\) .*/\1/p')
fi
# The runs: "SCENARIO NAME BINARY LIBGPIOD", one per scenario, plus the other binary's for those that ask.
runs=()
for s in "$@"; do
    name=$(basename "$s" .sh)
    runs+=("$s $name $system_puckd ${system_libgpiod:--}")
    if [ -n "$other_puckd" ] && grep -q '^# hil-libgpiod: both' "$s"; then
        runs+=("$s $name-libgpiod$other_libgpiod $other_puckd $other_libgpiod")
    fi
done

t0=$EPOCHREALTIME
"$HIL_DIR/rig.sh" --prepare
results=()
failed=0
checks_passed=0
checks_failed=0
for run in "${runs[@]}"; do
    read -r s name binary libgpiod <<<"$run"
    [ "$libgpiod" = - ] && libgpiod=""
    rel=$(realpath --relative-to="$REPO" "$s")
    echo "hil: === scenario $name ($rel, $binary${libgpiod:+, libgpiod $libgpiod}) ==="
    args=(--name "$name")
    read -r -a feeder_args <<<"$(sed -n 's/^# hil-feeder-args://p' "$s" | head -n 1)"
    for a in "${feeder_args[@]}"; do args+=("--feeder-arg=$a"); done
    t=$(sed -n 's/^# hil-timeout: *\([0-9][0-9]*\) *$/\1/p' "$s" | head -n 1)
    [ -n "$t" ] && args+=(--timeout "$t")
    rc=0
    "$HIL_DIR/rig.sh" "${args[@]}" -- env HIL_PUCKD="$binary" HIL_EXPECT_LIBGPIOD="$libgpiod" bash "$rel" || rc=$?
    summary=$(tr -d '\r' <"$REPO/.build/hil/run/$name/console.log" 2>/dev/null | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1 || true)
    if [ "$rc" = 0 ]; then verdict=PASS; else verdict="FAIL (status $rc)"; failed=$((failed + 1)); fi
    if [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        checks_passed=$((checks_passed + BASH_REMATCH[1]))
        checks_failed=$((checks_failed + BASH_REMATCH[2]))
        # A scenario that failed without a failed check (timeout, crash) still counts as one.
        [ "$rc" != 0 ] && [ "${BASH_REMATCH[2]}" = 0 ] && checks_failed=$((checks_failed + 1))
    else
        checks_failed=$((checks_failed + 1))   # no summary line: the scenario did not finish
    fi
    results+=("$(printf '%-24s %-18s %s' "$name" "$verdict" "${summary:-no summary line}")")
done
echo "hil: === results ==="
printf 'hil: %s\n' "${results[@]}"
echo "hil: $(( ${#runs[@]} - failed )) of ${#runs[@]} scenario runs passed in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
echo "$checks_passed passed, $checks_failed failed"
[ "$failed" = 0 ]
