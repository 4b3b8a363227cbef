/*-------------------------------------------------------------------------
 *
 * profile_run.h
 *		The profile hooks of one run, and its runs/NNNN.profile.json
 *		(profile_run.c); with profile = off every hook is a no-op.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_RUN_H
#define PGBENCH_EXT_PROFILE_RUN_H

#include "run_one.h"

/* The hooks of one run, in this order (run_one.c) */
typedef struct ProfileRun ProfileRun;

extern ProfileRun *profile_run_prepare(Experiment *x, const PlannedRun *pr, PGconn *conn);
extern void profile_run_start(ProfileRun *pr);
extern void profile_run_stop(ProfileRun *pr);
extern void profile_run_collect(ProfileRun *pr, RunRecord *rec);

#endif							/* PGBENCH_EXT_PROFILE_RUN_H */
