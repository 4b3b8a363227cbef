/*-------------------------------------------------------------------------
 *
 * stats_changepoint.c
 *		Change points in a history: where a series of results of one
 *		experiment signature (over builds or dates) shifted, by how much,
 *		and with what confidence.
 *
 * The method is circular binary segmentation (Olshen, Venkatraman, Lucito
 * and Wigler 2004) with a permutation test, the scheme MongoDB's
 * performance CI and Apache Otava use with E-Divisive means (Matteson and
 * James 2014), here with the two-sample statistic of a shift in the mean of
 * log values:
 *
 *	statistic  for an arc [i, j) of a segment of m points (k = j - i of
 *			   them) against the rest, D = k (m - k) / m (mean_arc -
 *			   mean_rest)^2 on log values; the arc is where D is largest
 *			   (the arc and each part left on either side at least
 *			   min_segment points).  An arc that touches an end of the
 *			   segment is one shift; one inside it is a shift and its return
 *			   (a regression, then its fix), which a single split finds
 *			   poorly: 10 points up by 20% in the middle of 30 give a single
 *			   split p = 0.06.  For a fixed arc length D's argmax is that of
 *			   the two-sample t statistic, since t^2 = D / ((SS - D) / (m -
 *			   2)) rises with D for the segment's fixed sum of squares SS.
 *	test	   the largest D against its permutation distribution: the
 *			   segment's points shuffled B times, p = (1 + #{D* >= D}) / (1 +
 *			   B).  Under no change the points are exchangeable, so P(p <=
 *			   alpha) <= alpha whatever their distribution (Phipson and Smyth
 *			   2010): the false-alarm rate on a flat history is at most alpha,
 *			   exactly, not by an approximation.
 *	recursion  a significant arc's ends inside the segment are change
 *			   points, and each part is searched again the same way; a flat
 *			   series stops at the first test, so its false-alarm rate is that
 *			   one test's.
 *	shift	   per change point, between the segments it separates (up to the
 *			   neighbouring change points): exp(mean log after - mean log
 *			   before), with Welch's t interval at 1 - alpha.
 *
 * Why points and not runs: a point is one experiment on one day, and
 * points differ by more than their runs do (the machine, the server's
 * start); shuffling whole points keeps that level intact, so the test is
 * exact however the runs inside a point vary.  The caller summarizes each
 * point (e.g. the geometric mean of its runs' tps).
 *
 * The shuffles come from a generator seeded by the caller: the same series
 * and seed give the same change points, in the client and in SQL.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64 (Steele, Lea and Flood 2014): small, fast, and good enough to shuffle */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t	z = (*state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* uniform in [0, bound), without modulo bias */
static uint32_t
random_below(uint64_t *state, uint32_t bound)
{
	uint64_t	limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t	r;

	do
		r = next_random(state);
	while (r >= limit);
	return (uint32_t) (r % bound);
}

void
stats_default_change_options(StatsChangeOptions *opt)
{
	opt->alpha = 0.05;
	opt->permutations = 999;
	opt->min_segment = 3;
	opt->seed = 1;
}

/*
 * The largest D over the allowed arcs [i, j) of y[0 .. m-1] (the arc
 * against the rest of the segment), with the arc into *from and *to.  An
 * arc and what is left of the segment on either side of it must hold at
 * least min_segment points each, or none: an arc that touches an end is a
 * single change.  Prefix sums make each D O(1), the search O(m^2).  A
 * permutation only asks whether some arc reaches "enough": the search
 * stops at the first that does (HUGE_VAL: the largest, wherever it is).
 */
static double
best_arc(const double *y, int m, int min_segment, double enough, double *prefix,
		 int *from, int *to)
{
	double		best = -1.0,
				mean;

	*from = *to = 0;
	prefix[0] = 0.0;
	for (int i = 0; i < m; i++)
		prefix[i + 1] = prefix[i] + y[i];
	mean = prefix[m] / m;
	for (int i = 0; i < m; i++)
	{
		STATS_CHECK_FOR_INTERRUPTS();
		if (i > 0 && i < min_segment)
			continue;
		for (int j = i + min_segment; j <= m; j++)
		{
			int			k = j - i;
			double		excess,
						d;

			if ((j < m && m - j < min_segment) || k == m)
				continue;
			/* D = (S - k mean)^2 m / (k (m - k)), S the arc's sum */
			excess = prefix[j] - prefix[i] - k * mean;
			d = excess * excess * m / ((double) k * (m - k));
			if (d > best)
			{
				best = d;
				*from = i;
				*to = j;
				if (best >= enough)
					return best;
			}
		}
	}
	return best;
}

/*
 * The permutation p-value of the best arc of y[0 .. m-1] (whose D is
 * observed), using work (2 m + 1 doubles) for the shuffles and their
 * prefix sums.  The shuffles stop as soon as so many have reached D that p
 * must exceed alpha (Besag and Clifford 1991): the decision is the one all
 * of them would give, and the p returned is then only known to exceed
 * alpha, which is all the caller asks of it.  A flat series, whose p is
 * uniform, stops after about 200 of 999 shuffles on average (50 must
 * reach D at alpha = 0.05); the p of a change point found is exact.
 */
static double
permutation_p(const double *y, int m, double observed,
			  const StatsChangeOptions *opt, uint64_t *state, double *work)
{
	int			reached = 0,
				from,
				to;

	memcpy(work, y, sizeof(double) * m);
	for (int b = 0; b < opt->permutations; b++)
	{
		if ((1.0 + reached) / (1.0 + opt->permutations) > opt->alpha)
			break;
		STATS_CHECK_FOR_INTERRUPTS();

		for (int i = m - 1; i > 0; i--)
		{
			int			j = (int) random_below(state, (uint32_t) (i + 1));
			double		t = work[i];

			work[i] = work[j];
			work[j] = t;
		}

		/*
		 * Equal within rounding: a shuffle that reproduces the observed
		 * arc exactly must count, or ties would make p too small.
		 */
		if (best_arc(work, m, opt->min_segment, observed * (1.0 - 1e-12), work + m,
					 &from, &to) >= observed * (1.0 - 1e-12))
			reached++;
	}
	return (1.0 + reached) / (1.0 + opt->permutations);
}

typedef struct Search
{
	const double *y;			/* log values of the whole series */
	const StatsChangeOptions *opt;
	uint64_t	state;
	double	   *work;
	StatsChangePoint *found;	/* index and p of each change point found */
	int			n_found;
	int			max_found;
} Search;

/* Record a change point before y[index], found by a test of p-value p. */
static void
add_change(Search *s, int index, double p)
{
	if (s->n_found < s->max_found)
	{
		s->found[s->n_found].index = index;
		s->found[s->n_found++].p_value = p;
	}
}

/*
 * Binary segmentation of y[lo .. hi-1], circular: the best arc's ends
 * inside the segment are change points, and the (two or three) parts are
 * searched again.
 */
static void
segment(Search *s, int lo, int hi)
{
	int			m = hi - lo,
				from,
				to;
	double		observed,
				p;

	if (m < 2 * s->opt->min_segment || s->n_found >= s->max_found)
		return;
	observed = best_arc(s->y + lo, m, s->opt->min_segment, HUGE_VAL, s->work + m,
						&from, &to);

	/* a segment of equal values has no change, and no shuffle can say so */
	if (!(observed > 0.0))
		return;
	p = permutation_p(s->y + lo, m, observed, s->opt, &s->state, s->work);
	if (p > s->opt->alpha)
		return;
	if (from > 0)
		add_change(s, lo + from, p);
	if (to < m)
		add_change(s, lo + to, p);
	if (from > 0)
		segment(s, lo, lo + from);
	segment(s, lo + from, lo + to);
	if (to < m)
		segment(s, lo + to, hi);
}

/*
 * The shift between y[lo .. mid-1] and y[mid .. hi-1]: exp of the
 * difference of means, and Welch's t interval at 1 - alpha.
 */
static void
shift_between(const double *y, int lo, int mid, int hi, double alpha,
			  StatsChangePoint *cp)
{
	int			n1 = mid - lo,
				n2 = hi - mid;
	double		m1,
				s1,
				m2,
				s2,
				v1,
				v2,
				se,
				df,
				half;

	stats_mean_sd(y + lo, n1, &m1, &s1);
	stats_mean_sd(y + mid, n2, &m2, &s2);
	cp->n_before = n1;
	cp->n_after = n2;
	cp->shift = exp(m2 - m1);
	cp->shift_pct = 100.0 * (cp->shift - 1.0);
	cp->has_ci = false;
	cp->ci_low = cp->ci_high = 0.0;
	v1 = s1 * s1 / n1;
	v2 = s2 * s2 / n2;
	se = sqrt(v1 + v2);
	if (n1 < 2 || n2 < 2 || !(se > 0.0))
		return;
	/* Welch–Satterthwaite degrees of freedom */
	df = (v1 + v2) * (v1 + v2) /
		(v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1));
	half = stats_t_quantile(1.0 - alpha / 2.0, df) * se;
	cp->has_ci = true;
	cp->ci_low = exp(m2 - m1 - half);
	cp->ci_high = exp(m2 - m1 + half);
}

static int
compare_changes(const void *a, const void *b)
{
	int			x = ((const StatsChangePoint *) a)->index,
				y = ((const StatsChangePoint *) b)->index;

	return (x > y) - (x < y);
}

int
stats_check_change_options(const StatsChangeOptions *opt)
{
	if (!(opt->alpha > 0.0 && opt->alpha < 1.0) ||
		opt->permutations < 1 || opt->permutations > 1000000 ||
		opt->min_segment < 1)
		return STATS_ERR_OPTION;
	return STATS_OK;
}

/*
 * The change points found, put in series order, each with the shift
 * between the segments on either side of it.
 */
static void
describe_changes(const Search *s, int n)
{
	StatsChangePoint *cp = s->found;
	int			k = s->n_found;

	qsort(cp, k, sizeof(StatsChangePoint), compare_changes);
	for (int i = 0; i < k; i++)
		shift_between(s->y, i > 0 ? cp[i - 1].index : 0, cp[i].index,
					  i + 1 < k ? cp[i + 1].index : n, s->opt->alpha, &cp[i]);
}

int
stats_changepoints(const double *x, int n, const StatsChangeOptions *opt,
				   StatsChangePoint *out, int max_out)
{
	double	   *y;
	Search		s;
	int			rc;

	if (n < 0 || max_out < 0)
		return STATS_ERR_SIZE;
	if ((rc = stats_check_change_options(opt)) != STATS_OK)
		return rc;
	if ((rc = stats_log_copy(x, n, &y)) != STATS_OK)
		return rc;
	memset(&s, 0, sizeof(s));
	s.y = y;
	s.opt = opt;
	s.state = opt->seed;
	s.max_found = max_out;
	s.work = stats_malloc(sizeof(double) * (2 * n + 1));
	s.found = out;
	if (s.work == NULL)
		rc = STATS_ERR_NOMEM;
	else
	{
		segment(&s, 0, n);
		describe_changes(&s, n);
		rc = s.n_found;
	}
	stats_free(s.work);
	stats_free(y);
	return rc;
}
