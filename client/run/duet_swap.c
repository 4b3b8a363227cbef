/*-------------------------------------------------------------------------
 *
 * duet_swap.c
 *		A duet's two sides trade their CPU sets many times within a run.
 *
 * A duet pins each side (a server and its pgbench) to half of the CPUs and
 * swaps the halves from round to round, so that a CPU that is slower for a
 * whole round costs both sides alike over the rounds.  On a shared virtual
 * machine a CPU's speed drifts within a second (another tenant on the
 * physical core, the host's scheduler), and a round's ratio carries
 * whichever CPU was slower while it ran: that was most of the round-to-round
 * noise of an A/A here.  Trading the sets every swap_interval within the
 * run puts each side about half of its time on each CPU, so that a drift
 * lasting longer than the interval cancels within the round itself
 * (docs/calibration.md, "Trading the CPUs within a run").
 *
 * A trade moves every thread of each side's pgbench, its postmaster and
 * every process the postmaster has started (backends it forks later inherit
 * its set).  The side moved first alternates, so that neither is always the
 * one that briefly shares a CPU with the other between the two moves.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "duet_swap.h"
#include "procfs.h"
#include "progress.h"
#include "quiet.h"

/* The most threads of one pgbench that are moved (its -j) */
#define DUET_SWAP_MAX_THREADS 1024

void
duet_swap_begin(DuetSwap *s, int interval_ms, const pid_t postmaster[2],
				const pid_t pgbench[2], const cpu_set_t set[2])
{
	memset(s, 0, sizeof(*s));
	s->interval_ms = interval_ms;
	for (int i = 0; i < 2; i++)
	{
		s->postmaster[i] = postmaster[i];
		s->pgbench[i] = pgbench[i];
		s->set[i] = set[i];
	}
	s->next_at = now_seconds() + interval_ms / 1000.0;
}

int
duet_swap_wait_ms(const DuetSwap *s, int longest_ms)
{
	double		left_ms;

	if (s->interval_ms <= 0)
		return longest_ms;
	left_ms = (s->next_at - now_seconds()) * 1000.0;
	return left_ms <= 0 ? 0 : Min(longest_ms, (int) left_ms + 1);
}

/* One side onto set: its pgbench's threads, then its server */
static bool
move_side(pid_t postmaster, pid_t pgbench, const cpu_set_t *set, char **error)
{
	pid_t		threads[DUET_SWAP_MAX_THREADS];
	int			n = procfs_threads(pgbench, threads, lengthof(threads));

	/* a pgbench that has just ended has nothing left to move */
	for (int i = 0; i < n; i++)
		if (sched_setaffinity(threads[i], sizeof(*set), set) != 0 && errno != ESRCH)
			return fail_with(error, "could not move pgbench (thread %d) to CPUs %s: %m",
							 (int) threads[i], quiet_cpu_list(set));
	return quiet_pin_server(postmaster, set, error);
}

bool
duet_swap_if_due(DuetSwap *s, char **error)
{
	cpu_set_t	was0;

	if (s->interval_ms <= 0 || now_seconds() < s->next_at)
		return true;
	was0 = s->set[0];
	s->set[0] = s->set[1];
	s->set[1] = was0;
	for (int k = 0; k < 2; k++)
	{
		int			side = (s->lead + k) % 2;

		if (!move_side(s->postmaster[side], s->pgbench[side], &s->set[side], error))
		{
			s->interval_ms = 0;
			return false;
		}
	}
	s->lead = 1 - s->lead;
	s->swaps++;
	/* a late wake-up is not made up for: the next trade is an interval on */
	s->next_at = now_seconds() + s->interval_ms / 1000.0;
	return true;
}
