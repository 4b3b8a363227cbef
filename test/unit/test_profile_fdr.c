/*-------------------------------------------------------------------------
 *
 * test_profile_fdr.c
 *		Unit tests (TAP) of the per-function verdict of profiles: its false
 *		discovery rate and its power, proven by simulation.
 *
 * A profile's verdict per function is stats_compare_rounds() on each
 * function's per-round costs, Benjamini–Hochberg q-values over the
 * functions (stats_bh_adjust) and stats_fdr_discovery(): q < alpha and the
 * whole CI beyond the noise threshold.  Under A/A (no function changed,
 * every function with its own noise, rounds with a common drift) the share
 * of comparisons that declare any function changed must stay at or below
 * alpha; with some functions changed, the expected share of false
 * discoveries among the discoveries must stay at or below alpha, and the
 * changed functions must be found.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <stdlib.h>

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
		double		drift = 0.03 * rng_normal();

		rounds[r] = r + 1;
		for (int f = 0; f < nfuncs; f++)
		{
			double		sd = 0.005 + 0.03 * f / nfuncs;
			double		base = log(1000.0 * (f + 1));

			a[f][r] = exp(base + drift + sd * rng_normal());
			b[f][r] = exp(base + drift + sd * rng_normal() + (f < nchanged ? log(1 + effect) : 0));
		}
	}
	for (int f = 0; f < nfuncs; f++)
	{
		stats_compare_rounds(a[f], rounds, n, b[f], rounds, n, opt, &c[f]);
		p[f] = c[f].has_p ? c[f].p_value : 1.0;
	}
	stats_bh_adjust(p, nfuncs, q);
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
	const int	reps = sim_reps(500, 2000);

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
		ok((double) any / reps <= opt.alpha + mc_tolerance(opt.alpha, reps),
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
		ok(fdr / reps <= opt.alpha + mc_tolerance(opt.alpha, reps),
		   "5 of 40 functions +10%%, 12 rounds: false discovery rate %.2f%% (alpha %g)",
		   100.0 * fdr / reps, opt.alpha);
		ok((double) found_true / (5.0 * reps) > 0.9,
		   "and %.1f%% of the changed functions are found", 100.0 * found_true / (5.0 * reps));
	}
}

int
main(void)
{
	rng_seed(19);
	test_simulation();
	return done_testing();
}
