/*-------------------------------------------------------------------------
 *
 * run_one.h
 *		One run of the plan.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_RUN_ONE_H
#define PGBENCH_EXT_RUN_ONE_H

#include "progress.h"
#include "results.h"
#include "setup.h"
#include "subprocess.h"		/* run_interrupted: the current run stops and is recorded */

extern bool execute_and_record_run(Experiment *x, const PlannedRun *pr, Progress *progress,
								   RunRecord *rec, char **error);
extern bool execute_and_record_duet(Experiment *x, const PlannedRun *pr, Progress *progress,
									RunRecord rec[2], char **error);
extern void run_sessions_close(Experiment *x);

#endif							/* PGBENCH_EXT_RUN_ONE_H */
