/*-------------------------------------------------------------------------
 *
 * stats_dist.c
 *		Null distributions for pgbench_ext's rank tests: the normal
 *		distribution, and the exact distributions of the Mann–Whitney U,
 *		Wilcoxon signed-rank W+ and Mann–Kendall S statistics, without ties
 *		and conditional on a tie pattern.
 *
 * Benchmarks make few runs (3 to 20 per side), where normal approximations
 * of rank statistics are poor and the published tables are exact; so the
 * exact distributions are computed whenever they fit, by counting
 * arrangements in doubles while the counts stay exact integers (below
 * 2^53), and the normal approximation is used only past that.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdlib.h>

#define SQRT_2PI 2.50662827463100050242
#define LN_2 0.69314718055994530942

/* Past this many pairs, U's distribution array would be too large. */
#define U_EXACT_MAX_PAIRS 1000000
/* Kendall's S is computed as probabilities; its cost is n^3. */
#define KENDALL_EXACT_MAX_N 60
/* Additions the tied distributions may cost (about 0.1 s) before the normal */
#define TIED_EXACT_MAX_WORK 5.0e7

double
stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/*
 * Inverse of the standard normal CDF: Acklam's rational approximation
 * (relative error 1.2e-9), refined by one Halley step on erfc to full
 * double precision.
 */
double
stats_norm_quantile(double p)
{
	static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02,
	-3.066479806614716e+01, 2.506628277459239e+00};
	static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01,
	-1.328068155288572e+01};
	static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549671500174428e+00,
	4.374664141464968e+00, 2.938163982698783e+00};
	static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
	2.445134137142996e+00, 3.754408661907416e+00};
	const double p_low = 0.02425;
	double		q,
				r,
				x,
				e,
				u;

	if (p <= 0.0)
		return -HUGE_VAL;
	if (p >= 1.0)
		return HUGE_VAL;

	if (p < p_low || p > 1.0 - p_low)
	{
		q = sqrt(-2.0 * log(p < p_low ? p : 1.0 - p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
			((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
		if (p > 1.0 - p_low)
			x = -x;
	}
	else
	{
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
			(((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
	}

	e = stats_norm_cdf(x) - p;
	u = e * SQRT_2PI * exp(x * x / 2.0);
	return x - u / (1.0 + x * u / 2.0);
}

/*
 * C(n, k) as a double; exact while it is below 2^53, +inf past DBL_MAX.
 * Each partial product C(n-k+i, i) is itself an integer.
 */
double
stats_choose(int n, int k)
{
	double		c = 1.0;
	int			i;

	if (k < 0 || k > n)
		return 0.0;
	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++)
		c = c * (double) (n - k + i) / (double) i;
	return c;
}

bool
stats_u_exact(int m, int n)
{
	return (double) m * n <= U_EXACT_MAX_PAIRS &&
		stats_choose(m + n, m) <= STATS_EXACT_MAX_COUNT;
}

bool
stats_signed_rank_exact(int n)
{
	return ldexp(1.0, n) <= STATS_EXACT_MAX_COUNT;
}

/*
 * counts[u] = number of arrangements of m + n untied values giving U = u,
 * u = 0 .. mn: the coefficients of the Gaussian binomial [m+n choose m](q)
 * = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).  Each partial product is
 * itself a Gaussian binomial, so the counts stay integers no larger than
 * C(m+n, m) (twice that in magnitude between the two halves of a step),
 * exact in a double.  counts must hold mn + m + 1 entries.
 */
static void
u_counts(int m, int n, double *counts)
{
	int			i,
				u,
				deg = 0;

	counts[0] = 1.0;
	for (u = 1; u <= m * n + m; u++)
		counts[u] = 0.0;

	for (i = 1; i <= m; i++)
	{
		int			step = n + i;

		STATS_CHECK_FOR_INTERRUPTS();

		/* multiply by (1 - q^(n+i)) */
		for (u = deg + step; u >= step; u--)
			counts[u] -= counts[u - step];
		deg += step;
		/* divide by (1 - q^i): a running sum with stride i */
		for (u = i; u <= deg; u++)
			counts[u] += counts[u - i];
		deg = i * n;
	}
}

/*
 * cdf[u] = P(U <= u), u = 0 .. mn, under the null hypothesis for samples
 * of m and n untied values; cdf must hold mn + 1 entries.
 */
int
stats_u_cdf_table(int m, int n, double *cdf, bool *exact)
{
	double	   *counts;
	double		total,
				below = 0.0;
	int			u,
				pairs = m * n;

	if (m < 0 || n < 0)
		return STATS_ERR_SIZE;
	if (m > n)
	{
		int			t = m;

		m = n;
		n = t;
	}
	*exact = stats_u_exact(m, n);
	if (!*exact)
	{
		double		mean = pairs / 2.0;
		double		sd = sqrt((double) pairs * (m + n + 1) / 12.0);

		for (u = 0; u <= pairs; u++)
		{
			STATS_CHECK_FOR_INTERRUPTS();
			cdf[u] = stats_norm_cdf((u + 0.5 - mean) / sd);
		}
		return STATS_OK;
	}

	counts = stats_malloc(sizeof(double) * ((size_t) pairs + m + 1));
	if (counts == NULL)
		return STATS_ERR_NOMEM;
	u_counts(m, n, counts);
	total = stats_choose(m + n, m);
	for (u = 0; u <= pairs; u++)
	{
		below += counts[u];
		cdf[u] = below / total;
	}
	stats_free(counts);
	return STATS_OK;
}

/* P(U <= u) for one u. */
int
stats_u_cdf(int m, int n, double u, double *p, bool *exact)
{
	double	   *cdf;
	double		pairs = (double) m * n;
	int			rc;

	if (m < 0 || n < 0)
		return STATS_ERR_SIZE;
	*exact = stats_u_exact(m, n);
	if (!*exact)
	{
		*p = stats_norm_cdf((floor(u) + 0.5 - pairs / 2.0) /
							sqrt(pairs * (m + n + 1) / 12.0));
		return STATS_OK;
	}
	if (u < 0)
	{
		*p = 0.0;
		return STATS_OK;
	}
	cdf = stats_malloc(sizeof(double) * ((size_t) m * n + 1));
	if (cdf == NULL)
		return STATS_ERR_NOMEM;
	rc = stats_u_cdf_table(m, n, cdf, exact);
	if (rc == STATS_OK)
		*p = cdf[u >= pairs ? m * n : (int) floor(u)];
	stats_free(cdf);
	return rc;
}

/* P(W+ <= w) by the normal approximation with a continuity correction */
static double
signed_rank_normal_cdf(int n, double w)
{
	return stats_norm_cdf((w + 0.5 - n * (n + 1.0) / 4.0) /
						  sqrt(n * (n + 1.0) * (2 * n + 1) / 24.0));
}

/*
 * cdf[w] = P(W+ <= w), w = 0 .. n(n+1)/2, for n non-zero, untied
 * differences: counts of subsets of the ranks 1..n by their sum, 2^n in
 * all; past the exact range, the normal approximation with a continuity
 * correction.
 */
int
stats_signed_rank_cdf_table(int n, double *cdf, bool *exact)
{
	double		below = 0.0;
	int			max = n * (n + 1) / 2,
				k,
				s;

	if (n < 0)
		return STATS_ERR_SIZE;
	*exact = stats_signed_rank_exact(n);
	if (!*exact)
	{
		for (s = 0; s <= max; s++)
		{
			STATS_CHECK_FOR_INTERRUPTS();
			cdf[s] = signed_rank_normal_cdf(n, s);
		}
		return STATS_OK;
	}
	/* counts first, in cdf itself, then summed in place */
	for (s = 0; s <= max; s++)
		cdf[s] = 0.0;
	cdf[0] = 1.0;
	for (k = 1; k <= n; k++)
		for (s = k * (k + 1) / 2; s >= k; s--)
			cdf[s] += cdf[s - k];
	for (s = 0; s <= max; s++)
	{
		below += cdf[s];
		cdf[s] = below / ldexp(1.0, n);
	}
	return STATS_OK;
}

int
stats_signed_rank_cdf(int n, double w, double *p, bool *exact)
{
	double	   *cdf;
	int			max = n * (n + 1) / 2,
				rc;

	if (n < 0)
		return STATS_ERR_SIZE;
	/* past the exact range, no table: one normal probability */
	if (!stats_signed_rank_exact(n))
	{
		*exact = false;
		*p = signed_rank_normal_cdf(n, floor(w));
		return STATS_OK;
	}
	cdf = stats_malloc(sizeof(double) * ((size_t) max + 1));
	if (cdf == NULL)
		return STATS_ERR_NOMEM;
	rc = stats_signed_rank_cdf_table(n, cdf, exact);
	if (rc == STATS_OK)
		*p = w < 0 ? 0.0 : cdf[w >= max ? max : (int) floor(w)];
	stats_free(cdf);
	return rc;
}

/*
 * P(S <= s) for Kendall's S = concordant - discordant pairs of n untied
 * values in random order.  S = n(n-1)/2 - 2 I where I counts inversions of
 * a random permutation; I is built one element at a time, the i-th
 * adding 0 .. i-1 inversions with equal chance.
 */
int
stats_kendall_cdf(int n, double s, double *p, bool *exact)
{
	double	   *prob,
			   *next;
	double		below = 0.0;
	int			pairs,
				i,
				k;

	if (n < 0)
		return STATS_ERR_SIZE;
	if (n > KENDALL_EXACT_MAX_N)
	{
		double		sd = sqrt(n * (n - 1.0) * (2 * n + 5) / 18.0);

		*exact = false;
		/* S moves in steps of 2, so the continuity correction is 1 */
		*p = stats_norm_cdf((s + 1.0) / sd);
		return STATS_OK;
	}

	pairs = n * (n - 1) / 2;
	prob = stats_calloc((size_t) pairs + 1, sizeof(double));
	next = stats_calloc((size_t) pairs + 1, sizeof(double));
	if (prob == NULL || next == NULL)
	{
		stats_free(prob);
		stats_free(next);
		return STATS_ERR_NOMEM;
	}
	prob[0] = 1.0;
	for (i = 2; i <= n; i++)
	{
		double		window = 0.0;
		int			max_i = i * (i - 1) / 2;

		STATS_CHECK_FOR_INTERRUPTS();
		/* next[k] = (prob[k] + ... + prob[k-i+1]) / i, a sliding sum */
		for (k = 0; k <= max_i; k++)
		{
			window += prob[k];
			if (k - i >= 0)
				window -= prob[k - i];
			next[k] = window / i;
		}
		for (k = 0; k <= max_i; k++)
			prob[k] = next[k];
	}
	/* S <= s  <=>  I >= (pairs - s) / 2 */
	for (k = 0; k <= pairs; k++)
		if (pairs - 2 * k <= s + 1e-9)
			below += prob[k];
	stats_free(prob);
	stats_free(next);
	*exact = true;
	*p = below > 1.0 ? 1.0 : below;
	return STATS_OK;
}

/* P(Binomial(n, 1/2) = i), lfact_n = lgamma(n + 1), in log space so that any n works */
static double
binom_half_term(int n, double lfact_n, int i)
{
	return exp(lfact_n - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * LN_2);
}

/* P(Binomial(n, 1/2) <= k), summed in log space so that any n works. */
double
stats_binom_half_cdf(int n, int k)
{
	double		sum = 0.0;
	double		lfact_n = lgamma(n + 1.0);
	int			i;

	if (k < 0)
		return 0.0;
	if (k >= n)
		return 1.0;
	for (i = 0; i <= k; i++)
		sum += binom_half_term(n, lfact_n, i);
	return sum > 1.0 ? 1.0 : sum;
}

/*
 * The first k in 0 .. n/2 - 1 with P(Bin(n, 1/2) <= k) > half, or n/2 if
 * none, and P(Bin(n, 1/2) <= max(k - 1, 0)) in *cdf_below: the rank of the
 * median's distribution-free CI (stats.c).  One pass over the terms, O(n):
 * asking stats_binom_half_cdf() for each k in turn cost O(n^2), minutes
 * for a million values.  Each partial sum is the one stats_binom_half_cdf()
 * returns for that k, to the bit (the same terms added in the same order),
 * so the ranks are the same as before.
 */
int
stats_binom_half_rank(int n, double half, double *cdf_below)
{
	double		sum = 0.0;
	double		lfact_n = lgamma(n + 1.0);
	int			k;

	*cdf_below = stats_binom_half_cdf(n, 0);
	for (k = 0; k < n / 2; k++)
	{
		double		cdf;

		STATS_CHECK_FOR_INTERRUPTS();
		sum += binom_half_term(n, lfact_n, k);
		cdf = sum > 1.0 ? 1.0 : sum;
		if (!(cdf <= half))
			break;
		*cdf_below = cdf;
	}
	return k;
}

/*
 * Doubled midranks of tie groups: a group of t values after "start" others
 * holds ranks start+1 .. start+t, midrank start + (t+1)/2; doubled, an
 * integer.  r2 gets one entry a group; returns the number of values, or -1
 * if a group size is not positive.
 */
static int
doubled_midranks(const int *group, int n_groups, int *r2)
{
	int			start = 0;

	for (int g = 0; g < n_groups; g++)
	{
		if (group[g] < 1)
			return -1;
		r2[g] = 2 * start + group[g] + 1;
		start += group[g];
	}
	return start;
}

/*
 * Mann–Whitney U given ties: the values fall into n_groups tie groups of
 * group[g] values each, in increasing order, and n_b of them are B's.
 * Under the null hypothesis every choice of which n_b values are B's is
 * equally likely (C(N, n_b) of them), and each choice gives B a sum of
 * midranks; count[s] = how many give 2U = s (U of B with ties counted as
 * halves, s = 0 .. 2 m n), *total = C(N, n_b).
 *
 * Counted on the smaller side (k values), by tie group: choosing c of a
 * group's t values adds c times its midrank, in C(t, c) ways.  Every count
 * is at most C(N, k), so exact in a double within STATS_EXACT_MAX_COUNT;
 * past that, or past TIED_EXACT_MAX_WORK additions, *exact is false and
 * count is left untouched.
 */
int
stats_u_tied_counts(const int *group, int n_groups, int n_b, double *count,
					double *total, bool *exact)
{
	int		   *r2;
	double	   *ways;
	int			N,
				m,
				k,
				max_s;
	bool		count_b;

	*exact = false;
	*total = 0.0;
	if (n_groups < 0 || n_b < 0)
		return STATS_ERR_SIZE;
	r2 = stats_malloc(sizeof(int) * (n_groups > 0 ? n_groups : 1));
	if (r2 == NULL)
		return STATS_ERR_NOMEM;
	N = doubled_midranks(group, n_groups, r2);
	m = N - n_b;
	if (N < 0 || m < 0)
	{
		stats_free(r2);
		return STATS_ERR_SIZE;
	}
	count_b = n_b <= m;
	k = count_b ? n_b : m;
	max_s = 2 * k * N;
	*total = stats_choose(N, k);
	if (*total > STATS_EXACT_MAX_COUNT ||
		(double) N * (k + 1) * (max_s + 1) > TIED_EXACT_MAX_WORK)
	{
		stats_free(r2);
		return STATS_OK;
	}
	ways = stats_calloc((size_t) (k + 1) * (max_s + 1), sizeof(double));
	if (ways == NULL)
	{
		stats_free(r2);
		return STATS_ERR_NOMEM;
	}
	ways[0] = 1.0;
	for (int g = 0; g < n_groups; g++)
	{
		/* rows j < current are still the previous groups': go downwards */
		for (int j = k; j >= 1; j--)
		{
			STATS_CHECK_FOR_INTERRUPTS();
			for (int s = max_s; s >= 0; s--)
			{
				double		add = 0.0,
							choose = 1.0;

				for (int c = 1; c <= group[g] && c <= j && c * r2[g] <= s; c++)
				{
					choose = choose * (group[g] - c + 1) / c;
					add += ways[(size_t) (j - c) * (max_s + 1) + s - c * r2[g]] * choose;
				}
				ways[(size_t) j * (max_s + 1) + s] += add;
			}
		}
	}
	for (int u2 = 0; u2 <= 2 * m * n_b; u2++)
		count[u2] = 0.0;
	for (int s = k * (k + 1); s <= max_s; s++)
	{
		double		w = ways[(size_t) k * (max_s + 1) + s];
		/* 2U of the counted side is s - k(k+1); B's is 2mn minus A's */
		int			u2 = s - k * (k + 1);

		if (w == 0.0)
			continue;
		count[count_b ? u2 : 2 * m * n_b - u2] += w;
	}
	stats_free(ways);
	stats_free(r2);
	*exact = true;
	return STATS_OK;
}

/*
 * Wilcoxon W+ given ties: n_groups tie groups of |d| (zeros already
 * dropped), group[g] values each, in increasing order; under the null
 * hypothesis each sign is + or - with equal chance, independently.
 * count[s] = how many of the 2^n sign patterns give 2 W+ = s (s = 0 ..
 * n(n+1)), *total = 2^n; exact while 2^n is within STATS_EXACT_MAX_COUNT
 * (n <= 52), otherwise *exact is false and count is left untouched.
 */
int
stats_signed_rank_tied_counts(const int *group, int n_groups, double *count,
							  double *total, bool *exact)
{
	int		   *r2;
	int			n,
				max_s;

	*exact = false;
	*total = 0.0;
	if (n_groups < 0)
		return STATS_ERR_SIZE;
	r2 = stats_malloc(sizeof(int) * (n_groups > 0 ? n_groups : 1));
	if (r2 == NULL)
		return STATS_ERR_NOMEM;
	n = doubled_midranks(group, n_groups, r2);
	if (n < 0)
	{
		stats_free(r2);
		return STATS_ERR_SIZE;
	}
	*total = ldexp(1.0, n);
	if (*total > STATS_EXACT_MAX_COUNT)
	{
		stats_free(r2);
		return STATS_OK;
	}
	max_s = n * (n + 1);
	for (int s = 0; s <= max_s; s++)
		count[s] = 0.0;
	count[0] = 1.0;
	/* in place, sums downwards so that each group is added once */
	for (int g = 0, reach = 0; g < n_groups; g++)
	{
		STATS_CHECK_FOR_INTERRUPTS();
		/* the largest sum the groups so far can make */
		reach += group[g] * r2[g];
		for (int s = reach; s >= r2[g]; s--)
		{
			double		choose = 1.0;

			for (int c = 1; c <= group[g] && c * r2[g] <= s; c++)
			{
				choose = choose * (group[g] - c + 1) / c;
				count[s] += count[s - c * r2[g]] * choose;
			}
		}
	}
	stats_free(r2);
	*exact = true;
	return STATS_OK;
}
