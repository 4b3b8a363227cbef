/*-------------------------------------------------------------------------
 *
 * test_stats_warn.c
 *		Unit tests of the rules of the warnings that judge data
 *		(common/stats_warn.c), printing TAP: each warning's false-alarm
 *		rate over an experiment, measured on simulated steady data the size
 *		of make demo's experiments, and its power on data with a real drift
 *		or a disturbed run.
 *
 * Build seeds: 3 seeds of each side, 20 paired rounds each, alike (the
 * same change for every seed) and with layout effects of +5%, -5% and 0.
 *
 * A rate is stated per experiment (STATS_WARN_RATE, 1%): an experiment of
 * steady noise shows a warning of one kind at most that often.  Each test
 * of a rate simulates many experiments and counts those that warn; it
 * fails when the count exceeds the binomial quantile that a true rate of
 * 1% passes 999 times in 1,000, so a rule at its stated rate fails by
 * chance at most once in 1,000 seeds (with the fixed seeds here, the same
 * way every run).  A test of power fails when the count falls below the
 * quantile that the stated power passes 999 times in 1,000.
 *
 * The experiments: make demo's first, two variants on servers of their
 * own restarted every 3 rounds, 30 rounds (10 server starts), each start
 * drawing an offset (sd 2%) that its runs share, run noise 3%; its second,
 * two variants on one server, 10 rounds, run noise 5%; and a longer one,
 * two variants and two client counts on one server, 60 rounds.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

/*
 * Experiments per rate or power: 1,500 under make test, 4,000 under
 * PGBENCH_EXT_TEST_LONG=1; each limit is computed from the number run.
 */
static int	experiments;

typedef struct Design
{
	const char *name;
	int			rounds;
	int			per_start;		/* rounds per server start; 0: one start */
	double		start_sd;		/* log sd of a start's offset */
	double		run_sd;			/* log sd of a run */
	int			variants;		/* the drift tests: one per variant */
	int			samples;		/* the outlier tests: variants x client counts */
} Design;

static const Design demo_servers = {"demo's A/A (30 rounds, 10 starts)", 30, 3, 0.02, 0.03, 2, 2};
static const Design demo_one = {"demo's one server (10 rounds)", 10, 0, 0.0, 0.05, 2, 2};
static const Design long_one = {"60 rounds, 2 client counts, one server", 60, 0, 0.0, 0.03, 2, 4};

/* P(Binomial(n, p) >= k), summed from the log pmf. */
static double
binomial_at_least(int n, double p, int k)
{
	double		sum = 0.0;

	for (int i = k; i <= n; i++)
		sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) +
				   i * log(p) + (n - i) * log1p(-p));
	return sum;
}

/* The largest count that a true rate p exceeds at most once in 1,000. */
static int
upper_limit(int n, double p)
{
	int			k = (int) (n * p);

	while (binomial_at_least(n, p, k + 1) > 0.001)
		k++;
	return k;
}

/* The smallest count that a true rate p falls below at most once in 1,000. */
static int
lower_limit(int n, double p)
{
	int			k = (int) (n * p);

	while (k > 0 && 1.0 - binomial_at_least(n, p, k) > 0.001)
		k--;
	return k;
}

/*
 * One sample of design d in run order: each run's tps, and the server
 * start it ran on; drift moves the level linearly by that much (log) from
 * the first run to the last.
 */
static void
simulate_sample(const Design *d, double drift, double *x, int *start)
{
	double		offset = 0.0;

	for (int i = 0; i < d->rounds; i++)
	{
		start[i] = d->per_start > 0 ? i / d->per_start : 0;
		if (i == 0 || (d->per_start > 0 && i % d->per_start == 0))
			offset = d->start_sd * rng_normal();
		x[i] = 1000.0 * exp(offset + d->run_sd * rng_normal() +
							drift * i / (d->rounds - 1.0));
	}
}

/* One variant's drift test in the client's way: by start when restarted. */
static bool
drift_warned(const Design *d, const double *x, const int *start, int ntests)
{
	StatsDrift dr;

	if (stats_drift(x, d->per_start > 0 ? start : NULL, d->rounds, &dr) != STATS_OK)
		return false;
	return stats_drift_warns(&dr, ntests, STATS_WARN_RATE, 0.01);
}

/* Experiments of design d that show a drift warning; variant 0 drifts by drift. */
static int
count_drift_warnings(const Design *d, double drift, int *old_rule)
{
	double		x[200];
	int			start[200];
	int			warned = 0;

	*old_rule = 0;
	for (int e = 0; e < experiments; e++)
	{
		bool		any = false,
					any_old = false;

		for (int v = 0; v < d->variants; v++)
		{
			StatsTrend t;

			simulate_sample(d, v == 0 ? drift : 0.0, x, start);
			any |= drift_warned(d, x, start, d->variants);
			/* the rule before: Mann-Kendall on every run at p < 0.05 */
			stats_mann_kendall(x, d->rounds, &t);
			any_old |= t.p_value < 0.05;
		}
		warned += any;
		*old_rule += any_old;
	}
	return warned;
}

static void
test_drift_rate(const Design *d)
{
	int			old_rule;
	int			warned = count_drift_warnings(d, 0.0, &old_rule);
	int			limit = upper_limit(experiments, STATS_WARN_RATE);

	ok(warned <= limit, "drift, %s, steady: %d of %d experiments warn (at most %d: 1%%)",
	   d->name, warned, experiments, limit);
	diag("the rule before (Mann-Kendall of every run, p < 0.05): %d of %d experiments (%.1f%%)",
		 old_rule, experiments, 100.0 * old_rule / experiments);
}

static void
test_drift_power(const Design *d, double drift, double power)
{
	int			old_rule;
	int			warned = count_drift_warnings(d, drift, &old_rule);
	int			limit = lower_limit(experiments, power);

	ok(warned >= limit, "drift, %s, one variant moving %.0f%% over the session: %d of %d experiments warn (at least %d: %.0f%%)",
	   d->name, 100 * (exp(drift) - 1), warned, experiments, limit, 100 * power);
}

/* A drift smaller than the noise threshold is not warned, however clear. */
static void
test_drift_size(void)
{
	double		x[40];
	StatsDrift	dr;
	int			rc;

	for (int i = 0; i < 40; i++)
		x[i] = 1000.0 * (1.0 + 0.0002 * i);
	rc = stats_drift(x, NULL, 40, &dr);
	ok(rc == STATS_OK && dr.trend.p_value < 1e-6 &&
	   !stats_drift_warns(&dr, 2, STATS_WARN_RATE, 0.01),
	   "a steady rise of 0.8%% over 40 runs: p %.2g, change %+.2f%%, not warned",
	   dr.trend.p_value, 100 * dr.change);
	for (int i = 0; i < 40; i++)
		x[i] = 1000.0 * (1.0 + 0.002 * i);
	rc = stats_drift(x, NULL, 40, &dr);
	ok(rc == STATS_OK && fabs(dr.change - 0.078) < 0.002 &&
	   stats_drift_warns(&dr, 2, STATS_WARN_RATE, 0.01),
	   "a rise of 7.8%% over 40 runs: change %+.2f%% (Sen's slope), warned", 100 * dr.change);
}

/* Runs of one start count once: 4 starts can never reach 1% over 2 tests. */
static void
test_drift_units(void)
{
	double		x[12];
	int			start[12];
	StatsDrift	dr;
	int			rc;

	for (int i = 0; i < 12; i++)
	{
		x[i] = 1000.0 * (1.0 + 0.05 * (i / 3)) + i % 3;
		start[i] = i / 3;
	}
	rc = stats_drift(x, start, 12, &dr);
	ok(rc == STATS_OK && dr.units == 4 && !stats_drift_warns(&dr, 2, STATS_WARN_RATE, 0.01),
	   "12 rising runs on 4 starts: %d units, p %.3g, not warned", dr.units, dr.trend.p_value);
	rc = stats_drift(x, NULL, 12, &dr);
	ok(rc == STATS_OK && dr.units == 12 && stats_drift_warns(&dr, 2, STATS_WARN_RATE, 0.01),
	   "the same runs as 12 units: p %.2g, warned", dr.trend.p_value);
}

/* Experiments of design d with an outlier counted; one run of variant 0 moved by shift. */
static int
count_outliers(const Design *d, double shift)
{
	double		x[200];
	int			start[200];
	int			flagged = 0;

	for (int e = 0; e < experiments; e++)
	{
		bool		any = false;

		for (int v = 0; v < d->samples; v++)
		{
			simulate_sample(d, 0.0, x, start);
			if (v == 0)
				x[d->rounds / 2] *= exp(shift);
			any |= stats_outliers_at(x, d->rounds, STATS_WARN_RATE / d->samples, NULL, NULL) > 0;
		}
		flagged += any;
	}
	return flagged;
}

static void
test_outlier_rate(const Design *d)
{
	int			flagged = count_outliers(d, 0.0);
	int			limit = upper_limit(experiments, STATS_WARN_RATE);

	ok(flagged <= limit, "outliers, %s, steady: %d of %d experiments count one (at most %d: 1%%)",
	   d->name, flagged, experiments, limit);
}

static void
test_outlier_power(const Design *d, double shift, double power)
{
	int			flagged = count_outliers(d, shift);
	int			limit = lower_limit(experiments, power);

	ok(flagged >= limit, "outliers, %s, one run %.0f%% off: %d of %d experiments count it (at least %d: %.0f%%)",
	   d->name, 100 * (exp(shift) - 1), flagged, experiments, limit, 100 * power);
}

/* The threshold grows as n and the tests grow, and is at least 3.5. */
static void
test_outlier_threshold(void)
{
	bool		grows = true;

	for (int n = 6; n < 500; n++)
		grows &= stats_outlier_threshold(n + 1, 0.01) > 3.5 &&
			stats_outlier_threshold(n, 0.001) > stats_outlier_threshold(n, 0.01);
	ok(grows, "above 3.5 at every n from 6 to 500, and higher at a lower rate");
	ok(isinf(stats_outlier_threshold(1, 0.01)) && isinf(stats_outlier_threshold(10, 0.0)) &&
	   isinf(stats_outlier_threshold(10, 1.0)),
	   "no threshold for one value or a rate outside (0, 1)");
	ok(stats_outliers_at((const double[]) {1000, 1001, 999, 1000.5, 999.5, 1000.2, 1500}, 7,
						 0.01, NULL, NULL) == 1,
	   "a run 50%% above six within 0.1%%: an outlier at 1%%");
}

/*
 * Experiments of 3 build seeds of B against 3 of A, 20 paired rounds each
 * (run noise 3%), the seeds' true changes in truth[]: those where the
 * seeds disagree beyond chance (one row of seeds: level 1% / 3).
 */
static int
count_seed_warnings(const double truth[3])
{
	StatsOptions opt;
	int			warned = 0;

	stats_default_options(&opt);
	for (int e = 0; e < experiments; e++)
	{
		double		change[3],
					p[3];

		for (int k = 0; k < 3; k++)
		{
			double		a[20],
						b[20];
			StatsComparison cmp;

			for (int i = 0; i < 20; i++)
			{
				a[i] = 1000.0 * exp(0.03 * rng_normal());
				b[i] = 1000.0 * exp(truth[k] + 0.03 * rng_normal());
			}
			stats_compare_paired(a, b, 20, &opt, &cmp);
			change[k] = cmp.change_pct;
			p[k] = cmp.has_p ? cmp.p_value : 1.0;
		}
		warned += stats_signs_disagree(change, p, 3, STATS_WARN_RATE / 3);
	}
	return warned;
}

static void
test_seeds(void)
{
	static const double same[3] = {0.0, 0.0, 0.0};
	static const double small[3] = {0.01, 0.01, 0.01};
	static const double layout[3] = {0.05, -0.05, 0.0};
	int			limit = upper_limit(experiments, STATS_WARN_RATE);
	int			n;

	n = count_seed_warnings(same);
	ok(n <= limit, "build seeds, no change and no layout effect: %d of %d experiments warn (at most %d: 1%%)",
	   n, experiments, limit);
	n = count_seed_warnings(small);
	ok(n <= limit, "build seeds, every seed +1%%: %d of %d experiments warn (at most %d: 1%%)",
	   n, experiments, limit);
	n = count_seed_warnings(layout);
	ok(n >= lower_limit(experiments, 0.8),
	   "build seeds +5%%, -5%% and 0: %d of %d experiments warn (at least %d: 80%%)",
	   n, experiments, lower_limit(experiments, 0.8));
}

int
main(void)
{
	experiments = sim_reps(1500, 4000);
	rng_seed(20261206);
	test_drift_size();
	test_drift_units();
	test_drift_rate(&demo_servers);
	test_drift_rate(&demo_one);
	test_drift_rate(&long_one);
	test_drift_power(&demo_one, log(1.25), 0.5);
	test_drift_power(&demo_servers, log(1.20), 0.8);
	test_drift_power(&long_one, log(1.10), 0.9);
	test_outlier_threshold();
	test_outlier_rate(&demo_servers);
	test_outlier_rate(&demo_one);
	test_outlier_rate(&long_one);
	test_outlier_power(&demo_one, log(0.5), 0.5);
	test_outlier_power(&demo_servers, log(0.75), 0.8);
	test_outlier_power(&long_one, log(0.75), 0.9);
	test_seeds();
	return done_testing();
}
