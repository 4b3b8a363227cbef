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

/*
 * ranks[i] = the 1-based rank of x[i], ties sharing their average rank;
 * *tie_cubic = sum(t^3 - t) over groups of t tied values.  When group is
 * not NULL it gets the sizes of the tie groups in increasing order of value
 * (n entries at most) and *n_groups their number.
 */
static int
average_ranks(const double *x, int n, double *ranks, double *tie_cubic,
			  int *group, int *n_groups)
{
	StatsIndexed *items;
	int			i,
				j,
				k,
				groups = 0;

	*tie_cubic = 0.0;
	if (n_groups != NULL)
		*n_groups = 0;
	if (n == 0)
		return STATS_OK;
	items = stats_sorted_indexes(x, NULL, n);
	if (items == NULL)
		return STATS_ERR_NOMEM;
	for (i = 0; i < n; i = j)
	{
		double		t;

		for (j = i + 1; j < n && items[j].value == items[i].value; j++)
			;
		t = j - i;
		for (k = i; k < j; k++)
			ranks[items[k].index] = (i + 1 + j) / 2.0;
		*tie_cubic += t * t * t - t;
		if (group != NULL)
			group[groups] = j - i;
		groups++;
	}
	if (n_groups != NULL)
		*n_groups = groups;
	stats_free(items);
	return STATS_OK;
}

/*
 * From the counts of a doubled statistic (count[s], s = 0 .. max2, out of
 * total): the two-sided p of the observed doubled value stat2, twice the
 * smaller tail P(S <= stat2), P(S >= stat2) (the conditional distributions
 * with ties need not be symmetric), and the smallest p any outcome gives,
 * twice the smaller of the two extreme outcomes' probabilities.
 */
static void
p_from_counts(const double *count, int max2, double total, int stat2,
			  double *p, double *min_p)
{
	double		lower = 0.0,
				upper = 0.0;
	int			lo = 0,
				hi = max2;

	for (int s = 0; s <= max2; s++)
	{
		if (s <= stat2)
			lower += count[s];
		if (s >= stat2)
			upper += count[s];
	}
	*p = fmin(1.0, 2.0 * fmin(lower, upper) / total);
	while (lo < max2 && count[lo] == 0.0)
		lo++;
	while (hi > 0 && count[hi] == 0.0)
		hi--;
	*min_p = fmin(1.0, 2.0 * fmin(count[lo], count[hi]) / total);
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

/*
 * Mann–Whitney with ties, from the exact distribution of U given the tie
 * pattern of the pooled values (stats_u_tied_counts); false in *exact when
 * that is out of range.
 */
static int
mann_whitney_tied(const int *group, int n_groups, int m, int n,
				  StatsRankTest *out, bool *exact)
{
	double	   *count,
				total;
	int			rc;

	count = stats_malloc(sizeof(double) * (2 * (size_t) m * n + 1));
	if (count == NULL)
		return STATS_ERR_NOMEM;
	rc = stats_u_tied_counts(group, n_groups, n, count, &total, exact);
	if (rc == STATS_OK && *exact)
		p_from_counts(count, 2 * m * n, total, (int) lround(2.0 * out->statistic),
					  &out->p_value, &out->min_p);
	stats_free(count);
	return rc;
}

int
stats_mann_whitney(const double *a, int m, const double *b, int n,
				   StatsRankTest *out)
{
	int			total = m + n;
	double	   *pool,
			   *ranks;
	int		   *group;
	double		tie_cubic,
				rank_sum_b = 0.0,
				pairs = (double) m * n,
				var,
				cdf = 0.0;
	int			i,
				n_groups,
				rc;

	if (m < 0 || n < 0)
		return STATS_ERR_SIZE;
	out->statistic = 0.0;
	out->p_value = 1.0;
	out->min_p = 1.0;
	out->exact = true;
	out->n_used = total;
	if (m == 0 || n == 0)
		return STATS_OK;

	pool = stats_malloc(sizeof(double) * total * 2);
	group = stats_malloc(sizeof(int) * total);
	if (pool == NULL || group == NULL)
	{
		stats_free(pool);
		stats_free(group);
		return STATS_ERR_NOMEM;
	}
	ranks = pool + total;
	for (i = 0; i < m; i++)
		pool[i] = a[i];
	for (i = 0; i < n; i++)
		pool[m + i] = b[i];
	rc = average_ranks(pool, total, ranks, &tie_cubic, group, &n_groups);
	for (i = 0; rc == STATS_OK && i < n; i++)
		rank_sum_b += ranks[m + i];
	stats_free(pool);
	out->statistic = rank_sum_b - n * (n + 1.0) / 2.0;
	out->exact = false;
	if (rc == STATS_OK && tie_cubic == 0.0)
	{
		/* no ties: the classical distribution, symmetric about mn/2 */
		rc = stats_u_cdf(m, n, fmin(out->statistic, pairs - out->statistic),
						 &cdf, &out->exact);
		if (out->exact)
		{
			out->p_value = fmin(1.0, 2.0 * cdf);
			out->min_p = fmin(1.0, 2.0 / stats_choose(total, m));
		}
	}
	else if (rc == STATS_OK)
		rc = mann_whitney_tied(group, n_groups, m, n, out, &out->exact);
	stats_free(group);
	if (rc != STATS_OK || out->exact)
		return rc;

	var = pairs / 12.0 * ((total + 1.0) - tie_cubic / ((double) total * (total - 1.0)));
	out->p_value = two_sided_p(false, 0.0, out->statistic, pairs / 2.0, var, 0.5);
	out->min_p = two_sided_p(false, 0.0, pairs, pairs / 2.0, var, 0.5);
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

/*
 * The same rank past the exact range, from the normal approximation with
 * its continuity correction, cdf(u) = Phi((u + 0.5 - mean) / sd), without
 * a table: the largest k with cdf(k-1) <= alpha/2.
 */
static int
normal_rank(double mean, double sd, int total, double alpha, double *confidence)
{
	double		half = alpha / 2.0 * (1.0 + STATS_PROB_EPS);
	double		start = floor(mean - 0.5 + sd * stats_norm_quantile(half)) + 1.0;
	int			k = start < 0.0 ? 0 : start > total ? total : (int) start;

	/* the quantile is off by far less than a step; the cdf settles the edge */
	while (k > 0 && stats_norm_cdf((k - 1 + 0.5 - mean) / sd) > half)
		k--;
	while (k < total && stats_norm_cdf((k + 0.5 - mean) / sd) <= half)
		k++;
	*confidence = 1.0 - 2.0 * stats_norm_cdf(((k > 0 ? k - 1 : 0) + 0.5 - mean) / sd);
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
	if (!stats_u_exact(m, n))
	{
		*exact = false;
		return normal_rank(m * n / 2.0, sqrt((double) m * n * (m + n + 1) / 12.0),
						   m * n, alpha, confidence);
	}
	cdf = stats_malloc(sizeof(double) * ((size_t) m * n + 1));
	if (cdf == NULL)
		return STATS_ERR_NOMEM;
	rc = stats_u_cdf_table(m, n, cdf, exact);
	k = rc == STATS_OK ? hl_rank_from_table(cdf, m * n, alpha, confidence) : rc;
	stats_free(cdf);
	return k;
}

/* Pairwise differences log(b_j) - log(a_i), unsorted; *diffs is malloc'd. */
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
		stats_free(la);
		return rc;
	}
	d = stats_malloc(sizeof(double) * ((size_t) m * n));
	if (d == NULL)
		rc = STATS_ERR_NOMEM;
	for (i = 0; d != NULL && i < m; i++)
	{
		STATS_CHECK_FOR_INTERRUPTS();
		for (j = 0; j < n; j++)
			d[(size_t) i * n + j] = lb[j] - la[i];
	}
	stats_free(la);
	stats_free(lb);
	*diffs = d;
	return rc;
}

/*
 * The estimate (median) and the CI [x(k), x(count+1-k)] of the
 * differences or averages x, by selection rather than sorting; frees x.
 * k < 0 is an error passed on.
 */
static int
shift_from_values(double *x, int count, int k, StatsShift *out)
{
	if (count > 0)
	{
		out->log_estimate = stats_select(x, count, count / 2);
		if (count % 2 == 0)
		{
			/* after the selection the lower half holds the one just below */
			double		below = x[0];

			for (int i = 1; i < count / 2; i++)
				if (x[i] > below)
					below = x[i];
			out->log_estimate = (out->log_estimate + below) / 2.0;
		}
	}
	if (k >= 1)
	{
		out->rank = k;
		out->has_ci = true;
		out->log_ci_low = stats_select(x, count, k - 1);
		out->log_ci_high = stats_select(x, count, count - k);
	}
	stats_free(x);
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
	return shift_from_values(d, pairs, k, out);
}

/*
 * Wilcoxon's signed-rank test.  Zero differences carry no sign and are
 * dropped (Wilcoxon's method), the others ranked by |d| with midranks for
 * ties; p from the exact distribution of W+ given that tie pattern while
 * 2^n_used is exact in a double, otherwise the normal approximation with
 * tie and continuity corrections.
 */
int
stats_signed_rank(const double *d, int n, StatsRankTest *out)
{
	double	   *abs_d,
			   *ranks,
			   *count = NULL;
	int		   *group;
	double		tie_cubic,
				w = 0.0,
				max,
				var,
				total;
	int			i,
				used = 0,
				n_groups,
				rc;

	if (n < 0)
		return STATS_ERR_SIZE;
	out->statistic = 0.0;
	out->p_value = 1.0;
	out->min_p = 1.0;
	out->exact = true;
	out->n_used = 0;
	abs_d = stats_calloc((size_t) n * 2 + 1, sizeof(double));
	group = stats_malloc(sizeof(int) * (n > 0 ? n : 1));
	if (abs_d == NULL || group == NULL)
	{
		stats_free(abs_d);
		stats_free(group);
		return STATS_ERR_NOMEM;
	}
	ranks = abs_d + n;

	for (i = 0; i < n; i++)
		if (d[i] != 0.0)
			abs_d[used++] = fabs(d[i]);
	rc = average_ranks(abs_d, used, ranks, &tie_cubic, group, &n_groups);
	for (i = 0, used = 0; rc == STATS_OK && i < n; i++)
		if (d[i] != 0.0)
		{
			if (d[i] > 0.0)
				w += ranks[used];
			used++;
		}
	stats_free(abs_d);
	out->statistic = w;
	out->n_used = used;
	max = used * (used + 1.0) / 2.0;
	if (rc == STATS_OK && used > 0)
	{
		count = stats_malloc(sizeof(double) * ((size_t) used * (used + 1) + 1));
		if (count == NULL)
			rc = STATS_ERR_NOMEM;
		else
			rc = stats_signed_rank_tied_counts(group, n_groups, count, &total,
											   &out->exact);
		if (rc == STATS_OK && out->exact)
			p_from_counts(count, used * (used + 1), total, (int) lround(2.0 * w),
						  &out->p_value, &out->min_p);
	}
	stats_free(count);
	stats_free(group);
	if (rc != STATS_OK || used == 0 || out->exact)
		return rc;

	var = used * (used + 1.0) * (2.0 * used + 1.0) / 24.0 - tie_cubic / 48.0;
	out->p_value = two_sided_p(false, 0.0, w, max / 2.0, var, 0.5);
	out->min_p = two_sided_p(false, 0.0, max, max / 2.0, var, 0.5);
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
	if (!stats_signed_rank_exact(n))
	{
		*exact = false;
		return normal_rank(walsh / 2.0, sqrt(walsh * (2.0 * n + 1.0) / 12.0),
						   (int) walsh, alpha, confidence);
	}
	cdf = stats_malloc(sizeof(double) * ((size_t) walsh + 1));
	if (cdf == NULL)
		return STATS_ERR_NOMEM;
	rc = stats_signed_rank_cdf_table(n, cdf, exact);
	k = rc == STATS_OK ? hl_rank_from_table(cdf, (int) walsh, alpha, confidence) : rc;
	stats_free(cdf);
	return k;
}

/* Walsh averages (d[i] + d[j]) / 2, i <= j, of d = log(b / a), unsorted. */
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
	w = stats_malloc(sizeof(double) * ((size_t) n * (n + 1) / 2));
	if (w == NULL)
		rc = STATS_ERR_NOMEM;
	for (i = 0; w != NULL && i < n; i++)
	{
		STATS_CHECK_FOR_INTERRUPTS();
		for (j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2.0;
	}
	stats_free(d);
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
	return shift_from_values(w, count, k, out);
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
	{
		STATS_CHECK_FOR_INTERRUPTS();
		for (j = i + 1; j < n; j++)
			s += (x[j] > x[i]) - (x[j] < x[i]);
	}
	out->s = s;
	out->tau = s / (n * (n - 1) / 2.0);

	sorted = stats_malloc(sizeof(double) * n);
	if (sorted == NULL)
		return STATS_ERR_NOMEM;
	for (i = 0; i < n; i++)
		sorted[i] = x[i];
	stats_sort(sorted, n);
	stats_tie_terms(sorted, n, &tie_cubic, &tie_kendall);
	stats_free(sorted);

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
