/*-------------------------------------------------------------------------
 *
 * results.h
 *		The results directory: the single source of truth of an experiment.
 *
 *   experiment.json   resolved spec, seed, plan, every variant's
 *                     environment() and pg_config, the machine, setup times
 *   runs.csv          one line per run, appended and fsync'd as each ends
 *   runs/NNNN.*       each run's raw pgbench output (.out), progress (.err)
 *                     and everything pulled over SQL (.json), with every
 *                     snapshot probe of the run
 *   layout-NAME.json  each variant's struct layout, saved at setup
 *   interrupted.csv   runs stopped by Ctrl-C (redone by --resume)
 *   instances.csv     every start of a managed server: its instance
 *                     number, when, how long stop and start took, why
 *   clusters/NAME     managed clusters (data, server.log)
 *
 * experiment.json's "format" is the version of all these files together
 * (docs/formats.md): written when the directory is made, checked before
 * anything else of it is read.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_RESULTS_H
#define PGBENCH_EXT_RESULTS_H

#include "plan.h"
#include "results_csv.h"

/*
 * The results directory's format this client writes, and the only one it
 * reads.  A change to any file of the directory that an earlier reader
 * would misread comes with a new format, its upgrade documented and a test
 * that reads this one (docs/formats.md).
 */
#define RESULTS_FORMAT "1.0"

/*
 * What the snapshot probe measured during one run (snapshot_probe.c): ns
 * per GetSnapshotData() call over the run's probes of each mode, and the
 * medians of the proc array's xcnt and backends it saw; NAN when the run
 * was not probed (or a mode was not, as 'reuse' before PostgreSQL 14).
 */
typedef struct SnapshotFigures
{
	double		full_ns_median;
	double		full_ns_p90;
	double		reuse_ns_median;
	double		reuse_ns_p90;
	double		xcnt;
	double		procs;
	int			probes;			/* queries that returned a figure */
} SnapshotFigures;

typedef struct RunRecord
{
	const PlannedRun *planned;
	const char *variant;
	const char *script;
	int			jobs;
	/* the levels above the round: which build, build seed, server start */
	const char *build;			/* the variant's build key, or its bindir */
	int			build_seed;		/* 0 without build seeds */
	int			instance;		/* 1, 2, ... per server */
	char		started_at[32];
	double		duration_s;		/* wall clock of the pgbench process */
	double		wall_s;			/* of the whole run: reset, checkpoint, pgbench, counters */
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
	/* from the statistics views, deltas over the run (server_stats.c) */
	double		blks_hit;
	double		blks_read;
	double		wal_bytes;
	double		buffers_written_checkpointer;
	double		buffers_written_bgwriter;
	double		buffers_written_backends;
	SnapshotFigures snapshot;
} RunRecord;

/* One start of a managed server, as instances.csv records it. */
typedef struct InstanceRecord
{
	const char *server;			/* the variant that owns the server */
	int			instance;
	char		started_at[32];
	double		stop_s;			/* stopping the previous instance; NAN at the first start */
	double		start_s;
	int			env_pad;		/* bytes of environment padding given to this start */
	const char *cause;			/* setup, restart, resume, crash */
} InstanceRecord;

/* run numbers of a results directory: the plan's, then those numbered past it */
#define RESULTS_MAX_RUN_ID (2 * PLAN_MAX_RUNS)

/* rows of a variant's environment() in experiment.json (a server has hundreds) */
#define RESULTS_MAX_ENV_ROWS 10000

/* Instance numbers stay below 2^15: the nested verdict's unit ids pair two of them. */
#define RESULTS_MAX_INSTANCE 32767

extern bool results_create(const char *dir, char **error);
extern bool results_write_json(const char *dir, const char *name, json_t *obj, char **error);
extern json_t *results_read_json(const char *dir, const char *name, char **error);
extern json_t *results_read_spec(const char *dir, ExperimentSpec *spec, char **error);
extern bool results_format_ours(json_t *doc);
extern int	results_restart_rounds(json_t *experiment);
extern bool results_append_run(const char *dir, const RunRecord *rec, char **error);
extern RunsCsv *results_read_runs(const char *dir, const ExperimentSpec *spec, char **error);
extern bool results_read_run_detail(const char *dir, int run_id, json_t **detail, char **error);
extern bool *results_completed_runs(const char *dir, const ExperimentSpec *spec, int nruns,
									int *ncompleted, char **error);
extern int	results_last_run_file(const char *dir);
extern char *results_run_path(const char *dir, int run_id, const char *suffix);
extern FILE *results_open_csv(const char *dir, const char *name, const char *header,
							  char **error);
extern bool results_close_csv(FILE *f, const char *dir, const char *name, char **error);
extern bool results_append_instance(const char *dir, const InstanceRecord *r, char **error);
extern RunsCsv *results_read_instances(const char *dir, const ExperimentSpec *spec, char **error);

/* "PREFIX-YYYYMMDD-HHMMSS": where results go when -o is not given */
extern char *timestamped_dir(const char *prefix);

#endif							/* PGBENCH_EXT_RESULTS_H */
