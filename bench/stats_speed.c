/*
 * stats_speed.c — how long one stats_compare() takes for n runs a side,
 * so that the client's reports and compare() in psql stay instant even
 * with many cells; and how long stats_changepoints() (the code behind
 * "pgbench_ext history" and changepoints() in psql) takes for a history of
 * 30 to 1,000 points at the default 999 permutations, flat (one test) and
 * with a 3% shift every 100 points (a test per segment), which bounds the
 * SQL function's series at 1,000 points since its tests cannot be
 * cancelled.  Built and run by bench/stats_speed.sh.
 */
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ms per stats_changepoints() call for histories of 30 to 1,000 points */
static void
changepoint_speed(void)
{
	static const int sizes[] = {30, 100, 300, 1000};
	static double x[1000];
	static StatsChangePoint cp[1000];
	StatsChangeOptions opt;

	stats_default_change_options(&opt);
	printf("\n%6s %-22s %8s %12s\n", "points", "series", "changes", "ms/call");
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
	{
		for (int shifted = 0; shifted <= 1; shifted++)
		{
			int			n = sizes[s],
						k = 0,
						calls = 0;
			double		start;

			/* deterministic, irregular noise of about 1% around 1000 */
			for (int i = 0; i < n; i++)
				x[i] = 1000.0 * exp(0.01 * sin(i * 12.9898) +
									(shifted ? 0.03 * ((i / 100) % 2) : 0.0));
			start = now();
			do
			{
				k = stats_changepoints(x, n, &opt, cp, n);
				calls++;
			} while (now() - start < 1.0);
			printf("%6d %-22s %8d %12.1f\n", n, shifted ? "3% up and down by 100" : "flat",
				   k, 1000.0 * (now() - start) / calls);
		}
	}
}

int
main(void)
{
	static const int sizes[] = {5, 10, 20, 28, 29, 50, 100, 300, 1000};
	static double a[1000],
				b[1000];
	StatsOptions opt;
	StatsComparison c;
	size_t		s;
	int			i;

	stats_default_options(&opt);
	for (i = 0; i < 1000; i++)
	{
		/* deterministic, irregular values around 1000 and 1020 */
		a[i] = 1000.0 * exp(0.02 * sin(i * 12.9898));
		b[i] = 1020.0 * exp(0.02 * cos(i * 78.233));
	}
	printf("%6s %8s %12s %s\n", "n/side", "calls", "us/call", "exact p");
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
	{
		int			n = sizes[s],
					calls = 0;
		double		start = now(),
					elapsed;

		do
		{
			if (stats_compare(a, n, b, n, &opt, &c) != STATS_OK)
				return 1;
			calls++;
			elapsed = now() - start;
		} while (elapsed < 0.5);
		printf("%6d %8d %12.1f %s\n", n, calls, elapsed / calls * 1e6,
			   c.p_exact ? "yes" : "no");
	}
	changepoint_speed();
	return 0;
}
