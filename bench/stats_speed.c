/*
 * stats_speed.c — how long one stats_compare() takes for n runs a side,
 * so that the client's reports and compare() in psql stay instant even
 * with many cells.  Built and run by bench/stats_speed.sh.
 */
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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
	return 0;
}
