/*-------------------------------------------------------------------------
 *
 * run_execute.h
 *		An experiment from its specification to its verdicts (run_execute.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_RUN_EXECUTE_H
#define PGBENCH_EXT_RUN_EXECUTE_H

#include "experiment.h"
#include "runner.h"

/* command names the command in hints ("run", "ab", "bisect") */
extern int	run_execute(ExperimentSpec *spec, RunOptions *ropts, const char *command);

#endif							/* PGBENCH_EXT_RUN_EXECUTE_H */
