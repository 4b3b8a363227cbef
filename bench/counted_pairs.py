#!/usr/bin/env python3
"""bench/counted_pairs.py — where two variants' counts differ, round by round.

For each results directory of a counted experiment of two variants (A and B,
as bench/counted_layout.sh, counted_names.sh and profile_aa.sh make them):
the runs paired by round, the total instructions per transaction of each
side, and B - A; then the functions whose self instructions per transaction
differ most between the sides (the root mean square of B - A over the
rounds), each with its mean and its difference in every round.  This is how
docs/counted-noise.md found each cause.  A function
below the floor a run's profile keeps (0.01% of the total) counts as 0 in
that run.  Last, over all the directories given: how many paired runs
counted alike (to a tenth of an instruction) and the largest |B - A|, and,
of those that differ, in how many the variant first in the file counted
more and in how many the one that ran first did, each with the two-sided
p of a sign test: whether a variant's place or order reaches the count.

  bench/counted_pairs.py [--functions N] [--quiet] DIR...

--functions N: the N functions that differ most (default 10); --quiet:
only each directory's line of paired runs and the sum over all.
"""
import argparse
import csv
import json
import math
import os
import sys


def paired_profiles(d):
    """{round: {variant: profile}} of the counted runs of DIR, and
    {round: the variant that ran first}."""
    rounds = {}
    first = {}
    with open(os.path.join(d, 'runs.csv'), newline='') as f:
        for row in csv.DictReader(f):
            if row['status'] != 'ok' or row['warmup'] == 'true':
                continue
            path = os.path.join(d, 'runs', '%04d.profile.json' % int(row['run_id']))
            if os.path.exists(path):
                with open(path) as p:
                    rounds.setdefault(int(row['round']), {})[row['variant']] = json.load(p)
                first.setdefault(int(row['round']), row['variant'])
    return {r: v for r, v in rounds.items() if 'A' in v and 'B' in v}, first


def sign_test(k, n):
    """The two-sided p of k of n one way, when either way is as likely."""
    tail = sum(math.comb(n, i) for i in range(0, min(k, n - k) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def self_cost(profile, name):
    return profile['functions'].get(name, {}).get('self', [0])[0]


def report(d, nfunctions, quiet):
    pairs, first = paired_profiles(d)
    if not pairs:
        sys.exit('counted_pairs.py: %s has no round with a counted run of both A and B' % d)
    diffs = []
    ways = [0, 0, 0]        # runs that differ; A counted more; the first run more
    if not quiet:
        print('%s\nround    total A    total B      B-A   B/A-1' % d)
    for r in sorted(pairs):
        a, b = pairs[r]['A']['totals'][0], pairs[r]['B']['totals'][0]
        diffs.append(b - a)
        if abs(b - a) >= 0.05:
            ways[0] += 1
            ways[1] += a > b
            ways[2] += (a > b) == (first[r] == 'A')
        if not quiet:
            print('%5d %10.1f %10.1f %8.1f %+8.4f%%' % (r, a, b, b - a, 100 * (b / a - 1)))
    alike = sum(1 for x in diffs if abs(x) < 0.05)
    largest = max(abs(x) for x in diffs)
    print('%s: %d of %d paired runs alike, the largest |B-A| %.1f instructions per transaction'
          % (d, alike, len(diffs), largest))
    if not quiet:
        names = set()
        for r in pairs:
            names |= set(pairs[r]['A']['functions']) | set(pairs[r]['B']['functions'])
        rows = []
        for name in names:
            v = [self_cost(pairs[r]['B'], name) - self_cost(pairs[r]['A'], name) for r in sorted(pairs)]
            rows.append((math.sqrt(sum(x * x for x in v) / len(v)), sum(v) / len(v), name, v))
        rows.sort(key=lambda row: (-row[0], row[2]))
        print('function                                 mean B-A     rms  in each round')
        for rms, mean, name, v in rows[:nfunctions]:
            if rms == 0:
                break
            print('%-40s %+8.2f %7.2f  %s' % (name[:40], mean, rms, ' '.join('%+.1f' % x for x in v)))
        print()
    return alike, len(diffs), largest, ways


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--functions', type=int, default=10)
    ap.add_argument('--quiet', action='store_true')
    ap.add_argument('dirs', nargs='+')
    args = ap.parse_args()
    if args.functions < 0:
        ap.error('--functions must be 0 or more')
    for d in args.dirs:
        if not os.path.isfile(os.path.join(d, 'runs.csv')):
            ap.error('%s is not a results directory (no runs.csv); give directories, e.g. OUT/*-restarted-*/' % d)
    total = [0, 0, 0.0]
    ways = [0, 0, 0]
    for d in args.dirs:
        alike, n, largest, w = report(d, args.functions, args.quiet)
        total = [total[0] + alike, total[1] + n, max(total[2], largest)]
        ways = [x + y for x, y in zip(ways, w)]
    if len(args.dirs) > 1:
        print('all: %d of %d paired runs alike, the largest |B-A| %.1f instructions per transaction' % tuple(total))
    if ways[0] > 0:
        print('of the %d that differ: A (first in the file) counted more in %d (sign test p %.2g), '
              'the one run first in %d (p %.2g)'
              % (ways[0], ways[1], sign_test(ways[1], ways[0]), ways[2], sign_test(ways[2], ways[0])))


if __name__ == '__main__':
    main()
