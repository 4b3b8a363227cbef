/*-------------------------------------------------------------------------
 *
 * stats_rank.c
 *		Rank tests and estimates: Mann–Whitney U, the Hodges–Lehmann ratio
 *		with its distribution-free CI, the same two for paired rounds
 *		(Walsh averages and the Wilcoxon signed-rank test) and the
 *		Mann–Kendall trend test.
 *
 * Rank methods assume nothing about the shape of the noise, which on a
 * shared machine is skewed and heavy-tailed (a run that meets a
 * checkpoint is slow, none is unusually fast).  Exact null distributions
 * (stats_dist.c) are used for the small samples benchmarks make; with
 * ties or large samples, normal approximations with tie and continuity
 * corrections.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct RankItem
{
	double		value;
	int			index;
} RankItem;

static int
cmp_rank_item(const void *pa, const void *pb)
{
	const RankItem *a = pa;
	const RankItem *b = pb;

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->index - b->index;
}

/*
 * ranks[i] = the 1-based rank of x[i], ties sharing their average rank;
 * *tie_cubic = sum(t^3 - t) over groups of t tied values.
 */
static int
average_ranks(const double *x, int n, double *ranks, double *tie_cubic)
{
	RankItem   *items;
	int			i,
				j,
				k;

	*tie_cubic = 0.0;
	if (n == 0)
		return STATS_OK;
	items = malloc(sizeof(RankItem) * n);
	if (items == NULL)
		return STATS_ERR_NOMEM;
	for (i = 0; i < n; i++)
	{
		items[i].value = x[i];
		items[i].index = i;
	}
	qsort(items, n, sizeof(RankItem), cmp_rank_item);
	for (i = 0; i < n; i = j)
	{
		double		t;

		for (j = i + 1; j < n && items[j].value == items[i].value; j++)
			;
		t = j - i;
		for (k = i; k < j; k++)
			ranks[items[k].index] = (i + 1 + j) / 2.0;
		*tie_cubic += t * t * t - t;
	}
	free(items);
	return STATS_OK;
}

/*
 * Two-sided p of a statistic symmetric about "mean": twice the exact lower
 * tail P(stat <= min(x, mirror of x)) when the exact distribution applies,
 * otherwise the normal approximation with variance "var" (tie-corrected
 * by the caller), continuity-corrected by half a step.
 */
static double
two_sided_p(bool exact, double lower_tail, double stat, double mean,
			double var, double half_step)
{
	double		dev = fabs(stat - mean) - half_step;

	if (exact)
		return fmin(1.0, 2.0 * lower_tail);
	if (var <= 0.0)
		return 1.0;
	if (dev < 0.0)
		dev = 0.0;
	return erfc(dev / sqrt(var) / sqrt(2.0));
}

int
stats_mann_whitney(const double *a, int m, const double *b, int n,
				   StatsRankTest *out)
{
	int			total = m + n;
	double	   *pool,
			   *ranks;
	double		tie_cubic,
				rank_sum_b = 0.0,
				pairs = (double) m * n,
				cdf = 0.0;
	int			i,
				rc;

	if (m < 0 || n < 0)
		return STATS_ERR_SIZE;
	out->statistic = 0.0;
	out->p_value = 1.0;
	out->exact = true;
	out->n_used = total;
	if (m == 0 || n == 0)
		return STATS_OK;

	pool = malloc(sizeof(double) * total * 2);
	if (pool == NULL)
		return STATS_ERR_NOMEM;
	ranks = pool + total;
	for (i = 0; i < m; i++)
		pool[i] = a[i];
	for (i = 0; i < n; i++)
		pool[m + i] = b[i];
	rc = average_ranks(pool, total, ranks, &tie_cubic);
	for (i = 0; rc == STATS_OK && i < n; i++)
		rank_sum_b += ranks[m + i];
	free(pool);
	if (rc != STATS_OK)
		return rc;

	out->statistic = rank_sum_b - n * (n + 1.0) / 2.0;
	out->exact = false;
	if (tie_cubic == 0.0 &&
		(rc = stats_u_cdf(m, n, fmin(out->statistic, pairs - out->statistic),
						  &cdf, &out->exact)) != STATS_OK)
		return rc;
	out->p_value = two_sided_p(out->exact, cdf, out->statistic, pairs / 2.0,
							   pairs / 12.0 * ((total + 1.0) - tie_cubic /
											   ((double) total * (total - 1.0))),
							   0.5);
	return STATS_OK;
}

/*
 * k for the CI [D(k), D(mn+1-k)] of the sorted pairwise differences: the
 * largest k with P(U <= k-1) <= alpha/2 under the exact distribution, or
 * its normal approximation past the exact range.  The CI then covers the
 * true shift with probability 1 - 2 P(U <= k-1) >= 1 - alpha.
 */
static int
hl_rank_from_table(const double *cdf, int pairs, double alpha,
				   double *confidence)
{
	int			k = 0;

	while (k < pairs && cdf[k] <= alpha / 2.0 * (1.0 + STATS_PROB_EPS))
		k++;
	/* cdf[k-1] <= alpha/2 < cdf[k]; cdf[0] bounds the best possible */
	*confidence = 1.0 - 2.0 * (k > 0 ? cdf[k - 1] : cdf[0]);
	if (*confidence < 0.0)
		*confidence = 0.0;
	return k;
}

int
stats_hl_rank(int m, int n, double alpha, double *confidence, bool *exact)
{
	double	   *cdf;
	int			rc,
				k;

	*confidence = 0.0;
	*exact = true;
	if (m < 0 || n < 0 || (double) m * n > STATS_MAX_PAIRS)
		return STATS_ERR_SIZE;
	if (m == 0 || n == 0)
		return 0;
	cdf = malloc(sizeof(double) * ((size_t) m * n + 1));
	if (cdf == NULL)
		return STATS_ERR_NOMEM;
	rc = stats_u_cdf_table(m, n, cdf, exact);
	k = rc == STATS_OK ? hl_rank_from_table(cdf, m * n, alpha, confidence) : rc;
	free(cdf);
	return k;
}

/* Sorted pairwise differences log(b_j) - log(a_i); *diffs is malloc'd. */
static int
pairwise_log_diffs(const double *a, int m, const double *b, int n,
				   double **diffs)
{
	double	   *la,
			   *lb,
			   *d;
	int			i,
				j,
				rc;

	*diffs = NULL;
	if ((rc = stats_log_copy(a, m, &la)) != STATS_OK)
		return rc;
	if ((rc = stats_log_copy(b, n, &lb)) != STATS_OK)
	{
		free(la);
		return rc;
	}
	d = malloc(sizeof(double) * ((size_t) m * n));
	if (d == NULL)
		rc = STATS_ERR_NOMEM;
	for (i = 0; d != NULL && i < m; i++)
		for (j = 0; j < n; j++)
			d[(size_t) i * n + j] = lb[j] - la[i];
	free(la);
	free(lb);
	if (d != NULL)
		stats_sort(d, m * n);
	*diffs = d;
	return rc;
}

/*
 * The estimate (median) and the CI [x(k), x(count+1-k)] of the sorted
 * differences or averages x, which this frees; k < 0 is an error passed on.
 */
static int
shift_from_sorted(double *x, int count, int k, StatsShift *out)
{
	out->log_estimate = stats_median_sorted(x, count);
	if (k >= 1)
	{
		out->rank = k;
		out->has_ci = true;
		out->log_ci_low = x[k - 1];
		out->log_ci_high = x[count - k];
	}
	free(x);
	return k < 0 ? k : STATS_OK;
}

int
stats_hodges_lehmann(const double *a, int m, const double *b, int n,
					 double alpha, StatsShift *out)
{
	int			pairs = m * n;
	double	   *d;
	int			k,
				rc;

	out->log_estimate = 0.0;
	out->has_ci = false;
	out->log_ci_low = out->log_ci_high = 0.0;
	out->confidence = 0.0;
	out->rank = 0;
	out->exact = true;
	if (m < 0 || n < 0 || (double) m * n > STATS_MAX_PAIRS)
		return STATS_ERR_SIZE;
	if (m == 0 || n == 0)
		return STATS_OK;

	if ((rc = pairwise_log_diffs(a, m, b, n, &d)) != STATS_OK)
		return rc;
	k = stats_hl_rank(m, n, alpha, &out->confidence, &out->exact);
	return shift_from_sorted(d, pairs, k, out);
}

int
stats_signed_rank(const double *d, int n, StatsRankTest *out)
{
	double	   *abs_d,
			   *ranks;
	double		tie_cubic,
				w = 0.0,
				max,
				cdf = 0.0;
	int			i,
				used = 0,
				rc;

	if (n < 0)
		return STATS_ERR_SIZE;
	out->statistic = 0.0;
	out->p_value = 1.0;
	out->exact = true;
	out->n_used = 0;
	abs_d = calloc((size_t) n * 2 + 1, sizeof(double));
	if (abs_d == NULL)
		return STATS_ERR_NOMEM;
	ranks = abs_d + n;

	/* zero differences carry no sign: drop them (Wilcoxon's method) */
	for (i = 0; i < n; i++)
		if (d[i] != 0.0)
			abs_d[used++] = fabs(d[i]);
	rc = average_ranks(abs_d, used, ranks, &tie_cubic);
	for (i = 0, used = 0; rc == STATS_OK && i < n; i++)
		if (d[i] != 0.0)
		{
			if (d[i] > 0.0)
				w += ranks[used];
			used++;
		}
	free(abs_d);
	if (rc != STATS_OK)
		return rc;

	out->statistic = w;
	out->n_used = used;
	if (used == 0)
		return STATS_OK;
	max = used * (used + 1.0) / 2.0;
	out->exact = false;
	if (tie_cubic == 0.0 && used == n &&
		(rc = stats_signed_rank_cdf(used, fmin(w, max - w), &cdf,
									&out->exact)) != STATS_OK)
		return rc;
	out->p_value = two_sided_p(out->exact, cdf, w, max / 2.0,
							   used * (used + 1.0) * (2.0 * used + 1.0) / 24.0 -
							   tie_cubic / 48.0,
							   0.5);
	return STATS_OK;
}

int
stats_walsh_rank(int n, double alpha, double *confidence, bool *exact)
{
	double	   *cdf;
	double		walsh = n * (n + 1.0) / 2.0;
	int			rc,
				k;

	*confidence = 0.0;
	*exact = true;
	if (n < 0 || walsh > STATS_MAX_PAIRS)
		return STATS_ERR_SIZE;
	if (n == 0)
		return 0;
	cdf = malloc(sizeof(double) * ((size_t) walsh + 1));
	if (cdf == NULL)
		return STATS_ERR_NOMEM;
	rc = stats_signed_rank_cdf_table(n, cdf, exact);
	k = rc == STATS_OK ? hl_rank_from_table(cdf, (int) walsh, alpha, confidence) : rc;
	free(cdf);
	return k;
}

/* Sorted Walsh averages (d[i] + d[j]) / 2, i <= j, of d = log(b / a). */
static int
walsh_averages(const double *a, const double *b, int n, double **walsh)
{
	double	   *d,
			   *w;
	size_t		k = 0;
	int			i,
				j,
				rc;

	*walsh = NULL;
	if ((rc = stats_log_ratios(a, b, n, &d)) != STATS_OK)
		return rc;
	w = malloc(sizeof(double) * ((size_t) n * (n + 1) / 2));
	if (w == NULL)
		rc = STATS_ERR_NOMEM;
	for (i = 0; w != NULL && i < n; i++)
		for (j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2.0;
	free(d);
	if (w != NULL)
		stats_sort(w, (int) k);
	*walsh = w;
	return rc;
}

int
stats_hodges_lehmann_paired(const double *a, const double *b, int n,
							double alpha, StatsShift *out)
{
	double	   *w;
	int			count,
				k,
				rc;

	memset(out, 0, sizeof(*out));
	out->exact = true;
	if (n < 0 || n * (n + 1.0) / 2.0 > STATS_MAX_PAIRS)
		return STATS_ERR_SIZE;
	if (n == 0)
		return STATS_OK;
	count = n * (n + 1) / 2;

	if ((rc = walsh_averages(a, b, n, &w)) != STATS_OK)
		return rc;
	k = stats_walsh_rank(n, alpha, &out->confidence, &out->exact);
	return shift_from_sorted(w, count, k, out);
}

int
stats_mann_kendall(const double *x, int n, StatsTrend *out)
{
	double	   *sorted;
	double		tie_cubic,
				tie_kendall,
				s = 0.0,
				cdf = 0.0;
	int			i,
				j,
				rc;

	if (n < 0)
		return STATS_ERR_SIZE;
	out->n = n;
	out->s = 0.0;
	out->tau = 0.0;
	out->p_value = 1.0;
	out->exact = true;
	if (n < 2)
		return STATS_OK;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			s += (x[j] > x[i]) - (x[j] < x[i]);
	out->s = s;
	out->tau = s / (n * (n - 1) / 2.0);

	sorted = malloc(sizeof(double) * n);
	if (sorted == NULL)
		return STATS_ERR_NOMEM;
	for (i = 0; i < n; i++)
		sorted[i] = x[i];
	stats_sort(sorted, n);
	stats_tie_terms(sorted, n, &tie_cubic, &tie_kendall);
	free(sorted);

	out->exact = false;
	if (tie_kendall == 0.0 &&
		(rc = stats_kendall_cdf(n, -fabs(s), &cdf, &out->exact)) != STATS_OK)
		return rc;
	/* S moves in steps of 2: the continuity correction is 1 */
	out->p_value = two_sided_p(out->exact, cdf, s, 0.0,
							   (n * (n - 1.0) * (2.0 * n + 5.0) - tie_kendall) / 18.0,
							   1.0);
	return STATS_OK;
}
