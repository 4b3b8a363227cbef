/*-------------------------------------------------------------------------
 *
 * test_stats_components.c
 *		Unit tests of where the noise lives (common/stats_components.c)
 *		and of the design planned from it (common/stats_design.c),
 *		printing TAP.
 *
 * The method of moments is unbiased before truncation, so averaged over
 * many simulated experiments of known components its raw estimates must
 * come back to those components, within three standard errors of that
 * average; a balanced example is checked against the textbook one-way
 * ANOVA formulas.  A planned design is then simulated as planned: the
 * verdict must see the effect at least 75% of the time for the 80%
 * claimed (N = 1000 experiments: Monte Carlo sd 1.3 points, so 75% is
 * four of them below the claim; rounding the rounds up only adds power).
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <stdlib.h>
#include <string.h>

/* True sds of log tps by level, for one side. */
typedef struct Truth
{
	double		build;
	double		instance;
	double		round;
	double		second;
} Truth;

#define MAX_RUNS 600
#define MAX_SECONDS 12

typedef struct Runs
{
	int			n;
	double		tps[MAX_RUNS];
	int			build[MAX_RUNS];
	int			instance[MAX_RUNS];
	double		second_values[MAX_RUNS][MAX_SECONDS];
	const double *seconds[MAX_RUNS];
	int			n_seconds[MAX_RUNS];
} Runs;

/*
 * builds x instances x runs x seconds, unbalanced when "ragged": build b
 * has 2 + b % 3 instances, instance i has 3 + (b + i) % 4 runs, run r has
 * 6 + r % 5 seconds.
 */
static void
simulate_runs(const Truth *t, int builds, int instances, int runs, int seconds,
			  bool ragged, Runs *out)
{
	out->n = 0;
	for (int b = 0; b < builds; b++)
	{
		double		eb = t->build * rng_normal();
		int			ni = ragged ? 2 + b % 3 : instances;

		for (int i = 0; i < ni; i++)
		{
			double		ei = t->instance * rng_normal();
			int			nr = ragged ? 3 + (b + i) % 4 : runs;

			for (int r = 0; r < nr; r++)
			{
				int			k = out->n++;
				double		er = t->round * rng_normal(),
							sum = 0.0;

				out->n_seconds[k] = ragged ? 6 + r % 5 : seconds;
				for (int s = 0; s < out->n_seconds[k]; s++)
				{
					out->second_values[k][s] = 1000.0 * exp(eb + ei + er + t->second * rng_normal());
					sum += out->second_values[k][s];
				}
				out->seconds[k] = out->second_values[k];
				out->tps[k] = sum / out->n_seconds[k];
				out->build[k] = b;
				out->instance[k] = i;
			}
		}
	}
}

static void
test_balanced_anova(void)
{
	/* 3 instances x 4 runs, one build: one-way ANOVA by hand */
	static const double y[3][4] = {{0.00, 0.02, 0.01, 0.03}, {0.05, 0.04, 0.06, 0.07},
	{-0.02, 0.00, -0.01, 0.01}};
	double		tps[12],
				grand = 0.0,
				ssb = 0.0,
				ssw = 0.0;
	int			instance[12];
	StatsComponents c;

	for (int i = 0; i < 3; i++)
		for (int r = 0; r < 4; r++)
		{
			tps[i * 4 + r] = exp(y[i][r]);
			instance[i * 4 + r] = i;
			grand += y[i][r] / 12;
		}
	for (int i = 0; i < 3; i++)
	{
		double		m = (y[i][0] + y[i][1] + y[i][2] + y[i][3]) / 4;

		ssb += 4 * (m - grand) * (m - grand);
		for (int r = 0; r < 4; r++)
			ssw += (y[i][r] - m) * (y[i][r] - m);
	}
	ok(stats_run_components(tps, 12, NULL, instance, NULL, NULL, &c) == STATS_OK,
	   "components of 3 instances x 4 runs");
	/* sigma_w^2 = MSW = SSW / 9, sigma_b^2 = (MSB - MSW) / 4, MSB = SSB / 2 */
	is_close(c.variance[STATS_LEVEL_ROUND], ssw / 9, 1e-15, "between runs: MSW");
	is_close(c.variance[STATS_LEVEL_INSTANCE], (ssb / 2 - ssw / 9) / 4, 1e-15,
			 "between instances: (MSB - MSW) / n");
	ok(!c.has[STATS_LEVEL_BUILD] && !c.has[STATS_LEVEL_SECOND] && c.df[STATS_LEVEL_INSTANCE] == 2 &&
	   c.df[STATS_LEVEL_ROUND] == 9 && c.n_groups[STATS_LEVEL_INSTANCE] == 3 && c.n_obs == 12,
	   "one build and no seconds: those levels not estimated; df 2 and 9");
	is_close(c.mean, grand, 1e-15, "grand mean of log tps");
}

/* Average raw estimates of sims experiments against the truth, 3 standard errors. */
static void
check_recovery(const char *what, const Truth *t, int builds, int instances, int runs,
			   int seconds, bool ragged, int sims)
{
	static Runs r;
	double		sum[STATS_N_LEVELS] = {0},
				sum2[STATS_N_LEVELS] = {0},
				want[STATS_N_LEVELS] = {t->build * t->build, t->instance * t->instance,
		t->round * t->round, t->second * t->second};
	bool		good = true;
	char		detail[512] = "";

	for (int s = 0; s < sims; s++)
	{
		StatsComponents c;

		simulate_runs(t, builds, instances, runs, seconds, ragged, &r);
		stats_run_components(r.tps, r.n, r.build, r.instance, r.seconds, r.n_seconds, &c);
		for (int l = 0; l < STATS_N_LEVELS; l++)
		{
			good = good && c.has[l];
			sum[l] += c.raw[l];
			sum2[l] += c.raw[l] * c.raw[l];
		}
	}
	for (int l = 0; l < STATS_N_LEVELS; l++)
	{
		double		mean = sum[l] / sims,
					se = sqrt((sum2[l] / sims - mean * mean) / sims);
		size_t		len = strlen(detail);

		good = good && fabs(mean - want[l]) <= 3.0 * se;
		snprintf(detail + len, sizeof(detail) - len, " %s sd %.2f%% (true %.2f%%)",
				 stats_level_name(l), 100 * sqrt(fmax(mean, 0.0)), 100 * sqrt(want[l]));
	}
	ok(good, "%s: mean estimates over %d experiments within 3 standard errors:%s",
	   what, sims, detail);
}

static void
test_recovery(void)
{
	Truth		t = {.build = 0.02, .instance = 0.015, .round = 0.03, .second = 0.05};

	rng_seed(2013);
	check_recovery("balanced 6 builds x 4 instances x 5 runs x 10 s", &t, 6, 4, 5, 10, false, 400);
	check_recovery("unbalanced builds, instances, runs and seconds", &t, 7, 0, 0, 0, true, 400);
}

static void
test_truncation_and_missing(void)
{
	Runs	   *r = calloc(1, sizeof(Runs));
	Truth		none = {.second = 0.05};
	StatsComponents c;
	bool		truncated = false;

	/* no variance above the seconds: some raw estimates fall below 0 */
	rng_seed(7);
	for (int s = 0; s < 20 && !truncated; s++)
	{
		simulate_runs(&none, 3, 3, 3, 8, false, r);
		stats_run_components(r->tps, r->n, r->build, r->instance, r->seconds, r->n_seconds, &c);
		for (int l = 0; l < STATS_LEVEL_SECOND; l++)
			if (c.truncated[l])
				truncated = c.raw[l] < 0.0 && c.variance[l] == 0.0;
	}
	ok(truncated, "a negative moment estimate is reported as 0, truncated, the raw value kept");

	/* a run with one second: the run is the observation, no second level */
	r->n_seconds[0] = 1;
	stats_run_components(r->tps, r->n, r->build, r->instance, r->seconds, r->n_seconds, &c);
	ok(!c.has[STATS_LEVEL_SECOND] && c.has[STATS_LEVEL_ROUND] && c.n_obs == r->n,
	   "a run without 2 seconds: the runs are the observations");
	r->n_seconds[0] = 8;
	r->second_values[1][3] = 0.0;
	ok(stats_run_components(r->tps, r->n, r->build, r->instance, r->seconds, r->n_seconds,
							&c) == STATS_ERR_VALUE, "a second with 0 tps: STATS_ERR_VALUE");
	ok(stats_run_components(r->tps, 0, NULL, NULL, NULL, NULL, &c) == STATS_OK && c.n_obs == 0 &&
	   !c.has[STATS_LEVEL_ROUND], "no runs: nothing estimated");
	free(r);
}

/*
 * The comparison's scale: k instance pairs of r rounds, each side's
 * instance offset sd si, round ratio noise sr.  The instance pair's
 * variance is that of the difference of two offsets, 2 si^2.
 */
static void
simulate_pairs(int k, int r, double si, double sr, double effect, double build_sd,
			   int builds, double *a, double *b, int *build, int *instance, int *round,
			   int *n)
{
	*n = 0;
	for (int g = 0; g < builds; g++)
	{
		double		eb = build_sd * (rng_normal() - rng_normal());

		for (int u = 0; u < k; u++)
		{
			double		oa = si * rng_normal(),
						ob = si * rng_normal();

			for (int j = 0; j < r; j++)
			{
				int			i = (*n)++;
				double		drift = 0.03 * rng_normal();

				a[i] = 1000.0 * exp(oa + drift + sr / sqrt(2.0) * rng_normal());
				b[i] = 1000.0 * exp(effect + eb + ob + drift + sr / sqrt(2.0) * rng_normal());
				build[i] = g;
				instance[i] = u;
				round[i] = j + 1;
			}
		}
	}
}

static void
test_ratio_scale(void)
{
	static double a[2000],
				b[2000];
	static int	build[2000],
				instance[2000],
				round[2000];
	double		sum_i = 0.0,
				sum_i2 = 0.0,
				sum_r = 0.0,
				sum_r2 = 0.0;
	const int	sims = 400;
	const double si = 0.015,
				sr = 0.043;
	int			n;

	rng_seed(43);
	for (int s = 0; s < sims; s++)
	{
		StatsComponents c;

		simulate_pairs(10, 4, si, sr, 0.0, 0.0, 1, a, b, build, instance, round, &n);
		stats_ratio_components(a, NULL, instance, round, n, b, NULL, instance, round, n, &c);
		sum_i += c.raw[STATS_LEVEL_INSTANCE];
		sum_i2 += c.raw[STATS_LEVEL_INSTANCE] * c.raw[STATS_LEVEL_INSTANCE];
		sum_r += c.raw[STATS_LEVEL_ROUND];
		sum_r2 += c.raw[STATS_LEVEL_ROUND] * c.raw[STATS_LEVEL_ROUND];
	}
	{
		double		mi = sum_i / sims,
					mr = sum_r / sims,
					se_i = sqrt((sum_i2 / sims - mi * mi) / sims),
					se_r = sqrt((sum_r2 / sims - mr * mr) / sims);

		ok(fabs(mi - 2 * si * si) <= 3 * se_i && fabs(mr - sr * sr) <= 3 * se_r,
		   "ratio scale, 10 instance pairs x 4 rounds: instance pair sd %.2f%% (true %.2f%%), "
		   "round sd %.2f%% (true %.2f%%)", 100 * sqrt(mi), 100 * sqrt(2) * si,
		   100 * sqrt(mr), 100 * sr);
	}
	{
		StatsComponents c;

		simulate_pairs(10, 4, si, sr, 0.0, 0.0, 1, a, b, build, instance, round, &n);
		round[3] = round[2];	/* instance 0's round 3 twice on both sides */
		stats_ratio_components(a, NULL, instance, round, n, b, NULL, instance, round, n, &c);
		ok(c.n_obs == n - 2 && c.n_groups[STATS_LEVEL_INSTANCE] == 10 &&
		   !c.has[STATS_LEVEL_BUILD],
		   "a round holding two runs of each side is no pair (%d of %d)", c.n_obs, n);
	}
}

/*
 * The noise the designs below are planned for: instance sd 1% a side,
 * round noise 4.3%, restarts of 20 s and rounds of 6 s; its true
 * components on the ratio scale, and one pilot of k instance pairs x r
 * rounds of no effect, as its estimated components.
 */
#define PILOT_SI 0.01
#define PILOT_SR 0.043
static const StatsDesignCost pilot_cost = {.build_s = 0.0, .restart_s = 20.0, .round_s = 6.0};

static void
true_components(StatsComponents *ratio)
{
	memset(ratio, 0, sizeof(*ratio));
	ratio->has[STATS_LEVEL_INSTANCE] = ratio->has[STATS_LEVEL_ROUND] = true;
	ratio->variance[STATS_LEVEL_INSTANCE] = 2 * PILOT_SI * PILOT_SI;
	ratio->variance[STATS_LEVEL_ROUND] = PILOT_SR * PILOT_SR;
}

static void
pilot_components(int k, int r, StatsComponents *ratio)
{
	static double a[100],
				b[100];
	static int	build[100],
				instance[100],
				round[100];
	int			n;

	simulate_pairs(k, r, PILOT_SI, PILOT_SR, 0.0, 0.0, 1, a, b, build, instance, round, &n);
	stats_ratio_components(a, build, instance, round, n, b, build, instance, round, n, ratio);
}

/* Share of sims simulated experiments of the design whose verdict is "faster". */
static double
simulate_design(const StatsDesign *d, double si, double sr, double build_sd, double effect,
				int sims)
{
	static double a[4000],
				b[4000];
	static int	build[4000],
				instance[4000],
				round[4000],
				unit[4000];
	StatsOptions opt;
	int			faster = 0,
				n;

	stats_default_options(&opt);
	if (d->builds * d->instances * d->rounds > 4000)
		return 0.0;
	for (int s = 0; s < sims; s++)
	{
		StatsComparison c;

		simulate_pairs(d->instances, d->rounds, si, sr, log1p(effect), build_sd, d->builds,
					   a, b, build, instance, round, &n);
		for (int i = 0; i < n; i++)
		{
			unit[i] = d->builds > 1 ? build[i] : instance[i];
			/* rounds pair within their unit: number them within it */
			round[i] = d->builds > 1 ? instance[i] * d->rounds + round[i] : round[i];
		}
		stats_compare_units(a, round, unit, n, b, round, unit, n, d->unit, &opt, &c);
		faster += c.verdict == STATS_FASTER;
	}
	return (double) faster / sims;
}

static void
test_design(void)
{
	const double si = PILOT_SI,
				sr = PILOT_SR;
	StatsComponents ratio;
	StatsDesignCost cost = pilot_cost;
	StatsOptions opt;
	StatsDesign d;
	double		seen;
	int			rc;

	stats_default_options(&opt);
	true_components(&ratio);
	rc = stats_plan_design(&ratio, NULL, NULL, &cost, false, 0.02, &opt, &d);
	ok(rc == STATS_OK && d.found && d.unit == STATS_UNIT_INSTANCE_PAIR && d.builds == 1 && d.instances >= 2 &&
	   d.power >= 0.8 && d.n_units == d.instances,
	   "instance sd 1%% a side, round sd 4.3%%, restart 20 s, round 6 s, 2%%: %s "
	   "(power %.3f, %.0f s)", d.reason, d.power, d.seconds);
	is_close(d.seconds, d.instances * (20.0 + 6.0 * d.rounds), 1e-9, "its time");

	/* no cheaper design reaches the power: every split, by the same t power */
	{
		bool		cheapest = true;

		for (int i = 2; i <= 60; i++)
			for (int r = 1; r <= 100; r++)
			{
				double		var = ratio.variance[STATS_LEVEL_INSTANCE] + sr * sr / r,
							crit = stats_t_quantile(0.975, i - 1),
							power = stats_t_power((log1p(0.02) - log1p(0.01)) / sqrt(var / i),
											  i - 1, crit);

				if (power >= 0.8 && i * (20.0 + 6.0 * r) < d.seconds - 1e-9)
					cheapest = false;
			}
		ok(cheapest, "no design of up to 60 pairs x 100 rounds is cheaper with the power");
	}
	rng_seed(80);
	seen = simulate_design(&d, si, sr, 0.0, 0.02, 1000);
	ok(seen >= 0.75, "that design, simulated with a true +2%%: faster %.1f%% of the time "
	   "(claimed %.1f%%; at least 75%%)", 100 * seen, 100 * d.power);

	/* expensive restarts: fewer pairs, more rounds each */
	{
		StatsDesign d2;
		StatsDesignCost dear = {.build_s = 0.0, .restart_s = 600.0, .round_s = 6.0};

		stats_plan_design(&ratio, NULL, NULL, &dear, false, 0.02, &opt, &d2);
		ok(d2.found && d2.instances <= d.instances && d2.rounds >= d.rounds,
		   "restarts of 10 minutes: %s", d2.reason);
	}

	/* build seeds: build pairs differ by sd 1.5% (each side's build 1.06%) */
	{
		StatsDesignCost built = {.build_s = 150.0, .restart_s = 20.0, .round_s = 6.0};
		double		bsd = 0.015 / sqrt(2.0);

		ratio.has[STATS_LEVEL_BUILD] = true;
		ratio.variance[STATS_LEVEL_BUILD] = 0.015 * 0.015;
		stats_plan_design(&ratio, NULL, NULL, &built, true, 0.03, &opt, &d);
		ok(d.found && d.unit == STATS_UNIT_SEED_PAIR && d.builds >= 2 && d.n_units == d.builds,
		   "builds vary (sd 1.5%% between build pairs, a build 150 s): %s", d.reason);
		rng_seed(81);
		seen = simulate_design(&d, si, sr, bsd, 0.03, 1000);
		ok(seen >= 0.75, "that design, simulated with a true +3%%: faster %.1f%% (claimed %.1f%%)",
		   100 * seen, 100 * d.power);
	}

	/* what cannot be planned */
	ratio.has[STATS_LEVEL_INSTANCE] = false;
	ratio.has[STATS_LEVEL_BUILD] = false;
	stats_plan_design(&ratio, NULL, NULL, &cost, false, 0.02, &opt, &d);
	ok(!d.found && strstr(d.reason, "server starts") != NULL,
	   "instance level not measured: %s", d.reason);
	{
		StatsComponents run = {0};

		run.has[STATS_LEVEL_INSTANCE] = true;
		run.variance[STATS_LEVEL_INSTANCE] = si * si;
		stats_plan_design(&ratio, &run, &run, &cost, false, 0.02, &opt, &d);
		ok(d.found, "taken from the two sides' run scale instead: %s", d.reason);
	}
	ratio.has[STATS_LEVEL_INSTANCE] = true;
	stats_plan_design(&ratio, NULL, NULL, &cost, false, 0.01, &opt, &d);
	ok(!d.found && strstr(d.reason, "cannot lie beyond") != NULL, "1%% at a 1%% threshold: %s",
	   d.reason);
	ok(stats_plan_design(&ratio, NULL, NULL, &cost, false, -0.02, &opt, &d) == STATS_ERR_OPTION,
	   "a negative effect: STATS_ERR_OPTION");
}

/*
 * The real power of the design planned from one pilot's components: the
 * t verdict's exact power for normal unit summaries of the true sd.
 */
static double
true_power(const StatsDesign *d, double si, double sr, double effect)
{
	double		unit_var = 2 * si * si + sr * sr / d->rounds,
				room = log1p(effect) - log1p(0.01);
	int			k = d->instances;

	return stats_t_power(room / sqrt(unit_var / k), k - 1, stats_t_quantile(0.975, k - 1));
}

/*
 * Plans made from a pilot of 6 instance pairs x 6 rounds (instance sd 1%
 * a side, round noise 4.3%, to see 2%): averaged over pilots, the real
 * power of the plan must be at least 80% (the components at their upper
 * confidence bounds, stats_design.c).  The average of S plans' powers has
 * sd s / sqrt(S), s their observed sd; it passes above 80% - 3.09 of those
 * (P(Z < -3.09) = 0.001).  A pilot may print no design (an answer, not a
 * broken promise): at least 90% must print one.  With
 * PGBENCH_EXT_TEST_LONG=1, 2,000 pilots, and the plug-in plan (the
 * components taken as known: df 0) printed beside it.
 */
static void
test_plan_from_pilot(int pilots, bool plug_in)
{
	StatsOptions opt;
	double		sum[2] = {0},
				sum2[2] = {0},
				minutes[2] = {0};
	int			found[2] = {0};

	stats_default_options(&opt);
	rng_seed(69);
	for (int p = 0; p < pilots; p++)
	{
		StatsComponents ratio;

		pilot_components(6, 6, &ratio);
		for (int m = 0; m < (plug_in ? 2 : 1); m++)
		{
			StatsDesign d;
			double		power;

			if (m == 1)
				memset(ratio.df, 0, sizeof(ratio.df));
			stats_plan_design(&ratio, NULL, NULL, &pilot_cost, false, 0.02, &opt, &d);
			if (!d.found)
				continue;
			found[m]++;
			power = true_power(&d, PILOT_SI, PILOT_SR, 0.02);
			sum[m] += power;
			sum2[m] += power * power;
			minutes[m] += d.seconds / 60.0;
		}
	}
	for (int m = 0; m < (plug_in ? 2 : 1); m++)
	{
		double		mean = sum[m] / found[m],
					sd = sqrt(fmax(0.0, sum2[m] / found[m] - mean * mean));

		if (m == 0)
			ok(found[0] >= 0.9 * pilots && mean >= 0.80 - 3.09 * sd / sqrt(found[0]),
			   "plans from %d pilots of 6 instance pairs x 6 rounds, to see 2%% (%d printed a "
			   "design): real power %.1f%% on average (sd %.1f; >= %.1f%%), "
			   "%.0f minutes on average", pilots, found[0], 100 * mean, 100 * sd,
			   100 * (0.80 - 3.09 * sd / sqrt(found[0])), minutes[0] / found[0]);
		else
			diag("the same pilots' components taken as known (the plug-in plan): real power "
				 "%.1f%% on average, %.0f minutes on average (%d plans)",
				 100 * mean, minutes[1] / found[1], found[1]);
	}
}

/*
 * The components at their lower 90% bounds (stats_components_at_lower_bound(),
 * what the in-run forecast says "cannot" with): given without degrees of
 * freedom, so a design takes them as known; each never above the
 * estimate; and the design at them is no dearer than the design at the
 * true components in at least 85% of pilots of 2 and of 6 instance pairs
 * x 6 rounds (1,000 each, seeded; a 90% bound on each level, and the
 * time rises with each), where the design at the upper bounds is no
 * cheaper than the true one in at least 65%.  The upper bounds given
 * as known (stats_components_at_upper_bound()) plan exactly the design
 * stats_plan_design() makes of the components with their degrees of
 * freedom, and none where that one is past the limits (which only the
 * degrees of freedom allow: stats_design.c).
 */
static void
test_lower_bound(void)
{
	StatsComponents truth;
	StatsOptions opt;
	StatsDesign true_design;

	stats_default_options(&opt);
	true_components(&truth);
	stats_plan_design(&truth, NULL, NULL, &pilot_cost, false, 0.02, &opt, &true_design);
	ok(true_design.found, "the design at the true components: %s", true_design.reason);
	{
		StatsComponents low;

		stats_components_at_lower_bound(&truth, &low);
		ok(low.variance[STATS_LEVEL_INSTANCE] == truth.variance[STATS_LEVEL_INSTANCE] &&
		   low.variance[STATS_LEVEL_ROUND] == truth.variance[STATS_LEVEL_ROUND],
		   "components without degrees of freedom: kept as they are");
	}
	for (int k = 2; k <= 6; k += 4)
	{
		int			below_or_at = 0,
					upper_at_or_above = 0,
					never_above = 1,
					same_as_planner = 1,
					sims = 1000;

		rng_seed(90 + k);
		for (int p = 0; p < sims; p++)
		{
			StatsComponents ratio,
						low,
						high;
			StatsDesign dl,
						du,
						dh;

			pilot_components(k, 6, &ratio);
			stats_components_at_lower_bound(&ratio, &low);
			never_above &= low.df[STATS_LEVEL_INSTANCE] == 0 && low.df[STATS_LEVEL_ROUND] == 0 &&
				low.variance[STATS_LEVEL_ROUND] <= ratio.variance[STATS_LEVEL_ROUND] &&
				low.variance[STATS_LEVEL_INSTANCE] <= ratio.variance[STATS_LEVEL_INSTANCE] + 1e-15;
			stats_plan_design(&low, NULL, NULL, &pilot_cost, false, 0.02, &opt, &dl);
			stats_plan_design(&ratio, NULL, NULL, &pilot_cost, false, 0.02, &opt, &du);
			stats_components_at_upper_bound(&ratio, &high);
			stats_plan_design(&high, NULL, NULL, &pilot_cost, false, 0.02, &opt, &dh);
			/* past the limits only the planner, which knows the df, searches */
			same_as_planner &= high.df[STATS_LEVEL_INSTANCE] == 0 && high.df[STATS_LEVEL_ROUND] == 0 &&
				(du.found && du.instances > STATS_DESIGN_MAX_INSTANCES ? !dh.found :
				 dh.found == du.found &&
				 (!du.found || (dh.instances == du.instances && dh.rounds == du.rounds &&
								fabs(dh.seconds - du.seconds) < 1e-9)));
			below_or_at += dl.found && dl.seconds <= true_design.seconds;
			upper_at_or_above += !du.found || du.seconds >= true_design.seconds;
		}
		ok(never_above, "%d instance pairs x 6 rounds: the lower bounds never above the estimates, "
		   "without degrees of freedom", k);
		ok(below_or_at >= 0.85 * sims,
		   "%d instance pairs x 6 rounds: the design at the lower bounds no dearer than the true "
		   "one (%.0f s) in %.1f%% of %d pilots (at least 85%%)", k, true_design.seconds,
		   100.0 * below_or_at / sims, sims);
		ok(upper_at_or_above >= 0.65 * sims,
		   "and at the upper bounds no cheaper in %.1f%%", 100.0 * upper_at_or_above / sims);
		ok(same_as_planner, "%d instance pairs x 6 rounds: the upper bounds given as known plan "
		   "the planner's own design in all %d pilots", k, sims);
	}
}

/*
 * restart = auto from a history (client/plan/preflight.c): the rounds per unit
 * are those whose unit costs least for its variance — checked against
 * every R from 1 to 20 by brute force on a grid of noises and costs — and
 * the allocation pays: with a large instance offset and cheap restarts,
 * the variance of the mean over the units a 30-minute budget pays for is
 * smaller with the chosen R than with the fixed 5 rounds of before.
 */
static void
test_rounds_per_unit(void)
{
	static const double sds[] = {0.0, 0.005, 0.01, 0.02, 0.05, 0.15};
	static const double costs[] = {0.5, 2.0, 8.0, 30.0};
	bool		all_best = true;

	int			nsds = sizeof(sds) / sizeof(sds[0]),
				ncosts = sizeof(costs) / sizeof(costs[0]),
				chosen;
	double		var_chosen,
				var_five;

	for (int i = 0; i < nsds; i++)
		for (int j = 0; j < nsds; j++)
			for (int k = 0; k < ncosts; k++)
			{
				double		vi = sds[i] * sds[i],
							vr = sds[j] * sds[j] + 1e-6,
							restart = costs[k],
							round = 4.0;
				int			r = stats_rounds_per_unit(vi, vr, restart, round, 20);
				double		got = (restart + r * round) * (vi + vr / r);

				for (int q = 1; q <= 20; q++)
					all_best &= got <= (restart + q * round) * (vi + vr / q) * (1 + 1e-12);
			}
	ok(all_best, "stats_rounds_per_unit(): the cheapest unit for its variance, by brute force "
	   "over 1 to 20 rounds on %d settings", nsds * nsds * ncosts);
	ok(stats_rounds_per_unit(0.03 * 0.03, 0.01 * 0.01, 1.0, 4.0, 5) == 1,
	   "instance offset 3%%, rounds 1%%, a restart a quarter of a round: a restart every round");
	chosen = stats_rounds_per_unit(0.03 * 0.03, 0.05 * 0.05, 2.0, 4.0, 5);
	var_chosen = (0.03 * 0.03 + 0.05 * 0.05 / chosen) / floor(1800 / (2.0 + chosen * 4.0));
	var_five = (0.03 * 0.03 + 0.05 * 0.05 / 5) / floor(1800 / (2.0 + 5 * 4.0));
	ok(var_chosen < var_five,
	   "instance 3%%, rounds 5%%, restart 2 s, round 4 s: %d rounds per unit; the mean over 30 minutes "
	   "has sd %.3f%% against %.3f%% at 5 rounds", chosen, 100 * sqrt(var_chosen), 100 * sqrt(var_five));
	ok(stats_rounds_per_unit(0.0, 0.05 * 0.05, 1.0, 4.0, 5) == 5,
	   "no instance offset: the most rounds per unit");
	ok(stats_rounds_per_unit(0.01, NAN, 1.0, 4.0, 5) == -1 &&
	   stats_rounds_per_unit(0.01, 0.01, 1.0, 0.0, 5) == -1,
	   "a value that is not finite, or a round that costs nothing: refused");
}

int
main(void)
{
	test_balanced_anova();
	test_recovery();
	test_truncation_and_missing();
	test_ratio_scale();
	test_design();
	test_lower_bound();
	test_rounds_per_unit();
	if (test_long())
		test_plan_from_pilot(2000, true);
	else
		test_plan_from_pilot(150, false);
	return done_testing();
}
