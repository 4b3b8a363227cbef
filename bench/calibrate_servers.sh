#!/bin/bash
# bench/calibrate_servers.sh — the calibration across servers, old scheme
# against new: A/A and a known slowdown on two clusters of one build, each
# once with the servers started once per phase (restart = never) and once
# restarted every N rounds, and the wall time each scheme costs.
#
#   bench/calibrate_servers.sh [extra pgbench_ext calibrate options]
#
# bench/calibrate.sh with --restart 1 and 2 s runs before the options given
# (later options win, e.g. -T 1 or --restart 2 --rounds 12): 20 comparisons
# per phase of 6 rounds, each then 6 instance pairs.  Its report ends with
# the across-servers table; the results stay in the directory it names
# ($CALIBRATION_DIR).
set -eu
cd "$(dirname "$0")/.."
start=$(date +%s)
bench/calibrate.sh -T 2 --restart 1 "$@"
echo "calibrate_servers: $(($(date +%s) - start)) s in all"
