/*-------------------------------------------------------------------------
 *
 * stats_compare.c
 *		B against A on one pair of servers: the Hodges–Lehmann ratio with
 *		its CI, the Mann–Whitney or signed-rank p-value, the verdict's
 *		minimum detectable effect, and the verdict with its reason in words.
 *
 * This is what pgbench_ext.compare() returns in psql and what the client
 * prints in its table, from the same code, so both agree to the last digit.
 *
 * Runs made in interleaved rounds are compared round by round when there
 * are enough complete rounds (stats_compare_rounds): the machine's speed
 * drifts over minutes, and a ratio taken within one round cancels that
 * drift where a comparison of all A runs with all B runs counts it as
 * noise.  The runner randomizes the order of the variants within each
 * round, so under no change each round's log ratio is as likely to be
 * positive as negative, which is all the signed-rank test assumes.
 *
 * The verdict (stats_decide, also that of the nested comparison):
 *	insufficient  a side has no runs, or even the most extreme outcome
 *				  could not reach p < alpha (min_p: 2 / C(m+n, m) for m and
 *				  n untied runs, 2 / 2^n for n rounds that differ, fewer
 *				  than 2 distinct units across units) — unless only ties
 *				  kept it from alpha and the CI lies wholly inside the
 *				  threshold (identical counted rounds: CI [0, 0]), where
 *				  the CI's words follow;
 *	faster/slower p < alpha, and the whole CI of B/A lies beyond the noise
 *				  threshold (above 1 + noise or below 1 - noise);
 *	faster/slower, by less than the threshold
 *				  otherwise, when the CI excludes 1 and lies wholly inside
 *				  the threshold: the direction is known and the size is
 *				  settled as small;
 *	faster/slower; beyond the threshold not settled
 *				  otherwise, when the CI excludes 1 and crosses the
 *				  threshold's edge: the direction is known, and whether
 *				  the change exceeds the threshold is not;
 *	no change	  otherwise (the CI includes 1), with the smallest change
 *				  the verdict would see (stats_mde.c).
 *
 * Only faster and slower decide: the middle two are the words of what
 * was once all "no change", so that a CI that excludes 0 never reads as
 * no change; what counts decisions (stats_comparison_decision) treats
 * them as no change did.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Smallest r with 2 / C(2r, r) < alpha: runs per side the test needs. */
static int
runs_needed(double alpha)
{
	int			r = 1;

	while (2.0 / stats_choose(2 * r, r) >= alpha)
		r++;
	return r;
}

/* 2 / 2^n: the smallest two-sided p of the signed-rank test on n pairs. */
static double
paired_min_p(int n)
{
	return fmin(1.0, 2.0 / ldexp(1.0, n));
}

/* Why no arrangement of these units could reach p < alpha, across units. */
static void
units_insufficient(StatsComparison *c)
{
	const char *one = stats_unit_name(c->unit, 1);

	if (c->n_units == 0)
		snprintf(c->reason, STATS_REASON_LEN,
				 "no %s holds runs of both A and B", one);
	else						/* 1 unit: 2 or more have a p, equal ones too */
		snprintf(c->reason, STATS_REASON_LEN,
				 "with 1 %s the spread between %s cannot be measured: "
				 "make at least 2 (each is one sample)",
				 one, stats_unit_name(c->unit, 2));
}

/*
 * Whether the test could not reach alpha only because of ties, and the CI
 * settles the size anyway: rounds without any difference (the signed-rank
 * test drops them, and the rounds that differ are too few for a p) or runs
 * so many of them equal, where as many untied would have reached alpha,
 * and the CI, made from all of them, lies wholly inside the noise
 * threshold.  Identical rounds of a counted metric (instructions per
 * transaction, nearly deterministic) are the case: their CI is [0, 0], and
 * "insufficient" said less than it shows.  Real noise never ties exactly,
 * so what decides for it is unchanged; a CI across the threshold stays
 * insufficient, with its remedy.
 */
static bool
ties_settle(const StatsComparison *c, const StatsOptions *opt)
{
	bool		tied;

	if (!c->has_ci || !(c->ci_low > 1.0 - opt->noise && c->ci_high < 1.0 + opt->noise))
		return false;
	if (c->unit == STATS_UNIT_ROUND)
		tied = c->n_used < c->n_pairs && paired_min_p(c->n_pairs) < opt->alpha;
	else if (c->unit == STATS_UNIT_RUN)
		tied = c->min_p > 2.0 / stats_choose(c->n_a + c->n_b, c->n_a) * (1.0 + 1e-9) &&
			2.0 / stats_choose(c->n_a + c->n_b, c->n_a) < opt->alpha;
	else
		tied = false;
	return tied;
}

/*
 * "insufficient" when no arrangement of these runs could reach p < alpha,
 * unless ties alone kept it from alpha and the CI settles the size
 * (ties_settle()).
 */
static bool
decide_insufficient(StatsComparison *c, const StatsOptions *opt)
{
	double		alpha = opt->alpha;

	if (c->n_a == 0 || c->n_b == 0)
	{
		snprintf(c->reason, STATS_REASON_LEN, "%s no runs",
				 c->n_a == 0 && c->n_b == 0 ? "A and B have" :
				 c->n_a == 0 ? "A has" : "B has");
		return true;
	}
	if (c->min_p < alpha || ties_settle(c, opt))
		return false;
	if (c->unit != STATS_UNIT_RUN && c->unit != STATS_UNIT_ROUND)
		units_insufficient(c);
	else if (c->unit == STATS_UNIT_ROUND)
	{
		int			pairs_needed = 1;

		while (paired_min_p(pairs_needed) >= alpha)
			pairs_needed++;
		if (c->n_used < c->n_pairs)
			snprintf(c->reason, STATS_REASON_LEN,
					 "with %d paired rounds, %d of them without any difference, "
					 "the smallest possible p is %.3g, not below alpha %g: "
					 "make at least %d rounds that differ",
					 c->n_pairs, c->n_pairs - c->n_used, c->min_p, alpha,
					 pairs_needed);
		else
			snprintf(c->reason, STATS_REASON_LEN,
					 "with %d paired rounds the smallest possible p is %.3g, "
					 "not below alpha %g: make at least %d rounds",
					 c->n_pairs, c->min_p, alpha, pairs_needed);
	}
	else if (c->min_p > 2.0 / stats_choose(c->n_a + c->n_b, c->n_a) * (1.0 + 1e-9))
		snprintf(c->reason, STATS_REASON_LEN,
				 "with %d and %d runs, so many of them equal, the smallest "
				 "possible p is %.3g, not below alpha %g",
				 c->n_a, c->n_b, c->min_p, alpha);
	else
		snprintf(c->reason, STATS_REASON_LEN,
				 "with %d and %d runs the smallest possible p is %.3g, not below alpha %g: "
				 "make at least %d runs per side",
				 c->n_a, c->n_b, c->min_p, alpha, runs_needed(alpha));
	return true;
}

/* "; the smallest change the verdict would see here is 2.40%", or "" */
static const char *
mde_clause(const StatsComparison *c, char *buf, size_t len)
{
	if (!c->has_mde)
		return "";
	snprintf(buf, len, "; the smallest change the verdict would see here is %.2f%%",
			 c->mde_pct);
	return buf;
}

/*
 * Short of faster or slower, what the CI still says: its direction when it
 * excludes 1, and whether the size is settled against the threshold.
 */
static StatsVerdict
ci_direction(const StatsComparison *c, const StatsOptions *opt, bool *inside)
{
	bool		up;

	*inside = c->has_ci && c->ci_low > 1.0 - opt->noise && c->ci_high < 1.0 + opt->noise;
	if (!c->has_ci || (c->ci_low <= 1.0 && c->ci_high >= 1.0))
		return STATS_NO_CHANGE;
	up = c->ci_low > 1.0;
	if (up == opt->higher_is_better)
		return *inside ? STATS_FASTER_WITHIN : STATS_FASTER_UNSETTLED;
	return *inside ? STATS_SLOWER_WITHIN : STATS_SLOWER_UNSETTLED;
}

/* The reason of a verdict short of faster or slower, after "p = ... " */
static void
within_reason(StatsComparison *c, const StatsOptions *opt, bool inside, const char *test)
{
	char		mde[96];

	if (c->min_p >= opt->alpha)
	{
		/* ties_settle(): the test could not reach alpha, the CI settles */
		if (c->unit == STATS_UNIT_ROUND)
			snprintf(mde, sizeof(mde), "%d of the %d paired rounds without any difference",
					 c->n_pairs - c->n_used, c->n_pairs);
		else
			snprintf(mde, sizeof(mde), "%d and %d runs, so many of them equal", c->n_a, c->n_b);
		snprintf(c->reason, STATS_REASON_LEN,
				 "%s: no rank test can reach alpha %g, but the CI [%+.3f%%, %+.3f%%] of them all "
				 "lies inside the %g%% threshold",
				 mde, opt->alpha, 100.0 * (c->ci_low - 1.0), 100.0 * (c->ci_high - 1.0),
				 100.0 * opt->noise);
	}
	else if (c->verdict == STATS_NO_CHANGE && c->p_value >= opt->alpha)
		snprintf(c->reason, STATS_REASON_LEN, "%s%s", test, mde_clause(c, mde, sizeof(mde)));
	else if (c->verdict == STATS_NO_CHANGE && !c->has_ci)
		snprintf(c->reason, STATS_REASON_LEN, "%s, but too few for a CI at that level%s",
				 test, mde_clause(c, mde, sizeof(mde)));
	else if (c->verdict == STATS_NO_CHANGE)
		snprintf(c->reason, STATS_REASON_LEN, "%s, but the CI [%+.2f%%, %+.2f%%] includes 0%s",
				 test, 100.0 * (c->ci_low - 1.0), 100.0 * (c->ci_high - 1.0),
				 mde_clause(c, mde, sizeof(mde)));
	else
		snprintf(c->reason, STATS_REASON_LEN,
				 "%s; the CI [%+.2f%%, %+.2f%%] excludes 0 and %s the %g%% noise threshold",
				 test, 100.0 * (c->ci_low - 1.0), 100.0 * (c->ci_high - 1.0),
				 inside ? "lies wholly inside" : "reaches across", 100.0 * opt->noise);
}

void
stats_decide(StatsComparison *c, const StatsOptions *opt)
{
	bool		above,
				below,
				inside;
	double		noise_pct = 100.0 * opt->noise;
	char		test[96];

	c->noise = opt->noise;
	c->verdict = STATS_INSUFFICIENT;
	if (decide_insufficient(c, opt))
		return;

	above = c->has_ci && c->ci_low > 1.0 + opt->noise;
	below = c->has_ci && c->ci_high < 1.0 - opt->noise;
	if (c->p_value < opt->alpha && (above || below))
	{
		c->verdict = (above == opt->higher_is_better) ? STATS_FASTER : STATS_SLOWER;
		snprintf(c->reason, STATS_REASON_LEN,
				 "p = %.3g < %g, and the whole %.1f%% CI [%+.2f%%, %+.2f%%] "
				 "lies %s the noise threshold of %s%g%%",
				 c->p_value, opt->alpha, 100.0 * c->ci_confidence,
				 100.0 * (c->ci_low - 1.0), 100.0 * (c->ci_high - 1.0),
				 above ? "above" : "below", above ? "+" : "-", noise_pct);
		return;
	}

	/*
	 * Not decided, but the words follow the CI: one that excludes 1 says
	 * the direction (at the CI's confidence), even in the rare case where
	 * the rank test's ties leave p at or just above alpha.
	 */
	c->verdict = ci_direction(c, opt, &inside);
	snprintf(test, sizeof(test),
			 c->p_value < opt->alpha ? "p = %.3g < %g" : "p = %.3g, not below alpha %g",
			 c->p_value, opt->alpha);
	within_reason(c, opt, inside, test);
}

/* The estimate and its CI, as ratios b/a. */
static void
set_shift(const StatsShift *shift, StatsComparison *c)
{
	c->has_estimate = true;
	c->estimate = exp(shift->log_estimate);
	c->change_pct = 100.0 * (c->estimate - 1.0);
	c->has_ci = shift->has_ci;
	c->ci_low = shift->has_ci ? exp(shift->log_ci_low) : 0.0;
	c->ci_high = shift->has_ci ? exp(shift->log_ci_high) : 0.0;
	c->ci_confidence = shift->confidence;
	c->ci_rank = shift->rank;
	c->ci_exact = shift->exact;
}

static void
set_test(const StatsRankTest *test, StatsComparison *c)
{
	c->has_p = true;
	c->u = test->statistic;
	c->p_value = test->p_value;
	c->p_exact = test->exact;
	c->min_p = test->min_p;
	c->n_used = test->n_used;
}

int
stats_compare(const double *a, int n_a, const double *b, int n_b,
			  const StatsOptions *opt, StatsComparison *c)
{
	StatsShift	shift;
	StatsRankTest test;
	double		sd_log;
	int			rc;

	memset(c, 0, sizeof(*c));
	if (n_a < 0 || n_b < 0)
		return STATS_ERR_SIZE;
	if ((rc = stats_check_options(opt)) != STATS_OK)
		return rc;
	/* also validates every value */
	if ((rc = stats_pooled_log_sd(a, n_a, b, n_b, &sd_log)) != STATS_OK)
		return rc;

	c->n_a = n_a;
	c->n_b = n_b;
	c->unit = STATS_UNIT_RUN;
	c->min_p = 1.0;
	if (n_a > 0 && n_b > 0)
	{
		if ((rc = stats_hodges_lehmann(a, n_a, b, n_b, opt->alpha, &shift)) != STATS_OK ||
			(rc = stats_mann_whitney(a, n_a, b, n_b, &test)) != STATS_OK)
			return rc;
		set_shift(&shift, c);
		set_test(&test, c);
	}
	/* an MDE needs a test that can reject at all */
	if (c->min_p < opt->alpha)
		c->has_mde = stats_verdict_mde_pct(sd_log, n_a, n_b, opt, &c->mde_pct);
	stats_decide(c, opt);
	return STATS_OK;
}

int
stats_compare_paired(const double *a, const double *b, int n,
					 const StatsOptions *opt, StatsComparison *c)
{
	StatsShift	shift;
	StatsRankTest test;
	double	   *log_ratio;
	double		sd_log_ratio = 0.0;
	int			rc;

	memset(c, 0, sizeof(*c));
	if (n < 0)
		return STATS_ERR_SIZE;
	if ((rc = stats_check_options(opt)) != STATS_OK)
		return rc;
	/* validates every value */
	if ((rc = stats_log_ratios(a, b, n, &log_ratio)) != STATS_OK)
		return rc;

	c->n_a = c->n_b = c->n_pairs = c->n_units = n;
	c->unit = STATS_UNIT_ROUND;
	c->min_p = 1.0;
	rc = stats_robust_sd(log_ratio, n, &sd_log_ratio);
	if (rc == STATS_OK && n > 0 &&
		(rc = stats_hodges_lehmann_paired(a, b, n, opt->alpha, &shift)) == STATS_OK &&
		(rc = stats_signed_rank(log_ratio, n, &test)) == STATS_OK)
	{
		set_shift(&shift, c);
		set_test(&test, c);
	}
	stats_free(log_ratio);
	if (rc != STATS_OK)
		return rc;
	if (c->min_p < opt->alpha)
		c->has_mde = stats_verdict_mde_paired_pct(sd_log_ratio, n, opt, &c->mde_pct);
	stats_decide(c, opt);
	return STATS_OK;
}

/*
 * stats_compare_rounds() and stats_compare_rounds_at(): round by round
 * when the pairs could reach p < unit_alpha at all, else all runs
 * unpaired; the test and CI at opt->alpha.
 */
static int
compare_rounds(const double *a, const int *round_a, int n_a,
			   const double *b, const int *round_b, int n_b,
			   double unit_alpha, const StatsOptions *opt, StatsComparison *c)
{
	StatsPairs	pairs;
	int			rc;

	memset(c, 0, sizeof(*c));
	if (n_a < 0 || n_b < 0)
		return STATS_ERR_SIZE;
	/* every value, whether it ends up in a pair or not */
	if ((rc = stats_check_values(a, n_a)) != STATS_OK ||
		(rc = stats_check_values(b, n_b)) != STATS_OK)
		return rc;
	if ((rc = stats_pair_runs(a, NULL, NULL, round_a, n_a,
							  b, NULL, NULL, round_b, n_b, &pairs)) != STATS_OK)
		return rc;
	if (paired_min_p(pairs.n) < unit_alpha)
	{
		rc = stats_compare_paired(pairs.a, pairs.b, pairs.n, opt, c);
		/* the figures are the pairs'; the counts say how many runs there were */
		c->n_a = n_a;
		c->n_b = n_b;
	}
	else
		rc = stats_compare(a, n_a, b, n_b, opt, c);
	stats_pairs_free(&pairs);
	return rc;
}

int
stats_compare_rounds(const double *a, const int *round_a, int n_a,
					 const double *b, const int *round_b, int n_b,
					 const StatsOptions *opt, StatsComparison *c)
{
	return compare_rounds(a, round_a, n_a, b, round_b, n_b, opt->alpha, opt, c);
}

int
stats_compare_rounds_at(const double *a, const int *round_a, int n_a,
						const double *b, const int *round_b, int n_b,
						double unit_alpha, const StatsOptions *opt, StatsComparison *c)
{
	if (!(unit_alpha > 0.0 && unit_alpha < 1.0))
	{
		memset(c, 0, sizeof(*c));
		return STATS_ERR_OPTION;
	}
	return compare_rounds(a, round_a, n_a, b, round_b, n_b, unit_alpha, opt, c);
}
