/*
 * test_latency_hist.c — the latency histogram's buckets and quantiles.
 *
 * The counters promise p50/p90/p99 within 5% of the exact order statistic;
 * this checks the promise on skewed samples spanning microseconds to
 * seconds, and that every value lands in a bucket whose bounds contain it.
 */
#include "latency_hist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int	ntest = 0;
static int	nfail = 0;

static void
ok(int cond, const char *what)
{
	ntest++;
	if (!cond)
		nfail++;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", ntest, what);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* xorshift: reproducible without depending on the C library's rand() */
static uint64_t rng = 88172645463325252ULL;
static double
uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double) (rng >> 11) / (double) (1ULL << 53);
}

static void
check_quantiles(const char *name, uint64_t *v, int n)
{
	static uint64_t counts[LH_BUCKETS];
	double		qs[] = {0.5, 0.9, 0.99};
	char		what[128];

	memset(counts, 0, sizeof(counts));
	for (int i = 0; i < n; i++)
		counts[lh_bucket(v[i])]++;
	qsort(v, n, sizeof(uint64_t), cmp_u64);
	for (int i = 0; i < 3; i++)
	{
		double		exact = (double) v[(int) ceil(qs[i] * n) - 1];
		double		est = lh_quantile(counts, qs[i], (double) v[n - 1]);

		snprintf(what, sizeof(what), "%s: p%g %.0f ns vs exact %.0f ns (within 5%%)",
				 name, qs[i] * 100, est, exact);
		ok(fabs(est / exact - 1) <= 0.05, what);
	}
}

int
main(void)
{
	static uint64_t v[100000];
	int			bad = 0;
	uint64_t	empty[LH_BUCKETS] = {0};

	/* every value is inside its bucket, and buckets are at most 1/16 wide */
	for (uint64_t x = 1; x < ((uint64_t) 1 << 40); x = x * 1.01 + 1)
	{
		double		lo,
					hi;
		int			b = lh_bucket(x);

		lh_bucket_bounds(b, &lo, &hi);
		if (!(lo <= (double) x && (double) x < hi) ||
			(b > 0 && b < LH_BUCKETS - 1 && (hi - lo) > lo / 16 + 1e-9))
			bad++;
	}
	ok(bad == 0, "values fall inside their bucket's bounds, buckets <= 1/16 wide");
	ok(lh_bucket(0) == 0 && lh_bucket(UINT64_MAX) == LH_BUCKETS - 1, "extremes clamp");
	ok(lh_quantile(empty, 0.5, 0) == 0, "empty histogram gives 0");

	/* log-normal around 40 us (a pgbench -S statement) */
	for (int i = 0; i < 100000; i++)
	{
		double		z = sqrt(-2 * log(uniform() + 1e-300)) * cos(2 * M_PI * uniform());

		v[i] = (uint64_t) (40000 * exp(0.6 * z));
	}
	check_quantiles("log-normal 40us", v, 100000);

	/* heavy tail: Pareto from 200 us, reaching seconds */
	for (int i = 0; i < 100000; i++)
		v[i] = (uint64_t) (200000 / pow(uniform() + 1e-12, 1 / 1.2));
	check_quantiles("pareto 200us", v, 100000);

	/* a single value: every quantile is within 5% of it */
	for (int i = 0; i < 1000; i++)
		v[i] = 1234567;
	check_quantiles("constant", v, 1000);

	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
