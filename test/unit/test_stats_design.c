/*
 * test_stats_design.c — unit tests of the promise of the design
 * stats_plan_design() prints from a pilot (common/stats_design.c): where
 * instance offsets are large, the designs printed from pilots of 3 to 10
 * instance pairs see 2% with at least 80% power, counted over the designs
 * printed, not over all pilots (a plan that exists only for the pilots
 * that underestimated the offset is what broke the promise before).
 * bench/design_promise.sh measures the whole grid; docs/statistics.md
 * ("A design that keeps its promise") has its table.
 */
#include "stats.h"
#include "test_stats_util.h"

#include <stdlib.h>

#define EFFECT 0.02

static const StatsDesignCost cost = {.build_s = 0.0, .restart_s = 20.0, .round_s = 6.0};

/*
 * A pilot of k instance pairs of r rounds, no effect: each pair's offset
 * of sd si on the ratio, each round's ratio noise of sd sr; its ratio
 * components in c.
 */
static void
pilot(int k, int r, double si, double sr, StatsComponents *c)
{
	double		a[64],
				b[64];
	int			instance[64],
				round[64],
				n = 0;

	for (int u = 0; u < k; u++)
	{
		double		offset = si * rng_normal();

		for (int j = 0; j < r; j++, n++)
		{
			a[n] = 1000.0 * exp(sr / sqrt(2.0) * rng_normal());
			b[n] = 1000.0 * exp(offset + sr / sqrt(2.0) * rng_normal());
			instance[n] = u;
			round[n] = j + 1;
		}
	}
	stats_ratio_components(a, NULL, instance, round, n, b, NULL, instance, round, n, c);
}

/*
 * Design d run once with the true +2%, as the nested verdict sees it: a
 * unit's summary, the mean of its R rounds' log ratios, is normal with
 * the mean log(1.02) and the variance si^2 + sr^2 / R, so each unit is
 * given as one round of that log ratio (the runs themselves would cost
 * a design's thousands of rounds and give the same summaries).  Whether
 * stats_compare_units() says faster.
 */
static bool
run_design(const StatsDesign *d, double si, double sr)
{
	int			k = d->n_units;
	double	   *a = malloc(sizeof(double) * k),
			   *b = malloc(sizeof(double) * k);
	int		   *unit = malloc(sizeof(int) * k);
	double		sd = sqrt(si * si + sr * sr / d->rounds);
	StatsOptions opt;
	StatsComparison c;

	if (a == NULL || b == NULL || unit == NULL)
		exit(1);
	stats_default_options(&opt);
	for (int u = 0; u < k; u++)
	{
		a[u] = 1000.0;
		b[u] = 1000.0 * exp(log1p(EFFECT) + sd * rng_normal());
		unit[u] = u;
	}
	stats_compare_units(a, NULL, unit, k, b, NULL, unit, k, STATS_UNIT_INSTANCE_PAIR, &opt, &c);
	free(a);
	free(b);
	free(unit);
	return c.verdict == STATS_FASTER;
}

/*
 * The fewest successes of n Bernoulli trials of chance p that a rate of at
 * least p shows but for at most 1 in 1,000: the smallest c with
 * P(Bin(n, p) < c) <= 0.001 above it, summed from the exact pmf.
 */
static int
binomial_floor(int n, double p)
{
	double		cdf = 0.0;

	for (int c = 0; c <= n; c++)
	{
		double		pmf = exp(lgamma(n + 1.0) - lgamma(c + 1.0) - lgamma(n - c + 1.0) +
							  c * log(p) + (n - c) * log1p(-p));

		if (cdf + pmf > 0.001)
			return c;
		cdf += pmf;
	}
	return n;
}

/*
 * Pilots of k instance pairs at an instance-pair sd si and a round sd sr,
 * of the rounds per pair restart = auto would take (2 to 5), each planning
 * 2%; each printed design run once.  The designs printed must be decided
 * faster at a rate of at least 80%: the count of n printed, a binomial
 * of n trials at the designs' mean power, passes at or above
 * binomial_floor(n, 0.8) — e.g. 760 of 1,000 (76.0%) — so a planner
 * whose designs deliver exactly 80% fails once in 1,000 seeds, and the
 * one before (its designs 64-65% at an instance-pair sd of 3%) fails.
 * Where the pilot cannot back a promise the planner may say so instead;
 * at least half the pilots must print a design (87-100% do; before, 40-49%
 * did), so that saying so is no way to pass.  1,000 pilots a cell, 2,000
 * and all nine pairs of sds with PGBENCH_EXT_TEST_LONG=1.
 */
static void
check_cell(double si, double sr, int k, int pilots)
{
	StatsOptions opt;
	int			r = stats_rounds_per_unit(si * si, sr * sr, cost.restart_s, cost.round_s, 5),
				printed = 0,
				faster = 0,
				floor_;

	stats_default_options(&opt);
	r = r < 2 ? 2 : r;
	for (int p = 0; p < pilots; p++)
	{
		StatsComponents c;
		StatsDesign d;

		pilot(k, r, si, sr, &c);
		stats_plan_design(&c, NULL, NULL, &cost, false, EFFECT, &opt, &d);
		if (!d.found)
			continue;
		printed++;
		faster += run_design(&d, si, sr);
	}
	floor_ = binomial_floor(printed, 0.8);
	ok(printed >= pilots / 2 && faster >= floor_,
	   "instance-pair sd %.0f%%, round sd %.0f%%, pilots of %d pairs x %d rounds: %d of %d "
	   "printed a design, decided faster %d of those (%.1f%%; at least %d)",
	   100 * si, 100 * sr, k, r, printed, pilots, faster,
	   printed > 0 ? 100.0 * faster / printed : 0.0, floor_);
}

/*
 * The words where no design is printed: past the limits, and where even
 * the search past them finds none (a pilot of 2 instance pairs, 1 df).
 */
static void
test_words(void)
{
	StatsComponents c = {0};
	StatsOptions opt;
	StatsDesign d;

	stats_default_options(&opt);
	c.has[STATS_LEVEL_INSTANCE] = c.has[STATS_LEVEL_ROUND] = true;
	c.variance[STATS_LEVEL_INSTANCE] = c.raw[STATS_LEVEL_INSTANCE] = 0.05 * 0.05;
	c.variance[STATS_LEVEL_ROUND] = c.raw[STATS_LEVEL_ROUND] = 0.15 * 0.15;
	stats_plan_design(&c, NULL, NULL, &cost, false, EFFECT, &opt, &d);
	ok(!d.found && strstr(d.reason, "no design of up to 200 instance pairs") != NULL,
	   "an instance-pair sd of 5%% taken as known: %s", d.reason);

	/* 2 pairs x 5 rounds whose offsets differ by 5%: 1 df */
	c.n_obs = 10;
	c.n_groups[STATS_LEVEL_INSTANCE] = 2;
	c.n_groups[STATS_LEVEL_ROUND] = 10;
	c.df[STATS_LEVEL_INSTANCE] = 1;
	c.df[STATS_LEVEL_ROUND] = 8;
	c.variance[STATS_LEVEL_INSTANCE] = c.raw[STATS_LEVEL_INSTANCE] = 0.05 * 0.05;
	c.variance[STATS_LEVEL_ROUND] = c.raw[STATS_LEVEL_ROUND] = 0.10 * 0.10;
	stats_plan_design(&c, NULL, NULL, &cost, false, EFFECT, &opt, &d);
	ok(!d.found && strstr(d.reason, "can be promised") != NULL &&
	   strstr(d.reason, "measure more instance pairs") != NULL,
	   "2 instance pairs, sd 5%% between them: %s", d.reason);

	/* 3% from 10 pairs (9 df): past the limits, printed as it is */
	c.n_obs = 50;
	c.n_groups[STATS_LEVEL_INSTANCE] = 10;
	c.n_groups[STATS_LEVEL_ROUND] = 50;
	c.df[STATS_LEVEL_INSTANCE] = 9;
	c.df[STATS_LEVEL_ROUND] = 40;
	c.variance[STATS_LEVEL_INSTANCE] = c.raw[STATS_LEVEL_INSTANCE] = 0.03 * 0.03;
	stats_plan_design(&c, NULL, NULL, &cost, false, EFFECT, &opt, &d);
	ok(d.found && d.instances > STATS_DESIGN_MAX_INSTANCES && d.power >= 0.8,
	   "10 instance pairs, sd 3%% between them: %s (power %.3f at the bounds)", d.reason,
	   d.power);
}

/*
 * stats_design_power(), what a budget's units buy: for a design of known
 * components its own power; 0 below 2 units; more with more units; and a
 * budget of half the design's units decided faster at the rate it says
 * (2,000 runs, within 4 binomial sds), so that the pre-flight's power of
 * a budget short of 80% is a power, not a guess.
 */
static void
test_budget_power(void)
{
	StatsComponents c = {0};
	StatsOptions opt;
	StatsDesign d,
				half;
	double		power;
	int			faster = 0,
				n = 2000;

	stats_default_options(&opt);
	c.has[STATS_LEVEL_INSTANCE] = c.has[STATS_LEVEL_ROUND] = true;
	c.variance[STATS_LEVEL_INSTANCE] = 0.01 * 0.01;
	c.variance[STATS_LEVEL_ROUND] = 0.05 * 0.05;
	stats_plan_design(&c, NULL, NULL, &cost, false, EFFECT, &opt, &d);
	power = stats_design_power(&c, d.instances, d.rounds, EFFECT, &opt);
	ok(d.found && fabs(power - d.power) < 1e-9 && power >= 0.8,
	   "a design's units have its power: %s, %.4f and %.4f", d.reason, power, d.power);
	ok(stats_design_power(&c, 1, d.rounds, EFFECT, &opt) == 0.0 &&
	   stats_design_power(&c, d.instances + 5, d.rounds, EFFECT, &opt) > power &&
	   stats_design_power(&c, d.instances, d.rounds, 0.005, &opt) == 0.0,
	   "1 unit: 0; more units: more; an effect inside the threshold: 0");
	half = d;
	half.n_units = half.instances = d.instances / 2;
	power = stats_design_power(&c, half.n_units, d.rounds, EFFECT, &opt);
	for (int i = 0; i < n; i++)
		faster += run_design(&half, 0.01, 0.05);
	ok(power < 0.8 && fabs((double) faster / n - power) < 4 * sqrt(power * (1 - power) / n),
	   "%d of the design's %d units: power %.3f, decided faster %d of %d", half.n_units,
	   d.instances, power, faster, n);
}

int
main(void)
{
	static const double sds[3][2] = {{0.01, 0.15}, {0.02, 0.10}, {0.03, 0.15}};
	static const int pilots[] = {3, 5, 10};

	rng_seed(56);
	test_words();
	test_budget_power();
	if (test_long())
	{
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				check_cell(0.01 * (i + 1), 0.05 * (j + 1), pilots[(i + j) % 3], 2000);
	}
	else
	{
		for (int i = 0; i < 3; i++)
			check_cell(sds[i][0], sds[i][1], pilots[i], 1000);
		check_cell(0.03, 0.10, 5, 1000);
	}
	return done_testing();
}
