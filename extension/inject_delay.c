/*-------------------------------------------------------------------------
 *
 * inject_delay.c
 *		pgbench_ext.inject_delay_ns and pgbench_ext.inject_slowdown_pct:
 *		a known slowdown for calibrating the harness.
 *
 * A backend with either setting above zero busy-waits just before each of
 * its transactions commits.  A busy-wait (not a sleep) costs CPU the way
 * real extra work does, and the extension's CPU counters see it — which is
 * how "pgbench_ext calibrate" checks the true effect independently of tps.
 *
 * inject_delay_ns waits a fixed time.  Its share of a transaction changes
 * with the machine's speed: on a shared machine that speeds up by half
 * over an hour, a delay sized for 3% becomes 4.5%.  inject_slowdown_pct
 * waits in proportion to the backend's own transaction cycle instead — the
 * time from the end of its previous wait to this commit, which in a
 * closed loop such as pgbench without --rate is one transaction as its
 * client sees it — so that every cycle becomes 100 / (100 - pct) times as
 * long and throughput falls by pct percent whatever the machine's speed.
 * A cycle longer than INJECT_IDLE_NS is a backend that sat idle, not a
 * loop, and gets no wait.
 *
 * Superuser only: both slow the server on purpose.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include "utils/guc.h"

/* 100 ms: beyond that a "calibration" is a stall, not a slowdown */
#define INJECT_DELAY_MAX_NS 100000000

/* a transaction cycle longer than this was idle time, not load */
#define INJECT_IDLE_NS UINT64CONST(1000000000)

static int	inject_delay_ns = 0;
static double inject_slowdown_pct = 0.0;

/* when this backend's previous pre-commit wait ended; 0 before the first */
static uint64 cycle_start_ns = 0;

static void
spin_until(uint64 end_ns)
{
	while (pgbench_ext_now_ns() < end_ns)
		;
}

/* The proportional wait: pct percent of the cycle with the wait included. */
static void
slow_down_cycle(void)
{
	uint64		now = pgbench_ext_now_ns();

	if (cycle_start_ns != 0 && now - cycle_start_ns < INJECT_IDLE_NS)
	{
		double		wait = (double) (now - cycle_start_ns) *
			inject_slowdown_pct / (100.0 - inject_slowdown_pct);

		spin_until(now + (uint64) Min(wait, (double) INJECT_DELAY_MAX_NS));
		now = pgbench_ext_now_ns();
	}
	cycle_start_ns = now;
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
	 * commit, and each wait is bounded by INJECT_DELAY_MAX_NS.
	 */
	if (inject_delay_ns > 0)
		spin_until(pgbench_ext_now_ns() + inject_delay_ns);
	if (inject_slowdown_pct > 0.0)
		slow_down_cycle();
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
	DefineCustomRealVariable("pgbench_ext.inject_slowdown_pct",
							 "Busy-waits before each transaction commits so that a closed-loop load slows down by this percentage (calibration only).",
							 "The wait is this share of the backend's transaction cycle, so the slowdown holds while the machine's speed drifts; leave at 0 otherwise.",
							 &inject_slowdown_pct,
							 0.0,
							 0.0, 50.0,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);
}
