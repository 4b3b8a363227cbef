/*-------------------------------------------------------------------------
 *
 * pilot.h
 *		The pre-flight's pilot: paired rounds before the first counted run
 *		that measure the noise at the host's load now (pilot.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PILOT_H
#define PGBENCH_EXT_PILOT_H

#include "preflight.h"
#include "run_one.h"

/*
 * Run the pre-flight's pilot rounds in block "block" (one more first when
 * warm_first), print what they say of the time to decide, and keep it in
 * pilot.json.  clock_zero: now_seconds() when the experiment's time began.
 * False (error set) when the experiment cannot go on; true when
 * interrupted.
 */
extern bool pilot_measure(Experiment *x, const PreflightResult *preflight, bool warm_first,
						  int block, double clock_zero, Progress *progress, int *last_id,
						  char **error);

#endif							/* PGBENCH_EXT_PILOT_H */
