/*
 * design_promise.c — does the design the planner prints from a pilot keep
 * its promise where instance offsets are large?  For each instance-pair
 * sd (1-3%), round sd (5-15%) and pilot of k instance pairs (3, 5, 10) of
 * the rounds per pair restart = auto would take (stats_rounds_per_unit(),
 * 2 to 5), a pilot of no effect is drawn, its ratio components
 * (stats_ratio_components) go to stats_plan_design() for 2% at the default
 * options (a restart 20 s, a round 6 s), and the design it prints is run
 * once as made with a true +2%: a nested comparison across its instance
 * pairs (stats_compare_units).  Counted per cell: the share of pilots that
 * print a design, the share of those decided faster (the power the
 * printed designs deliver; its binomial standard error beside it), the
 * mean exact t power of the printed designs at the true sds, and what is
 * printed otherwise.  Built and run by bench/design_promise.sh, against
 * the working tree's statistics or an older revision's, with the unit
 * tests' random number generator (test/unit/test_stats_util.h).
 */
#include "stats.h"
#include "test_stats_util.h"

#include <stdlib.h>
#include <string.h>

#define EFFECT 0.02
#define RESTART_S 20.0
#define ROUND_S 6.0

static const StatsDesignCost cost = {.build_s = 0.0, .restart_s = RESTART_S, .round_s = ROUND_S};

/*
 * k instance pairs of r rounds, each pair's offset of sd si on the ratio
 * (si / sqrt 2 a side), each round's ratio noise sd sr, B at exp(effect);
 * a, b, instance and round hold k r runs a side.
 */
static void
draw(int k, int r, double si, double sr, double effect, double *a, double *b,
	 int *instance, int *round)
{
	int			n = 0;

	for (int u = 0; u < k; u++)
	{
		double		oa = si / sqrt(2.0) * rng_normal(),
					ob = si / sqrt(2.0) * rng_normal();

		for (int j = 0; j < r; j++, n++)
		{
			double		drift = 0.03 * rng_normal();

			a[n] = 1000.0 * exp(oa + drift + sr / sqrt(2.0) * rng_normal());
			b[n] = 1000.0 * exp(effect + ob + drift + sr / sqrt(2.0) * rng_normal());
			instance[n] = u;
			round[n] = j + 1;
		}
	}
}

/* Whether design d, run once with the true +2%, is decided faster. */
static bool
run_design(const StatsDesign *d, double si, double sr)
{
	long		n = (long) d->instances * d->rounds;
	double	   *a = malloc(sizeof(double) * n),
			   *b = malloc(sizeof(double) * n);
	int		   *instance = malloc(sizeof(int) * n),
			   *round = malloc(sizeof(int) * n);
	StatsOptions opt;
	StatsComparison c;

	if (a == NULL || b == NULL || instance == NULL || round == NULL)
	{
		fprintf(stderr, "design_promise: out of memory for %ld runs\n", n);
		exit(1);
	}
	stats_default_options(&opt);
	draw(d->instances, d->rounds, si, sr, log1p(EFFECT), a, b, instance, round);
	stats_compare_units(a, round, instance, (int) n, b, round, instance, (int) n,
						STATS_UNIT_INSTANCE_PAIR, &opt, &c);
	free(a);
	free(b);
	free(instance);
	free(round);
	return c.verdict == STATS_FASTER;
}

/* The t verdict's exact power for design d at the true sds. */
static double
exact_power(const StatsDesign *d, double si, double sr)
{
	double		unit_var = si * si + sr * sr / d->rounds,
				room = log1p(EFFECT) - log1p(0.01);
	int			k = d->instances;

	return stats_t_power(room / sqrt(unit_var / k), k - 1, stats_t_quantile(0.975, k - 1));
}

/* One table row: pilots of k pairs at (si, sr). */
static void
cell(double si, double sr, int k, int sims)
{
	static double a[64],
				b[64];
	static int	instance[64],
				round[64];
	StatsOptions opt;
	int			r = stats_rounds_per_unit(si * si, sr * sr, RESTART_S, ROUND_S, 5),
				printed = 0,
				faster = 0,
				beyond = 0,
				other = 0;
	double		power = 0.0,
				pairs = 0.0,
				minutes = 0.0,
				share;
	char		example[STATS_REASON_LEN] = "";

	stats_default_options(&opt);
	r = r < 2 ? 2 : r;
	for (int s = 0; s < sims; s++)
	{
		StatsComponents ratio;
		StatsDesign d;

		draw(k, r, si, sr, 0.0, a, b, instance, round);
		stats_ratio_components(a, NULL, instance, round, k * r, b, NULL, instance, round,
							   k * r, &ratio);
		stats_plan_design(&ratio, NULL, NULL, &cost, false, EFFECT, &opt, &d);
		if (!d.found)
		{
			if (strncmp(d.reason, "no design of up to", 18) == 0)
				beyond++;
			else
			{
				other++;
				if (example[0] == '\0')
					snprintf(example, sizeof(example), "%s", d.reason);
			}
			continue;
		}
		printed++;
		faster += run_design(&d, si, sr);
		power += exact_power(&d, si, sr);
		pairs += d.instances;
		minutes += d.seconds / 60.0;
	}
	share = printed > 0 ? (double) faster / printed : 0.0;
	printf("%4.0f%% %4.0f%% %3d %2d | %6.1f%% | %6.1f%% +-%4.1f  %6.1f%% | %6.1f %7.0f | %5.1f%% %5.1f%%\n",
		   100 * si, 100 * sr, k, r, 100.0 * printed / sims, 100 * share,
		   printed > 0 ? 100 * sqrt(share * (1 - share) / printed) : 0.0,
		   printed > 0 ? 100 * power / printed : 0.0,
		   printed > 0 ? pairs / printed : 0.0, printed > 0 ? minutes / printed : 0.0,
		   100.0 * beyond / sims, 100.0 * other / sims);
	if (example[0] != '\0')
		printf("      otherwise, e.g.: %s\n", example);
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	static const double instance_sd[] = {0.01, 0.02, 0.03};
	static const double round_sd[] = {0.05, 0.10, 0.15};
	static const int pilot[] = {3, 5, 10};
	int			sims = argc > 1 ? atoi(argv[1]) : 2000;

	if (sims < 1)
	{
		fprintf(stderr, "usage: design_promise [SIMS]  (SIMS a positive number of pilots a cell)\n");
		return 2;
	}
	rng_seed(56);
	printf("pair round  k  R | printed | faster (se)  exact  | pairs minutes | beyond other\n");
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			for (int p = 0; p < 3; p++)
				cell(instance_sd[i], round_sd[j], pilot[p], sims);
	return 0;
}
