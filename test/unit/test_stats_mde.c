/*-------------------------------------------------------------------------
 *
 * test_stats_mde.c
 *		Unit tests of the minimum detectable effects (common/stats_mde.c),
 *		printing TAP: the verdict's MDE, computed as the client prints it
 *		from the experiment's own noise estimate, is an effect the verdict
 *		reports as faster in at least 80% of experiments.
 *
 * The simulation: a pilot experiment (noise only) prints its MDE from its
 * own robust sd (rounds, runs) or sample sd (units); a replicate of the
 * same design whose true effect is that MDE is compared; the share of
 * replicates decided faster is the promise kept.  Before the sd's upper
 * confidence bound this was 54–77% (docs/statistics.md).
 *
 * Tolerances (fail by chance at most once in 1,000 runs): a rate whose
 * truth is at least 80%, from N = 2000 simulations, has a Monte Carlo sd
 * of at most sqrt(0.8 0.2 / 2000) = 0.89 points; the check "at least 80%"
 * passes above 80% - 3.09 sd = 77.2% (P(Z < -3.09) = 0.001).  The sanity
 * bound against a uselessly cautious MDE, at most 92%, has as much room.
 * The rates seen with a known sd are diagnostics.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <string.h>

#define SIMS 2000
#define PAIRED_SD 0.027			/* the paired sd */
#define PROMISE_LOW (0.80 - 3.09 * 0.0089)	/* 77.2% */
#define PROMISE_HIGH 0.92

/* One paired experiment of n rounds with true ratio 1 + pct%, into c. */
static void
paired_once(int n, double pct, StatsComparison *c)
{
	StatsOptions opt;
	double		a[64],
				b[64];

	stats_default_options(&opt);
	for (int i = 0; i < n; i++)
	{
		a[i] = 1000.0;
		b[i] = 1000.0 * (1.0 + pct / 100.0) * exp(PAIRED_SD * rng_normal());
	}
	stats_compare_paired(a, b, n, &opt, c);
}

/* Share of SIMS paired experiments of n rounds with true ratio 1 + pct% that are "faster". */
static double
paired_detection(int n, double pct)
{
	int			faster = 0;

	for (int s = 0; s < SIMS; s++)
	{
		StatsComparison c;

		paired_once(n, pct, &c);
		faster += c.verdict == STATS_FASTER;
	}
	return (double) faster / SIMS;
}

/* Share of SIMS pilots whose replicate, at the pilot's MDE, is "faster". */
static double
paired_promise(int n, double *mean_mde)
{
	int			faster = 0;

	*mean_mde = 0.0;
	for (int s = 0; s < SIMS; s++)
	{
		StatsComparison pilot,
					c;

		/* the pilot prints its MDE from its own robust sd */
		paired_once(n, 0.0, &pilot);
		*mean_mde += pilot.mde_pct / SIMS;
		paired_once(n, pilot.mde_pct, &c);
		faster += c.verdict == STATS_FASTER;
	}
	return (double) faster / SIMS;
}

static void
test_paired(void)
{
	static const int rounds[] = {6, 8, 12, 20};
	StatsOptions opt;

	stats_default_options(&opt);
	rng_seed(27);
	for (int i = 0; i < 4; i++)
	{
		double		test_mde,
					mean_mde,
					seen,
					seen_test;

		seen = paired_promise(rounds[i], &mean_mde);
		ok(seen >= PROMISE_LOW && seen <= PROMISE_HIGH,
		   "%d rounds, paired sd %.1f%%, the sd estimated by each experiment: an effect of "
		   "the MDE it prints (%.2f%% on average) is seen as faster %.1f%% of the time "
		   "(>= %.1f%%, <= %.0f%%)", rounds[i], 100 * PAIRED_SD, mean_mde, 100 * seen,
		   100 * PROMISE_LOW, 100 * PROMISE_HIGH);
		stats_mde_paired_pct(PAIRED_SD, rounds[i], opt.alpha, opt.power, &test_mde);
		seen_test = paired_detection(rounds[i], test_mde);
		ok(seen_test < 0.5,
		   "%d rounds: the test's MDE %.2f%% only %.1f%% of the time", rounds[i], test_mde,
		   100 * seen_test);
	}
}

/* One unpaired experiment of n runs a side, B at 1 + pct%: its comparison. */
static void
unpaired_once(int n, double pct, StatsComparison *c)
{
	StatsOptions opt;
	double		a[30],
				b[30];

	stats_default_options(&opt);
	noisy_sample(a, n, 1000.0, PAIRED_SD);
	noisy_sample(b, n, 1000.0 * (1.0 + pct / 100.0), PAIRED_SD);
	stats_compare(a, n, b, n, &opt, c);
}

static void
test_unpaired(void)
{
	static const int runs[] = {6, 10, 30};

	rng_seed(28);
	for (int i = 0; i < 3; i++)
	{
		int			n = runs[i],
					faster = 0;
		double		mean_mde = 0.0;

		for (int s = 0; s < SIMS; s++)
		{
			StatsComparison pilot,
						c;

			unpaired_once(n, 0.0, &pilot);
			mean_mde += pilot.mde_pct / SIMS;
			unpaired_once(n, pilot.mde_pct, &c);
			faster += c.verdict == STATS_FASTER;
		}
		ok((double) faster / SIMS >= PROMISE_LOW && (double) faster / SIMS <= PROMISE_HIGH,
		   "%d and %d runs, sd %.1f%%, the sd estimated by each experiment: an effect of the "
		   "MDE it prints (%.2f%% on average) is seen %.1f%% of the time (>= %.1f%%)",
		   n, n, 100 * PAIRED_SD, mean_mde, 100.0 * faster / SIMS, 100 * PROMISE_LOW);
	}
}

/* One experiment of k normal unit summaries (sd "sd"), B at 1 + pct%. */
static void
units_once(int k, double sd, double pct, StatsComparison *c)
{
	StatsOptions opt;
	double		a[20],
				b[20];
	int			unit[20];

	stats_default_options(&opt);
	for (int u = 0; u < k; u++)
	{
		a[u] = 1000.0;
		b[u] = 1000.0 * (1.0 + pct / 100.0) * exp(sd * rng_normal());
		unit[u] = u;
	}
	stats_compare_units(a, NULL, unit, k, b, NULL, unit, k, STATS_UNIT_INSTANCE_PAIR, &opt, c);
}

/*
 * Units: k normal unit summaries of sd 2%.  With the sd known the t
 * verdict's power is exact, so the MDE at the true sd (its upper bound's
 * factor taken out) must be seen 80% +- 3.29 sd; at the sd each pilot
 * estimates, at least 80%.
 */
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
					faster = 0,
					known = 0;
		double		mde,
					mean_mde = 0.0;
		StatsComparison pilot,
					c;

		stats_verdict_mde_units_pct(sd / stats_sd_bound_factor(k - 1), k, &opt, &mde);
		for (int s = 0; s < SIMS; s++)
		{
			units_once(k, sd, mde, &c);
			known += c.verdict == STATS_FASTER;
			units_once(k, sd, 0.0, &pilot);
			mean_mde += pilot.mde_pct / SIMS;
			units_once(k, sd, pilot.mde_pct, &c);
			faster += c.verdict == STATS_FASTER;
		}
		ok(fabs((double) known / SIMS - 0.80) <= 3.29 * 0.0089,
		   "%d instance pairs, unit sd 2%% known: the t verdict's power at %.2f%% is %.1f%% "
		   "(80%% +- 2.9)", k, mde, 100.0 * known / SIMS);
		ok((double) faster / SIMS >= PROMISE_LOW && (double) faster / SIMS <= PROMISE_HIGH,
		   "%d instance pairs, unit sd 2%%, estimated by each experiment: an effect of the MDE "
		   "it prints (%.2f%% on average) is seen %.1f%% of the time (>= %.1f%%)",
		   k, mean_mde, 100.0 * faster / SIMS, 100 * PROMISE_LOW);
	}
}

/*
 * The lower bound the pilot's claim rests on, by simulation: the sd of 6
 * normal draws (5 df) times the factor lies at or below the true sd in 90%
 * of samples.  Of 20,000 samples the share has an sd of 0.21 points, so
 * [89.28%, 90.72%] (3.4 sds) fails by chance once in 1,500 runs.
 */
static void
test_lower_bound_coverage(void)
{
	const int	samples = 20000;
	double		f = stats_sd_lower_bound_factor(5.0);
	int			below = 0;

	rng_seed(31);
	for (int s = 0; s < samples; s++)
	{
		double		x[6],
					mean = 0,
					ss = 0;

		for (int i = 0; i < 6; i++)
			mean += (x[i] = rng_normal()) / 6;
		for (int i = 0; i < 6; i++)
			ss += (x[i] - mean) * (x[i] - mean);
		below += sqrt(ss / 5) * f <= 1.0;
	}
	ok(fabs((double) below / samples - 0.9) <= 0.0072,
	   "the sd's lower 90%% bound on 5 df lies below the true sd in %.2f%% of %d samples (90%% +- 0.72)",
	   100.0 * below / samples, samples);
}

/* The upper confidence bounds on an sd, against chi-square tables. */
static void
test_bounds(void)
{
	is_close(stats_chisq_quantile(0.05, 5.0), 1.145476, 5e-6, "chi-square 5% quantile, 5 df");
	is_close(stats_chisq_quantile(0.95, 10.0), 18.307038, 5e-6, "chi-square 95% quantile, 10 df");
	is_close(stats_chisq_quantile(0.05, 1.0), 0.00393214, 5e-8, "chi-square 5% quantile, 1 df");
	is_close(stats_sd_bound_factor(5.0), sqrt(5.0 / stats_chisq_quantile(0.3, 5.0)), 1e-12,
			 "the sd's upper 70% bound on 5 df: sqrt(5 / chi2(0.3, 5)) = 1.291");
	is_close(stats_sd_lower_bound_factor(5.0), sqrt(5.0 / 9.236357), 5e-6,
			 "the sd's lower 90% bound on 5 df: sqrt(5 / chi2(0.9, 5)) = 0.736");
	ok(isnan(stats_sd_lower_bound_factor(0.0)), "no lower bound without degrees of freedom");
	test_lower_bound_coverage();
	ok(stats_robust_sd_bound_factor(6, 0) > stats_sd_bound_factor(5.0) &&
	   stats_robust_sd_bound_factor(100, 0) > 1.0 &&
	   stats_robust_sd_bound_factor(100, 0) < stats_robust_sd_bound_factor(20, 0) &&
	   stats_robust_sd_bound_factor(10, 10) < stats_robust_sd_bound_factor(10, 0),
	   "the MAD's bound is wider than the sd's, narrows with n and with pooling "
	   "(6: %.3f, 20: %.3f, 100: %.3f, 10 + 10: %.3f)",
	   stats_robust_sd_bound_factor(6, 0), stats_robust_sd_bound_factor(20, 0),
	   stats_robust_sd_bound_factor(100, 0), stats_robust_sd_bound_factor(10, 10));
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
	test_bounds();
	test_properties();
	return done_testing();
}
