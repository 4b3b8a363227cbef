/*-------------------------------------------------------------------------
 *
 * test_stats_ties.c
 *		Unit tests of comparisons whose rounds or runs tie exactly
 *		(common/stats_compare.c, ties_settle()), printing TAP.
 *
 * A counted metric (instructions per transaction under valgrind) repeats
 * exactly, so an A/A's paired rounds can all have a log ratio of 0.  The
 * signed-rank test drops zero differences and then has too few rounds for
 * any p, but the Walsh averages of all the rounds are all 0: the CI is
 * [0, 0], and the verdict must say what it says (within the counted
 * threshold of 0.05%: same), not "insufficient".  Mostly-zero rounds give
 * the CI the Walsh averages give by hand; where that CI crosses the
 * threshold nothing is settled and "insufficient" stays, with its remedy;
 * a real shift is still seen; and the same through the round-by-round
 * choice (stats_compare_rounds) and for runs compared unpaired.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <string.h>

#define ROUNDS 8
#define COUNTED_NOISE 0.0005

/* Instructions per transaction of A in round i: they differ between rounds */
static double
count_a(int i)
{
	return 41000.0 + 37.0 * i;
}

/*
 * B's counts: A's times exp(shift[i]); the paired comparison at the
 * counted threshold into c, and its decision.
 */
static StatsDecision
compare_shifted(const double *shift, StatsComparison *c)
{
	double		a[ROUNDS],
				b[ROUNDS];
	StatsOptions opt;

	stats_default_options(&opt);
	opt.noise = COUNTED_NOISE;
	for (int i = 0; i < ROUNDS; i++)
	{
		a[i] = count_a(i);
		b[i] = shift[i] == 0.0 ? a[i] : a[i] * exp(shift[i]);
	}
	stats_compare_paired(a, b, ROUNDS, &opt, c);
	return stats_comparison_decision(c, opt.noise);
}

static void
test_identical_rounds(void)
{
	double		zero[ROUNDS] = {0};
	double		a[ROUNDS];
	int			round[ROUNDS];
	StatsComparison c,
				by_rounds;
	StatsOptions opt;
	StatsDecision d = compare_shifted(zero, &c);

	ok(c.n_used == 0 && c.min_p == 1.0 && c.has_ci && c.ci_low == 1.0 && c.ci_high == 1.0,
	   "8 identical rounds: no round differs, smallest p 1, CI [0, 0]");
	ok(c.verdict == STATS_NO_CHANGE && d == STATS_DECIDED_SAME &&
	   strstr(c.reason, "8 of the 8 paired rounds without any difference") != NULL,
	   "and the verdict the CI implies: same within 0.05%% (%s)", c.reason);

	/* the same rounds through the choice of round by round */
	stats_default_options(&opt);
	opt.noise = COUNTED_NOISE;
	for (int i = 0; i < ROUNDS; i++)
	{
		a[i] = count_a(i);
		round[i] = i + 1;
	}
	stats_compare_rounds(a, round, ROUNDS, a, round, ROUNDS, &opt, &by_rounds);
	ok(by_rounds.unit == STATS_UNIT_ROUND &&
	   stats_comparison_decision(&by_rounds, opt.noise) == STATS_DECIDED_SAME,
	   "stats_compare_rounds: round by round, same (%s)", by_rounds.reason);
}

/*
 * One round of 8 differing by x, the others 0: 36 Walsh averages, 28 of
 * them 0, 7 of x / 2 and one of x; the 95% CI of 8 pairs takes the 4th
 * from each end (Wilcoxon's critical value 3), so [0, x / 2].
 */
static void
test_one_round_differs(void)
{
	double		shift[ROUNDS] = {0};
	StatsComparison c;
	StatsDecision d;

	shift[3] = 0.0004;
	d = compare_shifted(shift, &c);
	ok(c.n_used == 1 && c.has_ci && c.ci_low == 1.0 &&
	   fabs(log(c.ci_high) - 0.0002) < 1e-12,
	   "one round +0.04%%: CI [0, +0.02%%] by hand, got [%+.4f%%, %+.4f%%]",
	   100 * (c.ci_low - 1), 100 * (c.ci_high - 1));
	ok(d == STATS_DECIDED_SAME && c.verdict == STATS_NO_CHANGE,
	   "inside 0.05%%: same (%s)", c.reason);

	shift[3] = 0.01;
	d = compare_shifted(shift, &c);
	ok(c.verdict == STATS_INSUFFICIENT && d == STATS_UNDECIDED &&
	   fabs(log(c.ci_high) - 0.005) < 1e-12 &&
	   strstr(c.reason, "make at least 6 rounds that differ") != NULL,
	   "one round +1%%: CI [0, +0.5%%] across 0.05%%, nothing settled: insufficient (%s)",
	   c.reason);
}

/* A real shift: every round differs, or most of them do */
static void
test_real_shift(void)
{
	double		shift[ROUNDS];
	StatsComparison c;
	StatsDecision d;

	for (int i = 0; i < ROUNDS; i++)
		shift[i] = 0.002 + 0.00001 * (i % 3);
	d = compare_shifted(shift, &c);
	ok(c.verdict == STATS_FASTER && d == STATS_DECIDED_FASTER && c.p_value == 2.0 / 256.0,
	   "every round +0.2%%: p 2/256, seen (%s)", c.reason);

	/*
	 * 2 rounds equal, 6 at +0.2%: 3 Walsh averages 0, 12 of +0.1%, 21 of
	 * +0.2%; the 4th from each end: [+0.1%, +0.2%], p 2/64
	 */
	for (int i = 0; i < ROUNDS; i++)
		shift[i] = i < 2 ? 0.0 : 0.002;
	d = compare_shifted(shift, &c);
	ok(c.n_used == 6 && c.p_value == 2.0 / 64.0 && d == STATS_DECIDED_FASTER &&
	   fabs(log(c.ci_low) - 0.001) < 1e-12 && fabs(log(c.ci_high) - 0.002) < 1e-12,
	   "2 rounds equal, 6 at +0.2%%: CI [+0.1%%, +0.2%%], seen (%s)", c.reason);
}

/* Runs compared unpaired (too few rounds to pair), every one equal */
static void
test_equal_runs(void)
{
	double		a[4] = {41000, 41000, 41000, 41000};
	double		b[4] = {41000, 41000, 41000, 41010};
	StatsOptions opt;
	StatsComparison c;

	stats_default_options(&opt);
	opt.noise = COUNTED_NOISE;
	stats_compare(a, 4, a, 4, &opt, &c);
	ok(c.has_ci && c.ci_low == 1.0 && c.ci_high == 1.0 &&
	   stats_comparison_decision(&c, opt.noise) == STATS_DECIDED_SAME,
	   "4 and 4 equal runs: CI [0, 0], same (%s)", c.reason);
	opt.noise = 0.0001;
	stats_compare(a, 4, b, 4, &opt, &c);
	ok(c.verdict == STATS_INSUFFICIENT,
	   "one run of 8 apart by 0.024%%, a 0.01%% threshold: its CI crosses it, insufficient (%s)",
	   c.reason);
}

int
main(void)
{
	test_identical_rounds();
	test_one_round_differs();
	test_real_shift();
	test_equal_runs();
	return done_testing();
}
