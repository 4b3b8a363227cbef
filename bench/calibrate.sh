#!/bin/bash
# bench/calibrate.sh — the calibration figures of the README: A/A false-positive
# rate, detection rate and CI coverage of an injected slowdown, noise by run length.
#
#   bench/calibrate.sh [extra pgbench_ext calibrate options]
#
# Runs "pgbench_ext calibrate" on the installed PostgreSQL (make install first)
# and prints its report; the results stay in the directory it names.
# Defaults: select-only, 2 clients, 4 s runs, 20 comparisons of 6 rounds per
# phase, a 3% target.  The README's figures came from
#   bench/calibrate.sh -T 3 --rounds 90 --blocks 10 --skip-aa --size-rounds 90
#                                                      (detection, 101 min)
#   bench/calibrate.sh -T 3 --rounds 8 --blocks 20     (A/A, 35 min)
# where --size-rounds first measures the 3% setting's true slowdown and
# scales the setting of the ten comparisons to it (see the README).
set -eu
cd "$(dirname "$0")/.."
out=${CALIBRATION_DIR:-/tmp/pgbench_ext_calibration.$(date +%Y%m%dT%H%M%S)}
mkdir -p "$(dirname "$out")"
chmod 755 "$(dirname "$out")" 2>/dev/null || true
client/pgbench_ext calibrate -b select-only -c 2 -s 10 -T 4 --blocks 20 --rounds 6 \
	-o "$out" "$@"
