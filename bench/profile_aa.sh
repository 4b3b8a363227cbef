#!/bin/bash
# bench/profile_aa.sh — A/A comparisons of profiles: how often a function is
# reported changed when nothing changed.
#
# N experiments of each mode on the installed PostgreSQL, every one with two
# identical variants: on one server (B is cluster = A with no setting), or
# with SERVERS=2 each on its own server of the same binary:
#   counted   pgbench -S -c 1, COUNTED_ROUNDS rounds of COUNTED_TX transactions
#   sampled   pgbench -S -c 2, SAMPLED_ROUNDS rounds of DURATION s
# and per experiment: the functions compared, those changed, the verdict of
# the total (instructions or CPU per transaction).
#
#   PG_CONFIG=... bench/profile_aa.sh   (N=3 COUNTED_ROUNDS=10 COUNTED_TX=60
#                                        SAMPLED_ROUNDS=12 DURATION=3; MODES="counted sampled";
#                                        SERVERS=1; ASLR=on; OUT=DIR keeps the results)
set -eu
cd "$(dirname "$0")/.."
: "${PG_CONFIG:=pg_config}"
export PG_CONFIG
make -s PG_CONFIG="$PG_CONFIG" >/dev/null && make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
client=$(pwd)/client/pgbench_ext
bindir=$("$PG_CONFIG" --bindir)
. bench/lib.sh
bench_results_dir profile_aa

if [ "${SERVERS:-1}" = 2 ]; then
	second=(--variant B --bindir "$bindir")
else
	second=(--variant B --cluster A)
fi

echo "A/A profiles, ${SERVERS:-1} server(s), aslr ${ASLR:-on}, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(uname -r), $("$bindir/postgres" -V)"
printf '%-8s %3s %10s %8s %10s %10s %9s %-22s %9s %s\n' mode run compared changed "total A" "total B" "B/A" "CI" "half-width" "verdict"
for mode in ${MODES:-counted sampled}; do
	for i in $(seq 1 "${N:-3}"); do
		if [ "$mode" = counted ]; then
			load=(-c 1 -t "${COUNTED_TX:-60}" -r "${COUNTED_ROUNDS:-10}")
		else
			load=(-c 2 -T "${DURATION:-3}" -r "${SAMPLED_ROUNDS:-12}")
		fi
		"$client" ab -s 1 "${load[@]}" -b select-only --reset never --profile "$mode" --seed "$i" --aslr "${ASLR:-on}" \
			--variant A --bindir "$bindir" "${second[@]}" -o "$work/$mode-$i" >"$work/log" 2>&1 ||
			{ tail -20 "$work/log" >&2; exit 1; }
		perl -MJSON::PP -e '
			my $s = JSON::PP->new->decode(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
			my $c = $s->{profiles}{cells}[0];
			my $m = $c->{metrics}[0];
			printf "%-8s %3d %10d %8d %10.1f %10.1f %+8.3f%% [%+.3f%%, %+.3f%%] %8.3f%% %s\n", $ARGV[1], $ARGV[2],
				scalar @{ $c->{functions} }, $c->{changed}, $m->{a_median}, $m->{b_median},
				100 * ($m->{estimate} - 1), 100 * ($m->{ci_low} - 1), 100 * ($m->{ci_high} - 1),
				50 * ($m->{ci_high} - $m->{ci_low}), $m->{verdict};
			printf "    changed: %s\n", join(", ", map { $_->{function} } grep { $_->{changed} } @{ $c->{functions} })
				if $c->{changed};' "$work/$mode-$i/summary.json" "$mode" "$i"
	done
done
