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
#       and per unit (instance pair, in the order run) the mean paired log
#       ratio: the lag-1 autocorrelation of those (do the units lean in
#       streaks?), their correlation with the units' CPU ratios, and the sd
#       of the units' tps and CPU ratios (how far each start's draw moves
#       a unit); and the sd of the tps ratio between instance pairs and
#       between rounds from summary.json's levels; then what the pilot, the
#       line after the second block and the pre-flight said the budget
#       could do;
#   bench/decide.py table CSV...
#       per configuration and phase over the CSVs' rows: the verdicts, the
#       median time to decide, and whether each comparison's final CI
#       contains the truth; for A/As, how the estimates follow the CPU
#       ratios, and the units' lag-1 autocorrelations summed; and every A/A
#       counted at once, its false positives and coverage with their exact
#       95% intervals; each word said of the budget against how those
#       comparisons ended, and the pilot's time in thirds against the same;
#   bench/decide.py units DIR
#       one comparison's units, a line each, with the two figures above;
#   bench/decide.py pooled DIR...
#       per configuration, kept comparisons (KEEP=DIR) pooled: the sds
#       between rounds and between instance pairs from all their rounds at
#       once, the F test of an instance offset, the comparisons' mean B/A
#       across them (an offset every start shares shows there), and the
#       mean tps of their counted runs;
#   bench/decide.py pilot DIR...
#       kept comparisons with a pilot (pilot.json): the pilot's sd of the
#       paired log ratio between rounds against the comparison's own (rounds
#       within instance pairs, pooled) and its first instance pair's, and
#       their ratio's geometric mean over the comparisons with its 95% t
#       interval, beside the ratio a pilot and a comparison drawing from one
#       noise would show at their degrees of freedom (an sd from few is
#       biased low on the log scale);
#       The truth of an A/A is no change; of a slowed phase, the mean paired
#       log ratio of all the phase's counted rounds (its tps truth), with
#       the CPU counters' B/A beside it.
import csv
import json
import re
import math
import statistics
import sys


def correlation(x, y):
    """Pearson's r, nan when there are fewer than 3 points or no spread."""
    try:
        return statistics.correlation(x, y) if len(x) >= 3 else float("nan")
    except statistics.StatisticsError:
        return float("nan")


def round_ratios(runs):
    """Per unit (instance pair), in the order run: its paired rounds' log
    ratios B/A of tps and of user CPU per transaction."""
    by_round = {}
    for run in runs:
        by_round.setdefault(int(run["round"]), {})[run["variant"]] = run
    units = {}
    for rnd in sorted(by_round):
        pair = by_round[rnd]
        if "A" not in pair or "B" not in pair or not pair["A"]["cpu_user_us_per_tx"]:
            continue
        a, b = pair["A"], pair["B"]
        units.setdefault(int(a["instance"]), []).append(
            (math.log(float(b["tps"]) / float(a["tps"])),
             math.log(float(b["cpu_user_us_per_tx"]) / float(a["cpu_user_us_per_tx"]))))
    return units


def units_of(runs):
    """Per unit, in the order run: its number of paired rounds, their mean
    log tps ratio B/A and their mean log user-CPU-per-transaction ratio."""
    units = round_ratios(runs)
    return [(k, len(units[k]), statistics.fmean(u[0] for u in units[k]),
             statistics.fmean(u[1] for u in units[k])) for k in sorted(units)]


def counted_runs(d):
    """The counted runs of A and B; of a duet of three (duet3) A's those
    beside B, as B's comparison takes them (experiment.json's partners)."""
    plan = json.load(open(d + "/experiment.json")).get("plan") or []
    partner = {str(p["run_id"]): p.get("partner") for p in plan}
    return [run for run in csv.DictReader(open(d + "/runs.csv"))
            if run["status"] == "ok" and run["warmup"] == "false" and run["variant"] in ("A", "B")
            and partner.get(run["run_id"]) in (None, "A", "B")]


def unit_figures(runs):
    """Lag-1 autocorrelation of the units' mean log tps ratio B/A, in the
    order run, its correlation with their mean log CPU ratio, and the sd of
    each across units (how far a start's draw moves a unit)."""
    units = units_of(runs)
    tps = [u[2] for u in units]
    cpu = [u[3] for u in units]
    if len(tps) < 3:
        return [float("nan")] * 4
    m = statistics.fmean(tps)
    c0 = sum((t - m) ** 2 for t in tps)
    lag1 = sum((tps[i] - m) * (tps[i + 1] - m) for i in range(len(tps) - 1)) / c0 if c0 > 0 else float("nan")
    return lag1, correlation(tps, cpu), statistics.stdev(tps), statistics.stdev(cpu)


def level_sds(cell):
    """The sd between instance pairs and between rounds of the paired log
    ratio, as the report's levels line gives them (nan where absent)."""
    ratio = ((cell.get("levels") or {}).get("components") or {}).get("ratio") or {}
    return [float((ratio.get(k) or {}).get("sd", float("nan"))) for k in ("instance", "round")]


def row(d, config, phase, repeat, setting, budget, started):
    cell = json.load(open(d + "/summary.json"))["cells"][0]
    seq = cell["sequential"]
    cmp = seq["comparison"]
    tps, cpu, counted = {}, {}, counted_runs(d)
    for run in counted:
        tps.setdefault(run["round"], {})[run["variant"]] = float(run["tps"])
        if run["cpu_user_us_per_tx"]:
            cpu.setdefault(run["variant"], []).append(float(run["cpu_user_us_per_tx"]))
    logs = [math.log(r["B"] / r["A"]) for r in tps.values() if "A" in r and "B" in r]
    cpu_ratio = statistics.median(cpu["B"]) / statistics.median(cpu["A"]) if len(cpu) == 2 else float("nan")
    lag1, unit_cpu_r, unit_sd, unit_cpu_sd = unit_figures(counted)
    f = lambda x: "%.6f" % x
    print(",".join([config, phase, repeat, setting, budget, seq["decision"], f(cmp["estimate"]),
                    f(cmp["ci_low"]), f(cmp["ci_high"]), "%.1f" % seq["spent_s"], str(seq["rounds"]),
                    str(cmp["n_units"]), str(seq["look"]), str(seq["max_looks"]), f(sum(logs)),
                    str(len(logs)), f(cpu_ratio), started, f(lag1), f(unit_cpu_r), f(unit_sd),
                    f(unit_cpu_sd)] + [f(x) for x in level_sds(cell)] + pilot_figures(d) +
                   [forecast_word(d), preflight_word(d)]))


def forecast_word(d):
    """What the line after the second block said the budget could do
    ("can", "may not", "cannot"), from the run's output; empty without one."""
    try:
        m = re.search(r"; the budget of \S+ (can|may not|cannot) decide", open(d + "/ab.log").read())
    except FileNotFoundError:
        return ""
    return m.group(1) if m else ""


def preflight_word(d):
    """What the pre-flight said before the first counted run of whether the
    budget could decide: the last warning's "cannot" or "may not" (a
    pilot's, where there was one, comes last), "can" where it gave a time
    and no warning, empty where it promised nothing.  A client that gives
    the budget's power instead: "cannot" where it cannot decide anything,
    "may not" where the power is below 80% at the estimate (a warning) or
    at the upper bound ("keeps 80% even at"), "can" otherwise."""
    try:
        lines = open(d + "/ab.log").read().splitlines()
    except FileNotFoundError:
        return ""
    word = ""
    for line in lines:
        if not line.startswith("pre-flight: "):
            continue
        m = re.match(r"pre-flight: warning: .*?\b(cannot|may not) decide", line)
        if m:
            word = m.group(1)
        elif re.match(r"pre-flight: (warning: )?in its .* sees a \S+ change", line):
            word = "may not" if "warning: " in line or "keeps 80% even at" in line else "can"
        elif not word and re.match(r"pre-flight: (to decide|at the pilot's noise, to decide)", line):
            word = "can"
    return word


def pilot_figures(d):
    """What the comparison's pilot measured and said, empty without one."""
    try:
        p = json.load(open(d + "/pilot.json"))
    except FileNotFoundError:
        return ["", "", "", "", ""]
    g = lambda k: "" if p.get(k) is None else "%.6f" % p[k]
    return [p.get("decides", ""), g("round_sd"), g("expected_s"), g("least_s"), g("most_s")]


def units(d):
    """One comparison's units, a line each, then unit_figures()'s two."""
    rows = units_of(counted_runs(d))
    for k, n, t, c in rows:
        print("instance pair %3d: %d rounds, B/A tps %+6.2f%%, B/A user CPU per transaction %+6.2f%%"
              % (k, n, 100 * math.expm1(t), 100 * math.expm1(c)))
    lag1, r, sd, cpu_sd = unit_figures(counted_runs(d))
    print("%d instance pairs: B's CPU per transaction higher in %d; lag-1 autocorrelation of the "
          "tps ratios %+.2f; their correlation with the CPU ratios %+.2f; sd across units %.2f%% "
          "(tps), %.2f%% (CPU)" % (len(rows), sum(c > 0 for _, _, _, c in rows), lag1, r,
                                   100 * sd, 100 * cpu_sd))


def incomplete_beta(x, a, b):
    """The regularized incomplete beta function I_x(a, b), by its continued
    fraction (modified Lentz), for the F and t distributions below."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    if x > (a + 1) / (a + b + 2):
        return 1 - incomplete_beta(1 - x, b, a)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log(1 - x)) / a
    tiny = 1e-300
    f, c, d = 1.0, 1.0, 0.0
    for i in range(400):
        m = i // 2
        if i == 0:
            num = 1.0
        elif i % 2 == 0:
            num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        else:
            num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1 + num * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + num / c
        c = c if abs(c) > tiny else tiny
        f *= c * d
        if abs(c * d - 1) < 1e-12:
            break
    return front * (f - 1)


def f_upper(F, df1, df2):
    """P(F(df1, df2) > F)."""
    return incomplete_beta(df2 / (df2 + df1 * F), df2 / 2, df1 / 2) if F > 0 else 1.0


def t_quantile(p, df):
    """The p quantile (p > 0.5) of Student's t on df degrees of freedom."""
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        t = (lo + hi) / 2
        if 1 - incomplete_beta(df / (df + t * t), df / 2, 0.5) / 2 < p:
            lo = t
        else:
            hi = t
    return (lo + hi) / 2


def within_sd(units):
    """The pooled sd of values within their groups, and its degrees of freedom."""
    ss = sum((y - statistics.fmean(u)) ** 2 for u in units for y in u)
    df = sum(len(u) - 1 for u in units)
    return (math.sqrt(ss / df) if df > 0 else float("nan")), df


def pooled(*dirs):
    """Per configuration (a directory's name without -PHASE-REPEAT), the
    comparisons' paired rounds pooled in one nested analysis of variance
    (comparison, instance pair within it, round within that): the sd
    between rounds, the sd between instance pairs (method of moments) with
    the F test of "no instance offset", and the comparisons' mean B/A with
    its t interval across comparisons — an offset every comparison shares
    (a layout frozen the same way at every start, say) shows there and
    not between instance pairs; and the mean tps of the counted runs."""
    groups = {}
    for d in dirs:
        name = d.rstrip("/").rsplit("/", 1)[-1].rsplit("-", 2)[0]
        groups.setdefault(name, []).append(d)
    print("| configuration | comparisons | instance pairs | rounds | sd between rounds | "
          "sd between instance pairs | F (df) | p, no instance offset | "
          "mean B/A of the comparisons [95% CI] | mean tps |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, ds in groups.items():
        ssw = ssb = 0.0
        dfw = dfb = units_n = rounds_n = 0
        sum_n2 = 0.0
        means, tps = [], []
        for d in ds:
            runs = counted_runs(d)
            units = [[t for t, _ in u] for u in round_ratios(runs).values()]
            units = [u for u in units if u]
            if len(units) < 2:
                continue
            # of the comparisons pooled, as every other column
            tps += [float(run["tps"]) for run in runs]
            ys = [y for u in units for y in u]
            grand = statistics.fmean(ys)
            means.append(grand)
            n = len(ys)
            sd, df = within_sd(units)
            ssw += sd * sd * df if df > 0 else 0.0
            ssb += sum(len(u) * (statistics.fmean(u) - grand) ** 2 for u in units)
            dfw += df
            dfb += len(units) - 1
            # the effective rounds per unit of an unbalanced one-way layout
            sum_n2 += (n - sum(len(u) ** 2 for u in units) / n)
            units_n += len(units)
            rounds_n += n
        if dfw == 0 or dfb == 0 or len(means) < 2:
            continue
        msw, msb = ssw / dfw, ssb / dfb
        k = sum_n2 / dfb
        var_i = max(0.0, (msb - msw) / k)
        F = msb / msw
        m = statistics.fmean(means)
        half = t_quantile(0.975, len(means) - 1) * statistics.stdev(means) / math.sqrt(len(means))
        pct = lambda x: "%+.2f%%" % (100 * math.expm1(x))
        print("| %s | %d | %d | %d | %.2f%% | %.2f%% | %.2f (%d, %d) | %.3g | %s [%s, %s] | %.0f |" % (
            name, len(means), units_n, rounds_n, 100 * math.sqrt(msw), 100 * math.sqrt(var_i),
            F, dfb, dfw, f_upper(F, dfb, dfw), pct(m), pct(m - half), pct(m + half),
            statistics.fmean(tps)))


def digamma(x):
    """psi(x) for x > 0: the recurrence up to 6, then the asymptotic series."""
    acc = 0.0
    while x < 6:
        acc -= 1 / x
        x += 1
    return acc + math.log(x) - 1 / (2 * x) - 1 / (12 * x ** 2) + 1 / (120 * x ** 4) - 1 / (252 * x ** 6)


def mean_log_sd(df):
    """E[log s / sigma] of a normal sample's sd on df degrees of freedom."""
    return (digamma(df / 2) + math.log(2 / df)) / 2


def pilot(*dirs):
    """The pilot's sd between rounds against the comparison's that followed."""
    logs, expected = [], []
    print("| comparison | pilot: sd (df) | comparison: sd between rounds (df) | first instance pair's | comparison / pilot |")
    print("|---|---|---|---|---|")
    for d in dirs:
        try:
            p = json.load(open(d + "/pilot.json"))
        except FileNotFoundError:
            continue
        units = [[t for t, _ in u] for u in round_ratios(counted_runs(d)).values()]
        units = [u for u in units if len(u) > 1]
        sd, df = within_sd(units)
        first, _ = within_sd(units[:1])
        pdf = p["rounds"] - 1
        if df == 0 or not p["round_sd"] > 0:
            continue
        logs.append(math.log(sd / p["round_sd"]))
        expected.append(mean_log_sd(df) - mean_log_sd(pdf))
        print("| %s | %.2f%% (%d) | %.2f%% (%d) | %.2f%% | %.2f |" % (
            "/".join(d.rstrip("/").split("/")[-2:]), 100 * p["round_sd"], pdf,
            100 * sd, df, 100 * first, sd / p["round_sd"]))
    if len(logs) < 2:
        return
    m = statistics.fmean(logs)
    half = t_quantile(0.975, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    print("\n%d comparisons: comparison / pilot %.2f [%.2f, %.2f] (geometric mean, 95%% t interval); "
          "one noise at these degrees of freedom would give %.2f" % (
              len(logs), math.exp(m), math.exp(m - half), math.exp(m + half), math.exp(statistics.fmean(expected))))


def clopper_pearson(k, n):
    """The exact (Clopper-Pearson) 95% interval of a proportion k of n."""
    def cdf(j, p):
        return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(j + 1))

    def solve(below):
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if below(mid) else (lo, mid)
        return lo
    low = solve(lambda p: 1 - cdf(k - 1, p) < 0.025) if k > 0 else 0.0
    high = solve(lambda p: cdf(k, p) > 0.025) if k < n else 1.0
    return low, high


def said_notes(rows, column, who, which):
    """A note per word column holds (what the pilot, or the line after the
    second block, said the budget could do) against how those comparisons
    ended."""
    told = [r for r in rows if r.get(column)]
    notes = []
    for said in dict.fromkeys(r[column] for r in told):
        mine = [r for r in told if r[column] == said]
        ends = {d: sum(r["decision"] == d for r in mine) for d in ("same", "slower", "faster", "undecided")}
        notes.append("%s \"%s decide\" in %d of %d comparisons %s; they ended %s"
                     % (who, said, len(mine), len(told), which,
                        ", ".join("%s %d" % (d, n) for d, n in ends.items() if n)))
    return notes


def pilot_time_notes(rows):
    """The comparisons with a pilot in thirds by the time it gave at its
    estimate, against how many of each third then decided: does the pilot's
    time sort them?"""
    timed = sorted((float(r["pilot_expected_s"]), r["decision"] != "undecided")
                   for r in rows if r.get("pilot_expected_s"))
    if len(timed) < 6:
        return []
    cuts = [0, len(timed) // 3, 2 * len(timed) // 3, len(timed)]
    parts = ["%.0f-%.0f s: %d of %d decided" % (timed[a][0], timed[b - 1][0],
                                              sum(d for _, d in timed[a:b]), b - a)
             for a, b in zip(cuts, cuts[1:])]
    return ["the pilot's time to decide at its estimate, in thirds: " + "; ".join(parts)]


def table(*paths):
    rows = [r for path in paths for r in csv.DictReader(open(path))]
    notes = []
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
            # rows of CSVs written before these columns have none
            lags = [(float(r["unit_lag1"]), int(r["units"])) for r in mine
                    if r.get("unit_lag1") not in (None, "", "nan")]
            if phase == "aa":
                both = [(math.log(float(r["estimate"])), math.log(float(r["cpu_ratio"])))
                        for r in mine if r["cpu_ratio"] != "nan"]
                notes.append("%s %s: the estimates' correlation with the CPU ratios B/A, %+.2f over %d comparisons"
                             % (config, phase, correlation([e for e, _ in both], [c for _, c in both]), len(both)))
            sds = [(float(r["unit_sd"]), float(r["unit_cpu_sd"]), float(r["instance_sd"]),
                    float(r["round_sd"])) for r in mine if r.get("instance_sd") not in (None, "", "nan")]
            if sds:
                med = lambda i: 100 * statistics.median(x[i] for x in sds)
                notes.append("%s %s: medians over %d comparisons: the sd of the units' log ratio B/A "
                             "%.2f%% (tps), %.2f%% (user CPU per transaction); the levels' sd of the "
                             "tps ratio between instance pairs %.2f%%, between rounds %.2f%%; the "
                             "instance sd was 0 in %d" % (
                                 config, phase, len(sds), med(0), med(1), med(2), med(3),
                                 sum(x[2] == 0 for x in sds)))
            if lags:
                # each lag-1 autocorrelation of n independent units has sd about 1/sqrt(n)
                z = sum(l * math.sqrt(n) for l, n in lags) / math.sqrt(len(lags))
                notes.append("%s %s: the units' lag-1 autocorrelation, mean %+.2f over %d comparisons "
                             "(z %+.2f against independent units)" % (
                                 config, phase, statistics.fmean(l for l, _ in lags), len(lags), z))
    # every A/A of the CSVs counted at once: the goal's rates with their intervals
    aas = [r for r in rows if r["phase"] == "aa"]
    if aas:
        false = sum(r["decision"] in ("faster", "slower") for r in aas)
        covered = sum(float(r["ci_low"]) <= 1.0 <= float(r["ci_high"]) for r in aas)
        notes.append("all A/As: %d; false faster/slower %d (%.1f%%, 95%% interval %.1f-%.1f%%); "
                     "CI contains 0 in %d (%.1f%%, %.1f-%.1f%%)" % (
                         len(aas), false, 100 * false / len(aas),
                         *[100 * x for x in clopper_pearson(false, len(aas))],
                         covered, 100 * covered / len(aas),
                         *[100 * x for x in clopper_pearson(covered, len(aas))]))
    notes += said_notes(rows, "pilot_decides", "the pilot said", "with a pilot")
    # CSVs written before the column: a pilot's word was the pre-flight's last
    for r in rows:
        r.setdefault("preflight", None)
        r["preflight"] = r["preflight"] or r.get("pilot_decides") or ""
    notes += said_notes(rows, "preflight", "before the first counted run the pre-flight said",
                        "with such a word")
    notes += pilot_time_notes(rows)
    notes += said_notes(rows, "forecast", "after its second block the run said the budget",
                        "with that line")
    for note in notes:
        print()
        print(note)


if __name__ == "__main__":
    if len(sys.argv) == 9 and sys.argv[1] == "row":
        row(*sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "table":
        table(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "units":
        units(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "pooled":
        pooled(*sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "pilot":
        pilot(*sys.argv[2:])
    else:
        sys.exit("usage: bench/decide.py row DIR CONFIG PHASE REPEAT SETTING BUDGET STARTED | table CSV... "
                 "| units DIR | pooled DIR... | pilot DIR...")
