/*-------------------------------------------------------------------------
 *
 * cmd_check.h
 *		The pre-flight (cmd_check.c) that "run" and "ab" print before their
 *		first run, and the dry run that prints it alone: their "--check".
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CMD_CHECK_H
#define PGBENCH_EXT_CMD_CHECK_H

#include "experiment.h"
#include "preflight.h"

extern PreflightResult check_print(ExperimentSpec *spec, bool choose_restart);
extern int	check_execute(ExperimentSpec *spec, const char *source);

#endif							/* PGBENCH_EXT_CMD_CHECK_H */
