#!/bin/bash
# bench/counted_layout.sh — do builds that differ only in where their code
# and data lie count alike, and do repeated attempts agree?  Counted A/Bs
# (instructions per transaction, pgbench -S -c 1, aslr = off) of PostgreSQL
# built from the source tree SRC, every build with symbols:
#
#   relinks   two relinks of one build's objects in shuffled function
#             orders (build_seed = 1 against build_seed = 2)
#   linkers   the compiler's own link against a relink (no seed against
#             build_seed = 1: another linker, another order, another heap start)
#   comments  the build against the same tree with three comment-only
#             patches (the first three of test/fixtures/bisect/: the counted
#             bisect's state 3)
#
# each N times, another plan seed each time and the order of the pair
# swapped every other, with every server restarted every round (8 rounds of
# 40 transactions: instance pairs are the CI's unit); and "comments" N
# times more as a counted bisect step measures it (restart = never, 6
# rounds of 60).  Prints each attempt's B/A with its 95% CI, then, per pair
# and design, how many pairs of attempts agree and how many CIs cover 0,
# and last how many paired runs counted alike (bench/counted_pairs.py, which
# also shows, for one results directory, which functions differ).
#
#   SRC=DIR bench/counted_layout.sh   (N=2 PAIRS="relinks linkers comments";
#                                      OUT=DIR keeps the results; CLIENT=PATH
#                                      another client)
#
# With OUT, an attempt whose experiment file and results are there from an
# earlier run of the same settings is read again, not run again.
#
# Two attempts agree when each estimate lies inside the other's CI
# (strict: a CI of [0, 0], every round alike, admits no other estimate),
# or, less strictly, when their difference is within the half-widths
# combined, sqrt(h1^2 + h2^2): the 95% bound of a difference of two
# independent estimates.  Both are counted over every pair of attempts, with
# the largest difference: of calibrated 95% CIs the second holds for about
# 95% of pairs, the first for fewer (about 83% when the CIs are alike).
# The builds go to the build cache (PGBENCH_EXT_BUILD_CACHE, docs/building.md)
# and are reused from it: the first run builds PostgreSQL once and relinks it
# twice (minutes); the experiments take about 3 to 4 minutes each.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
client=${CLIENT:-$top/client/pgbench_ext}
[ -x "$client" ] || { echo "counted_layout.sh: $client is not built: run make first" >&2; exit 2; }
if [ -z "${SRC:-}" ] || [ ! -x "$SRC/configure" ]; then
	echo "counted_layout.sh: SRC must name a PostgreSQL source tree (tools/pg-source 15 unpacks one)" >&2
	exit 2
fi
for p in ${PAIRS:=relinks linkers comments}; do
	case $p in relinks | linkers | comments) ;; *)
		echo "counted_layout.sh: PAIRS: \"$p\" is not relinks, linkers or comments" >&2; exit 2 ;;
	esac
done
. bench/lib.sh
bench_results_dir counted_layout
fx=$top/test/fixtures/bisect

# the [variant] body of one side of a pair
side() {
	local pair=$1 which=$2
	printf 'source = %s\nsymbols = on\n' "$SRC"
	case $pair/$which in
	relinks/first) echo "build_seed = 1" ;;
	relinks/second) echo "build_seed = 2" ;;
	linkers/second) echo "build_seed = 1" ;;
	comments/second)
		for n in 1-varlena 2-vacuum 3-namespace; do echo "patch = $fx/$n-comment.patch"; done ;;
	esac
}

# one attempt: pair, design (restarted or bisect), attempt number
attempt() {
	local pair=$1 design=$2 i=$3 name=$1-$2-$3 first=first second=second
	local restart=1 rounds=8 tx=40

	attempts+=("$work/$name")

	[ "$design" = bisect ] && restart=never rounds=6 tx=60
	[ $((i % 2)) = 0 ] && first=second second=first
	{
		printf '[experiment]\nscale = 1\nclients = 1\nscript = select-only\nreset = never\n'
		printf 'profile = counted\naslr = off\nrestart = %s\nrounds = %s\ntransactions = %s\nseed = %s\n' \
			"$restart" "$rounds" "$tx" "$((100 + i))"
		printf '\n[variant A]\n'
		side "$pair" "$first"
		printf '\n[variant B]\n'
		side "$pair" "$second"
	} >"$work/$name.ini.new"
	if [ -f "$work/$name/summary.json" ] && cmp -s "$work/$name.ini.new" "$work/$name.ini"; then
		rm "$work/$name.ini.new"	# done before, with these settings
	else
		rm -rf "${work:?}/$name"
		mv "$work/$name.ini.new" "$work/$name.ini"
		"$client" run "$work/$name.ini" -o "$work/$name" >"$work/$name.log" 2>&1 ||
			{ tail -20 "$work/$name.log" >&2; exit 1; }
	fi
	read -r a b est lo hi decision _ <<<"$(counted_metric "$work/$name/summary.json")"
	order=$([ "$first" = first ] && echo as-is || echo swapped)
	awk -v p="$pair" -v d="$design" -v i="$i" -v o="$order" -v a="$a" -v b="$b" -v e="$est" -v l="$lo" -v h="$hi" \
		-v v="$decision" 'BEGIN { printf "%-9s %-9s %2d %-7s %10.1f %10.1f %+8.4f%% [%+.4f%%, %+.4f%%] %s\n",
			p, d, i, o, a, b, 100 * (e - 1), 100 * (l - 1), 100 * (h - 1), v }'
	# B/A as "second against first", whichever ran as A
	if [ "$order" = swapped ]; then
		awk -v p="$pair" -v d="$design" -v e="$est" -v l="$lo" -v h="$hi" \
			'BEGIN { printf "%s %s %.17g %.17g %.17g\n", p, d, 1 / e, 1 / h, 1 / l }'
	else
		echo "$pair $design $est $lo $hi"
	fi >>"$work/all"
}

echo "counted A/Bs of builds that differ in layout, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(uname -r), source $SRC"
printf '%-9s %-9s %2s %-7s %10s %10s %9s %-22s %s\n' pair design n order "total A" "total B" "B/A" "CI" decision
: >"$work/all"
attempts=()
for pair in $PAIRS; do
	for i in $(seq 1 "${N:-2}"); do attempt "$pair" restarted "$i"; done
	if [ "$pair" = comments ]; then
		for i in $(seq 1 "${N:-2}"); do attempt "$pair" bisect "$i"; done
	fi
done
echo
echo "second against first (the order undone), and how often two attempts agree:"
perl -ane '
	push @{ $by{"$F[0] $F[1]"} }, [ map { 100 * ($_ - 1) } @F[2 .. 4] ];
	END {
		for my $k (sort keys %by) {
			my @a = @{ $by{$k} };
			my ($pairs, $inside, $within, $gap, $cover) = (0, 0, 0, 0, 0);
			for my $i (0 .. $#a) {
				my $x = $a[$i];
				$cover++ if $x->[1] <= 0 && $x->[2] >= 0;
				for my $y (@a[$i + 1 .. $#a]) {
					my $d = abs($x->[0] - $y->[0]);
					my $bound = sqrt((($x->[2] - $x->[1]) / 2)**2 + (($y->[2] - $y->[1]) / 2)**2);
					$pairs++;
					$inside++ if $x->[0] >= $y->[1] && $x->[0] <= $y->[2]
						&& $y->[0] >= $x->[1] && $y->[0] <= $x->[2];
					$within++ if $d <= $bound;
					$gap = $d if $d > $gap;
				}
			}
			printf "%-19s %s\n", $k, join("  ", map { sprintf "%+.4f%% [%+.4f%%, %+.4f%%]", @$_ } @a);
			printf "    of %d pairs of attempts: %d with estimates inside each other\x27s CI, %d with their difference within the combined half-widths (calibrated 95%% CIs: about 95%%); largest difference %.4f%%; CIs covering 0: %d of %d\n",
				$pairs, $inside, $within, $gap, $cover, scalar @a;
		}
	}' "$work/all"
echo
bench/counted_pairs.py --quiet "${attempts[@]}"
