/*-------------------------------------------------------------------------
 *
 * stats_sequential.c
 *		Decisions after every block of rounds of a growing experiment that
 *		keep their error rates however often they are taken: alpha spent
 *		over the planned looks (Lan–DeMets), each look's test and CI at
 *		the level it spends.
 *
 * Stopping at the first p < 0.05 of many looks inflates false positives
 * several-fold.  Here look k may only use alpha_k = alpha*(t_k) -
 * alpha*(t_k-1), and the alpha_k add up to at most alpha, so by
 * Bonferroni's inequality the chance that any look's CI misses the true
 * ratio is at most alpha.  Every wrong decision needs such a miss: a false
 * "faster" is a CI wholly above 1 + noise while the truth is below it, a
 * false "same" a CI inside +-noise while the truth is outside.  Exact
 * group-sequential boundaries (which account for the correlation between
 * looks) would be a little less conservative, but need the joint
 * distribution of the statistics across looks, which rank tests and t
 * tests on a handful of units do not have in closed form; the Bonferroni
 * bound needs nothing but each look's own valid test and CI, which the
 * fixed-design comparisons already are.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define E_MINUS_1 1.71828182845904523536

double
stats_alpha_spent(StatsSpending spending, double alpha, double t)
{
	if (!(t > 0.0))
		return 0.0;
	if (t >= 1.0)
		return alpha;
	if (spending == STATS_SPEND_POCOCK)
		return alpha * log1p(E_MINUS_1 * t);
	return 2.0 - 2.0 * stats_norm_cdf(stats_norm_quantile(1.0 - alpha / 2.0) / sqrt(t));
}

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

int
stats_sequential_look(const double *a, const int *round_a, const int *unit_a, int n_a,
					  const double *b, const int *round_b, const int *unit_b, int n_b,
					  StatsUnit unit, const StatsSequentialPlan *plan,
					  const StatsOptions *opt, StatsLook *out)
{
	StatsOptions look_opt;
	double		before;
	const StatsComparison *c = &out->cmp;
	int			rc;

	memset(out, 0, sizeof(*out));
	if ((rc = stats_check_options(opt)) != STATS_OK || (rc = check_plan(plan)) != STATS_OK)
		return rc;
	out->look = plan->look;
	out->info = info_at(plan, plan->look);
	before = stats_alpha_spent(plan->spending, opt->alpha, info_at(plan, plan->look - 1));
	out->alpha_spent = stats_alpha_spent(plan->spending, opt->alpha, out->info);
	out->alpha_look = out->alpha_spent - before;
	out->decision = STATS_UNDECIDED;
	if (!(out->alpha_look > 0.0))
	{
		snprintf(out->reason, STATS_REASON_LEN,
				 "look %d: all of alpha %g was spent by the earlier looks",
				 plan->look, opt->alpha);
		return STATS_OK;
	}

	look_opt = *opt;
	look_opt.alpha = out->alpha_look;
	if ((rc = stats_compare_units(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b,
								  unit, &look_opt, &out->cmp)) != STATS_OK)
		return rc;
	if (c->verdict == STATS_FASTER)
		out->decision = STATS_DECIDED_FASTER;
	else if (c->verdict == STATS_SLOWER)
		out->decision = STATS_DECIDED_SLOWER;
	else if (c->has_ci && c->ci_low > 1.0 - opt->noise && c->ci_high < 1.0 + opt->noise)
		out->decision = STATS_DECIDED_SAME;

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
