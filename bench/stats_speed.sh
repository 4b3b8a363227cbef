#!/bin/sh
# bench/stats_speed.sh — time stats_compare() (the code behind compare() and
# the client's tables) for 5 .. 1000 runs a side, printing microseconds per
# call; then stats_changepoints() (history, changepoints()) for 30 .. 1000
# points, printing milliseconds per call.
set -e
cd "$(dirname "$0")/.."
out=$(mktemp /tmp/stats_speed.XXXXXX)
trap 'rm -f "$out"' EXIT
${CC:-cc} -O2 -Icommon -o "$out" bench/stats_speed.c common/*.c -lm
"$out"
