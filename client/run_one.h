/*-------------------------------------------------------------------------
 *
 * run_one.h
 *		One run of the plan.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_RUN_ONE_H
#define PGBENCH_EXT_RUN_ONE_H

#include <signal.h>

#include "progress.h"
#include "results.h"
#include "setup.h"

/* Set by the SIGINT/SIGTERM handler; the current run stops and is recorded. */
extern volatile sig_atomic_t run_interrupted;

extern bool execute_run(Experiment *x, const PlannedRun *pr, Progress *progress,
						RunRecord *rec, char **error);

#endif							/* PGBENCH_EXT_RUN_ONE_H */
