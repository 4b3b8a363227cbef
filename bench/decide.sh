#!/bin/bash
# bench/decide.sh — how soon and how rightly the budgeted mode decides
# across two servers, for quieting configurations side by side in one
# sitting (docs/calibration.md, "Deciding across servers").
#
# Each comparison is one "pgbench_ext ab --rounds auto --budget B" of two
# managed servers of one installation (restart = auto), as a user runs it:
#
#   aa      A against A2, identical: a "faster" or "slower" is a false
#           positive; the CI should contain 0;
#   slow    A against a server with pgbench_ext.inject_slowdown_pct =
#           SETTING (busy-waits that share of each transaction cycle): the
#           share of "slower", the time to decide, and whether the CI
#           contains the phase's truth.
#
# Configuration duet3 adds a third variant C, a server like A's, to a
# duet: every round runs A beside B and A beside C, and the figures are
# B's comparison with A's runs beside it.
#
# CONFIGS=defaults PHASES=aa AA_BUDGET=2m30s SCALE=10 RESET=never repeats
# "make demo"'s first experiment as a user meets it: an A/A of two servers
# of one installation (the demo's second server sets synchronous_commit =
# off, which a read-only load cannot feel), the client's defaults, 2m30s
# each.
#
# The truth of a slowed phase is measured apart from each comparison's
# verdict: the mean paired log ratio of every counted round of all its
# comparisons (the tps truth), and the backends' user CPU per transaction
# B/A from the extension's counters.  The comparisons run in turn, REPEAT
# times over each configuration and phase, so that the host's drift falls on
# all alike; every comparison is a line of the CSV.
#
#   PG_CONFIG=... bench/decide.sh    (CONFIGS="interleaved duet" PHASES="aa slow"
#                                     REPEAT=8 BUDGET=30m AA_BUDGET=BUDGET
#                                     SETTING=1.4 DURATION=2 CLIENTS=1 SCALE=1
#                                     RESET=never: ab's --reset (the default
#                                     resets between runs),
#                                     SCRIPT=select-only CLIENT=client/pgbench_ext
#                                     KEEP=DIR: each comparison's results, without
#                                     its clusters, kept in DIR for a later look;
#                                     ONLY="duet:aa duet-swap:slow": of the
#                                     configurations and phases, only these pairs;
#                                     RESTART=N: a restart every N rounds in every
#                                     comparison instead of restart = auto, so
#                                     that each has its rounds and instances
#                                     apart and no comparison's noise record
#                                     chooses the next one's design;
#                                     FIRST_SEED=S: the repeats' --seed from S
#                                     on (default 1), so that a later sitting's
#                                     comparisons do not repeat an earlier's;
#                                     LOAD=N: N processes spinning on every
#                                     CPU through the sitting, a loaded host
#                                     (LOAD=1 one each, LOAD=2 a heavier load);
#                                     FRESH_STATE=1: every comparison with an
#                                     empty noise history, as on a fresh
#                                     machine, so that pilot = auto measures
#                                     a loaded host's noise first every time;
#                                     STATE_FROM=FILE: every comparison with
#                                     a copy of this noise history (noise.csv),
#                                     so that each plans from the same record
#                                     and none from another's;
#                                     PILOT=N|off: ab's --pilot;
#                                     A_FLAGS, B_FLAGS: the variants' flags
#                                     instead of "--bindir" of PG_CONFIG's
#                                     installation, e.g. two builds of one
#                                     source: A_FLAGS="--source SRC"
#                                     B_FLAGS="--source SRC --cflags -O2",
#                                     two build directories of one binary)
#
# LOAD=1 FRESH_STATE=1 CONFIGS=defaults PHASES=aa AA_BUDGET=2m30s SCALE=10
# RESET=never is "make demo"'s first experiment on a fresh, loaded machine:
# the columns pilot_* hold what its pilot measured and said (pilot.json).
# Column forecast holds what the line after the second block said the
# budget could do (can, may not, cannot; each run's output is kept in its
# results directory as ab.log), column preflight what the pre-flight said
# before the first counted run (the pilot's word where it ran one, the
# history's record's where not; empty where it promised nothing).
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
CONFIGS=${CONFIGS:-interleaved duet}
PHASES=${PHASES:-aa slow}
REPEAT=${REPEAT:-8}
BUDGET=${BUDGET:-30m}
AA_BUDGET=${AA_BUDGET:-$BUDGET}
SETTING=${SETTING:-1.4}
DURATION=${DURATION:-2}
CLIENTS=${CLIENTS:-1}
SCALE=${SCALE:-1}
SCRIPT=${SCRIPT:-select-only}
CSV=${CSV:-docs/figures/decide-$(date -u +%Y%m%dT%H%MZ).csv}

for config in $CONFIGS; do quiet_flags "$config" >/dev/null || exit 2; done
for phase in $PHASES; do
	case $phase in aa | slow) ;; *) echo "bench/decide.sh: unknown phase \"$phase\" (aa or slow)" >&2; exit 2 ;; esac
done

bench_begin decide
spinners=""
trap 'rm -rf "$work"; [ -z "$spinners" ] || kill $spinners 2>/dev/null' EXIT
case ${LOAD:-0} in [0-9] | [0-9][0-9]) ;; *) echo "bench/decide.sh: LOAD must be a count of processes per CPU, got \"$LOAD\"" >&2; exit 2 ;; esac
for _ in $(seq 1 "${LOAD:-0}"); do
	for cpu in $(seq 0 $(($(nproc --all) - 1))); do
		taskset -c "$cpu" sh -c 'while :; do :; done' &
		spinners="$spinners $!"
	done
done
bindir=$("$PG_CONFIG" --bindir)
client=${CLIENT:-client/pgbench_ext}
echo "config,phase,repeat,setting,budget,decision,estimate,ci_low,ci_high,spent_s,rounds,units,look,max_looks,sum_log_ratio,paired_rounds,cpu_ratio,started_at,unit_lag1,unit_cpu_r,unit_sd,unit_cpu_sd,instance_sd,round_sd,pilot_decides,pilot_round_sd,pilot_expected_s,pilot_least_s,pilot_most_s,forecast,preflight" >"$CSV"

for repeat in $(seq 1 "$REPEAT"); do
	for config in $CONFIGS; do
		for phase in $PHASES; do
			case " ${ONLY:-$config:$phase} " in *" $config:$phase "*) ;; *) continue ;; esac
			dir="$work/$config-$phase-$repeat"
			slow="" budget=$AA_BUDGET setting=0 third=""
			[ "$config" = duet3 ] && third="--variant C --bindir $bindir"
			if [ "$phase" = slow ]; then
				slow="--set pgbench_ext.inject_slowdown_pct=$SETTING" budget=$BUDGET setting=$SETTING
			fi
			restart=""
			[ -n "${RESTART:-}" ] && restart="--restart $RESTART"
			[ -n "${RESET:-}" ] && restart="$restart --reset $RESET"
			[ -n "${PILOT:-}" ] && restart="$restart --pilot $PILOT"
			started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
			if [ -n "${FRESH_STATE:-}${STATE_FROM:-}" ]; then
				rm -rf "$work/state"
				export PGBENCH_EXT_STATE_DIR="$work/state"
			fi
			if [ -n "${STATE_FROM:-}" ]; then
				mkdir "$work/state"
				cp "$STATE_FROM" "$work/state/noise.csv"
			fi
			# shellcheck disable=SC2046,SC2086
			bench_ab "$config $phase" "$work/last.log" "$client" -s "$SCALE" -c "$CLIENTS" -T "$DURATION" \
				-b "$SCRIPT" --rounds auto --budget "$budget" --seed $((${FIRST_SEED:-1} + repeat - 1)) $restart $(quiet_flags "$config") \
				--variant A ${A_FLAGS:---bindir $bindir} --variant B ${B_FLAGS:---bindir $bindir} $slow $third -o "$dir"
			cp "$work/last.log" "$dir/ab.log"
			bench/decide.py row "$dir" "$config" "$phase" "$repeat" "$setting" "$budget" "$started" >>"$CSV"
			tail -1 "$CSV"
			if [ -n "${KEEP:-}" ]; then
				mkdir -p "$KEEP"
				tar -C "$work" --exclude=clusters -cf - "$config-$phase-$repeat" | tar -C "$KEEP" -xf -
			fi
		done
	done
done

echo
echo "$REPEAT repeat(s); budgets: slow $BUDGET, aa $AA_BUDGET; -s $SCALE, -T $DURATION, -c $CLIENTS, $SCRIPT; slow: inject_slowdown_pct = $SETTING"
bench/decide.py table "$CSV"
echo "every comparison: $CSV"
