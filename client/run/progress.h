/*-------------------------------------------------------------------------
 *
 * progress.h
 *		The live progress line of a running experiment.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROGRESS_H
#define PGBENCH_EXT_PROGRESS_H

#include "plan.h"

typedef struct Progress
{
	bool		tty;
	bool		verbose;		/* a line per run, not only the live one (tty) */			/* a live line on a terminal */
	int			total_runs;
	int			done_runs;
	double		run_length_s;	/* planned seconds per run (0 with -t) */
	double		session_start;
	double		run_start;
	double		busy_s;			/* wall time of the runs done so far */
	int			runs_timed;
	const PlannedRun *current;
	const char *variant;
	const char *script;
	double		elapsed_s;		/* from pgbench's last -P line */
	double		tps;
} Progress;

extern void progress_init(Progress *p, int total_runs, int done_runs, double run_length_s);
extern void progress_start_run(Progress *p, const PlannedRun *pr, const char *variant,
							   const char *script);
extern void progress_update(Progress *p, double elapsed_s, double tps);
extern void progress_end_run(Progress *p, const char *status, double tps);
extern void progress_finish(Progress *p);

#endif							/* PGBENCH_EXT_PROGRESS_H */
