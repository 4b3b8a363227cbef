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
 * loop, and gets no wait.  That holds while each backend and its client
 * have CPUs to themselves; where they queue for a CPU behind other
 * backends' waits, those waits lengthen the cycle and the slowdown comes
 * out larger than pct — which is why calibrate measures the true effect
 * rather than assuming it.
 *
 * Superuser only: both slow the server on purpose.
 *
 *-------------------------------------------------------------------------
 */
#include "inject_delay.h"

#include "utils/guc.h"

/* 100 ms: beyond that a "calibration" is a stall, not a slowdown */
#define INJECT_DELAY_MAX_NS 100000000

/* a transaction cycle longer than this was idle time, not load */
#define INJECT_IDLE_NS UINT64CONST(1000000000)

static int	inject_delay_ns = 0;
static double inject_slowdown_pct = 0.0;

bool		inject_delay_wanted = false;

/* when this backend last left slow_down_cycle(); 0 before the first call */
static uint64 cycle_start_ns = 0;

/*
 * Wait time owed (positive) or overpaid (negative) by this backend.  A
 * spin ends one clock read late at best, and the clock reads around it
 * cost time too; carrying the difference into the next wait makes the
 * time spent in waits, overheads included, converge on the target share
 * instead of overshooting it on every transaction.
 */
static double wait_balance_ns = 0.0;

/*
 * No pause instruction in the loop: it waits for a clock, not for another
 * CPU, and under KVM a long run of pauses can make the hypervisor take the
 * vCPU away (pause-loop exiting), a delay nobody asked for.
 */
static void
spin_until(uint64 end_ns)
{
	while (pgbench_ext_now_ns() < end_ns)
		;
}

/*
 * The proportional wait: of the time between two returns from here, pct
 * percent is spent in here.
 */
static void
slow_down_cycle(void)
{
	uint64		now = pgbench_ext_now_ns();
	uint64		outside_ns = now - cycle_start_ns;

	if (cycle_start_ns == 0 || outside_ns >= INJECT_IDLE_NS)
	{
		/* first call or an idle backend: start a new loop, owing nothing */
		wait_balance_ns = 0.0;
		cycle_start_ns = now;
		return;
	}

	wait_balance_ns += (double) outside_ns *
		inject_slowdown_pct / (100.0 - inject_slowdown_pct);
	if (wait_balance_ns > 0.0)
		spin_until(now + (uint64) Min(wait_balance_ns,
									  (double) INJECT_DELAY_MAX_NS));
	cycle_start_ns = pgbench_ext_now_ns();
	wait_balance_ns -= (double) (cycle_start_ns - now);

	/* an overpayment (a spin preempted for long) is not carried for ever */
	wait_balance_ns = Max(wait_balance_ns, -(double) INJECT_DELAY_MAX_NS);
}

/*
 * Called by the extension's one transaction callback (hooks.c) at
 * XACT_EVENT_PRE_COMMIT when inject_delay_wanted: a callback of its own
 * would cost every transaction of every backend a call per event, delay or
 * not.
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

static void
assign_inject_delay_ns(int newval, void *extra)
{
	inject_delay_wanted = newval > 0 || inject_slowdown_pct > 0.0;
}

static void
assign_inject_slowdown_pct(double newval, void *extra)
{
	inject_delay_wanted = inject_delay_ns > 0 || newval > 0.0;
}

void
inject_delay_define_settings(void)
{
	DefineCustomIntVariable("pgbench_ext.inject_delay_ns",
							"Busy-waits this many nanoseconds before each transaction commits (calibration only).",
							"A known slowdown for \"pgbench_ext calibrate\"; leave at 0 otherwise.",
							&inject_delay_ns,
							0,
							0, INJECT_DELAY_MAX_NS,
							PGC_SUSET,
							0,
							NULL, assign_inject_delay_ns, NULL);
	DefineCustomRealVariable("pgbench_ext.inject_slowdown_pct",
							 "Busy-waits before each transaction commits so that a closed-loop load slows down by this percentage (calibration only).",
							 "The wait is this share of the backend's transaction cycle, so the slowdown holds while the machine's speed drifts; leave at 0 otherwise.",
							 &inject_slowdown_pct,
							 0.0,
							 0.0, 50.0,
							 PGC_SUSET,
							 0,
							 NULL, assign_inject_slowdown_pct, NULL);
}
