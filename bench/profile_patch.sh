#!/bin/bash
# bench/profile_patch.sh — one patch seen three ways, side by side: the tps
# verdict, the counted profile (instructions and, with cache simulation,
# simulated cache misses per transaction, per function) and the sampled
# profile (CPU time per transaction, per function).
#
# A is PostgreSQL from tools/pg-source, B the same with PATCH; both are
# built for profiles (symbols, frame pointers) into $PGBENCH_EXT_BUILD_CACHE.
# Two experiments of pgbench_ext on the same builds:
#   counted   profile = counted, cache_sim = on, pgbench -S -c 1, COUNTED_ROUNDS
#             rounds of COUNTED_TX transactions
#   sampled   profile = sampled (perf, the default rate), pgbench -S -c 2,
#             SAMPLED_ROUNDS rounds of DURATION s: its tps is the tps verdict
# Their results directories stay under OUT.
#
#   bench/profile_patch.sh PATCH [OUT]   (COUNTED_ROUNDS=10 COUNTED_TX=100
#                                         SAMPLED_ROUNDS=16 DURATION=5 SCALE=1)
set -eu
cd "$(dirname "$0")/.."
patch=$(realpath "${1:?usage: bench/profile_patch.sh PATCH [OUT]}")
out=${2:-$(mktemp -d /tmp/pgbench_ext_profile_patch.XXXXXX)}
mkdir -p "$out"
chmod 755 "$out"
: "${PG_CONFIG:=pg_config}"
export PG_CONFIG
make -s PG_CONFIG="$PG_CONFIG" >/dev/null && make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
client=$(pwd)/client/pgbench_ext
src=$(tools/pg-source)
variants=(--variant A --source "$src" --variant B --source "$src" --patch "$patch")
scale=${SCALE:-1}

echo "== $(basename "$patch"): $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(uname -r)"
"$client" ab -s "$scale" -c 1 -t "${COUNTED_TX:-100}" -r "${COUNTED_ROUNDS:-10}" -b select-only \
	--reset never --profile counted --cache-sim on --aslr off --seed 1 "${variants[@]}" -o "$out/counted" >"$out/counted.log" 2>&1 ||
	{ tail -20 "$out/counted.log" >&2; exit 1; }
"$client" ab -s "$scale" -c 2 -T "${DURATION:-5}" -r "${SAMPLED_ROUNDS:-16}" -b select-only \
	--reset never --profile sampled --seed 1 "${variants[@]}" -o "$out/sampled" >"$out/sampled.log" 2>&1 ||
	{ tail -20 "$out/sampled.log" >&2; exit 1; }

echo
echo "-- tps (the sampled experiment's runs; sampling costs under 1%, docs/profiles.md)"
sed -n '/^ script /,/^(/{p;/^(/q}' "$out/sampled.log"
for mode in counted sampled; do
	echo
	echo "-- $mode profile"
	sed -n "/^$mode profile/,\$p" "$out/$mode.log" | grep -v '^report:\|^results:'
done
echo
echo "results: $out/counted, $out/sampled"
