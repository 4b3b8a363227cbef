#!/bin/bash
# bench/driver_cpu.sh — how much CPU the pgbench_ext driver itself uses while
# it runs an experiment (goal: at most 1% of one core), apart from pgbench and
# the servers it starts.
#
#   bench/driver_cpu.sh [ROUNDS] [SECONDS]     (defaults 4 rounds of 10 s runs)
#
# Samples the driver's own utime + stime from /proc/PID/stat once a second
# (children are not included there) and divides the last sample by the wall
# time of the whole experiment, set-up included.
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-4}
seconds=${2:-10}
bindir=$(pg_config --bindir)
work=$(mktemp -d /tmp/pgbench_ext_driver_cpu.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
ticks=$(getconf CLK_TCK)

start=$(date +%s.%N)
client/pgbench_ext ab -s 10 -c 2 -T "$seconds" -r "$rounds" -b select-only --reset never \
	--variant A --bindir "$bindir" --variant B --bindir "$bindir" \
	-o "$work/exp" >"$work/out" 2>&1 &
pid=$!
cpu_ticks=0
while kill -0 "$pid" 2>/dev/null; do
	# fields 14 and 15 of /proc/PID/stat: utime and stime in clock ticks
	t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo "$cpu_ticks")
	cpu_ticks=$t
	sleep 1
done
wait "$pid"
end=$(date +%s.%N)
awk -v t="$cpu_ticks" -v hz="$ticks" -v s="$start" -v e="$end" -v r="$rounds" -v d="$seconds" 'BEGIN {
	cpu = t / hz; wall = e - s;
	printf "experiment: 2 variants x %d rounds of %d s runs, %.1f s wall\n", r, d, wall;
	printf "driver CPU: %.2f s = %.2f%% of one core (goal <= 1%%)\n", cpu, 100 * cpu / wall;
}'
