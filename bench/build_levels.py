#!/usr/bin/env python3
# bench/build_levels.py — what moves two builds of one source, level by
# level (docs/calibration.md, "What moves two builds"):
#
#   bench/build_levels.py DIR
#
# DIR is the results directory of an experiment like bench/build_levels.ini:
# a reference build A beside variant B of the same source with
# build_seeds = N (N relinks of B's objects in other function orders), a
# duet, so that each of B's runs has A's run beside it, at once; every
# server restarted every few rounds, randomization on.  From runs.csv's
# counted runs, the paired log ratio of each B@seedK run to the A run of
# its duet (the host's moments cancel in it, as in every verdict), then
# the nested levels by the method of moments on the balanced layout:
#
#   seed      builds of one source linked in other orders (a layout each)
#   instance  server starts (both servers restart together: a pair of
#             starts), each drawing its address-space layouts
#   round     what is left from round to round
#
# Each sd is of the paired log ratio, in per cent, with its degrees of
# freedom and a 90% interval (the level's mean square on its df, less the
# level below at its estimate: approximate); and each seed's mean ratio to
# A, which says what the relinks cost against the reference build.
import csv
import math
import statistics
import sys
from collections import defaultdict


def chi2_quantile(p, k):
    """Wilson-Hilferty: within a per cent of the exact quantile from 3 df."""
    z = statistics.NormalDist().inv_cdf(p)
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def paired_ratios(directory):
    """(seed, instance, round) -> log(B@seedK / A) of each duet's runs."""
    rows = [r for r in csv.DictReader(open(f"{directory}/runs.csv")) if r["warmup"] != "true"]
    by_moment = defaultdict(dict)
    for r in rows:
        if r["status"] == "ok":
            by_moment[(r["round"], r["started_at"])][r["variant"]] = r
    out = defaultdict(list)
    for moment in by_moment.values():
        if "A" not in moment or len(moment) != 2:
            continue
        (name, b), = [(v, r) for v, r in moment.items() if v != "A"]
        seed = int(name.rsplit("@seed", 1)[1])
        out[(seed, int(b["instance"]))].append(
            math.log(float(b["tps"]) / float(moment["A"]["tps"])))
    return out


def main(directory):
    cells = paired_ratios(directory)
    seeds = sorted({s for s, _ in cells})
    n_inst = min(len([i for s2, i in cells if s2 == s]) for s in seeds)
    n_round = min(len(v) for v in cells.values())
    data = [[cells[(s, i)][:n_round] for i in sorted(i for s2, i in cells if s2 == s)[:n_inst]]
            for s in seeds]
    grand = statistics.fmean(x for s in data for i in s for x in i)
    ss = {"seed": 0.0, "instance": 0.0, "round": 0.0}
    seed_means = []
    for s in data:
        m_seed = statistics.fmean(x for i in s for x in i)
        seed_means.append(m_seed)
        ss["seed"] += n_inst * n_round * (m_seed - grand) ** 2
        for i in s:
            m_inst = statistics.fmean(i)
            ss["instance"] += n_round * (m_inst - m_seed) ** 2
            ss["round"] += sum((x - m_inst) ** 2 for x in i)
    n_seed = len(data)
    df = {"seed": n_seed - 1, "instance": n_seed * (n_inst - 1), "round": n_seed * n_inst * (n_round - 1)}
    ms = {k: ss[k] / df[k] for k in ss}
    below = {"seed": "instance", "instance": "round"}
    per = {"seed": n_inst * n_round, "instance": n_round, "round": 1}
    print(f"{directory}: {n_seed} seeds x {n_inst} instance pairs x {n_round} rounds, "
          f"log(B@seedK / A) of each duet")
    print("| level | sd of the paired log ratio % | df | 90% interval % |")
    print("|---|---|---|---|")
    for level in ("seed", "instance", "round"):
        lower = ms[below[level]] if level in below else 0.0
        var = max(0.0, (ms[level] - lower) / per[level])
        lo = max(0.0, (ms[level] * df[level] / chi2_quantile(0.95, df[level]) - lower) / per[level])
        hi = max(0.0, (ms[level] * df[level] / chi2_quantile(0.05, df[level]) - lower) / per[level])
        print(f"| {level} | {100 * math.sqrt(var):.2f} | {df[level]} | "
              f"{100 * math.sqrt(lo):.2f} to {100 * math.sqrt(hi):.2f} |")
    print(f"B@seed* against A: {100 * math.expm1(grand):+.2f}%; each seed: " +
          ", ".join(f"{k} {100 * math.expm1(m):+.2f}%" for k, m in zip(seeds, seed_means)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: bench/build_levels.py RESULTS_DIR")
    main(sys.argv[1])
