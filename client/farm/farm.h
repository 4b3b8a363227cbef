/*-------------------------------------------------------------------------
 *
 * farm.h
 *		The farm: results of many machines and many dates taken together.
 *
 *   farm_machine.c   a machine's facts when it runs an experiment, and the
 *                    fingerprint that tells machines apart in its results
 *   farm_plot.c      the history's data files and its plot
 *   farm_history_db.c  the histories' points from the results database
 *   farm_html.c      the histories' pages: one per experiment and machine,
 *                    and the farm's index of machines and change points
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
	char	   *variant;		/* the variant whose runs made it */
	char	   *cell;			/* its script and client count */
	int			runs;			/* counted runs behind the value */
	double		value;			/* their geometric mean tps */
	char	   *signature;		/* of its experiment (farm_signature) */
	FarmMachine machine;
} FarmPoint;

/*
 * One history as its page shows it: the points of one experiment
 * (signature) on one machine, their change points, and per change point
 * the bisect that looked for its cause, where one was given.
 */
typedef struct FarmHistory
{
	char	   *dir;			/* where its files and page go */
	char	   *what;			/* its cell: variant, script, clients */
	FarmPoint  *pts;
	int			n;
	StatsChangePoint *cp;
	int			k;
	char	  **bisect_dir;		/* per change point: a bisect directory, or NULL */
	char	  **bisect_answer;	/* and its answer, on one line */
	char	   *plot_note;		/* why there is no plot, or NULL */
} FarmHistory;

/*
 * One agent's queue as the farm's index shows it: the jobs queued that it
 * may take, and those it took last by their state.
 */
typedef struct FarmAgentQueue
{
	char	   *fingerprint;	/* its machine's, as it registered */
	char	   *hostname;
	char	  **fingerprints;	/* that one and its results' */
	int			nfp;
	int			queued;			/* queued for any, its host name or fingerprints */
	int			running;
	int			done;
	int			failed;
} FarmAgentQueue;

/* The queues of the results database: NULL where pages come from directories */
typedef struct FarmQueue
{
	FarmAgentQueue *agents;
	int			n;
	int			unclaimed;		/* queued jobs no registered agent may take */
	char	   *error;			/* why the queue could not be read, or NULL */
} FarmQueue;

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

/* farm_history_db.c */
extern FarmPoint *farm_db_points(PGconn *conn, const char *variant, const char *script,
								 int clients, int *n, char **error);
extern FarmQueue *farm_db_queue(PGconn *conn);

/* farm_html.c */
extern bool farm_write_pages(const char *out, const FarmHistory *h, int nh,
							 const StatsChangeOptions *change, const char *source,
							 const FarmQueue *queue, char **error);

#endif							/* PGBENCH_EXT_FARM_H */
