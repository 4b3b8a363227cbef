/*-------------------------------------------------------------------------
 *
 * stats.c
 *		Per-sample summaries, robust spread, outliers and the geometric
 *		mean, the options and error strings, and the helpers the other
 *		statistics files share (stats_int.h).
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 / Phi^-1(3/4): scales a MAD to the sd of a normal distribution */
#define MAD_TO_SD 1.4826
/* Phi^-1(3/4), the constant of the modified z-score */
#define MOD_Z_SCALE 0.6745
/* sqrt(pi/2): scales a mean absolute deviation to a normal sd */
#define MEANAD_TO_SD 1.253314

const char *
stats_strerror(int err)
{
	switch (err)
	{
		case STATS_OK:
			return "no error";
		case STATS_ERR_NOMEM:
			return "out of memory";
		case STATS_ERR_VALUE:
			return "values must be finite and greater than zero";
		case STATS_ERR_OPTION:
			return "alpha and power must be in (0, 1) and noise in [0, 1)";
		case STATS_ERR_SIZE:
			return "negative count, or more than 10000000 pairs of runs (runs of A times runs of B)";
		case STATS_ERR_UNIT:
			return "unit ids must be given for both sides or neither, with a unit above the round";
		case STATS_ERR_PROB:
			return "p-values must lie in [0, 1]";
	}
	return "unknown statistics error";
}

const char *
stats_verdict_name(StatsVerdict v)
{
	switch (v)
	{
		case STATS_INSUFFICIENT:
			return "insufficient";
		case STATS_NO_CHANGE:
			return "no change";
		case STATS_FASTER:
			return "faster";
		case STATS_SLOWER:
			return "slower";
		case STATS_FASTER_WITHIN:
			return "faster, by less than the threshold";
		case STATS_SLOWER_WITHIN:
			return "slower, by less than the threshold";
		case STATS_FASTER_UNSETTLED:
			return "faster; beyond the threshold not settled";
		case STATS_SLOWER_UNSETTLED:
			return "slower; beyond the threshold not settled";
	}
	return "unknown";
}

int
stats_verdict_direction(StatsVerdict v)
{
	if (v == STATS_FASTER || v == STATS_FASTER_WITHIN || v == STATS_FASTER_UNSETTLED)
		return 1;
	if (v == STATS_SLOWER || v == STATS_SLOWER_WITHIN || v == STATS_SLOWER_UNSETTLED)
		return -1;
	return 0;
}

bool
stats_verdict_within_noise(StatsVerdict v)
{
	return v != STATS_INSUFFICIENT && v != STATS_FASTER && v != STATS_SLOWER;
}

static const char *const unit_names[][2] = {
	[STATS_UNIT_RUN] = {"run", "runs"},
	[STATS_UNIT_ROUND] = {"round", "rounds"},
	[STATS_UNIT_INSTANCE_PAIR] = {"instance pair", "instance pairs"},
	[STATS_UNIT_SEED_PAIR] = {"build seed pair", "build seed pairs"},
	[STATS_UNIT_BUILD_PAIR] = {"build pair", "build pairs"},
	[STATS_UNIT_MACHINE_PAIR] = {"machine pair", "machine pairs"},
};

const char *
stats_unit_name(StatsUnit unit, int count)
{
	if ((int) unit < 0 || unit > STATS_UNIT_MACHINE_PAIR)
		return "unknown";
	return unit_names[unit][count != 1];
}

int
stats_unit_from_name(const char *name)
{
	for (int u = STATS_UNIT_INSTANCE_PAIR; u <= STATS_UNIT_MACHINE_PAIR; u++)
		if (strcmp(name, unit_names[u][0]) == 0)
			return u;
	return -1;
}

void
stats_default_options(StatsOptions *opt)
{
	opt->alpha = 0.05;
	opt->noise = 0.01;
	opt->power = 0.8;
	opt->higher_is_better = true;
}

int
stats_check_options(const StatsOptions *opt)
{
	if (!(opt->alpha > 0.0 && opt->alpha < 1.0) ||
		!(opt->power > 0.0 && opt->power < 1.0) ||
		!(opt->noise >= 0.0 && opt->noise < 1.0))
		return STATS_ERR_OPTION;
	return STATS_OK;
}

/* ---- helpers shared with stats_rank.c (stats_int.h) ---- */

static int
cmp_double(const void *pa, const void *pb)
{
	double		a = *(const double *) pa;
	double		b = *(const double *) pb;

	return (a > b) - (a < b);
}

static int
cmp_indexed(const void *pa, const void *pb)
{
	const StatsIndexed *a = pa;
	const StatsIndexed *b = pb;

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->index - b->index;
}

StatsIndexed *
stats_sorted_indexes(const double *x, const int *ids, int n)
{
	StatsIndexed *items = stats_malloc(sizeof(StatsIndexed) * (n > 0 ? n : 1));

	if (items == NULL)
		return NULL;
	for (int i = 0; i < n; i++)
	{
		items[i].value = x != NULL ? x[i] : ids[i];
		items[i].index = i;
	}
	qsort(items, n, sizeof(StatsIndexed), cmp_indexed);
	return items;
}

void
stats_sort(double *x, int n)
{
	if (n > 1)
		qsort(x, n, sizeof(double), cmp_double);
}

/*
 * Quickselect (Hoare's FIND) with a median-of-three pivot: expected O(n),
 * so that estimates needing three order statistics of n^2 pairwise values
 * do not pay for sorting them.
 */
double
stats_select(double *x, int n, int k)
{
	int			lo = 0,
				hi = n - 1;

	while (hi > lo)
	{
		int			mid = lo + (hi - lo) / 2,
					i = lo,
					j = hi;
		double		a = x[lo],
					b = x[mid],
					c = x[hi],
					pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));

		/* each pass is O(hi - lo): up to 10^7 pairwise values */
		STATS_CHECK_FOR_INTERRUPTS();
		while (i <= j)
		{
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j)
			{
				double		t = x[i];

				x[i++] = x[j];
				x[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return x[k];
}

double
stats_median_sorted(const double *x, int n)
{
	if (n <= 0)
		return 0.0;
	if (n % 2 == 1)
		return x[n / 2];
	return (x[n / 2 - 1] + x[n / 2]) / 2.0;
}

int
stats_median_of(const double *x, int n, double *median)
{
	double	   *copy = stats_malloc(sizeof(double) * (n > 0 ? n : 1));
	int			i;

	if (copy == NULL)
		return STATS_ERR_NOMEM;
	for (i = 0; i < n; i++)
		copy[i] = x[i];
	stats_sort(copy, n);
	*median = stats_median_sorted(copy, n);
	stats_free(copy);
	return STATS_OK;
}

/* *out = malloc'd log(b[i] / a[i]); a and b must all be finite and > 0. */
int
stats_log_ratios(const double *a, const double *b, int n, double **out)
{
	double	   *la;
	int			rc;

	*out = NULL;
	if ((rc = stats_log_copy(a, n, &la)) != STATS_OK)
		return rc;
	if ((rc = stats_log_copy(b, n, out)) == STATS_OK)
		for (int i = 0; i < n; i++)
			(*out)[i] -= la[i];
	stats_free(la);
	return rc;
}

int
stats_check_values(const double *x, int n)
{
	if (n < 0)
		return STATS_ERR_SIZE;
	for (int i = 0; i < n; i++)
		if (!(x[i] > 0.0 && isfinite(x[i])))
			return STATS_ERR_VALUE;
	return STATS_OK;
}

void
stats_mean_sd(const double *x, int n, double *mean, double *sd)
{
	double		sum = 0.0,
				ss = 0.0;

	*mean = *sd = 0.0;
	if (n < 1)
		return;
	for (int i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	if (n >= 2)
		*sd = sqrt(ss / (n - 1));
}

/* *out = malloc'd logs of x, which must all be finite and > 0. */
int
stats_log_copy(const double *x, int n, double **out)
{
	double	   *l;
	int			i,
				rc;

	*out = NULL;
	if ((rc = stats_check_values(x, n)) != STATS_OK)
		return rc;
	l = stats_malloc(sizeof(double) * (n > 0 ? n : 1));
	if (l == NULL)
		return STATS_ERR_NOMEM;
	for (i = 0; i < n; i++)
		l[i] = log(x[i]);
	*out = l;
	return STATS_OK;
}

void
stats_tie_terms(const double *sorted, int n, double *cubic, double *kendall)
{
	int			i,
				j;

	*cubic = 0.0;
	*kendall = 0.0;
	for (i = 0; i < n; i = j)
	{
		double		t;

		for (j = i + 1; j < n && sorted[j] == sorted[i]; j++)
			;
		t = j - i;
		*cubic += t * t * t - t;
		*kendall += t * (t - 1.0) * (2.0 * t + 5.0);
	}
}

/* ---- one sample ---- */

/* Median absolute deviation of x around its median m (unscaled). */
static int
mad_around(const double *x, int n, double m, double *mad)
{
	double	   *dev = stats_malloc(sizeof(double) * (n > 0 ? n : 1));
	int			i;

	if (dev == NULL)
		return STATS_ERR_NOMEM;
	for (i = 0; i < n; i++)
		dev[i] = fabs(x[i] - m);
	stats_sort(dev, n);
	*mad = stats_median_sorted(dev, n);
	stats_free(dev);
	return STATS_OK;
}

/*
 * Distribution-free CI of the median: [x(k), x(n+1-k)] covers it with
 * probability 1 - 2 P(Bin(n, 1/2) <= k-1); k is the largest rank keeping
 * that at or above the level.
 */
static void
median_ci(const double *sorted, int n, double level, StatsSummary *out)
{
	double		half = (1.0 - level) / 2.0 * (1.0 + STATS_PROB_EPS),
				below;
	int			k = stats_binom_half_rank(n, half, &below);

	out->median_ci_rank = k;
	out->has_median_ci = k >= 1;
	out->median_ci_confidence = 1.0 - 2.0 * below;
	if (out->median_ci_confidence < 0.0)
		out->median_ci_confidence = 0.0;
	out->median_ci_low = k >= 1 ? sorted[k - 1] : 0.0;
	out->median_ci_high = k >= 1 ? sorted[n - k] : 0.0;
}

int
stats_summarize(const double *x, int n, double level, StatsSummary *out)
{
	double	   *sorted;
	int			i,
				rc;

	if (n < 0)
		return STATS_ERR_SIZE;
	if (!(level > 0.0 && level < 1.0))
		return STATS_ERR_OPTION;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return STATS_ERR_VALUE;
	*out = (StatsSummary) {0};
	out->n = n;
	if (n == 0)
		return STATS_OK;

	sorted = stats_malloc(sizeof(double) * n);
	if (sorted == NULL)
		return STATS_ERR_NOMEM;
	for (i = 0; i < n; i++)
		sorted[i] = x[i];
	stats_sort(sorted, n);
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = stats_median_sorted(sorted, n);
	median_ci(sorted, n, level, out);
	stats_free(sorted);

	stats_mean_sd(x, n, &out->mean, &out->stddev);
	if (n >= 2)
		out->cv = out->mean != 0.0 ? out->stddev / fabs(out->mean) : 0.0;
	rc = mad_around(x, n, out->median, &out->mad);
	return rc;
}

/* ---- outliers, geomean ---- */

int
stats_outliers(const double *x, int n, double *mod_z, bool *is_outlier)
{
	double	   *l;
	double		median,
				mad,
				scale,
				meanad = 0.0;
	int			i,
				rc,
				count = 0;

	if ((rc = stats_log_copy(x, n, &l)) != STATS_OK)
		return rc;
	if ((rc = stats_median_of(l, n, &median)) == STATS_OK)
		rc = mad_around(l, n, median, &mad);
	if (rc != STATS_OK)
	{
		stats_free(l);
		return rc;
	}
	/* MAD is 0 when over half the values are equal: Iglewicz and Hoaglin
	 * then scale by the mean absolute deviation instead */
	for (i = 0; i < n; i++)
		meanad += fabs(l[i] - median) / n;
	scale = mad > 0.0 ? mad / MOD_Z_SCALE : meanad * MEANAD_TO_SD;
	for (i = 0; i < n; i++)
	{
		double		z = scale > 0.0 ? (l[i] - median) / scale : 0.0;
		bool		out = fabs(z) > STATS_OUTLIER_Z;

		if (mod_z)
			mod_z[i] = z;
		if (is_outlier)
			is_outlier[i] = out;
		count += out;
	}
	stats_free(l);
	return count;
}

int
stats_geomean(const double *r, int n, double *out)
{
	double	   *l;
	double		sum = 0.0;
	int			i,
				rc;

	*out = 0.0;
	if ((rc = stats_log_copy(r, n, &l)) != STATS_OK)
		return rc;
	for (i = 0; i < n; i++)
		sum += l[i];
	stats_free(l);
	if (n > 0)
		*out = exp(sum / n);
	return STATS_OK;
}

/* ---- robust spread ---- */

/* Robust sd of y: 1.4826 MAD, or the sample sd when the MAD is 0. */
int
stats_robust_sd(const double *y, int n, double *sd)
{
	double		median = 0.0,
				mad = 0.0,
				mean,
				sample_sd;
	int			rc = STATS_OK;

	*sd = 0.0;
	if (n < 2)
		return STATS_OK;
	if ((rc = stats_median_of(y, n, &median)) == STATS_OK)
		rc = mad_around(y, n, median, &mad);
	if (rc == STATS_OK)
	{
		stats_mean_sd(y, n, &mean, &sample_sd);
		*sd = mad > 0.0 ? MAD_TO_SD * mad : sample_sd;
	}
	return rc;
}

/* The same of log x. */
static int
robust_log_sd(const double *x, int n, double *sd)
{
	double	   *l;
	int			rc;

	*sd = 0.0;
	if ((rc = stats_log_copy(x, n, &l)) != STATS_OK)
		return rc;
	rc = stats_robust_sd(l, n, sd);
	stats_free(l);
	return rc;
}

int
stats_pooled_log_sd(const double *a, int n_a, const double *b, int n_b,
					double *sd)
{
	double		sd_a,
				sd_b;
	int			rc,
				df = (n_a > 1 ? n_a - 1 : 0) + (n_b > 1 ? n_b - 1 : 0);

	*sd = 0.0;
	if ((rc = robust_log_sd(a, n_a, &sd_a)) != STATS_OK ||
		(rc = robust_log_sd(b, n_b, &sd_b)) != STATS_OK)
		return rc;
	if (df > 0)
		*sd = sqrt(((n_a > 1 ? n_a - 1 : 0) * sd_a * sd_a +
					(n_b > 1 ? n_b - 1 : 0) * sd_b * sd_b) / df);
	return STATS_OK;
}
