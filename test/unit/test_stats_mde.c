/*-------------------------------------------------------------------------
 *
 * test_stats_mde.c
 *		Unit tests of the minimum detectable effects (common/stats_mde.c),
 *		printing TAP: the verdict's MDE is the effect the verdict reports
 *		as faster 80% of the time, checked by simulating that effect.
 *
 * Tolerance: the detection rate of N = 2000 simulated experiments has a
 * Monte Carlo sd of 0.9 points at 80%; the claim passes within 4 points
 * (four and a half of those sd), which leaves about 2 points for the
 * approximation of the rank CIs by t intervals (stats_mde.c).
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <string.h>

#define SIMS 2000
#define TOLERANCE 0.04
#define PAIRED_SD 0.027			/* the paired sd */

/* Share of SIMS paired experiments of n rounds with true ratio 1 + pct% that are "faster". */
static double
paired_detection(int n, double pct)
{
	StatsOptions opt;
	double		a[64],
				b[64];
	int			faster = 0;

	stats_default_options(&opt);
	for (int s = 0; s < SIMS; s++)
	{
		StatsComparison c;

		for (int i = 0; i < n; i++)
		{
			a[i] = 1000.0;
			b[i] = 1000.0 * (1.0 + pct / 100.0) * exp(PAIRED_SD * rng_normal());
		}
		stats_compare_paired(a, b, n, &opt, &c);
		faster += c.verdict == STATS_FASTER;
	}
	return (double) faster / SIMS;
}

static void
test_paired(void)
{
	static const int rounds[] = {8, 20, 35};
	StatsOptions opt;

	stats_default_options(&opt);
	rng_seed(27);
	for (int i = 0; i < 3; i++)
	{
		double		mde,
					test_mde,
					seen,
					seen_test;

		ok(stats_verdict_mde_paired_pct(PAIRED_SD, rounds[i], &opt, &mde) &&
		   stats_mde_paired_pct(PAIRED_SD, rounds[i], opt.alpha, opt.power, &test_mde),
		   "MDEs of %d rounds computed", rounds[i]);
		seen = paired_detection(rounds[i], mde);
		seen_test = paired_detection(rounds[i], test_mde);
		ok(fabs(seen - 0.80) <= TOLERANCE,
		   "%d rounds, paired sd %.1f%%: the verdict's MDE %.2f%% is seen as faster %.1f%% "
		   "of the time (80%% +- %.0f)", rounds[i], 100 * PAIRED_SD, mde, 100 * seen,
		   100 * TOLERANCE);
		ok(seen_test < 0.5,
		   "%d rounds: the test's MDE %.2f%% only %.1f%% of the time", rounds[i], test_mde,
		   100 * seen_test);
	}
}

static void
test_unpaired(void)
{
	static const int runs[] = {10, 30};
	StatsOptions opt;

	stats_default_options(&opt);
	rng_seed(28);
	for (int i = 0; i < 2; i++)
	{
		int			n = runs[i],
					faster = 0;
		double		mde;

		stats_verdict_mde_pct(PAIRED_SD, n, n, &opt, &mde);
		for (int s = 0; s < SIMS; s++)
		{
			double		a[30],
						b[30];
			StatsComparison c;

			noisy_sample(a, n, 1000.0, PAIRED_SD);
			noisy_sample(b, n, 1000.0 * (1.0 + mde / 100.0), PAIRED_SD);
			stats_compare(a, n, b, n, &opt, &c);
			faster += c.verdict == STATS_FASTER;
		}
		ok(fabs((double) faster / SIMS - 0.80) <= TOLERANCE,
		   "%d and %d runs, sd %.1f%%: the verdict's MDE %.2f%% is seen %.1f%% of the time",
		   n, n, 100 * PAIRED_SD, mde, 100.0 * faster / SIMS);
	}
}

/* Units: k normal unit summaries of sd 2%; the t verdict's MDE is exact here. */
static void
test_units(void)
{
	static const int units[] = {3, 8, 20};
	const double sd = 0.02;
	StatsOptions opt;

	stats_default_options(&opt);
	rng_seed(29);
	for (int i = 0; i < 3; i++)
	{
		int			k = units[i],
					faster = 0;
		double		mde;

		stats_verdict_mde_units_pct(sd, k, &opt, &mde);
		for (int s = 0; s < SIMS; s++)
		{
			double		a[20],
						b[20];
			int			unit[20];
			StatsComparison c;

			for (int u = 0; u < k; u++)
			{
				a[u] = 1000.0;
				b[u] = 1000.0 * (1.0 + mde / 100.0) * exp(sd * rng_normal());
				unit[u] = u;
			}
			stats_compare_units(a, NULL, unit, k, b, NULL, unit, k,
								STATS_UNIT_INSTANCE_PAIR, &opt, &c);
			faster += c.verdict == STATS_FASTER;
		}
		ok(fabs((double) faster / SIMS - 0.80) <= TOLERANCE,
		   "%d instance pairs, unit sd 2%%: the verdict's MDE %.2f%% is seen %.1f%% of the time",
		   k, mde, 100.0 * faster / SIMS);
	}
}

static void
test_properties(void)
{
	StatsOptions opt;
	double		mde,
				prev = 1e9;
	bool		falling = true;

	stats_default_options(&opt);
	{
		bool		has = stats_verdict_mde_paired_pct(0.0, 10, &opt, &mde);

		ok(has && fabs(mde - 1.0) < 1e-12,
		   "no noise: the MDE is the noise threshold itself, 1%% (got %.12g)", mde);
	}
	for (int n = 6; n <= 60; n += 6)
	{
		stats_verdict_mde_paired_pct(PAIRED_SD, n, &opt, &mde);
		falling = falling && mde < prev && mde > 1.0;
		prev = mde;
	}
	ok(falling, "the MDE falls with rounds and stays above the threshold (%.2f%% at 60)", prev);
	ok(!stats_verdict_mde_paired_pct(PAIRED_SD, 5, &opt, &mde) &&
	   !stats_verdict_mde_pct(PAIRED_SD, 3, 3, &opt, &mde) &&
	   !stats_verdict_mde_units_pct(PAIRED_SD, 1, &opt, &mde),
	   "no MDE where no CI at 95%% exists (5 rounds, 3 + 3 runs, 1 unit)");

	/* what compare reports is the function of its own noise and sizes */
	{
		double		a[12],
					b[12],
					sd;
		StatsComparison c;

		rng_seed(30);
		noisy_sample(a, 12, 1000.0, 0.03);
		noisy_sample(b, 12, 1000.0, 0.03);
		stats_compare(a, 12, b, 12, &opt, &c);
		stats_pooled_log_sd(a, 12, b, 12, &sd);
		stats_verdict_mde_pct(sd, 12, 12, &opt, &mde);
		ok(c.has_mde && c.mde_pct == mde && c.verdict == STATS_NO_CHANGE &&
		   strstr(c.reason, "the verdict would see") != NULL,
		   "compare's mde_pct is the verdict's MDE of its pooled robust sd (%.2f%%)", mde);
	}
}

int
main(void)
{
	test_paired();
	test_unpaired();
	test_units();
	test_properties();
	return done_testing();
}
