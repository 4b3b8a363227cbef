/*
 * mde_promise.c — the share of experiments that decide an effect of the
 * MDE a pilot of the same design printed from its own noise estimate:
 * paired rounds (log ratio sd 2.7%), runs unpaired (sd 2.7%), and
 * instance pairs (unit sd 2%).  Built and run by bench/mde_promise.sh,
 * against the working tree's statistics or an older revision's, with the
 * unit tests' random number generator (test/unit/test_stats_util.h).
 */
#include "stats.h"
#include "test_stats_util.h"

#include <stdlib.h>

#define SD_ROUND 0.027
#define SD_UNIT 0.02

/* One experiment of n rounds, n runs a side or n units, B at 1 + pct%. */
static void
experiment(char kind, int n, double pct, StatsComparison *c)
{
	StatsOptions opt;
	double		a[64],
				b[64];
	int			unit[64];

	stats_default_options(&opt);
	for (int i = 0; i < n; i++)
	{
		a[i] = kind == 'r' ? 1000.0 * exp(SD_ROUND * rng_normal()) : 1000.0;
		b[i] = 1000.0 * (1.0 + pct / 100.0) *
			exp((kind == 'u' ? SD_UNIT : SD_ROUND) * rng_normal());
		unit[i] = i;
	}
	if (kind == 'p')
		stats_compare_paired(a, b, n, &opt, c);
	else if (kind == 'r')
		stats_compare(a, n, b, n, &opt, c);
	else
		stats_compare_units(a, NULL, unit, n, b, NULL, unit, n, STATS_UNIT_INSTANCE_PAIR,
							&opt, c);
}

static void
promise(char kind, int n, int sims)
{
	double		mean_mde = 0.0;
	int			faster = 0,
				with_mde = 0;

	for (int s = 0; s < sims; s++)
	{
		StatsComparison pilot,
					c;

		experiment(kind, n, 0.0, &pilot);
		if (!pilot.has_mde)
			continue;
		with_mde++;
		mean_mde += pilot.mde_pct;
		experiment(kind, n, pilot.mde_pct, &c);
		faster += c.verdict == STATS_FASTER;
	}
	printf("%-26s printed MDE %5.2f%% on average; decided faster %5.1f%% of %d\n",
		   kind == 'p' ? "paired rounds, sd 2.7%:" : kind == 'r' ? "runs a side, sd 2.7%:" :
		   "instance pairs, sd 2%:", mean_mde / with_mde, 100.0 * faster / with_mde, with_mde);
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	static const int rounds[] = {6, 8, 12, 20};
	static const int units[] = {3, 8, 20};
	static const int runs[] = {6, 10, 20};
	int			sims = argc > 1 ? atoi(argv[1]) : 4000;

	rng_seed(5);
	for (int i = 0; i < 4; i++)
	{
		printf("%2d ", rounds[i]);
		promise('p', rounds[i], sims);
	}
	for (int i = 0; i < 3; i++)
	{
		printf("%2d ", units[i]);
		promise('u', units[i], sims);
	}
	for (int i = 0; i < 3; i++)
	{
		printf("%2d ", runs[i]);
		promise('r', runs[i], sims);
	}
	return 0;
}
