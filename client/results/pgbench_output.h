/*-------------------------------------------------------------------------
 *
 * pgbench_output.h
 *	  Parse what a real pgbench prints: the result summary on stdout and the
 *	  -P progress lines on stderr, as printed by PostgreSQL 13 through 18.
 *
 * Plain C99 with libc only (no PostgreSQL headers), so the parser can be
 * unit-tested on captured outputs without a server.  A value pgbench did
 * not print is NAN (doubles) or -1 (counts); pgbench_output.c describes
 * the formats.
 *
 * client/results/pgbench_output.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_OUTPUT_H
#define PGBENCH_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

/* Output generations (PgbenchResult.server_format): first release of each */
#define PGBENCH_FORMAT_13	13	/* "tps = ... (excluding connections
								 * establishing)", no version banner: 13
								 * and older */
#define PGBENCH_FORMAT_14	14	/* "initial connection time", "tps = ...
								 * (without initial connection time)" */
#define PGBENCH_FORMAT_15	15	/* adds "maximum number of tries" and
								 * failed/retried counts: 15 and later */

/* What the summary's final "tps = " figure measures */
typedef enum PgbenchTpsKind
{
	PGBENCH_TPS_UNKNOWN = 0,
	PGBENCH_TPS_EXCLUDING_CONNECTIONS,	/* 13: "excluding connections
										 * establishing" */
	PGBENCH_TPS_WITHOUT_INITIAL_CONNECTION, /* 14+: "without initial
											 * connection time" */
	PGBENCH_TPS_INCLUDING_RECONNECTS	/* 14+ with -C: "including
										 * reconnection times" */
} PgbenchTpsKind;

/* One "SQL script N: ..." section (several scripts, or -b/-f with @weight) */
typedef struct PgbenchScriptResult
{
	char		name[256];		/* "<builtin: select only>" or a file name */
	int			weight;
	double		weight_pct;		/* share of the total weight */
	long long	transactions;	/* successful ones */
	double		transactions_pct;	/* share of all transactions */
	double		tps;
	long long	failed;			/* 15+ */
	long long	serialization_failures; /* 15+ with --failures-detailed */
	long long	deadlock_failures;
	long long	other_failures; /* development versions */
	long long	retried;		/* 15+ with --max-tries other than 1 */
	long long	retries;
	long long	skipped;		/* --rate with --latency-limit */
	double		latency_avg_ms;
	double		latency_stddev_ms;
} PgbenchScriptResult;

/* One -P line: "progress: 1.0 s, 2345.6 tps, lat 0.851 ms stddev 0.123, ..." */
typedef struct PgbenchProgress
{
	double		elapsed_s;		/* since the start, or the Unix time under
								 * --progress-timestamp */
	double		tps;
	double		latency_avg_ms;
	double		latency_stddev_ms;
	long long	failed;			/* 15+ */
	double		lag_ms;			/* --rate */
	long long	skipped;		/* --rate with --latency-limit */
	long long	retried;		/* 15+ with --max-tries other than 1 */
	long long	retries;
} PgbenchProgress;

typedef struct PgbenchResult
{
	int			server_format;	/* PGBENCH_FORMAT_* recognized */
	char		pgbench_version[128];	/* banner "pgbench (15.4 ...)" (14+):
										 * "15.4 ..." */
	char		transaction_type[256];	/* script name or "multiple scripts" */
	int			scale;
	char		partition_method[16];	/* "range"/"hash" when partitioned */
	int			partitions;
	char		query_mode[16];
	int			clients;
	int			threads;
	int			max_tries;		/* 15+; absent with --max-tries=0 */
	int			duration_s;		/* -T */
	int			transactions_per_client;	/* -t */
	long long	transactions;	/* successful transactions processed */
	long long	transactions_expected;	/* -t: clients * transactions */
	long long	failed;			/* 15+: serialization/deadlock failures */
	double		failed_pct;
	long long	serialization_failures; /* 15+ with --failures-detailed */
	long long	deadlock_failures;
	long long	other_failures; /* development versions */
	long long	retried;		/* 15+ with --max-tries other than 1 */
	double		retried_pct;
	long long	retries;
	long long	skipped;		/* --rate with --latency-limit */
	double		skipped_pct;
	double		latency_limit_ms;	/* -L */
	long long	latency_late;	/* transactions above the limit */
	double		latency_avg_ms;
	bool		latency_avg_includes_failures;	/* 15+: "(including
												 * failures)" */
	double		latency_stddev_ms;	/* only measured with -P, --rate or -L */
	double		lag_avg_ms;		/* --rate: rate limit schedule lag */
	double		lag_max_ms;
	double		initial_connection_time_ms; /* 14+ */
	double		average_connection_time_ms; /* 14+ with -C */
	double		tps;			/* the final "tps = " line */
	PgbenchTpsKind tps_kind;
	double		tps_including_connections;	/* 13 only */

	int			n_scripts;		/* per-script sections, 0 if none */
	PgbenchScriptResult *scripts;
	int			n_progress;		/* -P lines found on stderr */
	PgbenchProgress *progress;

	bool		complete;		/* the summary ran through its "tps = " line */
	bool		aborted;		/* "Run was aborted" on stderr (exit code 2) */
	int			n_errors;		/* "pgbench: error: ..." lines on stderr */
	char		abort_reason[256];	/* the first of them */
	int			n_unrecognized; /* summary lines of no known shape */
	char		first_unrecognized[128];
} PgbenchResult;

/*
 * Parse pgbench's stdout and stderr (either may be NULL).  Returns 0 when a
 * result summary was found: complete, or cut short by a reported abort
 * (out->aborted).  Returns -1 with a message in errbuf naming what was
 * missing or the offending line; *out is then still filled as far as it
 * went and must be freed.
 */
extern int	pgbench_output_parse(const char *stdout_text, const char *stderr_text,
								 PgbenchResult *out, char *errbuf, size_t errlen);

/* One progress line, e.g. read live while pgbench runs: 0, or -1 if not one */
extern int	pgbench_progress_parse_line(const char *line, PgbenchProgress *out);

extern void pgbench_result_free(PgbenchResult *r);

#endif							/* PGBENCH_OUTPUT_H */
