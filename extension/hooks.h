/*-------------------------------------------------------------------------
 *
 * hooks.h
 *		The executor, utility and transaction hooks that feed the counters
 *		(hooks.c), and their settings pgbench_ext.track and track_hw.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_HOOKS_H
#define PGBENCH_EXT_HOOKS_H

#include "pgbench_ext.h"

#include "perf_events.h"

/* pgbench_ext.track_hw: read perf_event counters at transaction ends */
extern bool pgbench_ext_track_hw;

/* Defines the settings and installs the hooks; from _PG_init when preloaded. */
extern void hooks_init(void);

/* The perf_event set this backend reads with track_hw on, else NULL. */
extern const PerfEventSet *hooks_perf_events(void);

#endif							/* PGBENCH_EXT_HOOKS_H */
