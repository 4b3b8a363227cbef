#!/bin/bash
# bench/quiet.sh — what each way of quieting the servers does to the noise
# and to a known effect, side by side in one sitting (docs/calibration.md).
#
# Each configuration is a set of the [experiment] keys pin, aslr, prewarm and
# schedule (the rest at their defaults).  For each, two experiments of
# "pgbench_ext ab" across two managed servers of one installation, restarted
# every RESTART rounds so that the instance level is measured:
#
#   aa      A against A2, identical: the round sd and the instance sd of the
#           paired log ratio (summary.json's levels), the verdict;
#   effect  A against a server with pgbench_ext.inject_slowdown_pct = PCT,
#           which busy-waits PCT% of each transaction cycle: how much of it
#           reaches tps (the estimate and its CI), and the CPU counters'
#           user µs per transaction, B/A, measured independently of tps.
#
# The configurations run in turn, REPEAT times over, so that the host's drift
# falls on all of them alike; the table gives the median over the repeats of
# each figure, and the CSV every experiment.
#
#   PG_CONFIG=... bench/quiet.sh     (ROUNDS=8 RESTART=2 DURATION=2 CLIENTS=1
#                                     SCRIPT=select-only PCT=5 REPEAT=2
#                                     CONFIGS="base pin aslr-off prewarm duet quiet quiet-duet")
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${ROUNDS:-8}
RESTART=${RESTART:-2}
DURATION=${DURATION:-2}
CLIENTS=${CLIENTS:-1}
SCRIPT=${SCRIPT:-select-only}
PCT=${PCT:-5}
REPEAT=${REPEAT:-2}
CONFIGS=${CONFIGS:-base pin aslr-off prewarm duet quiet quiet-duet}
CSV=${CSV:-docs/figures/quiet-$(date -u +%Y%m%dT%H%MZ).csv}

for config in $CONFIGS; do quiet_flags "$config" >/dev/null || exit 2; done

bench_begin quiet
trap 'rm -rf "$work"' EXIT
bindir=$("$PG_CONFIG" --bindir)
client=client/pgbench_ext
echo "config,kind,repeat,round_sd,instance_sd,estimate,ci_low,ci_high,verdict,cpu_ratio,minutes" >"$CSV"

for repeat in $(seq 1 "$REPEAT"); do
	for config in $CONFIGS; do
		for kind in aa effect; do
			dir="$work/$config-$kind-$repeat"
			slow=
			[ "$kind" = effect ] && slow="--set pgbench_ext.inject_slowdown_pct=$PCT"
			start=$SECONDS
			# shellcheck disable=SC2046,SC2086
			bench_ab "$config $kind" "$work/last.log" "$client" -s 1 -c "$CLIENTS" -T "$DURATION" \
				-r "$ROUNDS" -b "$SCRIPT" --restart "$RESTART" --seed "$repeat" $(quiet_flags "$config") \
				--variant A --bindir "$bindir" --variant B --bindir "$bindir" $slow -o "$dir"
			python3 - "$dir" "$config" "$kind" "$repeat" "$(( (SECONDS - start) ))" >>"$CSV" <<'EOF'
import csv, json, math, statistics, sys
d, config, kind, repeat, secs = sys.argv[1:]
cell = json.load(open(d + "/summary.json"))["cells"][0]
ratio = cell["levels"]["components"]["ratio"]
sd = lambda level: (ratio.get(level) or {}).get("sd")
cmp = cell["comparison"]
cpu = {}
for run in csv.DictReader(open(d + "/runs.csv")):
    if run["status"] == "ok" and run["warmup"] == "false" and run["cpu_user_us_per_tx"]:
        cpu.setdefault(run["variant"], []).append(float(run["cpu_user_us_per_tx"]))
cpu_ratio = statistics.median(cpu["B"]) / statistics.median(cpu["A"]) - 1 if len(cpu) == 2 else float("nan")
f = lambda x: "" if x is None else "%.5f" % x
change = lambda key: None if cmp.get(key) is None else cmp[key] - 1
print(",".join([config, kind, repeat, f(sd("round")), f(sd("instance")), f(change("estimate")),
                f(change("ci_low")), f(change("ci_high")), cmp.get("verdict", ""), f(cpu_ratio),
                "%.1f" % (int(secs) / 60)]))
EOF
			tail -1 "$CSV"
		done
	done
done

echo
echo "medians over $REPEAT repeat(s); $ROUNDS rounds, restart every $RESTART, -T $DURATION, -c $CLIENTS, $SCRIPT; effect: inject_slowdown_pct = $PCT"
python3 - "$CSV" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def med(config, kind, key, scale=100):
    xs = [float(r[key]) for r in rows if r["config"] == config and r["kind"] == kind and r[key] not in ("", "nan")]
    return "%.2f" % (scale * statistics.median(xs)) if xs else "-"
def verdicts(config, kind):
    return " ".join(r["verdict"] for r in rows if r["config"] == config and r["kind"] == kind)
print("| configuration | A/A round sd % | A/A instance sd % | A/A verdicts | effect in tps % | effect CI width % | effect verdicts | CPU µs/tx B/A % | minutes per experiment |")
print("|---|---|---|---|---|---|---|---|---|")
for config in dict.fromkeys(r["config"] for r in rows):
    eff = [r for r in rows if r["config"] == config and r["kind"] == "effect" and r["ci_low"]]
    width = "%.2f" % (100 * statistics.median(float(r["ci_high"]) - float(r["ci_low"]) for r in eff)) if eff else "-"
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        config, med(config, "aa", "round_sd"), med(config, "aa", "instance_sd"), verdicts(config, "aa"),
        med(config, "effect", "estimate"), width, verdicts(config, "effect"),
        med(config, "effect", "cpu_ratio"), med(config, "aa", "minutes", 1)))
EOF
echo "every experiment: $CSV"
