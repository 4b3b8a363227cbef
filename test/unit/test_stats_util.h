/*-------------------------------------------------------------------------
 *
 * test_stats_util.h
 *		What the statistics unit tests (test/unit/test_stats*.c) share:
 *		TAP output, a deterministic random number generator, and Monte
 *		Carlo tolerances.
 *
 * Every simulation starts from a fixed seed, so a run is reproducible to
 * the bit and a failure can be replayed; the generator (xorshift64*,
 * normals by Box–Muller) shares no code with the module under test.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_TEST_STATS_UTIL_H
#define PGBENCH_EXT_TEST_STATS_UTIL_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_PI 3.14159265358979323846

static int	test_count = 0;
static int	test_failed = 0;

static inline void
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

static inline void
is_close(double got, double want, double tol, const char *what)
{
	ok(fabs(got - want) <= tol, "%s: got %.12g, want %.12g", what, got, want);
}

/* A TAP diagnostic line: figures worth reading, not asserted. */
static inline void
diag(const char *fmt,...)
{
	va_list		ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* The plan line and the exit status prove expects. */
static inline int
done_testing(void)
{
	printf("1..%d\n", test_count);
	return test_failed > 0;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static inline void
rng_seed(uint64_t seed)
{
	rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
}

static inline double
rng_uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static inline double
rng_normal(void)
{
	double		u1 = rng_uniform(),
				u2 = rng_uniform();

	if (u1 <= 0.0)
		u1 = 1e-300;
	return sqrt(-2.0 * log(u1)) * cos(2.0 * TEST_PI * u2);
}

/* n values of level * exp(noise * N(0,1)) */
static inline void
noisy_sample(double *x, int n, double level, double noise)
{
	for (int i = 0; i < n; i++)
		x[i] = level * exp(noise * rng_normal());
}

/*
 * Monte Carlo tolerance for a rate with nominal value p estimated from n
 * simulations: 3.09 standard errors, sqrt(p(1-p)/n), the one-sided normal
 * quantile of 0.999.  A true rate at p fails "<= p + mc_tolerance" about
 * once in 1,000 fresh seeds, the project's rule for tests of noisy data;
 * with the fixed seeds here it passes or fails the same way every run.
 */
static inline double
mc_tolerance(double p, int n)
{
	return 3.09 * sqrt(p * (1.0 - p) / n);
}

/*
 * Whether PGBENCH_EXT_TEST_LONG=1 (make test-build, CI) asks for what takes
 * minutes by nature: the simulations at the size docs/ quotes.
 */
static inline bool
test_long(void)
{
	const char *lng = getenv("PGBENCH_EXT_TEST_LONG");

	return lng != NULL && lng[0] != '\0' && strcmp(lng, "0") != 0;
}

/*
 * How many experiments a simulation runs: "quick" under make test, "full"
 * under PGBENCH_EXT_TEST_LONG=1.  A rate's tolerance is computed from the
 * number actually run.
 */
static inline int
sim_reps(int quick, int full)
{
	return test_long() ? full : quick;
}

#endif							/* PGBENCH_EXT_TEST_STATS_UTIL_H */
