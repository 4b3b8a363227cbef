#!/bin/bash
# bench/profile_sample_cost.sh — the CPU one perf sample costs, and from it
# what profile = sampled adds to the servers at each rate.
#
# bench/profile_overhead.sh measures that in tps, where this machine's noise
# (several per cent per run, tens under others' load) hides anything under a
# per cent.  Here it is taken where little else moves it: a CPU-bound piece
# of work (at the end of a 30-deep call chain) runs REPEAT times under perf
# record as profile = sampled records (EVENT:u, call chains by frame
# pointers, -N) at a high RATE, as the servers' account.  What sampling adds
# is the kernel's work in the sampled process (taking the sample, walking
# its frame pointers: system time of a loop that otherwise makes no system
# call) and perf's own CPU (reading and writing the samples): measured by
# getrusage, divided by the samples taken.  The overhead at a rate is the
# rate times that cost.  The same work alone gives the system time it has
# without perf.
#
#   bench/profile_sample_cost.sh   (REPEAT=5 RATE=10000 RATES="99 499 999 1999")
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
REPEAT=${REPEAT:-5}
RATE=${RATE:-10000}
work=$(mktemp -d /tmp/pgbench_ext_sample_cost.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O1 -fno-omit-frame-pointer -o "$work/cost" bench/profile_sample_cost.c
chown "${PGBENCH_EXT_OS_USER:-postgres}" "$work" 2>/dev/null || true
perf=$(command -v perf)
if as_server_user "$perf" stat -x, -e cycles:u -- true 2>&1 | grep -q '<not supported>\|<not counted>'; then
	event=cpu-clock period="-c $((1000000000 / RATE))"
else
	event=cycles period="-F $RATE"
fi

echo "host: $(nproc) CPUs, $(uname -r); perf $("$perf" version | cut -d' ' -f3), event $event:u at $RATE per CPU-second, $REPEAT repeats"
printf '%-10s %10s %10s %10s %10s %12s\n' "" "work user" "work sys" "perf CPU" samples "us/sample"
for i in $(seq 1 "$REPEAT"); do
	total=$(as_server_user "$work/cost" run "$work/cost" work "$work/alone")
	read -r user sys <"$work/alone"
	printf '%-10s %10.3f %10.3f %10s %10s %12s\n' alone "$user" "$sys" - - -
	echo "alone $sys" >>"$work/result"
	total=$(as_server_user "$work/cost" run "$perf" record -q -e "$event:u" $period -g -N \
		-o "$work/perf.data" -- "$work/cost" work "$work/sampled")
	read -r user sys <"$work/sampled"
	samples=$(as_server_user "$perf" script -i "$work/perf.data" -F period 2>/dev/null | grep -c .)
	awk -v t="$total" -v u="$user" -v s="$sys" -v n="$samples" 'BEGIN {
		printf "%-10s %10.3f %10.3f %10.3f %10d\n", "sampled", u, s, t - u - s, n }'
	echo "sampled $sys $(awk -v t="$total" -v u="$user" -v s="$sys" 'BEGIN { print t - u - s }') $samples" >>"$work/result"
done
awk -v rates="${RATES:-99 499 999 1999}" '
	$1 == "alone" { base[++na] = $2 }
	$1 == "sampled" { s[++ns] = $2; p[ns] = $3; n[ns] = $4 }
	function median(a, k,   i, j, t) {
		for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	END {
		b = median(base, na)
		for (i = 1; i <= ns; i++) c[i] = (s[i] - b + p[i]) / n[i]
		cost = median(c, ns)
		printf "\ncost per sample (median of %d; the work'"'"'s own system time alone, median %.3f s, subtracted): %.2f us\n", ns, b, cost * 1e6
		split(rates, r, " ")
		for (i = 1; i in r; i++)
			printf "  at %5d samples per CPU-second: %.2f%% of the CPU sampled\n", r[i], 100 * r[i] * cost
	}' "$work/result"
