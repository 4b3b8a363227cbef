#!/usr/bin/env python3
# bench/cpu_drift.py — how much of a duet's round-to-round noise follows
# the CPU each side ran on (docs/calibration.md, "Trading the CPUs within a
# run").
#
# For each results directory of a two-variant duet (kept by
# bench/decide.sh KEEP=DIR), every counted round's log ratio is signed by
# the CPU slot the second variant had (experiment.json's plan): what is
# left is "the side on CPU 0 against the side on CPU 1".  Its sd and its
# autocorrelation from round to round say whether the CPUs' speeds differ
# and for how long; a lag-1 autocorrelation near 0 with a large sd means a
# drift shorter than a round, which only trading within the run cancels.
#
#   bench/cpu_drift.py DIR...
import csv
import json
import math
import statistics
import sys


def autocorrelation(x, lag):
    m = statistics.mean(x)
    den = sum((v - m) ** 2 for v in x)
    return sum((x[i] - m) * (x[i + lag] - m) for i in range(len(x) - lag)) / den


def cpu0_advantage(directory):
    plan = json.load(open(f"{directory}/experiment.json"))["plan"]
    slot = {p["run_id"]: p.get("cpu_slot") for p in plan}
    rounds = {}
    for run in csv.DictReader(open(f"{directory}/runs.csv")):
        if run["warmup"] == "false" and run["status"] == "ok":
            key = (int(run["instance"]), int(run["round"]))
            rounds.setdefault(key, []).append((run["variant"], float(run["tps"]), slot[int(run["run_id"])]))
    signed = []
    for key in sorted(rounds):
        pair = sorted(rounds[key])
        if len(pair) == 2:
            (_, tps_a, _), (_, tps_b, slot_b) = pair
            signed.append(math.log(tps_b / tps_a) * (1 if slot_b == 0 else -1))
    return signed


for directory in sys.argv[1:]:
    x = cpu0_advantage(directory)
    print(f"{directory}: {len(x)} rounds, CPU 0 against CPU 1 mean {100 * statistics.mean(x):+.2f}%, "
          f"sd {100 * statistics.stdev(x):.2f}%, autocorrelation lag 1 {autocorrelation(x, 1):+.2f}, "
          f"lag 2 {autocorrelation(x, 2):+.2f}")
