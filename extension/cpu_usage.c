/*-------------------------------------------------------------------------
 *
 * cpu_usage.c
 *		CPU time and context switches of the calling backend, read off the
 *		hot path.
 *
 * pg_stat_kcache calls getrusage() twice per query, which costs it several
 * per cent of tps under pgbench -S.  Here a backend calls getrusage() at
 * most once per CPU_READ_INTERVAL_MS, at a transaction end (hooks.c) and
 * at exit, and adds the difference since its previous call.  Divided by the
 * transactions counted in the same slots, that gives CPU per transaction
 * over any interval much longer than the read interval, such as a pgbench
 * run, at a cost per transaction of a clock comparison.
 *
 *-------------------------------------------------------------------------
 */
#include "cpu_usage.h"

#include <sys/resource.h>
#include <sys/time.h>

static inline uint64
timeval_us(struct timeval tv)
{
	return (uint64) tv.tv_sec * 1000000 + (uint64) tv.tv_usec;
}

static inline uint64
grown(uint64 now, uint64 before)
{
	return now > before ? now - before : 0;
}

/*
 * Add this process's CPU time and context switches since the previous call
 * to *v.  The first call only takes the baseline: start-up before the first
 * tracked transaction is not charged to transactions.
 */
void
cpu_usage_add_since_last(CounterValues *v)
{
	static struct rusage last;
	static bool have_last = false;
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return;
	if (have_last)
	{
		v->cpu_user_us += grown(timeval_us(ru.ru_utime), timeval_us(last.ru_utime));
		v->cpu_sys_us += grown(timeval_us(ru.ru_stime), timeval_us(last.ru_stime));
		v->voluntary_switches += grown(ru.ru_nvcsw, last.ru_nvcsw);
		v->involuntary_switches += grown(ru.ru_nivcsw, last.ru_nivcsw);
	}
	last = ru;
	have_last = true;
}
