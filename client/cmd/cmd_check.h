/*-------------------------------------------------------------------------
 *
 * cmd_check.h
 *		The dry run of "run" and "ab" (cmd_check.c): their "--check", the
 *		pre-flight alone.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CMD_CHECK_H
#define PGBENCH_EXT_CMD_CHECK_H

#include "experiment.h"
#include "preflight.h"

extern int	check_execute(ExperimentSpec *spec, const char *source);

#endif							/* PGBENCH_EXT_CMD_CHECK_H */
