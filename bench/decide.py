#!/usr/bin/env python3
# bench/decide.py — the figures of bench/decide.sh (docs/calibration.md,
# "Deciding across servers"):
#
#   bench/decide.py row DIR CONFIG PHASE REPEAT SETTING BUDGET STARTED
#       one comparison's results directory as a line of the CSV: its
#       sequential decision, estimate and CI, time and rounds spent, and
#       what its truth is pooled from: the sum of its counted rounds' paired
#       log ratios (B/A tps) and their number, and the backends' user CPU
#       per transaction B/A (median over runs) from the extension's counters;
#   bench/decide.py table CSV
#       per configuration and phase: the verdicts, the median time to
#       decide, and whether each comparison's final CI contains the truth.
#       The truth of an A/A is no change; of a slowed phase, the mean paired
#       log ratio of all the phase's counted rounds (its tps truth), with
#       the CPU counters' B/A beside it.
import csv
import json
import math
import statistics
import sys


def row(d, config, phase, repeat, setting, budget, started):
    seq = json.load(open(d + "/summary.json"))["cells"][0]["sequential"]
    cmp = seq["comparison"]
    tps, cpu = {}, {}
    for run in csv.DictReader(open(d + "/runs.csv")):
        if run["status"] != "ok" or run["warmup"] != "false":
            continue
        tps.setdefault(run["round"], {})[run["variant"]] = float(run["tps"])
        if run["cpu_user_us_per_tx"]:
            cpu.setdefault(run["variant"], []).append(float(run["cpu_user_us_per_tx"]))
    logs = [math.log(r["B"] / r["A"]) for r in tps.values() if "A" in r and "B" in r]
    cpu_ratio = statistics.median(cpu["B"]) / statistics.median(cpu["A"]) if len(cpu) == 2 else float("nan")
    f = lambda x: "%.6f" % x
    print(",".join([config, phase, repeat, setting, budget, seq["decision"], f(cmp["estimate"]),
                    f(cmp["ci_low"]), f(cmp["ci_high"]), "%.1f" % seq["spent_s"], str(seq["rounds"]),
                    str(cmp["n_units"]), str(seq["look"]), str(seq["max_looks"]), f(sum(logs)),
                    str(len(logs)), f(cpu_ratio), started]))


def table(path):
    rows = list(csv.DictReader(open(path)))
    print("| configuration | phase | comparisons | slower | faster | same | undecided | "
          "decided within budget | median time to decide | truth: tps, CPU µs/tx B/A | CI covers the truth |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for config in dict.fromkeys(r["config"] for r in rows):
        for phase in dict.fromkeys(r["phase"] for r in rows):
            mine = [r for r in rows if r["config"] == config and r["phase"] == phase]
            if not mine:
                continue
            count = {d: sum(r["decision"] == d for r in mine) for d in ("slower", "faster", "same", "undecided")}
            decided = [float(r["spent_s"]) for r in mine if r["decision"] != "undecided"]
            if phase == "aa":
                truth, truth_text = 1.0, "0 (identical)"
            else:
                paired = sum(int(r["paired_rounds"]) for r in mine)
                truth = math.exp(sum(float(r["sum_log_ratio"]) for r in mine) / paired)
                cpus = [float(r["cpu_ratio"]) for r in mine if r["cpu_ratio"] != "nan"]
                truth_text = "%+.2f%%, %+.2f%%" % (100 * (truth - 1),
                                                   100 * (statistics.median(cpus) - 1) if cpus else float("nan"))
            covered = sum(float(r["ci_low"]) <= truth <= float(r["ci_high"]) for r in mine)
            median = "%.1f min" % (statistics.median(decided) / 60) if decided else "-"
            print("| %s | %s | %d | %d | %d | %d | %d | %d of %d | %s | %s | %d of %d |" % (
                config, phase, len(mine), count["slower"], count["faster"], count["same"],
                count["undecided"], len(decided), len(mine), median, truth_text, covered, len(mine)))


if __name__ == "__main__":
    if len(sys.argv) == 9 and sys.argv[1] == "row":
        row(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        sys.exit("usage: bench/decide.py row DIR CONFIG PHASE REPEAT SETTING BUDGET STARTED | table CSV")
