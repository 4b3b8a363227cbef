/*-------------------------------------------------------------------------
 *
 * plan.h
 *		The order of an experiment's runs.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PLAN_H
#define PGBENCH_EXT_PLAN_H

#include "experiment.h"

typedef struct PlannedRun
{
	int			run_id;			/* 1-based position in the plan */
	int			round;			/* 1-based */
	int			variant;		/* index into spec->variants */
	int			script;			/* index into spec->scripts */
	int			clients;
	bool		warmup;			/* in a warmup round: recorded, not counted */
} PlannedRun;

typedef struct Plan
{
	PlannedRun *runs;
	int			nruns;
} Plan;

extern Plan *plan_build(const ExperimentSpec *spec);
extern json_t *plan_to_json(const Plan *plan, const ExperimentSpec *spec);

#endif							/* PGBENCH_EXT_PLAN_H */
