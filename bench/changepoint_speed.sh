#!/bin/sh
# bench/changepoint_speed.sh — time stats_changepoints() (the code behind
# "pgbench_ext history" and changepoints() in psql) for 30 .. 1000 points;
# prints milliseconds per call.
set -e
cd "$(dirname "$0")/.."
out=$(mktemp /tmp/changepoint_speed.XXXXXX)
trap 'rm -f "$out"' EXIT
${CC:-cc} -O2 -Icommon -o "$out" bench/changepoint_speed.c common/*.c -lm
"$out"
