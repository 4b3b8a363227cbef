/*-------------------------------------------------------------------------
 *
 * inject_delay.c
 *		pgbench_ext.inject_delay_ns: a known slowdown for calibrating the
 *		harness.
 *
 * A backend with the setting above zero busy-waits that many nanoseconds
 * just before each of its transactions commits.  A busy-wait (not a sleep)
 * costs CPU the way real extra work does, and the extension's CPU counters
 * see it — which is how "pgbench_ext calibrate" checks the true effect
 * independently of tps.  Superuser only: it slows the server on purpose.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include "utils/guc.h"

/* 100 ms: beyond that a "calibration" is a stall, not a slowdown */
#define INJECT_DELAY_MAX_NS 100000000

static int	inject_delay_ns = 0;

static void
spin_ns(uint64 ns)
{
	uint64		start = pgbench_ext_now_ns();

	while (pgbench_ext_now_ns() - start < ns)
		;
}

/*
 * Called by the extension's one transaction callback (hooks.c) at
 * XACT_EVENT_PRE_COMMIT: a callback of its own would cost every
 * transaction of every backend a call per event, delay or not.
 */
void
inject_delay_before_commit(void)
{
	/*
	 * No CHECK_FOR_INTERRUPTS here: an error is not allowed this close to
	 * commit, and the wait is bounded by INJECT_DELAY_MAX_NS.
	 */
	if (inject_delay_ns > 0)
		spin_ns(inject_delay_ns);
}

void
inject_delay_init(void)
{
	DefineCustomIntVariable("pgbench_ext.inject_delay_ns",
							"Busy-waits this many nanoseconds before each transaction commits (calibration only).",
							"A known slowdown for \"pgbench_ext calibrate\"; leave at 0 otherwise.",
							&inject_delay_ns,
							0,
							0, INJECT_DELAY_MAX_NS,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
}
