/*
 * noise_premise.c — how often a budgeted experiment on one server leaves
 * a 40% slowdown undecided, and how often it does so although the noise
 * measured on its runs lies below a test's premise (test 046:
 * round_noise() in test/lib/PgbenchExtTest.pm, the sd of the rounds' log
 * ratios, and none with fewer than 6 rounds, which the test skips).  The
 * looks are the runner's own: stats_sequential_decide() after every block
 * of 5 rounds, alpha spent by the share of the budget spent, stopping
 * when another block as long as the mean so far would overrun it.  Each
 * round draws a drift both sides share and a round noise of sd SIGMA on
 * the log ratio; each block takes BLOCK_S seconds +-15%.  Built and run
 * by bench/noise_premise.sh, with the unit tests' random number generator
 * (test/unit/test_stats_util.h).
 *
 * Usage: noise_premise BUDGET_S MAX_BLOCKS BLOCK_S SIGMA DRIFT PREMISE SIMS
 * prints: undecided U of SIMS; undecided below the premise Q; skipped S
 */
#include "stats.h"
#include "test_stats_util.h"

#include <stdlib.h>

#define BLOCK_ROUNDS 5
#define MAX_ROUNDS 1000
#define SLOWDOWN 0.6

/* round_noise() of the test, on rounds 0 .. n-1: -1 with fewer than 6 */
static double
measured_noise(const double *a, const double *b, int n)
{
	double		m = 0,
				ss = 0;

	if (n < 6)
		return -1;
	for (int i = 0; i < n; i++)
		m += log(b[i] / a[i]) / n;
	for (int i = 0; i < n; i++)
		ss += pow(log(b[i] / a[i]) - m, 2);
	return sqrt(ss / (n - 1));
}

/* One experiment to its decision or its budget: whether it decided slower. */
static bool
experiment(const StatsBudgetPlan *plan, double block_s, double sigma, double drift,
		   double *noise)
{
	static double a[MAX_ROUNDS],
				b[MAX_ROUNDS],
				spent[MAX_ROUNDS / BLOCK_ROUNDS];
	static int	round[MAX_ROUNDS];
	int			n = 0,
				blocks = 0;
	double		t = 0;
	bool		decided = false;
	StatsOptions opt;

	stats_default_options(&opt);
	for (;;)
	{
		double		info[MAX_ROUNDS / BLOCK_ROUNDS],
					z[MAX_ROUNDS / BLOCK_ROUNDS];
		StatsLook	look;
		int			block;

		for (int r = 0; r < BLOCK_ROUNDS; r++, n++)
		{
			double		d = drift * rng_normal();

			a[n] = 1000 * exp(d + sigma / sqrt(2) * rng_normal());
			b[n] = 1000 * SLOWDOWN * exp(d + sigma / sqrt(2) * rng_normal());
			round[n] = n + 1;
		}
		t += block_s * (1 + 0.3 * (rng_uniform() - 0.5));
		spent[blocks++] = t;
		stats_budget_info(plan, blocks, spent, info);
		stats_sequential_bounds(plan->spending, opt.alpha, info, blocks, z);
		stats_sequential_decide(a, round, NULL, n, b, round, NULL, n, STATS_UNIT_ROUND, plan,
								blocks, info, z, &opt, &look, &block);
		if (look.decision == STATS_DECIDED_SLOWER)
		{
			decided = true;
			break;
		}
		if (stats_budget_spent(plan, blocks, t) || n + BLOCK_ROUNDS > MAX_ROUNDS)
			break;
	}
	*noise = measured_noise(a, b, n);
	return decided;
}

int
main(int argc, char **argv)
{
	StatsBudgetPlan plan = {.block_rounds = BLOCK_ROUNDS, .first_look = 1,
	.spending = STATS_SPEND_OBRIEN_FLEMING, .time_information = true};
	double		block_s,
				sigma,
				drift,
				premise;
	int			sims,
				undecided = 0,
				below = 0,
				skipped = 0;

	if (argc != 8)
	{
		fprintf(stderr, "usage: noise_premise BUDGET_S MAX_BLOCKS BLOCK_S SIGMA DRIFT PREMISE SIMS\n");
		return 2;
	}
	plan.budget_s = atoi(argv[1]);
	plan.max_blocks = plan.max_looks = atoi(argv[2]);
	block_s = atof(argv[3]);
	sigma = atof(argv[4]);
	drift = atof(argv[5]);
	premise = atof(argv[6]);
	sims = atoi(argv[7]);
	rng_seed(12345);
	for (int e = 0; e < sims; e++)
	{
		double		noise;
		bool		decided = experiment(&plan, block_s, sigma, drift, &noise);

		undecided += !decided;
		if (noise < 0 || noise >= premise)
			skipped++;
		else if (!decided)
			below++;
	}
	printf("budget %s s, blocks of %.0f s, sigma %.2f, drift %.2f: undecided %d of %d; "
		   "undecided below the premise %.2f: %d; skipped %d\n",
		   argv[1], block_s, sigma, drift, undecided, sims, premise, below, skipped);
	return 0;
}
