/*-------------------------------------------------------------------------
 *
 * cmd_bisect.h
 *		A new bisect begun from an experiment (cmd_bisect.c), for the
 *		command and for an agent's bisect jobs (cmd_agent_bisect.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CMD_BISECT_H
#define PGBENCH_EXT_CMD_BISECT_H

#include "bisect.h"
#include "experiment.h"

/* What "bisect FILE" was asked */
typedef struct BisectArgs
{
	const char *file;
	const char *dir;
	const char *commits;
	const char *seed;
	int			good;
	int			bad;			/* -1: the last state */
	int			retries;
	bool		resume;
} BisectArgs;

extern bool bisect_begin(Bisect *b, ExperimentSpec *spec, const BisectArgs *a,
						 char **error, const char **hint);

#endif							/* PGBENCH_EXT_CMD_BISECT_H */
