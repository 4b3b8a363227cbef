/*-------------------------------------------------------------------------
 *
 * host_load.h
 *		What the host allows a run, read from /proc and /sys as the
 *		pre-flight begins (host_load.c): the CPUs this process may use,
 *		other processes' share of them, steal time, the load average and
 *		the frequency governor.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_HOST_LOAD_H
#define PGBENCH_EXT_HOST_LOAD_H

#include <stdio.h>

#include "experiment.h"

/*
 * Other processes' share of the CPUs above which the host is loaded: its
 * noise is another host's (a loaded demo's round sd was 1.5 to 2 times a
 * quiet one's, docs/calibration.md), so a record of the noise history is
 * of this load or not.
 */
#define LOADED_BUSY_PCT 25

typedef struct HostLoad
{
	int			cpus;			/* this process may use */
	double		busy_pct;		/* of those CPUs, in the sample: other
								 * processes; NAN: not measured */
	double		steal_pct;
	double		load1;
	char	   *governor;		/* NULL where not visible */
} HostLoad;

/* Half a second's sample of the CPUs this process may use, and the rest */
extern void host_load_measure(HostLoad *h);

/* The pre-flight's lines of the host, with a warning for each limit */
extern void host_load_print(const ExperimentSpec *spec, const HostLoad *h, FILE *out);

#endif							/* PGBENCH_EXT_HOST_LOAD_H */
