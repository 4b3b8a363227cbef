/*
 * latency_hist.h
 *		Log-linear latency histogram: fixed buckets, quantiles within 3.2%.
 *
 * Each power of two between 128 ns and 2^37 ns (137 s) is split into 16
 * equal sub-buckets, so a bucket is at most 1/16 of its lower bound wide
 * and its midpoint is within 1/32 (3.1%) of any value in it.  Counting is an
 * index computation and one increment, cheap enough for every statement;
 * the extension keeps one array per backend and sums them when read, and
 * the client can do the same with arrays it fetched.
 *
 * Plain C99, no PostgreSQL headers: compiled into the extension, the client
 * and the unit tests.
 */
#ifndef LATENCY_HIST_H
#define LATENCY_HIST_H

#include <stdint.h>

#define LH_MIN_SHIFT	7		/* values below 2^7 ns share bucket 0 */
#define LH_MAX_SHIFT	37		/* values from 2^37 ns on share the last */
#define LH_SUB_BITS		4
#define LH_SUBS			(1 << LH_SUB_BITS)
#define LH_BUCKETS		(1 + (LH_MAX_SHIFT - LH_MIN_SHIFT) * LH_SUBS)

static inline int
lh_bucket(uint64_t ns)
{
	int			msb;

	if (ns < ((uint64_t) 1 << LH_MIN_SHIFT))
		return 0;
	msb = 63 - __builtin_clzll(ns);
	if (msb >= LH_MAX_SHIFT)
		return LH_BUCKETS - 1;
	return 1 + (msb - LH_MIN_SHIFT) * LH_SUBS +
		(int) ((ns >> (msb - LH_SUB_BITS)) & (LH_SUBS - 1));
}

/* [lower, upper) of a bucket, in ns */
extern void lh_bucket_bounds(int bucket, double *lower, double *upper);

/*
 * The q-quantile (0 < q <= 1) of the values counted in counts[LH_BUCKETS],
 * as the midpoint of the bucket holding the value of rank ceil(q * n),
 * clamped to max_ns (the exact maximum, kept beside the histogram).
 * Returns 0 when the histogram is empty.
 */
extern double lh_quantile(const uint64_t *counts, double q, double max_ns);

#endif							/* LATENCY_HIST_H */
