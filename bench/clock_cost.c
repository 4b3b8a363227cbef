/*
 * clock_cost.c — what one clock read of the hooks costs natively: the
 * clock_gettime(CLOCK_MONOTONIC) that pgbench_ext_now_ns() makes three
 * times per pgbench -S transaction.  callgrind cannot count it (valgrind
 * hides the vDSO), so bench/hook_instructions.sh runs this beside its
 * counts.  Prints the mean over 5 million calls, best of three.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define CALLS 5000000

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000 + (uint64_t) ts.tv_nsec;
}

int
main(void)
{
	double		best = -1;
	volatile uint64_t sink = 0;	/* keeps the calls from being optimized away */

	for (int attempt = 0; attempt < 3; attempt++)
	{
		uint64_t	start = now_ns();
		double		ns;

		for (int i = 0; i < CALLS; i++)
			sink += now_ns();
		ns = (double) (now_ns() - start) / CALLS;
		if (best < 0 || ns < best)
			best = ns;
	}
	printf("clock_gettime(CLOCK_MONOTONIC): %.1f ns per call (best of 3 x %d calls)\n",
		   best, CALLS);
	return 0;
}
