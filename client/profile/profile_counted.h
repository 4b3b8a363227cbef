/*-------------------------------------------------------------------------
 *
 * profile_counted.h
 *		Counted profiles: the servers under callgrind, a short and a long
 *		run of each (profile_counted.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_COUNTED_H
#define PGBENCH_EXT_PROFILE_COUNTED_H

#include "profile_data.h"
#include "run_one.h"

/* The runner, once a server is set up */
extern bool profile_restart_counted(Cluster *c, const ProfileSpec *p, char **error);

/* A run of a counted experiment (profile_run.c) */
typedef struct CountedRun CountedRun;

extern CountedRun *counted_prepare(Experiment *x, const PlannedRun *pr, PGconn *conn);
extern void counted_start(CountedRun *cr);
extern void counted_stop(CountedRun *cr);
extern bool counted_collect(CountedRun *cr, const RunRecord *rec, Prof *out,
							char **problem);
extern long long counted_transactions(const CountedRun *cr);

/* Files a server account wrote: opened and removed without following links. */
extern int	profile_open_dir(const char *path, char **problem);
extern FILE *profile_open_in_dir(int dirfd, const char *name, char **problem);

#endif							/* PGBENCH_EXT_PROFILE_COUNTED_H */
