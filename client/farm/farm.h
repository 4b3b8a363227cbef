/*-------------------------------------------------------------------------
 *
 * farm.h
 *		The farm: results of many machines and many dates taken together.
 *
 *   farm_machine.c   a machine's facts when it runs an experiment, and the
 *                    fingerprint that tells machines apart in its results
 *   farm_plot.c      the history's data files and its plot
 *   farm_report.c    "pgbench_ext report DIR1 DIR2 ...": machines as a level
 *   cmd_history.c    "pgbench_ext history DIR...": change points of a series
 *   farm_import.c    a results directory into the results database, for
 *                    "import" (cmd_import.c) and the queue's agents
 *   farm_agent.c     "pgbench_ext agent": a host working through the queue
 *                    of jobs that "submit" fills (cmd_submit.c)
 *   farm_heartbeat.c the heartbeat of an agent's running job
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_FARM_H
#define PGBENCH_EXT_FARM_H

#include "stats.h"

#include <jansson.h>

/* A machine as its results record it. */
typedef struct FarmMachine
{
	char	   *fingerprint;	/* 16 hex digits of the SHA-256 of facts */
	char	   *hostname;		/* "" when not recorded */
	json_t	   *facts;			/* what the fingerprint is of */
} FarmMachine;

/* One point of a history: one results directory's figure. */
typedef struct FarmPoint
{
	char	   *label;			/* the results directory */
	char	   *written_at;
	int			runs;			/* counted runs behind the value */
	double		value;			/* their geometric mean tps */
	char	   *signature;		/* of its experiment (farm_signature) */
	FarmMachine machine;
} FarmPoint;

/* farm_machine.c */
extern json_t *farm_machine_json(void);
extern FarmMachine farm_machine_of(json_t *experiment);
extern bool farm_same_machine(const FarmPoint *pts, int n, char **error);
extern char *farm_signature(json_t *experiment);

/* farm_report.c: "report DIR1 DIR2 ...", the machine as the top level */
extern int	farm_report(char **dirs, int n, const char *baseline);

/* farm_plot.c */
extern bool farm_write_history(const char *dir, const FarmPoint *pts, int n,
							   const StatsChangePoint *cp, int k, char **note);

#endif							/* PGBENCH_EXT_FARM_H */
