/*-------------------------------------------------------------------------
 *
 * test_stats_fdr.c
 *		Unit tests (TAP) of common/stats_fdr.c: Benjamini–Hochberg q-values
 *		against the definition and published examples, and the false
 *		discovery rate of the per-function verdict proven by simulation.
 *
 * Examples: the 15 p-values of Benjamini and Hochberg (1995), section 4
 * (at level 0.05 the four smallest are rejected), with their q-values
 * worked out by hand.  The definition, q(i) = min over j >= i of n p(j) / j,
 * is computed here by brute force, sharing no code with the function.
 *
 * Simulation: the per-function verdict of a profile is
 * stats_compare_rounds() on each function's per-round costs, q-values over
 * the functions, and stats_fdr_discovery().  Under A/A (no function
 * changed, every function with its own noise, rounds with a common
 * drift) the share of comparisons that declare anything must stay at or
 * below alpha; with some functions changed, the expected share of false
 * discoveries among the discoveries must stay at or below alpha.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int	test_count = 0;
static int	test_failed = 0;

static void
ok(int cond, const char *fmt,...)
{
	va_list		ap;

	test_count++;
	if (!cond)
		test_failed++;
	printf("%sok %d - ", cond ? "" : "not ", test_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ---- deterministic pseudo-random numbers (xorshift64*, Box–Muller) ---- */

static uint64_t rng_state = 88172645463325252ULL;

static double
uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double
gaussian(void)
{
	double		u = uniform(),
				v = uniform();

	return sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static void
brute_force_bh(const double *p, int n, double *q)
{
	for (int i = 0; i < n; i++)
	{
		/* rank of p[i] among all, ties taking the highest rank */
		double		best = 1.0;

		for (int j = 0; j < n; j++)
			if (p[j] >= p[i])
			{
				int			rank = 0;

				for (int k = 0; k < n; k++)
					if (p[k] <= p[j])
						rank++;
				if (n * p[j] / rank < best)
					best = n * p[j] / rank;
			}
		q[i] = best;
	}
}

static void
test_examples(void)
{
	/* Benjamini and Hochberg (1995), section 4 */
	static const double p[15] = {0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298,
	0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000};
	/* worked out from the definition, to 7 digits (R's p.adjust(p, "BH")) */
	static const double r[15] = {0.0015, 0.0030, 0.0095, 0.035625, 0.0603, 0.06385714,
		0.06385714, 0.0645, 0.0765, 0.486, 0.5811818, 0.714875, 0.7532308, 0.8132143, 1.0};
	double		q[15];
	int			rejected = 0;
	double		worst = 0;

	ok(stats_bh_qvalues(p, 15, q) == STATS_OK, "BH on the 15 p-values of Benjamini and Hochberg");
	for (int i = 0; i < 15; i++)
	{
		worst = fmax(worst, fabs(q[i] - r[i]));
		rejected += q[i] < 0.05;
	}
	ok(worst < 5e-8, "q-values as worked out by hand (largest difference %.2g)", worst);
	ok(rejected == 4, "at FDR 0.05 the four smallest are discoveries, as in the paper (%d)", rejected);

	{
		static const double same[5] = {0.01, 0.02, 0.03, 0.04, 0.05};
		double		qs[5];

		stats_bh_qvalues(same, 5, qs);
		ok(fabs(qs[0] - 0.05) < 1e-15 && fabs(qs[4] - 0.05) < 1e-15,
		   "p 0.01..0.05 in steps of 0.01 all get q 0.05");
	}
	{
		static const double ties[4] = {0.04, 0.01, 0.04, 0.5};
		double		qt[4];

		stats_bh_qvalues(ties, 4, qt);
		ok(qt[0] == qt[2] && fabs(qt[0] - 0.04 * 4 / 3) < 1e-15 && fabs(qt[1] - 0.04) < 1e-15 && qt[3] == 0.5,
		   "ties share their q, and the input order is kept (%g %g %g %g)", qt[0], qt[1], qt[2], qt[3]);
	}
	{
		double		x[2] = {0.5, 1.5};
		double		y[1];

		ok(stats_bh_qvalues(x, 2, x) == STATS_ERR_VALUE, "a p-value above 1 is refused");
		ok(stats_bh_qvalues(x, 0, y) == STATS_OK && stats_bh_qvalues(x, -1, y) == STATS_ERR_SIZE,
		   "no p-values is fine, a negative count is not");
	}
}

static void
test_definition(void)
{
	double		worst = 0;

	for (int trial = 0; trial < 500; trial++)
	{
		int			n = 1 + trial % 40;
		double		p[40],
					q[40],
					want[40];

		for (int i = 0; i < n; i++)
			p[i] = trial % 3 == 0 ? floor(uniform() * 10) / 10 : uniform();	/* many ties */
		stats_bh_qvalues(p, n, q);
		brute_force_bh(p, n, want);
		for (int i = 0; i < n; i++)
			worst = fmax(worst, fabs(q[i] - fmin(1.0, want[i])));
	}
	ok(worst < 1e-12, "q-values equal the definition on 500 random sets, with ties (largest difference %.2g)", worst);
}

/*
 * One simulated profile comparison: nfuncs functions over n paired rounds,
 * each function's log cost with its own noise sd and a drift shared by
 * the round; the first nchanged functions changed by effect in B.  Returns
 * the discoveries, and in *false_ones those among unchanged functions.
 */
static int
simulate(int nfuncs, int nchanged, double effect, int n, const StatsOptions *opt, int *false_ones)
{
	double		a[64][40],
				b[64][40];
	int			rounds[40];
	double		p[64];
	StatsComparison c[64];
	double		q[64];
	int			found = 0;

	*false_ones = 0;
	for (int r = 0; r < n; r++)
	{
		double		drift = 0.03 * gaussian();

		rounds[r] = r + 1;
		for (int f = 0; f < nfuncs; f++)
		{
			double		sd = 0.005 + 0.03 * f / nfuncs;
			double		base = log(1000.0 * (f + 1));

			a[f][r] = exp(base + drift + sd * gaussian());
			b[f][r] = exp(base + drift + sd * gaussian() + (f < nchanged ? log(1 + effect) : 0));
		}
	}
	for (int f = 0; f < nfuncs; f++)
	{
		stats_compare_rounds(a[f], rounds, n, b[f], rounds, n, opt, &c[f]);
		p[f] = c[f].has_p ? c[f].p_value : 1.0;
	}
	stats_bh_qvalues(p, nfuncs, q);
	for (int f = 0; f < nfuncs; f++)
		if (stats_fdr_discovery(&c[f], q[f], opt))
		{
			found++;
			if (f >= nchanged)
				(*false_ones)++;
		}
	return found;
}

static void
test_simulation(void)
{
	StatsOptions opt;
	const int	reps = 2000;

	stats_default_options(&opt);
	opt.higher_is_better = false;

	/* A/A: the share of comparisons with any discovery, for 8, 12 and 20 rounds */
	for (int n = 8; n <= 20; n += n == 8 ? 4 : 8)
	{
		int			any = 0;

		for (int i = 0; i < reps; i++)
		{
			int			false_ones;

			any += simulate(40, 0, 0, n, &opt, &false_ones) > 0;
		}
		/* binomial sd at 0.05: 0.0049; allow three of them */
		ok((double) any / reps <= opt.alpha + 0.015,
		   "A/A, 40 functions, %d rounds: %.2f%% of comparisons declare a change (alpha %g)",
		   n, 100.0 * any / reps, opt.alpha);
	}
	/* A/B: 5 of 40 functions 10% costlier; the false discovery rate and the power */
	{
		double		fdr = 0;
		int			found_true = 0;

		for (int i = 0; i < reps; i++)
		{
			int			false_ones;
			int			found = simulate(40, 5, 0.10, 12, &opt, &false_ones);

			if (found > 0)
				fdr += (double) false_ones / found;
			found_true += found - false_ones;
		}
		ok(fdr / reps <= opt.alpha + 0.01,
		   "5 of 40 functions +10%%, 12 rounds: false discovery rate %.2f%% (alpha %g)",
		   100.0 * fdr / reps, opt.alpha);
		ok((double) found_true / (5.0 * reps) > 0.9,
		   "and %.1f%% of the changed functions are found", 100.0 * found_true / (5.0 * reps));
	}
}

int
main(void)
{
	test_examples();
	test_definition();
	test_simulation();
	printf("1..%d\n", test_count);
	return test_failed > 0;
}
