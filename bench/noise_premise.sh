#!/bin/sh
# bench/noise_premise.sh — the premise of test 046: with the measured
# noise below PREMISE (default 0.15), does a 40% slowdown ever end
# undecided?  For its plan (a 1-minute budget, 6 blocks at most, blocks of
# 2 runs), block times, round sds and drifts from a quiet host to one
# loaded beyond what the budget can decide in, one line per condition
# (bench/noise_premise.c).  SIMS experiments each (default 4000).
set -e
cd "$(dirname "$0")/.."
dir=$(mktemp -d /tmp/noise_premise.XXXXXX)
trap 'rm -rf "$dir"' EXIT
${CC:-cc} -O2 -Icommon -Itest/unit -o "$dir/noise_premise" bench/noise_premise.c common/*.c -lm
sims=${SIMS:-4000}
premise=${PREMISE:-0.15}
for drift in 0.03 0.15 0.3; do
	for sigma in 0.1 0.2 0.3 0.4 0.5; do
		for block in 12 15 20 30; do
			"$dir/noise_premise" 60 6 $block $sigma $drift $premise "$sims"
		done
	done
done
