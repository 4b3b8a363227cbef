/*-------------------------------------------------------------------------
 *
 * profile_int.h
 *		What the profile_*.c files share among themselves (not an API: the
 *		rest of the client uses profile.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_INT_H
#define PGBENCH_EXT_PROFILE_INT_H

#include "profile.h"
#include "profile_data.h"

/* profile_spec.c */
extern char *profile_valgrind_path(char **problem);
extern char *profile_perf_path(char **problem);
extern bool profile_perf_as_server(void);

/* profile_counted.c: a run of a counted experiment */
typedef struct CountedRun CountedRun;

extern CountedRun *counted_prepare(Experiment *x, const PlannedRun *pr, PGconn *conn);
extern void counted_start(CountedRun *cr);
extern void counted_stop(CountedRun *cr);
extern bool counted_collect(CountedRun *cr, const RunRecord *rec, Prof *out,
							char **problem);
extern long long counted_transactions(const CountedRun *cr);
extern int	counted_warmup_transactions(int transactions);

/* profile_sampled.c: a run of a sampled experiment */
typedef struct SampledRun SampledRun;

extern SampledRun *sampled_prepare(Experiment *x, const PlannedRun *pr, PGconn *conn);
extern void sampled_start(SampledRun *sr);
extern void sampled_stop(SampledRun *sr);
extern bool sampled_collect(SampledRun *sr, const RunRecord *rec, Prof *out,
							char **problem);

/* Files a server account wrote: opened and removed without following links. */
extern int	profile_open_dir(const char *path, char **problem);
extern FILE *profile_open_in_dir(int dirfd, const char *name, char **problem);

/* profile_report.c: a runs/NNNN.profile.json the report (and import) can use */
extern bool profile_run_usable(json_t *doc);
extern bool profile_name_ok(const char *name, bool stack);

/* The pid in DATADIR/postmaster.pid, or 0. */
extern pid_t profile_postmaster_pid(const Cluster *server);

#endif							/* PGBENCH_EXT_PROFILE_INT_H */
