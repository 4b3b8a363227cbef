/*-------------------------------------------------------------------------
 *
 * preflight.c
 *		The pre-flight, before the first counted run and in the dry run
 *		(--check): what the host allows (host_load.c), the noise this host
 *		showed for such a load (noise_history.c), and from it the time to
 *		see twice the noise threshold with 80% power and the power the
 *		experiment's own time has, with a warning where that is less.
 *
 * The noise is the record of the host's history that describes the
 * experiment best (noise_history_find()); with none, the first looks
 * measure it and nothing is promised.  restart = auto takes its spacing of restarts from that same
 * record, and the expected time is that of stats_plan_design()'s cheapest
 * design for the effect with the plan's spacing (the design the report's
 * "design" line gives afterwards, where restart = auto chose it), at the
 * record's sds and within their bounds on the layout their degrees of
 * freedom imply (record_components()).
 * A loaded host whose history has no record of such a load has its noise
 * measured by a pilot of paired rounds before the first counted run
 * (pilot.c); preflight_judge_pilot() says what that noise allows.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build.h"
#include "host_load.h"
#include "noise_history.h"
#include "plan.h"
#include "preflight.h"
#include "stats.h"

#include <math.h>

/* A run's cost beyond its pgbench time, and a restart's, with no history */
#define DEFAULT_RUN_OVERHEAD_S 1.5
#define DEFAULT_RESTART_S 3.0

/* ---- the expectation ---- */

/* The time the experiment may take: its budget, or its fixed rounds */
static double
available_s(const ExperimentSpec *spec, const StatsDesignCost *cost)
{
	int			restarts = spec->restart_every > 0 ? spec->rounds / spec->restart_every : 0;

	if (spec->rounds_auto)
		return spec->budget_s;
	return spec->rounds * cost->round_s + restarts * cost->restart_s;
}

/* What a design is planned from: noise, costs, and the effect to decide */
typedef struct Planning
{
	StatsComponents noise;		/* the rounds' noise, with the layout that
								 * measured it */
	StatsComponents offset;		/* the instance offset's, likewise; where
								 * both came from one record, the same */
	StatsDesignCost cost;
	StatsOptions opt;			/* its noise: the threshold */
	double		effect;			/* twice the threshold */
} Planning;

/*
 * Which noise a design is planned at: its lower 90% or upper 70/80% bounds
 * (stats_components_at_lower_bound() and _upper_), or the estimate
 */
typedef enum NoiseBound
{
	AT_LOWER_BOUND,
	AT_ESTIMATE,
	AT_UPPER_BOUND
} NoiseBound;

/*
 * Record r's noise as the comparison's components, with the balanced
 * layout its degrees of freedom imply: instance_df + 1 instance pairs
 * (one server: one), and round_df + pairs rounds among them, so that the
 * design planner can bound each sd by what its degrees of freedom rule
 * out (stats_design.c) instead of taking it as the truth.  An instance sd
 * recorded as 0 from 18 instance pairs is not a known 0: its upper bound
 * is what the rounds' noise could hide.  (A record keeps the sd after
 * truncation at 0; taking that 0 as the moment estimate bounds a little
 * above what the estimate itself would.)
 */
static void
record_components(const NoiseRecord *r, bool two, StatsComponents *c)
{
	int			pairs = two && r->instance_df > 0 ? r->instance_df + 1 : 1;
	double		instance_var = two && isfinite(r->instance_sd) ? r->instance_sd * r->instance_sd : 0;

	memset(c, 0, sizeof(*c));
	c->n_obs = Max(r->round_df, 0) + pairs;
	c->has[STATS_LEVEL_ROUND] = true;
	c->variance[STATS_LEVEL_ROUND] = c->raw[STATS_LEVEL_ROUND] = r->round_sd * r->round_sd;
	c->df[STATS_LEVEL_ROUND] = r->round_df;
	c->n_groups[STATS_LEVEL_ROUND] = c->n_obs;
	/* one server: no instance offset between the sides */
	c->has[STATS_LEVEL_INSTANCE] = true;
	c->variance[STATS_LEVEL_INSTANCE] = c->raw[STATS_LEVEL_INSTANCE] = instance_var;
	c->df[STATS_LEVEL_INSTANCE] = two ? r->instance_df : 0;
	c->n_groups[STATS_LEVEL_INSTANCE] = pairs;
}

/*
 * The noise of record r as the comparison's components (for both levels),
 * this experiment's costs: a run its pgbench time plus what runs cost
 * beyond it here, a round every variant's run in every cell (both sides
 * of a duet at once), a restart as measured; and the options of a design
 * that decides twice the noise threshold.  False when the runs' time is
 * not known (a fixed transaction count).
 */
static bool
design_inputs(const ExperimentSpec *spec, const NoiseRecord *r, bool two, double noise,
			  Planning *p)
{
	StatsDesignCost *cost = &p->cost;
	double		per_run;

	memset(p, 0, sizeof(*p));
	stats_default_options(&p->opt);
	p->opt.noise = noise;
	p->effect = 2 * noise;
	record_components(r, two, &p->noise);
	p->offset = p->noise;
	per_run = spec->duration_s + (isfinite(r->run_overhead_s) ? r->run_overhead_s : DEFAULT_RUN_OVERHEAD_S);
	cost->round_s = per_run * plan_round_slots(spec);
	cost->restart_s = two ? (isfinite(r->restart_s) ? r->restart_s : DEFAULT_RESTART_S) : 0;
	return spec->duration_s > 0;
}

/*
 * p's components at a bound, taken as known: the rounds' sd from its
 * source, the instance offset from its own (each bounded on the layout
 * that measured it).
 */
static void
planned_components(const Planning *p, NoiseBound bound, StatsComponents *out)
{
	StatsComponents offset;

	if (bound == AT_LOWER_BOUND)
	{
		stats_components_at_lower_bound(&p->noise, out);
		stats_components_at_lower_bound(&p->offset, &offset);
	}
	else if (bound == AT_UPPER_BOUND)
	{
		stats_components_at_upper_bound(&p->noise, out);
		stats_components_at_upper_bound(&p->offset, &offset);
	}
	else
	{
		*out = p->noise;
		offset = p->offset;
		memset(out->df, 0, sizeof(out->df));
	}
	out->variance[STATS_LEVEL_INSTANCE] = offset.variance[STATS_LEVEL_INSTANCE];
}

/* What limits the experiment's time, and the keys that raise it */
static const char *
limit_name(const ExperimentSpec *spec)
{
	return spec->rounds_auto ? "budget" : "rounds";
}

static const char *
limit_hint(const ExperimentSpec *spec)
{
	return spec->rounds_auto ? " (budget =)" : " (rounds =, or rounds = auto with a budget)";
}

/*
 * On a loaded host whose history has no record of such a load, with no
 * pilot to measure it: whatever time a quieter record gives, the
 * experiment's may not be enough.
 */
static void
warn_unmeasured_load(const ExperimentSpec *spec, double effect, FILE *out)
{
	fprintf(out, "pre-flight: warning: other processes load the host, and no noise was measured here at such a load: the power of the %s to see %.0f%% is not known, and may be low (pilot = auto measures it first)\n",
			spec->rounds_auto ? psprintf("budget (%s)", format_duration(spec->budget_s)) :
			psprintf("%d rounds", spec->rounds), 100 * effect);
}

/*
 * The rounds of the pilot this experiment measures first: pilot = N's, or
 * pilot = auto's on a loaded host whose history has no record of such a
 * load (record r), where they cost at most PILOT_MAX_SHARE of the
 * experiment's time; 0 for none.
 */
#define PILOT_MAX_SHARE 0.2

static int
pilot_rounds_of(const ExperimentSpec *spec, const HostLoad *h, const NoiseRecord *r)
{
	NoiseRecord guess = {0};
	Planning	plan;

	if (spec->pilot_rounds == 0 || spec->duration_s == 0)
		return 0;
	if (!spec->pilot_auto)
		return spec->pilot_rounds;
	if (!(h->busy_pct > LOADED_BUSY_PCT) || (r->found && noise_like_load(h->busy_pct, r->busy_pct)))
		return 0;
	guess.run_overhead_s = r->found ? r->run_overhead_s : NAN;
	guess.restart_s = r->found ? r->restart_s : NAN;
	/* only the costs count here, not the noise */
	design_inputs(spec, &guess, plan_two_servers(spec), 0, &plan);
	return spec->pilot_rounds * plan.cost.round_s <= PILOT_MAX_SHARE * available_s(spec, &plan.cost)
		? spec->pilot_rounds : 0;
}

static void
announce_pilot(const ExperimentSpec *spec, int rounds, double effect, FILE *out)
{
	fprintf(out, "pre-flight: a pilot of %d paired rounds measures the noise at this load after the set-up, before the first counted run, and says what power the %s has to see %.0f%% (pilot =)\n",
			rounds, limit_name(spec), 100 * effect);
}

/*
 * The time the cheapest design takes to decide p's effect at its noise's
 * bound, NAN with none; with unit_rounds > 0, of units of that many rounds
 * only (the plan's instance pairs): a unit's round noise, var(round) / R,
 * then joins the instance offset, and a unit costs its restart and its R
 * rounds.
 */
static double
design_seconds(const Planning *p, NoiseBound bound, int unit_rounds, StatsDesign *design)
{
	StatsComponents units;
	StatsDesignCost unit_cost = p->cost;

	planned_components(p, bound, &units);
	if (unit_rounds > 0)
	{
		units.variance[STATS_LEVEL_INSTANCE] += units.variance[STATS_LEVEL_ROUND] / unit_rounds;
		units.variance[STATS_LEVEL_ROUND] = 0;
		unit_cost.restart_s += unit_rounds * p->cost.round_s;
		unit_cost.round_s = 0;
	}
	if (stats_plan_design(&units, NULL, NULL, &unit_cost, false, p->effect, &p->opt, design) != STATS_OK ||
		!design->found)
		return NAN;
	return design->seconds;
}

/*
 * The times design_seconds() gives at p's noise's lower bound, estimate and
 * upper bound; design holds the design at the estimate.
 */
static void
design_seconds_range(const Planning *p, int unit_rounds, double *least_s, double *expected_s,
					 double *most_s, StatsDesign *design)
{
	StatsDesign at_bound;

	*least_s = design_seconds(p, AT_LOWER_BOUND, unit_rounds, &at_bound);
	*most_s = design_seconds(p, AT_UPPER_BOUND, unit_rounds, &at_bound);
	*expected_s = design_seconds(p, AT_ESTIMATE, unit_rounds, design);
}

/*
 * What to give a time that falls short of 80% power: the time of the
 * design at the estimate (likely false), or at the noise's upper bound
 * (likely true), with the keys that set it.  It is rounded up to a budget
 * one would write (10 s steps up to 10 minutes, then minutes, then 5
 * minutes): rounded to the nearest second, a time just past a budget of
 * 2m30s read "give it 2m30s or more".
 */
static char *
time_to_give(const ExperimentSpec *spec, double seconds, bool likely)
{
	double		step = seconds <= 600 ? 10 : seconds <= 3600 ? 60 : 300;

	if (!isfinite(seconds))
		return pg_strdup("");
	return psprintf(likely ? "; %s or more keeps 80%% even at the noise's upper bound%s"
					: "; 80%% takes %s or more%s",
					format_duration(step * ceil(seconds / step)), limit_hint(spec));
}

/* ---- what the experiment's time buys ---- */

/*
 * What the experiment's time holds, and the power it buys to see the
 * effect: a probability, so that no outcome of one experiment can
 * contradict it (an A/A that settles "same" long before a design of 80%
 * power would end, a large change seen at the first look), where a time
 * "to decide" was contradicted by both.  cannot is set only where the
 * units can decide nothing whatever they measure.
 */
typedef struct BudgetPower
{
	int			units;			/* instance pairs (two servers) or rounds */
	int			rounds;			/* per unit */
	double		at_lower;		/* power at the noise's lower 90% bound */
	double		at_estimate;	/* at its estimate */
	double		at_upper;		/* at its upper bounds (the design's) */
	char	   *cannot;			/* why nothing can be decided; NULL: it can */
} BudgetPower;

/*
 * The fewest runs a side needs for any test to reach p < alpha: the rank
 * test's least p, 2 / C(2n, n), as stats_compare.c bounds it
 */
static int
fewest_rounds(double alpha)
{
	int			n = 1;

	while (2.0 / stats_choose(2 * n, n) >= alpha)
		n++;
	return n;
}

/*
 * The units left_s holds (the budget's, or the fixed rounds') and why they
 * can decide nothing where they cannot: two servers started once (no
 * restarts: one pair of starts, whose offset no CI holds, as the report
 * says), fewer than 2 instance pairs (no t CI), fewer rounds on one server
 * than any rank test needs.
 */
static void
budget_units(const ExperimentSpec *spec, const Planning *p, bool two, int unit_rounds,
			 double left_s, double alpha, BudgetPower *bp)
{
	bp->cannot = NULL;
	bp->rounds = two ? unit_rounds : 1;
	if (two && unit_rounds <= 0)
	{
		bp->units = 1;
		bp->cannot = pg_strdup("its two servers are each started once, and the offset of one pair of starts is in every round alike, where no CI can hold it (restart = auto)");
		return;
	}
	if (spec->rounds_auto)
		bp->units = (int) floor(Max(0, left_s) / (two ? p->cost.restart_s + unit_rounds * p->cost.round_s
												  : p->cost.round_s));
	else
		bp->units = two ? (spec->rounds + unit_rounds - 1) / unit_rounds : spec->rounds;
	if (two && bp->units < 2)
		bp->cannot = psprintf("it holds %d instance pair%s, and a CI across instance pairs needs 2%s",
							  bp->units, bp->units == 1 ? "" : "s", limit_hint(spec));
	else if (!two && bp->units < fewest_rounds(alpha))
		bp->cannot = psprintf("it holds %d round%s, and no test of fewer than %d can reach p < %g%s",
							  bp->units, bp->units == 1 ? "" : "s", fewest_rounds(alpha), alpha,
							  limit_hint(spec));
}

/* The power at p's noise at bound of bp's units (stats_design_power()) */
static double
power_at(const Planning *p, NoiseBound bound, const BudgetPower *bp)
{
	StatsComponents c;

	planned_components(p, bound, &c);
	return stats_design_power(&c, bp->units, bp->rounds, p->effect, &p->opt);
}

/* What left_s buys at p's noise: its units, their power at its bounds and estimate */
static void
budget_power(const ExperimentSpec *spec, const Planning *p, bool two, int unit_rounds,
			 double left_s, BudgetPower *bp)
{
	budget_units(spec, p, two, unit_rounds, left_s, p->opt.alpha, bp);
	bp->at_lower = power_at(p, AT_LOWER_BOUND, bp);
	bp->at_estimate = power_at(p, AT_ESTIMATE, bp);
	bp->at_upper = power_at(p, AT_UPPER_BOUND, bp);
}

/*
 * bp in the words of the pilot and the pre-flight: "cannot" where nothing
 * can be decided, "can" where even the noise's upper bound leaves 80%
 * power (unbounded: an instance offset not measured, which no bound
 * covers, leaves it "may not"), "may not" otherwise.
 */
static BudgetWord
budget_power_word(const BudgetPower *bp, const Planning *p, bool unbounded)
{
	if (bp->cannot)
		return BUDGET_CANNOT;
	if (!unbounded && bp->at_upper >= p->opt.power)
		return BUDGET_CAN;
	return BUDGET_MAY_NOT;
}

/*
 * "in its budget (2m30s) this experiment sees a 2% change with about 62%
 * power at this noise (35% to 90% within what DF allow)", or that it
 * cannot decide anything and why; a warning where the power at the estimate is
 * below the design's (or nothing can be decided), then tail.
 */
static void
print_budget_power(const ExperimentSpec *spec, const Planning *p, const BudgetPower *bp,
				   const char *left, const char *at, const char *df, bool may_warn,
				   const char *tail, FILE *out)
{
	if (bp->cannot)
	{
		fprintf(out, "pre-flight: warning: in its %s %s this experiment cannot decide anything: %s\n",
				limit_name(spec), left, bp->cannot);
		return;
	}
	fprintf(out, "pre-flight: %sin its %s %s this experiment sees a %.0f%% change with about %.0f%% power %s (%.0f%% to %.0f%% within what %s allow)%s\n",
			may_warn && !(bp->at_estimate >= p->opt.power) ? "warning: " : "",
			limit_name(spec), left, 100 * p->effect,
			100 * bp->at_estimate, at, 100 * bp->at_upper, 100 * bp->at_lower, df, tail);
}

/*
 * Where the plan's spacing of restarts (unit_rounds) takes more than the
 * time left (expected_s, NAN: no design) and the cheapest spacing would
 * fit, say which: the noise judged ("at" it) chose neither.
 */
static void
print_spacing_hint(const Planning *p, int unit_rounds, double expected_s, double left_s,
				   const char *at, FILE *out)
{
	StatsDesign cheapest;
	double		cheapest_s;

	if (unit_rounds <= 0 || expected_s <= left_s)
		return;
	cheapest_s = design_seconds(p, AT_ESTIMATE, 0, &cheapest);
	if (isfinite(cheapest_s) && cheapest.rounds != unit_rounds && cheapest_s <= left_s)
		fprintf(out, "pre-flight: that is with a restart every %d round%s; a restart every %d would take about %s %s (restart = %d)\n",
				unit_rounds, unit_rounds == 1 ? "" : "s", cheapest.rounds,
				format_duration(cheapest_s), at, cheapest.rounds);
}

/*
 * Two servers with no instance offset on record, so that p's is 0 and
 * expected_s the time at its estimate with none: the largest sd between
 * instance pairs at which that design still fits in left_s, so that "if
 * the offset is small" says how small; NAN where even none does not fit.
 * The time grows with the offset, so a bisection finds it; past the
 * rounds' own sd it is given as that (an offset that large is no longer
 * "small").
 */
static double
largest_offset_that_fits(const Planning *p, int unit_rounds, double expected_s, double left_s)
{
	Planning	trial = *p;
	StatsDesign design;
	double		low = 0;
	double		high = sqrt(p->noise.variance[STATS_LEVEL_ROUND]);

	if (!(expected_s <= left_s))
		return NAN;
	trial.offset.variance[STATS_LEVEL_INSTANCE] = high * high;
	if (design_seconds(&trial, AT_ESTIMATE, unit_rounds, &design) <= left_s)
		return high;
	for (int i = 0; i < 30; i++)
	{
		double		mid = (low + high) / 2;

		trial.offset.variance[STATS_LEVEL_INSTANCE] = mid * mid;
		if (design_seconds(&trial, AT_ESTIMATE, unit_rounds, &design) <= left_s)
			low = mid;
		else
			high = mid;
	}
	return low;
}

/*
 * restart = auto across two servers: the rounds between restarts from this
 * host's history — fixed before any run, so the data it judges never chose
 * it: those of the cheapest design that decides twice the noise threshold
 * (stats_plan_design(), the pre-flight's promise), else, where no design
 * of its limits does, the optimal allocation of a two-stage design
 * (stats_rounds_per_unit()).  The allocation alone takes the recorded sds
 * as the truth and pays nothing for few units: an instance sd recorded
 * as 0 from 8 instance pairs gave blocks of 5 rounds, 7 to 10 instance
 * pairs in the demo's 2m30s and a t criterion on 6 to 9 degrees of
 * freedom, where the design, which pays for few units with the t quantile
 * of their degrees of freedom, gave 3.  The design is planned at the
 * record's sds' upper bounds on its layout (record_components()), as
 * the planner plans from an experiment's own data: an instance sd
 * recorded as 0 from 19 instance pairs chose blocks of 5 rounds as the
 * known truth, and one demo of 2m30s then ended undecided; bounded, it
 * is what the rounds' noise of those pairs could hide.
 * A restart every RESTART_AUTO_MIN_ROUNDS rounds when the instance offset
 * dominates and restarts are cheap, up to RESTART_AUTO_MAX_ROUNDS; with
 * fixed rounds, fewer when that leaves RESTART_AUTO_MIN_INSTANCES instance
 * pairs.  The record is the pre-flight's (noise_history_find()), and it chooses
 * only where its sds rest on RESTART_AUTO_MIN_DF degrees of freedom each
 * (noise_enough_df()); else the default of plan_restart_rounds() stays, and the
 * time promised is that of its spacing.  A record of 3 instance pairs
 * once put a restart before every round for a sitting, and a design of one
 * round per unit cannot tell the two sds apart, so it writes no record
 * that could correct it: the floor keeps every experiment's record
 * informative.
 */
static void
choose_restart_from(ExperimentSpec *spec, const NoiseRecord *r, double noise, FILE *out)
{
	Planning	p;
	StatsComponents high;
	StatsDesign design;
	char	   *why;
	int			rounds;

	if (!spec->restart_auto || plan_restart_rounds(spec, &why) == 0 ||
		!noise_enough_df(r, true) || !design_inputs(spec, r, true, noise, &p))
		return;
	planned_components(&p, AT_UPPER_BOUND, &high);
	if (isfinite(design_seconds(&p, AT_UPPER_BOUND, 0, &design)))
		rounds = design.rounds;
	else
		rounds = stats_rounds_per_unit(high.variance[STATS_LEVEL_INSTANCE],
									   high.variance[STATS_LEVEL_ROUND], p.cost.restart_s,
									   p.cost.round_s, RESTART_AUTO_MAX_ROUNDS);
	if (rounds < 1)
		return;
	rounds = Min(Max(rounds, RESTART_AUTO_MIN_ROUNDS), RESTART_AUTO_MAX_ROUNDS);
	if (!spec->rounds_auto)
		rounds = Max(1, Min(rounds, spec->rounds / RESTART_AUTO_MIN_INSTANCES));
	spec->restart_auto = false;
	spec->restart_every = rounds;
	fprintf(out, "restart = auto: every %d round%s, the cheapest unit for this host's noise (%s: sd between instance pairs %.2f%%, between rounds %.2f%%, at most %.2f%% and %.2f%% within what their %d and %d df allow; a restart %.1f s, a round %.1f s)\n",
			rounds, rounds == 1 ? "" : "s", r->recorded_at, 100 * r->instance_sd, 100 * r->round_sd,
			100 * sqrt(high.variance[STATS_LEVEL_INSTANCE]), 100 * sqrt(high.variance[STATS_LEVEL_ROUND]),
			r->instance_df, r->round_df, p.cost.restart_s, p.cost.round_s);
}

/*
 * The expected time's range for a note: "A to B within what its DF allow",
 * at the noise's lower and upper bounds.
 */
static char *
time_range(double least_s, double most_s, const char *df)
{
	return psprintf("%s to %s within what %s allow",
					isfinite(least_s) ? format_duration(least_s) : "beyond any design",
					isfinite(most_s) ? format_duration(most_s) : "beyond any design", df);
}

/*
 * The time record r's noise takes to see twice the threshold with 80%
 * power with this experiment's plan (its spacing of restarts), at the
 * estimate and within its bounds, and what the experiment's time buys
 * instead: its power to see it (print_budget_power()), a warning where
 * that is below 80% at the estimate or nothing can be decided.  Where the
 * record is of a busier host (busier), that power is the least at this
 * load; where it is of a quieter one (quieter) with no pilot to measure
 * the load, that the time may not be enough.
 */
static void
print_expected_time(const ExperimentSpec *spec, const NoiseRecord *r, double noise,
					bool quieter, bool busier, bool pilot, FILE *out)
{
	Planning	p;
	StatsDesign design;
	BudgetPower bp;
	double		effect = 2 * noise;
	bool		two = plan_two_servers(spec);
	char	   *why;
	char	   *tail;
	int			unit_rounds;
	int			rounds;
	double		expected_s;
	double		least_s;
	double		most_s;
	double		left_s;

	if (!design_inputs(spec, r, two, noise, &p))
	{
		fprintf(out, "pre-flight: the power to see %.0f%% is not known: runs of a fixed transaction count\n",
				100 * effect);
		return;
	}
	unit_rounds = plan_restart_rounds(spec, &why);
	left_s = available_s(spec, &p.cost);
	design_seconds_range(&p, unit_rounds, &least_s, &expected_s, &most_s, &design);
	/* one server: rounds are the units, however they fall into blocks */
	rounds = unit_rounds > 0 ? unit_rounds : design.rounds;
	if (!isfinite(expected_s))
		fprintf(out, "pre-flight: no design sees %.0f%% with %.0f%% power at this noise: %s\n",
				100 * effect, 100 * p.opt.power, design.reason);
	else
		fprintf(out, "pre-flight: to see %.0f%% (twice the ±%g%% threshold) with %.0f%% power: %s, about %s (%s)\n",
				100 * effect, 100 * noise, 100 * p.opt.power,
				two ? psprintf("%d instance pairs x %d round%s", design.instances, rounds,
							   rounds == 1 ? "" : "s")
				: psprintf("%d rounds", design.instances * rounds),
				format_duration(expected_s),
				time_range(least_s, most_s, "its degrees of freedom"));
	budget_power(spec, &p, two, unit_rounds, left_s, &bp);
	if (busier)
		tail = pg_strdup("; at this load, likely more");
	else if (!(bp.at_estimate >= p.opt.power))
		tail = time_to_give(spec, expected_s, false);
	else if (!(bp.at_upper >= p.opt.power))
		tail = time_to_give(spec, most_s, true);
	else
		tail = pg_strdup("");
	print_budget_power(spec, &p, &bp, psprintf("(%s)", format_duration(left_s)),
					   busier ? "at that host's noise" : "at this noise",
					   "its degrees of freedom", !busier, tail, out);
	if (quieter && !pilot && !bp.cannot)
		warn_unmeasured_load(spec, effect, out);
	print_spacing_hint(&p, unit_rounds, expected_s, left_s, "at this noise", out);
}

PreflightResult
preflight_print(ExperimentSpec *spec, double noise, bool choose_restart, FILE *out)
{
	HostLoad	h;
	NoiseRecord r;
	PreflightResult result;
	double		effect = 2 * noise;
	bool		two = plan_two_servers(spec);

	NoiseQuery	q;

	host_load_measure(&h);
	host_load_print(spec, &h, out);
	q = noise_query_of(spec, h.busy_pct);
	r = noise_history_find(noise_history_path(), &q);
	result.record = r;
	result.busy_pct = h.busy_pct;
	result.pilot_rounds = pilot_rounds_of(spec, &h, &r);
	if (!r.found)
	{
		fprintf(out, "pre-flight: no noise measured on this host yet for %s: the first looks measure it (pgbench_ext calibrate measures it beforehand)\n",
				noise_query_words(&q));
		if (result.pilot_rounds == 0 && h.busy_pct > LOADED_BUSY_PCT)
			warn_unmeasured_load(spec, effect, out);
	}
	else
	{
		/*
		 * A record of a quieter host promises too little time here, one of
		 * a busier host too much; only the first can make a budget fall
		 * short.
		 */
		bool		quieter = h.busy_pct > LOADED_BUSY_PCT && !noise_like_load(h.busy_pct, r.busy_pct);
		bool		busier = h.busy_pct <= LOADED_BUSY_PCT && r.busy_pct > LOADED_BUSY_PCT;

		fprintf(out, "pre-flight: noise here (%s, %s, %d client%s, %s%s): sd between rounds %.2f%%",
				r.recorded_at, r.script, r.clients, r.clients == 1 ? "" : "s", r.schedule,
				noise_binaries_words(&r), 100 * r.round_sd);
		if (two)
			fprintf(out, ", between instance pairs %.2f%%", 100 * r.instance_sd);
		if (isfinite(r.busy_pct))
			fprintf(out, "; other processes were busy %.0f%%", r.busy_pct);
		fprintf(out, "\n");
		if (quieter)
			fprintf(out, "pre-flight: warning: that noise was measured %s than now (%.0f%% busy): the time below is the least it takes, the power the most\n",
					isfinite(r.busy_pct) ? psprintf("on a quieter host (%.0f%% busy)", r.busy_pct) :
					"at a load not recorded, perhaps quieter", h.busy_pct);
		else if (busier)
			fprintf(out, "pre-flight: that noise was measured on a busier host (%.0f%% busy) than now: the time below may be more than it takes, the power less\n",
					r.busy_pct);
		if (choose_restart)
			choose_restart_from(spec, &r, noise, out);
		print_expected_time(spec, &r, noise, quieter, busier, result.pilot_rounds > 0, out);
	}
	if (result.pilot_rounds > 0)
		announce_pilot(spec, result.pilot_rounds, effect, out);
	return result;
}

BudgetWord
preflight_budget_word(double least_s, double most_s, double left_s)
{
	if (!(least_s <= left_s))
		return BUDGET_CANNOT;
	if (!(most_s <= left_s))
		return BUDGET_MAY_NOT;
	return BUDGET_CAN;
}

const char *
preflight_budget_word_name(BudgetWord word)
{
	static const char *const names[] = {"can", "may not", "cannot"};

	return names[word];
}

/*
 * What the power at the pilot's noise assumes of an instance offset not
 * measured yet (largest_offset_that_fits()'s sd, NAN: none fits).
 */
static char *
offset_condition(double largest_sd)
{
	if (!isfinite(largest_sd))
		return pg_strdup(" with no offset between instance pairs, less with one (not measured here yet)");
	return psprintf(" with no offset between instance pairs; 80%% at this noise holds while their sd, not measured here yet, is below %.2f%%",
					100 * largest_sd);
}

/*
 * The pilot's rounds are one instance pair's: the sd between rounds is
 * theirs, the run's cost beyond its pgbench time what they took, and the
 * sd between instance pairs (two servers) that of the pre-flight's record
 * of any load, where the load moves it little (docs/calibration.md), or 0
 * where the history has none: the power is then the most it has.  Its sd
 * rests on a few degrees of freedom, so the time to 80% power and the
 * power of the time left are given at the estimate and within its lower
 * 90% and upper bounds (the record's offset bounded on its own layout), in
 * budget_power_word()'s words; of the plan's instance pairs of unit_rounds
 * rounds (the restarts' spacing; 0: any), naming a cheaper spacing that
 * would fit where the plan's would not.
 */
void
preflight_judge_pilot(const ExperimentSpec *spec, double noise, const PreflightResult *preflight,
					  int unit_rounds, PilotNoise *pilot, double spent_s, FILE *out)
{
	const NoiseRecord *hist = &preflight->record;
	NoiseRecord r = {0};
	Planning	p;
	StatsDesign design;
	BudgetPower bp;
	bool		two = plan_two_servers(spec);
	int			df = pilot->rounds - 1;
	char	   *tail;

	/*
	 * Two servers with no instance offset on record: the power at the
	 * pilot's upper bound took that offset as 0, which is no bound, so the
	 * pilot cannot say "can" (taken as 0, "can" was followed by a decision
	 * in 6 of 15 experiments, docs/calibration.md).
	 */
	bool		unbounded = two && !hist->found;

	/* what a budget has paid for already: a budget to give must pay for it too */
	double		before = spec->rounds_auto ? spent_s : 0;

	/* the rounds' noise is the pilot's, of one instance pair */
	r.round_sd = pilot->round_sd;
	r.round_df = df;
	r.run_overhead_s = Max(0, pilot->seconds / pilot->rounds / plan_round_slots(spec) - spec->duration_s);
	r.restart_s = hist->found ? hist->restart_s : NAN;
	design_inputs(spec, &r, two, noise, &p);
	/* the instance offset is the history's, bounded on its own layout */
	if (two && hist->found)
		record_components(hist, true, &p.offset);
	pilot->instance_sd = two && hist->found ? hist->instance_sd : 0;
	pilot->left_s = available_s(spec, &p.cost) - before;
	design_seconds_range(&p, unit_rounds, &pilot->least_s, &pilot->expected_s, &pilot->most_s,
						 &design);
	pilot->largest_offset_sd = unbounded
		? largest_offset_that_fits(&p, unit_rounds, pilot->expected_s, pilot->left_s) : NAN;
	budget_power(spec, &p, two, unit_rounds, pilot->left_s, &bp);
	pilot->outcome = preflight_budget_word_name(budget_power_word(&bp, &p, unbounded));

	fprintf(out, "pre-flight: pilot: %d rounds in %s: sd between rounds %.2f%% (%d df)",
			pilot->rounds, format_duration(pilot->seconds), 100 * pilot->round_sd, df);
	if (two && hist->found)
		fprintf(out, "; between instance pairs %.2f%% (%s)", 100 * pilot->instance_sd, hist->recorded_at);
	else if (two)
		fprintf(out, "; between instance pairs not measured here yet, taken as 0");
	fprintf(out, "\n");
	if (isfinite(pilot->expected_s))
		fprintf(out, "pre-flight: at the pilot's noise, to see %.0f%% with %.0f%% power takes about %s (%s)\n",
				100 * p.effect, 100 * p.opt.power, format_duration(pilot->expected_s),
				time_range(pilot->least_s, pilot->most_s, psprintf("its %d rounds", pilot->rounds)));
	else
		fprintf(out, "pre-flight: at the pilot's noise, no design sees %.0f%% with %.0f%% power: %s\n",
				100 * p.effect, 100 * p.opt.power, design.reason);
	if (unbounded)
		tail = offset_condition(pilot->largest_offset_sd);
	else if (!(bp.at_estimate >= p.opt.power))
		tail = time_to_give(spec, before + pilot->expected_s, false);
	else if (!(bp.at_upper >= p.opt.power))
		tail = time_to_give(spec, before + pilot->most_s, true);
	else
		tail = pg_strdup("");
	print_budget_power(spec, &p, &bp, psprintf("(%s left)", format_duration(Max(0, pilot->left_s))),
					   "at the pilot's noise", psprintf("its %d rounds", pilot->rounds), true,
					   tail, out);
	print_spacing_hint(&p, unit_rounds, pilot->expected_s, pilot->left_s, "at the pilot's noise",
					   out);
}

/*
 * The pre-flight as a run prints it before its first run (choose_restart:
 * with the spacing restart = auto takes), then what schedule = auto and
 * aslr = auto chose.
 */
PreflightResult
preflight_print_run(ExperimentSpec *spec, bool choose_restart)
{
	StatsOptions opt;
	PreflightResult result;

	stats_default_options(&opt);
	build_forecast_print(spec, stdout);
	result = preflight_print(spec, opt.noise, choose_restart, stdout);
	if (spec->quiet.schedule_why)
		printf("schedule = auto: %s\n", spec->quiet.schedule_why);
	if (spec->quiet.aslr_why)
		printf("aslr = auto: %s\n", spec->quiet.aslr_why);
	return result;
}
