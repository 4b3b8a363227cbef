#!/bin/bash
# bench/counted_names.sh — do a variant's name or its place in the file
# move instructions per transaction?  N counted A/As of the installed
# PostgreSQL, each of two variants of one binary whose names differ in
# length and spelling (a pair from the list below, the pair's order
# swapped every other experiment, so that the longer name is the baseline
# half the time): on one server (the second variant is cluster = the
# first) or with SERVERS=2 each on a server of its own.  Prints each
# experiment's B/A of the total, its 95% CI and verdict, then how many CIs
# cover 0 and the largest |CI end|.
#
#   bench/counted_names.sh   (N=20 ROUNDS=8 TX=40 SERVERS=1; OUT=DIR keeps
#                             the results; CLIENT=PATH another client)
#
# It runs the client of this tree against what is installed (no make
# install): the installed extension must be of this client's version.
set -eu
cd "$(dirname "$0")/.."
: "${PG_CONFIG:=pg_config}"
client=${CLIENT:-$(pwd)/client/pgbench_ext}
[ -x "$client" ] || { echo "counted_names.sh: $client is not built: run make first" >&2; exit 2; }
bindir=$("$PG_CONFIG" --bindir)
. bench/lib.sh
bench_results_dir counted_names

# names of other lengths and spellings; each pair's first is the shorter
pairs=("A a_much_longer_variant_name" "stock patched_build_number_2" "x yy" "base B_with_a_long_name_of_30ch")

echo "counted A/As of names, ${SERVERS:-1} server(s), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(uname -r), $("$bindir/postgres" -V)"
printf '%3s %-32s %-32s %10s %10s %9s %-22s %s\n' run baseline variant "total A" "total B" "B/A" "CI" verdict
for i in $(seq 1 "${N:-20}"); do
	read -r first second <<<"${pairs[$(((i - 1) / 2 % ${#pairs[@]}))]}"
	if [ $((i % 2)) = 0 ]; then
		tmp=$first first=$second second=$tmp
	fi
	if [ "${SERVERS:-1}" = 2 ]; then
		other=(--variant "$second" --bindir "$bindir")
	else
		other=(--variant "$second" --cluster "$first")
	fi
	"$client" ab -s 1 -c 1 -t "${TX:-40}" -r "${ROUNDS:-8}" -b select-only --reset never --profile counted \
		--seed "$i" --variant "$first" --bindir "$bindir" "${other[@]}" -o "$work/aa-$i" >"$work/log" 2>&1 ||
		{ tail -20 "$work/log" >&2; exit 1; }
	read -r a b est lo hi _ verdict <<<"$(counted_metric "$work/aa-$i/summary.json")"
	awk -v i="$i" -v f="$first" -v s="$second" -v a="$a" -v b="$b" -v e="$est" -v l="$lo" -v h="$hi" -v v="$verdict" \
		'BEGIN { printf "%3d %-32s %-32s %10.1f %10.1f %+8.4f%% [%+.4f%%, %+.4f%%] %s\n", i, f, s, a, b,
			100 * (e - 1), 100 * (l - 1), 100 * (h - 1), v }'
	echo "$lo $hi" >>"$work/cis"
done
# from the CIs as summary.json has them, not as printed
perl -ane '
	$n++;
	$cover++ if $F[0] <= 1 && $F[1] >= 1;
	for my $end (@F) { $max = abs($end - 1) if abs($end - 1) > $max }
	END { printf "%d of %d CIs cover 0; the largest |CI end| %.4f%%\n", $cover, $n, 100 * $max }' "$work/cis"
