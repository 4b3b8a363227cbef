/*-------------------------------------------------------------------------
 *
 * profile.h
 *		Profiles of the variants' servers: counted (callgrind) and sampled
 *		(perf), a verdict per function, differential flame graphs.
 *
 *   profile_spec.c      the keys, their checks before any run, symbols
 *   profile_counted.c   servers under callgrind; a short and a long run
 *   profile_sampled.c   perf record of the server during each run
 *   profile_run.c       the hooks of one run; runs/NNNN.profile.json
 *   profile_data.c      profiles in memory (plain C)
 *   profile_parse.c     callgrind and perf script readers (plain C)
 *   profile_report.c    metrics and functions compared, their sections
 *   profile_flame.c     the differential flame graph (plain C)
 *   profile_import.c    "import" of the profiles into SQL tables
 *
 * The rest of the client calls only what is declared here; with
 * profile = off every hook is a no-op.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_H
#define PGBENCH_EXT_PROFILE_H

#include "report.h"
#include "run_one.h"

/* Runs of a counted experiment: transactions per client when none are given. */
#define PROFILE_COUNTED_TRANSACTIONS	1000
/* Samples per CPU-second of a sampled experiment (bench/profile_overhead.sh). */
#define PROFILE_SAMPLE_RATE				499
/*
 * The noise threshold of a counted experiment's instructions per
 * transaction: they repeat to about 0.02% (docs/profiles.md, Measurements).
 */
#define PROFILE_COUNTED_NOISE			0.0005
/* Functions get a verdict from this share of a side's total cost up. */
#define PROFILE_MIN_SHARE				0.01
/* Warn when more of a variant's samples than this have no symbol. */
#define PROFILE_UNRESOLVED_WARN			0.10

/* profile_spec.c: before anything runs */
extern void profile_resolve(ExperimentSpec *spec);
extern bool profile_validate(const ExperimentSpec *spec);
extern json_t *profile_facts_json(const ExperimentSpec *spec);

/* profile_counted.c: the runner, once every server is set up */
extern bool profile_after_setup(Experiment *x, char **error);
extern bool profile_counted_start_server(Cluster *c, char **error);

/* profile_run.c: the hooks of one run, in this order (run_one.c) */
typedef struct ProfileRun ProfileRun;

extern ProfileRun *profile_run_prepare(Experiment *x, const PlannedRun *pr, PGconn *conn);
extern void profile_run_start(ProfileRun *pr);
extern void profile_run_stop(ProfileRun *pr);
extern void profile_run_collect(ProfileRun *pr, RunRecord *rec);

/* profile_report.c */
struct ProfileReport;
extern void profile_report_load(ReportData *r);
extern void profile_print_summary(const ReportData *r, FILE *out);
extern void profile_write_sections(const ReportData *r, Doc *d);
extern json_t *profile_summary_json(const ReportData *r);
extern bool profile_write_files(const ReportData *r, char **error);

/* profile_import.c */
extern int	profile_import(PGconn *conn, const char *experiment_id, const char *dir,
						   char **error);

#endif							/* PGBENCH_EXT_PROFILE_H */
