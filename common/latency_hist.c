/*
 * latency_hist.c
 *		Quantiles from the log-linear latency histogram (latency_hist.h).
 */
#include "latency_hist.h"

#include <math.h>

void
lh_bucket_bounds(int bucket, double *lower, double *upper)
{
	int			octave;
	int			sub;
	double		step;

	if (bucket <= 0)
	{
		*lower = 0;
		*upper = (double) ((uint64_t) 1 << LH_MIN_SHIFT);
		return;
	}
	octave = (bucket - 1) / LH_SUBS + LH_MIN_SHIFT;
	sub = (bucket - 1) % LH_SUBS;
	step = ldexp(1.0, octave - LH_SUB_BITS);
	*lower = (LH_SUBS + sub) * step;
	*upper = (bucket == LH_BUCKETS - 1) ? INFINITY : *lower + step;
}

double
lh_quantile(const uint64_t *counts, double q, double max_ns)
{
	uint64_t	n = 0;
	uint64_t	rank;
	uint64_t	seen = 0;

	for (int b = 0; b < LH_BUCKETS; b++)
		n += counts[b];
	if (n == 0)
		return 0;
	rank = (uint64_t) ceil(q * (double) n);
	if (rank < 1)
		rank = 1;

	for (int b = 0; b < LH_BUCKETS; b++)
	{
		seen += counts[b];
		if (seen >= rank)
		{
			double		lower,
						upper,
						mid;

			lh_bucket_bounds(b, &lower, &upper);
			mid = isinf(upper) ? max_ns : (lower + upper) / 2;
			return mid > max_ns ? max_ns : mid;
		}
	}
	return max_ns;
}
