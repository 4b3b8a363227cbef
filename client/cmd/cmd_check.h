/*-------------------------------------------------------------------------
 *
 * cmd_check.h
 *		What "pgbench_ext check" (cmd_check.c) shares with "run" and "ab":
 *		the pre-flight a run prints before its first run, and check's of an
 *		experiment, which "ab --check" prints too.
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
