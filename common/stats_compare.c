/*-------------------------------------------------------------------------
 *
 * stats_compare.c
 *		B against A: the Hodges–Lehmann ratio with its CI, the Mann–Whitney
 *		p-value, the minimum detectable effect, and the verdict with its
 *		reason in words.
 *
 * This is what pgbench_ext.compare() returns in psql and what the client
 * prints in its table, from the same code, so both agree to the last digit.
 *
 * The verdict:
 *	insufficient  a side has no runs, or with m and n runs even the most
 *				  extreme arrangement gives p = 2 / C(m+n, m) >= alpha;
 *	faster/slower p < alpha, and the whole CI of B/A lies beyond the noise
 *				  threshold (above 1 + noise or below 1 - noise);
 *	no change	  otherwise, always with the minimum detectable effect.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdio.h>
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

/* "insufficient" when no arrangement of these runs could reach p < alpha. */
static bool
decide_insufficient(StatsComparison *c, double alpha)
{
	if (c->n_a == 0 || c->n_b == 0)
	{
		snprintf(c->reason, STATS_REASON_LEN, "%s no runs",
				 c->n_a == 0 && c->n_b == 0 ? "A and B have" :
				 c->n_a == 0 ? "A has" : "B has");
		return true;
	}
	if (c->min_p >= alpha)
	{
		snprintf(c->reason, STATS_REASON_LEN,
				 "with %d and %d runs the smallest possible p is %.3g, not below alpha %g: "
				 "make at least %d runs per side",
				 c->n_a, c->n_b, c->min_p, alpha, runs_needed(alpha));
		return true;
	}
	return false;
}

static void
decide(StatsComparison *c, const StatsOptions *opt)
{
	bool		above,
				below;
	double		noise_pct = 100.0 * opt->noise;

	c->verdict = STATS_INSUFFICIENT;
	if (decide_insufficient(c, opt->alpha))
		return;

	c->verdict = STATS_NO_CHANGE;
	if (c->p_value >= opt->alpha)
	{
		snprintf(c->reason, STATS_REASON_LEN,
				 "p = %.3g, not below alpha %g; the smallest change these runs "
				 "would detect is %.2f%%",
				 c->p_value, opt->alpha, c->mde_pct);
		return;
	}
	above = c->has_ci && c->ci_low > 1.0 + opt->noise;
	below = c->has_ci && c->ci_high < 1.0 - opt->noise;
	if (!above && !below)
	{
		snprintf(c->reason, STATS_REASON_LEN,
				 "p = %.3g < %g, but the CI [%+.2f%%, %+.2f%%] reaches into "
				 "the %g%% noise threshold; the smallest change these runs "
				 "would detect is %.2f%%",
				 c->p_value, opt->alpha, 100.0 * (c->ci_low - 1.0),
				 100.0 * (c->ci_high - 1.0), noise_pct, c->mde_pct);
		return;
	}
	c->verdict = (above == opt->higher_is_better) ? STATS_FASTER : STATS_SLOWER;
	snprintf(c->reason, STATS_REASON_LEN,
			 "p = %.3g < %g, and the whole %.1f%% CI [%+.2f%%, %+.2f%%] "
			 "lies %s the noise threshold of %s%g%%",
			 c->p_value, opt->alpha, 100.0 * c->ci_confidence,
			 100.0 * (c->ci_low - 1.0), 100.0 * (c->ci_high - 1.0),
			 above ? "above" : "below", above ? "+" : "-", noise_pct);
}

/* The estimate and its CI, as ratios b/a. */
static int
compare_shift(const double *a, int n_a, const double *b, int n_b,
			  double alpha, StatsComparison *c)
{
	StatsShift	shift;
	int			rc;

	rc = stats_hodges_lehmann(a, n_a, b, n_b, alpha, &shift);
	if (rc != STATS_OK)
		return rc;
	c->has_estimate = true;
	c->estimate = exp(shift.log_estimate);
	c->change_pct = 100.0 * (c->estimate - 1.0);
	c->has_ci = shift.has_ci;
	c->ci_low = shift.has_ci ? exp(shift.log_ci_low) : 0.0;
	c->ci_high = shift.has_ci ? exp(shift.log_ci_high) : 0.0;
	c->ci_confidence = shift.confidence;
	c->ci_rank = shift.rank;
	c->ci_exact = shift.exact;
	return STATS_OK;
}

static int
compare_test(const double *a, int n_a, const double *b, int n_b,
			 StatsComparison *c)
{
	StatsRankTest test;
	int			rc;

	rc = stats_mann_whitney(a, n_a, b, n_b, &test);
	if (rc != STATS_OK)
		return rc;
	c->has_p = true;
	c->u = test.statistic;
	c->p_value = test.p_value;
	c->p_exact = test.exact;
	return STATS_OK;
}

int
stats_compare(const double *a, int n_a, const double *b, int n_b,
			  const StatsOptions *opt, StatsComparison *c)
{
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
	c->min_p = 1.0;
	if (n_a > 0 && n_b > 0)
	{
		c->min_p = fmin(1.0, 2.0 / stats_choose(n_a + n_b, n_a));
		if ((rc = compare_shift(a, n_a, b, n_b, opt->alpha, c)) != STATS_OK ||
			(rc = compare_test(a, n_a, b, n_b, c)) != STATS_OK)
			return rc;
	}
	/* an MDE needs a test that can reject at all */
	if (c->min_p < opt->alpha)
		c->has_mde = stats_mde_pct(sd_log, n_a, n_b, opt->alpha, opt->power,
								   &c->mde_pct);
	decide(c, opt);
	return STATS_OK;
}
