/*-------------------------------------------------------------------------
 *
 * stats_sequential.c
 *		Decisions after every block of rounds of a growing experiment that
 *		keep their error rates however often they are taken: alpha spent
 *		over the planned looks (Lan–DeMets), with group-sequential
 *		boundaries from the looks' joint distribution.
 *
 * Stopping at the first p < 0.05 of many looks inflates false positives
 * several-fold.  Here the looks share alpha by a spending function
 * alpha*(t) of the information fraction t, and look k's boundary z_k is
 * set so that the chance, under no change, that some look 1 .. k crosses
 * its boundary is exactly alpha*(t_k).  Because the looks see nested
 * data, their statistics are strongly correlated (sqrt(t_j / t_k) between
 * looks j and k), so each look may test at a nominal level well above its
 * increment alpha*(t_k) - alpha*(t_k-1): Bonferroni over looks, which this
 * replaces, spent only 0.05–1.6% of a 5% alpha and its final CI covered
 * 97–99.95%.
 *
 * The boundaries are those of the canonical joint distribution (the
 * statistics of the looks as a Brownian motion in t, Jennison and
 * Turnbull, "Group Sequential Methods with Applications to Clinical
 * Trials", 2000, ch. 3 and 19), computed by numerical integration:
 * deterministic, the same for a plan whenever a report is re-rendered,
 * and cheap (milliseconds for 20 looks).  Each look then makes the fixed
 * design's test and CI at its nominal level 2 (1 - Phi(z_k)) — the
 * "significance level approach" (ibid., ch. 11): the signed-rank test
 * and the Walsh-average CI round by round, whose joint null distribution
 * across looks (random signs on ranks) tends to that Brownian motion, and
 * Student's t across units, exact at each look for normal summaries.  The
 * CIs so made are repeated confidence intervals: all of them cover the
 * true ratio together with probability 1 - alpha, so the CI of the look
 * that stops covers with at least that, whatever the stopping rule, and
 * every wrong decision needs one of them to miss.  Round by round means
 * every look whose rounds the fixed verdict at alpha would compare so (6
 * at 0.05), however low the look's own level: the fixed design falls back
 * to all runs unpaired when the signed-rank test could not reach its
 * level, and a look's level is set by the budget's clock, so that choice
 * made at the look's level would judge its rounds on the machine's drift
 * or not by how fast its blocks ran; a look whose rounds cannot reach its
 * level is undecided instead.  The unit tests
 * (test/unit/test_stats_sequential.c) check by simulation of small
 * samples that A/A false positives come out between 3% and 5% at alpha
 * 5%, and the final CI's coverage.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQRT_2 1.41421356237309504880

const char *
stats_decision_name(StatsDecision d)
{
	switch (d)
	{
		case STATS_UNDECIDED:
			return "undecided";
		case STATS_DECIDED_FASTER:
			return "faster";
		case STATS_DECIDED_SLOWER:
			return "slower";
		case STATS_DECIDED_SAME:
			return "same";
	}
	return "unknown";
}

StatsDecision
stats_comparison_decision(const StatsComparison *c, double noise)
{
	if (c->verdict == STATS_FASTER)
		return STATS_DECIDED_FASTER;
	if (c->verdict == STATS_SLOWER)
		return STATS_DECIDED_SLOWER;
	/* not "insufficient": a test that could never reject decides nothing */
	if (stats_verdict_within_noise(c->verdict) && c->has_ci && c->ci_low > 1.0 - noise &&
		c->ci_high < 1.0 + noise)
		return STATS_DECIDED_SAME;
	return STATS_UNDECIDED;
}

/* The information fraction of look k (1-based) of the plan. */
static double
info_at(const StatsSequentialPlan *plan, int k)
{
	if (k <= 0)
		return 0.0;
	return plan->info != NULL ? plan->info[k - 1] : (double) k / plan->max_looks;
}

static int
check_plan(const StatsSequentialPlan *plan)
{
	if (plan->look < 1 || plan->max_looks < 1 ||
		!(plan->spending == STATS_SPEND_OBRIEN_FLEMING ||
		  plan->spending == STATS_SPEND_POCOCK))
		return STATS_ERR_OPTION;
	for (int k = 1; k <= plan->look; k++)
		if (!(info_at(plan, k) > info_at(plan, k - 1)) || !isfinite(info_at(plan, k)))
			return STATS_ERR_OPTION;
	return STATS_OK;
}

/*
 * Round by round: the look's boundary on the normal scale, the plan's own
 * (plan->z) or computed for its looks so far.
 */
static int
look_z_bound(const StatsSequentialPlan *plan, double alpha, double *z_bound)
{
	double	   *info,
			   *z;
	int			rc;

	if (plan->z != NULL)
	{
		*z_bound = plan->z[plan->look - 1];
		return STATS_OK;
	}
	info = stats_malloc(sizeof(double) * 2 * plan->look);
	if (info == NULL)
		return STATS_ERR_NOMEM;
	z = info + plan->look;
	for (int k = 1; k <= plan->look; k++)
		info[k - 1] = info_at(plan, k);
	rc = stats_sequential_bounds(plan->spending, alpha, info, plan->look, z);
	*z_bound = z[plan->look - 1];
	stats_free(info);
	return rc;
}

/*
 * Across units: the look's boundary on the t scale with "units" units
 * now, the plan's own (plan->t_crit) or simulated for its looks so far,
 * the earlier looks having had the share of these units their
 * information fractions say.
 */
static int
look_t_bound(const StatsSequentialPlan *plan, double alpha, int units, double *crit)
{
	double	   *info,
			   *c;
	int		   *n;
	int			rc;

	if (plan->t_crit != NULL)
	{
		*crit = plan->t_crit[plan->look - 1];
		return STATS_OK;
	}
	info = stats_malloc(sizeof(double) * 2 * plan->look);
	n = stats_malloc(sizeof(int) * plan->look);
	if (info == NULL || n == NULL)
	{
		stats_free(info);
		stats_free(n);
		return STATS_ERR_NOMEM;
	}
	c = info + plan->look;
	for (int k = 1; k <= plan->look; k++)
	{
		info[k - 1] = info_at(plan, k);
		n[k - 1] = (int) floor(units * fmin(info[k - 1], 1.0) /
							   fmin(info_at(plan, plan->look), 1.0) + 0.5);
		if (k > 1 && n[k - 1] < n[k - 2])
			n[k - 1] = n[k - 2];
	}
	n[plan->look - 1] = units;
	rc = stats_sequential_t_bounds(plan->spending, alpha, info, n, plan->look, c);
	*crit = c[plan->look - 1];
	stats_free(info);
	stats_free(n);
	return rc;
}

int
stats_sequential_look(const double *a, const int *round_a, const int *unit_a, int n_a,
					  const double *b, const int *round_b, const int *unit_b, int n_b,
					  StatsUnit unit, const StatsSequentialPlan *plan,
					  const StatsOptions *opt, StatsLook *out)
{
	StatsOptions look_opt;
	const StatsComparison *c = &out->cmp;
	bool		units = unit_a != NULL || unit_b != NULL;
	int			k = 0,
				rc;

	memset(out, 0, sizeof(*out));
	if ((rc = stats_check_options(opt)) != STATS_OK || (rc = check_plan(plan)) != STATS_OK)
		return rc;
	out->look = plan->look;
	out->info = info_at(plan, plan->look);
	out->alpha_spent = stats_alpha_spent(plan->spending, opt->alpha, out->info);
	out->decision = STATS_UNDECIDED;
	if (units)
	{
		double		crit;

		/* the number of units decides the boundary: count them first */
		if (unit_a == NULL || unit_b == NULL)
			return STATS_ERR_UNIT;
		if ((rc = stats_count_units(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b,
									&k)) != STATS_OK ||
			(rc = look_t_bound(plan, opt->alpha, k, &crit)) != STATS_OK)
			return rc;
		out->alpha_look = k >= 2 && isfinite(crit) ? 2.0 * stats_t_cdf(-crit, k - 1) : 0.0;
		out->z_bound = out->alpha_look > 0.0
			? -stats_norm_quantile(out->alpha_look / 2.0) : HUGE_VAL;
	}
	else
	{
		if ((rc = look_z_bound(plan, opt->alpha, &out->z_bound)) != STATS_OK)
			return rc;
		/* the nominal level of a boundary z: 2 (1 - Phi(z)) */
		out->alpha_look = erfc(out->z_bound / SQRT_2);
	}
	if (!(out->alpha_look > 0.0))
	{
		/* too few units yet: the comparison at alpha, for its estimate */
		if (units && k < 2)
		{
			if ((rc = stats_compare_units(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b,
										  unit, opt, &out->cmp)) != STATS_OK)
				return rc;
			snprintf(out->reason, STATS_REASON_LEN,
					 "look %d: too few %s for a CI", plan->look, stats_unit_name(unit, 2));
		}
		else
			snprintf(out->reason, STATS_REASON_LEN,
					 "look %d: all of alpha %g was spent by the earlier looks",
					 plan->look, opt->alpha);
		return STATS_OK;
	}

	look_opt = *opt;
	look_opt.alpha = out->alpha_look;
	rc = units ? stats_compare_units(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b,
									 unit, &look_opt, &out->cmp)
		: stats_compare_rounds_at(a, round_a, n_a, b, round_b, n_b, opt->alpha, &look_opt,
								  &out->cmp);
	if (rc != STATS_OK)
		return rc;
	out->decision = stats_comparison_decision(c, opt->noise);

	if (!c->has_ci)
		snprintf(out->reason, STATS_REASON_LEN,
				 "look %d at level %.3g: too few %s for a CI at that level",
				 plan->look, out->alpha_look, stats_unit_name(c->unit, 2));
	else
		snprintf(out->reason, STATS_REASON_LEN,
				 "look %d at level %.3g: the CI [%+.2f%%, %+.2f%%] lies %s the "
				 "noise threshold of +-%g%%",
				 plan->look, out->alpha_look, 100.0 * (c->ci_low - 1.0),
				 100.0 * (c->ci_high - 1.0),
				 out->decision == STATS_DECIDED_SAME ? "within" :
				 out->decision == STATS_UNDECIDED ? "across" : "beyond",
				 100.0 * opt->noise);
	return STATS_OK;
}
