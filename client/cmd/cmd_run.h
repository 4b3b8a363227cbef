/*-------------------------------------------------------------------------
 *
 * cmd_run.h
 *		What "pgbench_ext run" (cmd_run.c) and "pgbench_ext ab" (cmd_ab.c)
 *		share: the plan's seed, and the checks and pre-flight before the
 *		runner.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CMD_RUN_H
#define PGBENCH_EXT_CMD_RUN_H

#include "experiment.h"
#include "runner.h"

extern void run_choose_seed(ExperimentSpec *spec, const char *seed_arg);
extern int	run_execute(ExperimentSpec *spec, RunOptions *ropts, const char *command);

#endif							/* PGBENCH_EXT_CMD_RUN_H */
