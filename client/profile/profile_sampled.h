/*-------------------------------------------------------------------------
 *
 * profile_sampled.h
 *		Sampled profiles: perf records the servers during each run
 *		(profile_sampled.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_SAMPLED_H
#define PGBENCH_EXT_PROFILE_SAMPLED_H

#include "profile_data.h"
#include "run_one.h"

/* A run of a sampled experiment (profile_run.c) */
typedef struct SampledRun SampledRun;

extern SampledRun *sampled_prepare(Experiment *x, const PlannedRun *pr, PGconn *conn);
extern void sampled_start(SampledRun *sr);
extern void sampled_stop(SampledRun *sr);
extern bool sampled_collect(SampledRun *sr, const RunRecord *rec, Prof *out,
							char **problem);

#endif							/* PGBENCH_EXT_PROFILE_SAMPLED_H */
