/*-------------------------------------------------------------------------
 *
 * stats_design.c
 *		The cheapest design for the next experiment that would see a given
 *		effect: how many builds (build seeds), instance pairs per build
 *		and rounds per instance pair, from the variance components of the
 *		comparison and the measured cost of a build, a restart and a round.
 *
 * Kalibera and Jones's sizing, with the verdict's power instead of the
 * test's: a unit summary (stats_nested.c) averages the rounds of its
 * instance pairs, so its variance is
 *	 var(build) + var(instance) / I + var(round) / (I R)
 * and the nested verdict on k units sees an effect delta with the power of
 * the t criterion (stats_mde.c).  For each number of units k the largest
 * unit sd that still gives that power is found once; then for every
 * split of the units into instance pairs the fewest rounds that keep the
 * variance below it, and the cheapest of those designs wins.
 *
 * The components are estimates, often from a short pilot, and a plan made
 * from them as if they were the truth falls short exactly when they came
 * out low: plans from a 6 x 6 pilot had a real power of 69% on average
 * for the 80% claimed.  So each component the comparison measured enters
 * at its upper 70% confidence bound, as the verdict's MDE does
 * (stats_mde.c): the level's mean square M_l = c_l raw_l + M_below (c_l
 * observations per node, the method of moments' relation for a balanced
 * design) is raised to M_l df_l / chi2(0.3, df_l), and the level's
 * variance is what that leaves above the mean square below, (M_l' -
 * M_below) / c_l, never below 0; the lowest level is its own mean square.
 * A level estimated at 0 (truncated) thus still counts for what its
 * degrees of freedom cannot rule out.  Components given without degrees of
 * freedom (df 0) are taken as known.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_UNITS (STATS_DESIGN_MAX_INSTANCES > STATS_DESIGN_MAX_BUILDS ? \
				   STATS_DESIGN_MAX_INSTANCES : STATS_DESIGN_MAX_BUILDS)

/*
 * The variance of one level on the comparison's scale: the comparison's
 * own estimate; else the two sides' run-scale estimates added (the
 * offsets of two servers are independent); else, when the level above was
 * estimated, 0, since the level's variance is then inside that one (a
 * conservative plan: it is not divided by the level's repeats).  False if
 * nothing tells.
 */
static bool
level_variance(const StatsComponents *ratio, const StatsComponents *run_a,
			   const StatsComponents *run_b, StatsLevel level, double *var)
{
	*var = 0.0;
	if (ratio != NULL && ratio->has[level])
		*var = ratio->variance[level];
	else if (run_a != NULL && run_b != NULL && run_a->has[level] && run_b->has[level])
		*var = run_a->variance[level] + run_b->variance[level];
	else
	{
		double		above;

		return level > STATS_LEVEL_BUILD &&
			level_variance(ratio, run_a, run_b, level - 1, &above);
	}
	return true;
}

/*
 * The comparison's own components at their upper confidence bounds (see
 * above), or with factor = stats_sd_lower_bound_factor at their lower
 * ones, in var[top .. ROUND] where they came from "ratio".
 */
static void
bound_components(const StatsComponents *ratio, StatsLevel top, double *var,
				 double (*factor) (double df))
{
	double		below = 0.0;	/* mean square of the level below */
	bool		has_below = false;

	if (ratio == NULL)
		return;
	for (int l = STATS_LEVEL_ROUND; l >= (int) top; l--)
	{
		double		ms,
					per_node;

		if (!ratio->has[l] || ratio->df[l] < 1 || ratio->n_groups[l] < 1)
		{
			has_below = false;
			continue;
		}
		per_node = (double) ratio->n_obs / ratio->n_groups[l];
		if (!has_below)
		{
			/* the lowest level measured: its variance is its mean square */
			ms = ratio->variance[l];
			var[l] = ms * factor(ratio->df[l]) * factor(ratio->df[l]);
		}
		else
		{
			double		f = factor(ratio->df[l]);

			ms = per_node * ratio->raw[l] + below;
			var[l] = fmax(0.0, (ms * f * f - below) / per_node);
		}
		below = ms;
		has_below = true;
	}
}

/*
 * ratio's components at the bounds factor gives, as known components (df
 * 0): what a design planned from them takes as the truth.
 */
static void
components_at_bound(const StatsComponents *ratio, StatsComponents *out,
					double (*factor) (double df))
{
	double		var[STATS_N_LEVELS];

	*out = *ratio;
	for (int l = 0; l < STATS_N_LEVELS; l++)
		var[l] = ratio->variance[l];
	bound_components(ratio, STATS_LEVEL_BUILD, var, factor);
	for (int l = 0; l < STATS_N_LEVELS; l++)
	{
		out->variance[l] = var[l];
		out->df[l] = 0;
	}
}

void
stats_components_at_lower_bound(const StatsComponents *ratio, StatsComponents *out)
{
	components_at_bound(ratio, out, stats_sd_lower_bound_factor);
}

void
stats_components_at_upper_bound(const StatsComponents *ratio, StatsComponents *out)
{
	components_at_bound(ratio, out, stats_sd_bound_factor);
}

/*
 * sqrt(k) / ncp for k = 2 .. MAX_UNITS units at (alpha, power), ncp the
 * noncentrality at which the t criterion on k - 1 degrees of freedom has
 * that power: a unit sd of room times it gives k units the power.  Kept
 * for the last (alpha, power) asked: the t functions' memo holds 32
 * answers and every plan asks for 199, so each plan searched them all
 * again (13 ms a plan, most of the unit tests' time).
 */
static const double *
sd_per_room(double alpha, double power)
{
	static double table[MAX_UNITS + 1];
	static double table_alpha = NAN,
				table_power = NAN;

	if (alpha != table_alpha || power != table_power)
	{
		for (int k = 2; k <= MAX_UNITS; k++)
		{
			double		crit = stats_t_quantile(1.0 - alpha / 2.0, k - 1);

			table[k] = sqrt((double) k) / stats_t_ncp_for_power(k - 1, crit, power);
		}
		table_alpha = alpha;
		table_power = power;
	}
	return table;
}

/* Whether the costs are all finite and >= 0. */
static bool
costs_valid(const StatsDesignCost *c)
{
	return c->build_s >= 0.0 && c->restart_s >= 0.0 && c->round_s >= 0.0 &&
		isfinite(c->build_s) && isfinite(c->restart_s) && isfinite(c->round_s);
}

/*
 * The rounds per instance pair keeping a unit's variance within "allowed"
 * when var_fixed of it does not shrink with rounds; 0 if none can.
 */
static int
rounds_needed(double allowed, double var_fixed, double var_round, int instances)
{
	double		room = allowed - var_fixed,
				r;

	if (!(room > 0.0))
		return 0;
	r = var_round > 0.0 ? ceil(var_round / (instances * room) - 1e-12) : 1.0;
	if (r < 1.0)
		r = 1.0;
	return r <= STATS_DESIGN_MAX_ROUNDS ? (int) r : 0;
}

/* Record (builds, instances, rounds) in out if it is cheaper than what is there. */
static void
consider(StatsDesign *out, const StatsDesignCost *cost, int builds,
		 int instances, int rounds)
{
	double		seconds = builds * cost->build_s +
		(double) builds * instances * (cost->restart_s + rounds * cost->round_s);

	if (rounds == 0 || (out->found && seconds >= out->seconds))
		return;
	out->found = true;
	out->builds = builds;
	out->instances = instances;
	out->rounds = rounds;
	out->seconds = seconds;
}

static void
explain_missing(StatsDesign *out, StatsLevel level)
{
	snprintf(out->reason, STATS_REASON_LEN,
			 "the variance between %s was not measured: %s",
			 level == STATS_LEVEL_BUILD ? "builds" :
			 level == STATS_LEVEL_INSTANCE ? "server starts" : "rounds",
			 level == STATS_LEVEL_BUILD ? "give each variant more than one build seed" :
			 level == STATS_LEVEL_INSTANCE ? "restart the servers during the experiment" :
			 "make more than one round per instance pair");
}

int
stats_plan_design(const StatsComponents *ratio, const StatsComponents *run_a,
				  const StatsComponents *run_b, const StatsDesignCost *cost,
				  bool vary_builds, double effect, const StatsOptions *opt,
				  StatsDesign *out)
{
	double		var[STATS_LEVEL_ROUND + 1],
				delta,
				room,
			   *allowed;
	const double *per_room;
	int			max_units = vary_builds ? STATS_DESIGN_MAX_BUILDS : STATS_DESIGN_MAX_INSTANCES,
				rc;

	memset(out, 0, sizeof(*out));
	if ((rc = stats_check_options(opt)) != STATS_OK)
		return rc;
	if (!(effect > 0.0 && isfinite(effect)) || !costs_valid(cost))
		return STATS_ERR_OPTION;
	for (int l = vary_builds ? STATS_LEVEL_BUILD : STATS_LEVEL_INSTANCE;
		 l <= STATS_LEVEL_ROUND; l++)
		if (!level_variance(ratio, run_a, run_b, l, &var[l]))
		{
			explain_missing(out, l);
			return STATS_OK;
		}
	bound_components(ratio, vary_builds ? STATS_LEVEL_BUILD : STATS_LEVEL_INSTANCE, var,
					 stats_sd_bound_factor);
	if (!vary_builds)
		var[STATS_LEVEL_BUILD] = 0.0;
	delta = log1p(effect);
	room = delta - log1p(opt->noise);
	if (!(room > 0.0))
	{
		snprintf(out->reason, STATS_REASON_LEN,
				 "an effect of %g%% cannot lie beyond the noise threshold of %g%%",
				 100.0 * effect, 100.0 * opt->noise);
		return STATS_OK;
	}

	/* allowed[k]: the largest unit variance at which k units have the power */
	allowed = stats_malloc(sizeof(double) * (MAX_UNITS + 1));
	if (allowed == NULL)
		return STATS_ERR_NOMEM;
	per_room = sd_per_room(opt->alpha, opt->power);
	for (int k = 2; k <= max_units; k++)
	{
		double		sd = room * per_room[k];

		allowed[k] = sd * sd;
	}

	if (vary_builds)
		for (int b = 2; b <= STATS_DESIGN_MAX_BUILDS; b++)
			for (int i = 1; i <= STATS_DESIGN_MAX_INSTANCES; i++)
				consider(out, cost, b, i,
						 rounds_needed(allowed[b], var[STATS_LEVEL_BUILD] +
									   var[STATS_LEVEL_INSTANCE] / i,
									   var[STATS_LEVEL_ROUND], i));
	else
		for (int i = 2; i <= STATS_DESIGN_MAX_INSTANCES; i++)
			consider(out, cost, 1, i,
					 rounds_needed(allowed[i], var[STATS_LEVEL_INSTANCE],
								   var[STATS_LEVEL_ROUND], 1));
	stats_free(allowed);

	if (!out->found)
	{
		snprintf(out->reason, STATS_REASON_LEN,
				 "no design of up to %d %s and %d rounds each sees %g%% beyond "
				 "the %g%% noise threshold",
				 max_units, vary_builds ? "build seeds" : "instance pairs",
				 STATS_DESIGN_MAX_ROUNDS, 100.0 * effect, 100.0 * opt->noise);
		return STATS_OK;
	}
	out->unit = vary_builds ? STATS_UNIT_SEED_PAIR : STATS_UNIT_INSTANCE_PAIR;
	out->n_units = vary_builds ? out->builds : out->instances;
	{
		int			per_unit = vary_builds ? out->instances : 1;
		double		unit_var = var[STATS_LEVEL_BUILD] +
			var[STATS_LEVEL_INSTANCE] / per_unit +
			var[STATS_LEVEL_ROUND] / ((double) per_unit * out->rounds);
		int			k = out->n_units;

		out->unit_sd = sqrt(unit_var);
		out->power = out->unit_sd > 0.0
			? stats_t_power(room / (out->unit_sd / sqrt((double) k)), k - 1,
							stats_t_quantile(1.0 - opt->alpha / 2.0, k - 1))
			: 1.0;
	}
	if (vary_builds)
		snprintf(out->reason, STATS_REASON_LEN,
				 "to see %g%%: %d build seeds x %d instance pair%s x %d round%s, about %.0f %s",
				 100.0 * effect, out->builds, out->instances,
				 out->instances == 1 ? "" : "s", out->rounds, out->rounds == 1 ? "" : "s",
				 out->seconds >= 120.0 ? out->seconds / 60.0 : out->seconds,
				 out->seconds >= 120.0 ? "minutes" : "seconds");
	else
		snprintf(out->reason, STATS_REASON_LEN,
				 "to see %g%%: %d instance pairs x %d round%s, about %.0f %s",
				 100.0 * effect, out->instances, out->rounds,
				 out->rounds == 1 ? "" : "s",
				 out->seconds >= 120.0 ? out->seconds / 60.0 : out->seconds,
				 out->seconds >= 120.0 ? "minutes" : "seconds");
	return STATS_OK;
}

/* cost x variance of a unit of r rounds: what stats_rounds_per_unit() minimizes */
static double
unit_cost_variance(double var_instance, double var_round, double restart_s,
				   double round_s, int r)
{
	return (restart_s + r * round_s) * (var_instance + var_round / r);
}

int
stats_rounds_per_unit(double var_instance, double var_round, double restart_s,
					  double round_s, int max_rounds)
{
	double		best;
	int			lo;

	if (!isfinite(var_instance) || !isfinite(var_round) || !isfinite(restart_s) ||
		!isfinite(round_s) || var_instance < 0 || var_round < 0 || restart_s < 0 ||
		round_s <= 0 || max_rounds < 1)
		return -1;
	if (var_instance == 0)
		return max_rounds;
	best = sqrt(var_round * restart_s / (var_instance * round_s));
	if (best >= max_rounds)
		return max_rounds;
	lo = best < 1 ? 1 : (int) floor(best);
	/* the product is convex in r: the better of the two integers around it */
	if (lo < max_rounds &&
		unit_cost_variance(var_instance, var_round, restart_s, round_s, lo + 1) <
		unit_cost_variance(var_instance, var_round, restart_s, round_s, lo))
		return lo + 1;
	return lo;
}
