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
 * at an upper confidence bound: the level's mean square M_l = c_l raw_l +
 * M_below (c_l observations per node, the method of moments' relation for
 * a balanced design) is raised to M_l df_l / chi2(1 - conf, df_l), and the
 * level's variance is what that leaves above the mean square below, (M_l'
 * - M_below) / c_l, never below 0; the lowest level is its own mean square.
 * A level estimated at 0 (truncated) thus still counts for what its
 * degrees of freedom cannot rule out.  Components given without degrees of
 * freedom (df 0) are taken as known.  The lowest level measured (the
 * rounds) is bounded at 70%, as the verdict's MDE bounds its sd
 * (stats_mde.c); a level above it at 80%: its variance is a difference of
 * two mean squares, which scatters more than its own df say, and at 70%
 * plans from pilots of 3 to 10 instance pairs with an instance-pair sd of
 * 3% had a mean real power of 79.5-84% (bench/design_promise.sh).
 *
 * A design is searched within the limits (STATS_DESIGN_MAX_*) first.  The
 * limits made the promise a conditional one: a plan at the upper bound
 * existed only for the pilots whose estimate came out low, so where the
 * true offsets take a design near the limits (an instance-pair sd of 3%
 * and a round sd of 15%: 196 pairs x 15 rounds to see 2%), the printed designs
 * were mostly planned from underestimates and delivered 54-66% power
 * although the bound held on average over all pilots.  Whether a design
 * is printed must not rest on the estimate the design is sized from.  So
 * "none within the limits" is said only where the design at the lower 90%
 * bounds (the noise's low end, on which "cannot" rests elsewhere) is beyond
 * them too; otherwise the design at the upper bounds is searched up to
 * BEYOND_LIMITS times the limits and printed as it is, however large: for
 * every truth a design within the limits sees, a pilot prints a design
 * with a chance of at least 80% (two lower 90% bounds), so the printed
 * designs planned below the truth are at most the bound's misses over 0.8.
 * Where even that search finds none (a level on 1 or 2 df), no design is
 * promised, and the reason says so.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * How far past its limits the planner searches for the design at the
 * upper bounds, when the lower bounds' design is within them (see above):
 * the upper 80% bound of a variance on 2 df is 10.3 times its lower 90%
 * one, on 3 df 6.2 times (on 1 df 42 times: there, past the search, no
 * design is promised).
 */
#define BEYOND_LIMITS 20
#define MAX_UNITS (BEYOND_LIMITS * \
				   (STATS_DESIGN_MAX_INSTANCES > STATS_DESIGN_MAX_BUILDS ? \
					STATS_DESIGN_MAX_INSTANCES : STATS_DESIGN_MAX_BUILDS))

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
 * The confidence of the upper bound on a level above the lowest one
 * measured (see the header): 80%, where the lowest level's is the
 * verdict's 70% (stats_sd_bound_factor()).
 */
#define ABOVE_BOUND_CONFIDENCE 0.8

static double
above_bound_factor(double df)
{
	return df > 0.0 ? sqrt(df / stats_chisq_quantile(1.0 - ABOVE_BOUND_CONFIDENCE, df)) : NAN;
}

/*
 * The comparison's own components at their upper confidence bounds (see
 * above: the lowest level measured by "lowest", those above it by
 * "above"), or with both stats_sd_lower_bound_factor at their lower ones,
 * in var[top .. ROUND] where they came from "ratio".
 */
static void
bound_components(const StatsComponents *ratio, StatsLevel top, double *var,
				 double (*lowest) (double df), double (*above) (double df))
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
			var[l] = ms * lowest(ratio->df[l]) * lowest(ratio->df[l]);
		}
		else
		{
			double		f = above(ratio->df[l]);

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
					double (*lowest) (double df), double (*above) (double df))
{
	double		var[STATS_N_LEVELS];

	*out = *ratio;
	for (int l = 0; l < STATS_N_LEVELS; l++)
		var[l] = ratio->variance[l];
	bound_components(ratio, STATS_LEVEL_BUILD, var, lowest, above);
	for (int l = 0; l < STATS_N_LEVELS; l++)
	{
		out->variance[l] = var[l];
		out->df[l] = 0;
	}
}

void
stats_components_at_lower_bound(const StatsComponents *ratio, StatsComponents *out)
{
	components_at_bound(ratio, out, stats_sd_lower_bound_factor, stats_sd_lower_bound_factor);
}

void
stats_components_at_upper_bound(const StatsComponents *ratio, StatsComponents *out)
{
	components_at_bound(ratio, out, stats_sd_bound_factor, above_bound_factor);
}

/*
 * sqrt(k) / ncp for k = 2 .. n units at (alpha, power), ncp the
 * noncentrality at which the t criterion on k - 1 degrees of freedom has
 * that power: a unit sd of room times it gives k units the power.  Kept
 * for the last (alpha, power) asked, filled as far as asked: the t
 * functions' memo holds 32 answers and every plan asks for 199, so each
 * plan searched them all again (13 ms a plan, most of the unit tests'
 * time); the entries past the limits only for designs beyond them.
 */
static const double *
sd_per_room(double alpha, double power, int n)
{
	static double table[MAX_UNITS + 1];
	static double table_alpha = NAN,
				table_power = NAN;
	static int	filled = 1;

	if (alpha != table_alpha || power != table_power)
	{
		filled = 1;
		table_alpha = alpha;
		table_power = power;
	}
	for (int k = filled + 1; k <= n; k++)
	{
		double		crit = stats_t_quantile(1.0 - alpha / 2.0, k - 1);

		table[k] = sqrt((double) k) / stats_t_ncp_for_power(k - 1, crit, power);
	}
	if (n > filled)
		filled = n;
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

/* Where the search for the cheapest design looks, and for what */
typedef struct DesignSearch
{
	const StatsDesignCost *cost;
	double		room;			/* log(1 + effect) - log(1 + noise) */
	double		alpha;
	double		power;
	bool		vary_builds;
	int			max_builds;
	int			max_instances;
} DesignSearch;

/*
 * The cheapest design at the variances var within the search's limits,
 * in out; false on no memory.
 */
static bool
search_designs(const double *var, const DesignSearch *s, StatsDesign *out)
{
	int			max_units = s->vary_builds ? s->max_builds : s->max_instances;
	const double *per_room = sd_per_room(s->alpha, s->power, max_units);
	double	   *allowed = stats_malloc(sizeof(double) * (max_units + 1));

	memset(out, 0, sizeof(*out));
	if (allowed == NULL)
		return false;
	/* allowed[k]: the largest unit variance at which k units have the power */
	for (int k = 2; k <= max_units; k++)
	{
		double		sd = s->room * per_room[k];

		allowed[k] = sd * sd;
	}
	if (s->vary_builds)
		for (int b = 2; b <= s->max_builds; b++)
			for (int i = 1; i <= s->max_instances; i++)
				consider(out, s->cost, b, i,
						 rounds_needed(allowed[b], var[STATS_LEVEL_BUILD] +
									   var[STATS_LEVEL_INSTANCE] / i,
									   var[STATS_LEVEL_ROUND], i));
	else
		for (int i = 2; i <= s->max_instances; i++)
			consider(out, s->cost, 1, i,
					 rounds_needed(allowed[i], var[STATS_LEVEL_INSTANCE],
								   var[STATS_LEVEL_ROUND], 1));
	stats_free(allowed);
	return true;
}

/*
 * Past the limits (see the header): when the design at the upper bounds
 * var is beyond them, the design at the lower 90% bounds of what the
 * comparison measured (base: the unbounded variances) is searched within
 * them; if it is there, the noise measured does not rule a design out,
 * and the design at the upper bounds is searched up to BEYOND_LIMITS
 * times as far.  out keeps found false when the limits rule it out, and
 * says why when even that search finds none.  False on no memory.
 */
static bool
search_beyond(const StatsComponents *ratio, StatsLevel top, const double *base,
			  const double *var, DesignSearch *s, double effect, StatsDesign *out)
{
	double		low[STATS_LEVEL_ROUND + 1];
	bool		measured = false;
	const char *units = s->vary_builds ? "build seeds" : "instance pairs";

	for (int l = top; l <= STATS_LEVEL_ROUND; l++)
	{
		low[l] = base[l];
		measured |= ratio != NULL && ratio->has[l] && ratio->df[l] >= 1;
	}
	if (!measured)
		return true;
	bound_components(ratio, top, low, stats_sd_lower_bound_factor,
					 stats_sd_lower_bound_factor);
	if (!s->vary_builds)
		low[STATS_LEVEL_BUILD] = 0.0;
	if (!search_designs(low, s, out))
		return false;
	if (!out->found)
		return true;
	s->max_builds *= BEYOND_LIMITS;
	s->max_instances *= BEYOND_LIMITS;
	if (!search_designs(var, s, out))
		return false;
	if (!out->found)
	{
		bool		top_measured = ratio->has[top] && ratio->df[top] >= 1;

		snprintf(out->reason, STATS_REASON_LEN,
				 "no design to see %g%% can be promised: the noise measured allows one of "
				 "up to %d %s, its upper bound none of up to %d; measure more %s",
				 100.0 * effect,
				 top == STATS_LEVEL_BUILD ? STATS_DESIGN_MAX_BUILDS : STATS_DESIGN_MAX_INSTANCES,
				 units, top == STATS_LEVEL_BUILD ? s->max_builds : s->max_instances,
				 top_measured ? units : "rounds");
	}
	return true;
}

/*
 * The power of the t verdict on k units of sd unit_sd to see a change
 * whose log lies room beyond the noise threshold's.
 */
static double
units_power(double unit_sd, int k, double room, double alpha)
{
	if (k < 2)
		return 0.0;
	if (!(unit_sd > 0.0))
		return 1.0;
	return stats_t_power(room / (unit_sd / sqrt((double) k)), k - 1,
						 stats_t_quantile(1.0 - alpha / 2.0, k - 1));
}

double
stats_design_power(const StatsComponents *known, int units, int rounds, double effect,
				   const StatsOptions *opt)
{
	double		room = log1p(effect) - log1p(opt->noise);
	double		var;

	if (units < 2 || rounds < 1 || !(room > 0.0))
		return 0.0;
	var = known->variance[STATS_LEVEL_INSTANCE] + known->variance[STATS_LEVEL_ROUND] / rounds;
	if (!(var >= 0.0) || !isfinite(var))
		return NAN;
	return units_power(sqrt(var), units, room, opt->alpha);
}

/* out's unit, predicted unit sd and power at the variances var, and its words. */
static void
describe_design(const double *var, bool vary_builds, double effect, double room,
				const StatsOptions *opt, StatsDesign *out)
{
	int			per_unit = vary_builds ? out->instances : 1;
	double		unit_var = var[STATS_LEVEL_BUILD] +
		var[STATS_LEVEL_INSTANCE] / per_unit +
		var[STATS_LEVEL_ROUND] / ((double) per_unit * out->rounds);
	int			k;

	out->unit = vary_builds ? STATS_UNIT_SEED_PAIR : STATS_UNIT_INSTANCE_PAIR;
	out->n_units = k = vary_builds ? out->builds : out->instances;
	out->unit_sd = sqrt(unit_var);
	out->power = units_power(out->unit_sd, k, room, opt->alpha);
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
}

int
stats_plan_design(const StatsComponents *ratio, const StatsComponents *run_a,
				  const StatsComponents *run_b, const StatsDesignCost *cost,
				  bool vary_builds, double effect, const StatsOptions *opt,
				  StatsDesign *out)
{
	double		var[STATS_LEVEL_ROUND + 1] = {0},
				base[STATS_LEVEL_ROUND + 1];
	StatsLevel	top = vary_builds ? STATS_LEVEL_BUILD : STATS_LEVEL_INSTANCE;
	DesignSearch s;
	int			rc;

	memset(out, 0, sizeof(*out));
	if ((rc = stats_check_options(opt)) != STATS_OK)
		return rc;
	if (!(effect > 0.0 && isfinite(effect)) || !costs_valid(cost))
		return STATS_ERR_OPTION;
	for (int l = top; l <= STATS_LEVEL_ROUND; l++)
		if (!level_variance(ratio, run_a, run_b, l, &var[l]))
		{
			explain_missing(out, l);
			return STATS_OK;
		}
	memcpy(base, var, sizeof(var));
	bound_components(ratio, top, var, stats_sd_bound_factor, above_bound_factor);
	if (!vary_builds)
		var[STATS_LEVEL_BUILD] = 0.0;
	s.cost = cost;
	s.room = log1p(effect) - log1p(opt->noise);
	s.alpha = opt->alpha;
	s.power = opt->power;
	s.vary_builds = vary_builds;
	s.max_builds = vary_builds ? STATS_DESIGN_MAX_BUILDS : 1;
	s.max_instances = STATS_DESIGN_MAX_INSTANCES;
	if (!(s.room > 0.0))
	{
		snprintf(out->reason, STATS_REASON_LEN,
				 "an effect of %g%% cannot lie beyond the noise threshold of %g%%",
				 100.0 * effect, 100.0 * opt->noise);
		return STATS_OK;
	}
	if (!search_designs(var, &s, out) ||
		(!out->found && !search_beyond(ratio, top, base, var, &s, effect, out)))
		return STATS_ERR_NOMEM;
	if (out->found)
		describe_design(var, vary_builds, effect, s.room, opt, out);
	else if (out->reason[0] == '\0')
		snprintf(out->reason, STATS_REASON_LEN,
				 "no design of up to %d %s and %d rounds each sees %g%% beyond "
				 "the %g%% noise threshold",
				 vary_builds ? STATS_DESIGN_MAX_BUILDS : STATS_DESIGN_MAX_INSTANCES,
				 vary_builds ? "build seeds" : "instance pairs",
				 STATS_DESIGN_MAX_ROUNDS, 100.0 * effect, 100.0 * opt->noise);
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
