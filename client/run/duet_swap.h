/*-------------------------------------------------------------------------
 *
 * duet_swap.h
 *		A duet's two sides trading their CPU sets within a run
 *		(swap_interval; duet_swap.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_DUET_SWAP_H
#define PGBENCH_EXT_DUET_SWAP_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

typedef struct DuetSwap
{
	int			interval_ms;	/* 0: the sets stay for the whole run */
	pid_t		postmaster[2];
	pid_t		pgbench[2];
	cpu_set_t	set[2];			/* each side's CPU set now */
	double		next_at;		/* now_seconds() of the next trade */
	int			lead;			/* the side moved first at the next trade */
	int			swaps;			/* trades made */
} DuetSwap;

/*
 * Begin trading every interval_ms (0: never) the sets of two running sides,
 * side i being the server of postmaster[i] and its pgbench[i], now on set[i].
 */
extern void duet_swap_begin(DuetSwap *s, int interval_ms, const pid_t postmaster[2],
							const pid_t pgbench[2], const cpu_set_t set[2]);

/* How long to wait for pgbench's output before the next trade is due */
extern int	duet_swap_wait_ms(const DuetSwap *s, int longest_ms);

/*
 * Trade the sets if the time has come.  False (with *error) when a process
 * of a side could not be moved; the trading then stops.
 */
extern bool duet_swap_if_due(DuetSwap *s, char **error);

#endif							/* PGBENCH_EXT_DUET_SWAP_H */
