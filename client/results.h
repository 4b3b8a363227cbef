/*-------------------------------------------------------------------------
 *
 * results.h
 *		The results directory: the single source of truth of an experiment.
 *
 *   experiment.json   resolved spec, seed, plan, every variant's
 *                     environment() and pg_config, the machine, setup times
 *   runs.csv          one line per run, appended and fsync'd as each ends
 *   runs/NNNN.*       each run's raw pgbench output (.out), progress (.err)
 *                     and everything pulled over SQL (.json)
 *   interrupted.csv   runs stopped by Ctrl-C (redone by --resume)
 *   clusters/NAME     managed clusters (data, server.log)
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_RESULTS_H
#define PGBENCH_EXT_RESULTS_H

#include "plan.h"

typedef struct RunRecord
{
	const PlannedRun *planned;
	const char *variant;
	const char *script;
	int			jobs;
	char		started_at[32];
	double		duration_s;		/* wall clock of the pgbench process */
	double		reset_s;		/* time to copy the data from the template */
	double		tps;
	double		latency_avg_ms;
	double		latency_stddev_ms;
	long long	transactions;
	long long	failed_tx;
	const char *status;			/* ok, failed, interrupted */
	char	   *reason;			/* why not ok, or NULL */
	int			checkpoints_during;
	int			autovacuum_during;
	/* from the extension's counters; NAN when the variant runs without it */
	double		cpu_user_us_per_tx;
	double		cpu_sys_us_per_tx;
	double		voluntary_switches_per_tx;
	double		involuntary_switches_per_tx;
	/* from the statistics views, deltas over the run */
	double		blks_hit;
	double		blks_read;
	double		wal_bytes;
} RunRecord;

/* runs.csv as read back: every line checked against the experiment */
typedef struct RunsCsv
{
	char	   *path;
	int			ncols;
	char	   *header;			/* the first line, line end included */
	char	  **columns;		/* its names */
	int			nrows;
	char	 ***rows;			/* nrows rows of ncols fields each */
	char	  **lines;			/* each row as written, line end included */
} RunsCsv;

extern bool results_create(const char *dir, char **error);
extern bool results_write_json(const char *dir, const char *name, json_t *obj, char **error);
extern json_t *results_read_json(const char *dir, const char *name, char **error);
extern json_t *results_read_spec(const char *dir, ExperimentSpec *spec, char **error);
extern bool results_append_run(const char *dir, const RunRecord *rec, char **error);
extern RunsCsv *results_read_runs(const char *dir, const ExperimentSpec *spec, char **error);
extern int	runs_csv_column(const RunsCsv *t, const char *name);
extern bool results_read_run_detail(const char *dir, int run_id, json_t **detail, char **error);
extern bool *results_completed_runs(const char *dir, const ExperimentSpec *spec, int nruns,
									int *ncompleted, char **error);
extern char *results_run_path(const char *dir, int run_id, const char *suffix);

#endif							/* PGBENCH_EXT_RESULTS_H */
