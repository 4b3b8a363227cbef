/*-------------------------------------------------------------------------
 *
 * runner.h
 *		Executing an experiment's plan against its variants' servers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_RUNNER_H
#define PGBENCH_EXT_RUNNER_H

#include "experiment.h"
#include "preflight.h"

typedef struct RunOptions
{
	const char *results_dir;
	bool		resume;			/* continue an interrupted experiment */
	const char *rerun_of;		/* the directory this one repeats, or NULL */
	int			max_restarts;	/* postmaster deaths tolerated per variant */
	bool		no_summary;		/* the caller analyses the results itself */
	bool		quiet_looks;	/* rounds = auto: no line per cell after each look */
	bool		build_only;		/* build the source variants, run nothing */
	const char *resume_dir;		/* what --resume continues, if not
								 * results_dir (counted_view.c) */
	const PreflightResult *preflight;	/* what the pre-flight found, the pilot
										 * it asks for (pilot.c); NULL: none */
} RunOptions;

extern int	runner_execute(ExperimentSpec *spec, const RunOptions *opts);
extern int	runner_summary(const ExperimentSpec *spec, const RunOptions *opts);
extern void runner_catch_interrupts(void);
extern int	runner_failure_status(void);

#endif							/* PGBENCH_EXT_RUNNER_H */
