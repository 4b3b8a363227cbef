/*-------------------------------------------------------------------------
 *
 * calibrate.h
 *		Analysis of a calibration's phases (see cmd_calibrate.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CALIBRATE_H
#define PGBENCH_EXT_CALIBRATE_H

#include <stdio.h>

#include "experiment.h"
#include "report.h"
#include "runner.h"
#include "stats.h"

typedef struct CalibrateOptions
{
	const char *bindir;
	const char *script;
	const char *dir;
	int			clients;
	int			scale;
	int			duration_s;
	int			blocks;			/* comparisons per phase */
	int			rounds;			/* rounds per comparison */
	int			delay_ns;
	double		target;			/* injected slowdown, as a fraction */
	double		setting_pct;	/* inject_slowdown_pct of the slowed phase */
	int			size_rounds;	/* rounds measuring the setting first; 0: none */
	bool		skip_aa;
	bool		reanalyse;		/* analyse a finished calibration, run nothing */
	int			restart_rounds; /* --restart: the across-servers phases restart
								 * every that many rounds; 0: none */
	bool		rounds_auto;	/* --rounds auto: budgeted comparisons (calibrate_budget.c) */
	int			budget_s;		/* --budget: of each budgeted comparison */
	bool		counted;		/* --counted: calibrate_counted.c's phases only */
	int			transactions;	/* --counted: per run (-t) */
	const char *known_cost_bindir;	/* --counted: a build with the known cost */
	QuietSpec	schedule;		/* --schedule: its schedule and schedule_given
								 * (auto: not given), every phase's */
} CalibrateOptions;

#define CAL_MAX_WINDOWS 8
#define CAL_NEFFECTS 3			/* 1%, 2%, 5% */

typedef struct CalibrationResult
{
	/* A/A */
	int			aa_blocks;
	int			aa_false_positives;
	StatsComparison *aa_cmp;	/* each comparison, aa_blocks of them */
	bool		has_aa_pooled;
	StatsComparison aa_pooled;	/* A2 against A over every round */
	/* sizing: what the target as a setting did, and the setting it gave */
	bool		has_sizing;
	double		sizing_setting_pct;
	StatsComparison sizing;
	double		sized_setting_pct;
	/* A against A + delay */
	int			delay_blocks;
	int			detected;		/* verdict "slower" */
	int			covered;		/* CI covers its own true effect */
	int			covered_pooled; /* CI covers the pooled estimate */
	double	   *delay_truth;	/* each comparison's true effect, from CPU */
	StatsComparison *delay_cmp;	/* each comparison, delay_blocks of them */
	/* all rounds of a phase compared at once: its noise between paired rounds */
	bool		has_round_noise;
	int			round_noise_pairs;
	double		round_noise_mde_pct;	/* MDE of those pairs */
	double		pooled_ratio;	/* HL estimate over all blocks */
	double		pooled_ci_low;
	double		pooled_ci_high;
	double		cpu_us_per_tx[2];	/* backend CPU per transaction: A, slowed */
	double		cpu_tx_us;		/* A's transaction time per client */
	double		cpu_ratio;		/* expected from them, NAN if absent */
	/* noise by run length */
	int			nwindows;
	int			window_s[CAL_MAX_WINDOWS];
	double		window_cv[CAL_MAX_WINDOWS];
	double		window_step_sd[CAL_MAX_WINDOWS];	/* log ratio to the previous
													 * window of the same run */
	int			runs_needed[CAL_MAX_WINDOWS][CAL_NEFFECTS];	/* 0 = not within 200 */
} CalibrationResult;

/*
 * One phase across two servers (A/A or the known slowdown on a cluster of
 * its own), each block of rounds judged as the verdict table judges it:
 * across instance pairs with restarts, round by round when started once.
 */
typedef struct CalibrationServersPhase
{
	bool		ran;
	bool		slowed;			/* the known slowdown; else A/A */
	int			restart_rounds; /* rounds per instance; 0: started once */
	int			blocks;			/* comparisons with a verdict */
	StatsComparison *cmp;		/* each of them */
	double	   *truth;			/* each one's true effect: 1 for A/A, else from CPU */
	/*
	 * verdicts of faster, slower or insufficient in the A/A (not within the
	 * noise: a direction short of the threshold claims no difference beyond
	 * it), "slower" when slowed
	 */
	int			positives;
	int			covered;		/* CI covers its true effect */
	int			covered_pooled; /* CI covers the slowdown across all instance pairs */
	bool		has_pooled;
	StatsComparison pooled;		/* every round of the phase: the report's cell */
	double		elapsed_s;		/* the phase's wall time, NAN if not recorded */
	double		runs_s;			/* wall time of its counted runs */
	double		warmup_s;		/* of its warm-up runs after starts */
	int			starts;			/* instances started, both servers */
} CalibrationServersPhase;

typedef struct CalibrationServers
{
	CalibrationServersPhase aa_once;	/* aa/ */
	CalibrationServersPhase aa_restarted;	/* aa-restart/ */
	CalibrationServersPhase slowed_once;	/* delay/ on a cluster of its own */
	CalibrationServersPhase slowed_restarted;	/* delay-restart/ */
} CalibrationServers;

extern bool calibrate_analyse_servers(const CalibrateOptions *o, const char *dir, bool slowed,
									  double elapsed_s, CalibrationServersPhase *p,
									  char **error);
extern bool calibrate_report_servers(const CalibrateOptions *o, const CalibrationServers *s,
									 FILE *out, char **error);
/* calibrate.c's pieces the across-servers phases share */
extern int	calibrate_compare_blocks(const CalibrateOptions *o, const ReportData *d,
									 const char *b_name, StatsComparison *out,
									 int *first_round);
extern bool calibrate_covers(const StatsComparison *c, double ratio);
extern double calibrate_pct(int k, int n);
extern void calibrate_print_blocks(FILE *f, const char *phase, const StatsComparison *cmp,
								   int n, const double *truth);
extern double calibrate_cpu_expected_ratio(const CalibrateOptions *o, const ReportData *d,
										   int first, int last, double cpu_us[2],
										   double *tx_us);

extern bool calibrate_analyse_aa(const CalibrateOptions *o, const char *dir,
								 CalibrationResult *r, char **error);
extern bool calibrate_analyse_delay(const CalibrateOptions *o, const char *dir,
									CalibrationResult *r, char **error);
extern bool calibrate_analyse_sizing(const CalibrateOptions *o, const char *dir,
									 CalibrationResult *r, char **error);
extern void calibrate_recorded_slowdown(const ExperimentSpec *spec, int *delay_ns,
										double *setting_pct);
extern char *calibrate_slowdown_text(const CalibrateOptions *o);
extern bool calibrate_report(const CalibrateOptions *o, const CalibrationResult *r,
							 FILE *out, char **error);

/* calibrate_budget.c: --rounds auto, the phases and their figures */
#define CAL_BUDGET_NPHASES 3
extern const double calibrate_budget_slowdown_pct[CAL_BUDGET_NPHASES];
extern char *calibrate_budget_dir(const CalibrateOptions *o, int phase, int k);
extern bool calibrate_budget_report(const CalibrateOptions *o, FILE *out, char **error);

/* calibrate_counted.c: --counted, an A/A and a known cost, counted */
extern int	calibrate_counted(const CalibrateOptions *o);

/* calibrate_run.c: every phase run as "run" would */
extern int	calibrate_execute(const CalibrateOptions *o, ExperimentSpec *spec, RunOptions *ropts);

#endif							/* PGBENCH_EXT_CALIBRATE_H */
