/*-------------------------------------------------------------------------
 *
 * cmd_run.h
 *		What "pgbench_ext run" (cmd_run.c) shares with "pgbench_ext ab"
 *		(cmd_ab.c) and "bisect": the plan's seed.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CMD_RUN_H
#define PGBENCH_EXT_CMD_RUN_H

#include "experiment.h"

extern void run_choose_seed(ExperimentSpec *spec, const char *seed_arg);

#endif							/* PGBENCH_EXT_CMD_RUN_H */
