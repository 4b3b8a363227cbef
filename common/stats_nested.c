/*-------------------------------------------------------------------------
 *
 * stats_nested.c
 *		B against A when the sides run on different servers or builds: the
 *		test and the CI across units (instance pairs, build seed pairs),
 *		one summary per unit, never across the rounds inside them.
 *
 * Why: two servers of one binary differ by an offset that lasts as long as
 * they run (address-space layout, shared-memory placement, page colouring
 * drawn at each start), and one build's code layout is drawn once for all
 * its servers.  Rounds on one pair of servers cancel the machine's drift
 * but not that offset, so a test across rounds grows ever more certain of
 * a difference that is an accident of one start.  One start is one
 * sample: the unit of the test is the highest level that varies between
 * the sides (Kalibera and Jones, "Rigorous benchmarking in reasonable
 * time", ISMM 2013).
 *
 * The method:
 *	summary	 of each unit: the mean of its paired rounds' log ratios
 *			 (stats_pairs.c: a round with one run of each side), or without
 *			 rounds the difference of its two sides' mean log values;
 *	test	 Student's t test of the k summaries against 0, two-sided, on
 *			 k - 1 degrees of freedom;
 *	estimate exp(mean of the summaries), with the t interval
 *			 mean +- t(1 - alpha/2, k - 1) sd / sqrt(k).
 *
 * Why t and not ranks: a summary is an average of rounds and of the
 * unit's offset, near-normal even when single rounds are skewed, and
 * Kalibera and Jones use exactly this at the top level.  Ranks cannot
 * work with the few units an experiment affords: the signed-rank test on
 * 3 to 5 units can never reach p < 0.05 (its smallest p is 2 / 2^k = 0.25
 * for 3), so no 95% CI would exist at all.  The mean of the summaries is
 * unweighted: each unit is one draw of the offsets, however many rounds it
 * holds, and the unit-to-unit spread is what the t interval measures.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Mean log x of the runs of unit u[*i], moving *i past them. */
static double
unit_mean(const StatsIndexed *u, int n, const double *x, int *i)
{
	int			start = *i;
	double		sum = 0.0;

	while (*i < n && u[*i].value == u[start].value)
		sum += log(x[u[(*i)++].index]);
	return sum / (*i - start);
}

/*
 * Without rounds: per unit holding runs of both sides, mean log b minus
 * mean log a, into summary (at most min(n_a, n_b) of them).
 */
static int
summaries_of_means(const double *a, const int *unit_a, int n_a,
				   const double *b, const int *unit_b, int n_b,
				   double *summary, int *k)
{
	/* each side's runs by unit: values the unit ids (exact in a double) */
	StatsIndexed *ua = stats_sorted_indexes(NULL, unit_a, n_a),
			   *ub = stats_sorted_indexes(NULL, unit_b, n_b);
	int			i = 0,
				j = 0;

	*k = 0;
	if (ua == NULL || ub == NULL)
	{
		stats_free(ua);
		stats_free(ub);
		return STATS_ERR_NOMEM;
	}
	while (i < n_a && j < n_b)
	{
		double		mean_a;

		/* skip the smaller unit: it has runs of one side only */
		if (ua[i].value < ub[j].value)
		{
			unit_mean(ua, n_a, a, &i);
			continue;
		}
		if (ua[i].value > ub[j].value)
		{
			unit_mean(ub, n_b, b, &j);
			continue;
		}
		mean_a = unit_mean(ua, n_a, a, &i);
		summary[(*k)++] = unit_mean(ub, n_b, b, &j) - mean_a;
	}
	stats_free(ua);
	stats_free(ub);
	return STATS_OK;
}

/* With rounds: per unit, the mean log ratio of its paired rounds. */
static void
summaries_of_pairs(const StatsPairs *pairs, double *summary, int *k)
{
	int			i = 0;

	*k = 0;
	while (i < pairs->n)
	{
		int			start = i;
		double		sum = 0.0;

		for (; i < pairs->n && pairs->outer[i] == pairs->outer[start]; i++)
			sum += log(pairs->b[i] / pairs->a[i]);
		summary[(*k)++] = sum / (i - start);
	}
}

/* The t test and interval of k unit summaries, into c. */
static void
t_across_units(const double *summary, int k, const StatsOptions *opt,
			   StatsComparison *c)
{
	double		mean,
				sd,
				se,
				half;

	stats_mean_sd(summary, k, &mean, &sd);
	c->n_units = k;
	c->min_p = 1.0;
	if (k == 0)
		return;
	c->has_estimate = true;
	c->estimate = exp(mean);
	c->change_pct = 100.0 * (c->estimate - 1.0);
	if (k < 2 || !(sd >= 0.0))
		return;
	if (sd == 0.0)
	{
		/*
		 * Every unit gave the same figure (counted instructions of one
		 * binary can): the mean is known exactly, its interval is the point
		 * itself, and it differs from no change exactly when it is not 0.
		 */
		c->df = k - 1;
		c->has_p = true;
		c->p_value = mean == 0.0 ? 1.0 : 0.0;
		c->u = mean == 0.0 ? 0.0 : copysign(INFINITY, mean);
		c->min_p = 0.0;
		c->has_ci = true;
		c->ci_low = c->ci_high = c->estimate;
		c->ci_confidence = 1.0 - opt->alpha;
		c->has_mde = true;
		c->mde_pct = 0.0;
		return;
	}

	se = sd / sqrt((double) k);
	c->df = k - 1;
	c->has_p = true;
	c->u = mean / se;
	c->p_value = 2.0 * stats_t_cdf(-fabs(c->u), c->df);
	c->min_p = 0.0;
	half = stats_t_quantile(1.0 - opt->alpha / 2.0, c->df) * se;
	c->has_ci = true;
	c->ci_low = exp(mean - half);
	c->ci_high = exp(mean + half);
	c->ci_confidence = 1.0 - opt->alpha;
	c->has_mde = stats_verdict_mde_units_pct(sd, k, opt, &c->mde_pct);
}

/*
 * The unit summaries of the runs (validated first), into a malloc'd
 * *summary (NULL on error) and *k, and the paired rounds into *n_pairs.
 */
static int
unit_summaries(const double *a, const int *round_a, const int *unit_a, int n_a,
			   const double *b, const int *round_b, const int *unit_b, int n_b,
			   double **summary, int *k, int *n_pairs)
{
	int			rc;

	*summary = NULL;
	*k = *n_pairs = 0;
	if ((rc = stats_check_values(a, n_a)) != STATS_OK ||
		(rc = stats_check_values(b, n_b)) != STATS_OK)
		return rc;
	*summary = stats_malloc(sizeof(double) * (n_a < n_b ? n_a + 1 : n_b + 1));
	if (*summary == NULL)
		return STATS_ERR_NOMEM;
	if (round_a != NULL && round_b != NULL)
	{
		StatsPairs	pairs;

		rc = stats_pair_runs(a, unit_a, NULL, round_a, n_a,
							 b, unit_b, NULL, round_b, n_b, &pairs);
		if (rc == STATS_OK)
		{
			summaries_of_pairs(&pairs, *summary, k);
			*n_pairs = pairs.n;
			stats_pairs_free(&pairs);
		}
	}
	else
		rc = summaries_of_means(a, unit_a, n_a, b, unit_b, n_b, *summary, k);
	if (rc != STATS_OK)
	{
		stats_free(*summary);
		*summary = NULL;
	}
	return rc;
}

int
stats_count_units(const double *a, const int *round_a, const int *unit_a, int n_a,
				  const double *b, const int *round_b, const int *unit_b, int n_b,
				  int *k)
{
	double	   *summary;
	int			n_pairs,
				rc;

	*k = 0;
	if (n_a < 0 || n_b < 0)
		return STATS_ERR_SIZE;
	if (unit_a == NULL || unit_b == NULL)
		return STATS_ERR_UNIT;
	rc = unit_summaries(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b,
						&summary, k, &n_pairs);
	stats_free(summary);
	return rc;
}

int
stats_compare_units(const double *a, const int *round_a, const int *unit_a, int n_a,
					const double *b, const int *round_b, const int *unit_b, int n_b,
					StatsUnit unit, const StatsOptions *opt, StatsComparison *c)
{
	double	   *summary;
	int			k = 0,
				rc;

	memset(c, 0, sizeof(*c));
	if (unit_a == NULL && unit_b == NULL)
		return stats_compare_rounds(a, round_a, n_a, b, round_b, n_b, opt, c);
	if (n_a < 0 || n_b < 0)
		return STATS_ERR_SIZE;
	if (unit_a == NULL || unit_b == NULL ||
		!(unit == STATS_UNIT_INSTANCE_PAIR || unit == STATS_UNIT_SEED_PAIR ||
		  unit == STATS_UNIT_BUILD_PAIR || unit == STATS_UNIT_MACHINE_PAIR))
		return STATS_ERR_UNIT;
	if ((rc = stats_check_options(opt)) != STATS_OK ||
		(rc = unit_summaries(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b,
							 &summary, &k, &c->n_pairs)) != STATS_OK)
		return rc;
	c->n_a = n_a;
	c->n_b = n_b;
	c->unit = unit;
	t_across_units(summary, k, opt, c);
	c->n_used = c->n_units;
	stats_decide(c, opt);
	stats_free(summary);
	return STATS_OK;
}
