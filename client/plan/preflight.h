/*-------------------------------------------------------------------------
 *
 * preflight.h
 *		Before the first counted run, and in the dry run (--check): what the
 *		host allows and whether the experiment's time can decide
 *		(preflight.c), from the host's load (host_load.h) and its noise
 *		history (noise_history.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PREFLIGHT_H
#define PGBENCH_EXT_PREFLIGHT_H

#include <stdio.h>

#include "experiment.h"
#include "noise_history.h"

/* What the pre-flight found, for the run that follows it */
typedef struct PreflightResult
{
	double		busy_pct;		/* other processes' share of the CPUs; NAN: not
								 * measured */
	int			pilot_rounds;	/* the pilot the run measures first; 0: none */
	NoiseRecord record;			/* the history's it took; found false: none */
} PreflightResult;

/*
 * Print what the host allows and the expected time to decide an effect of
 * twice the noise threshold, with a warning where the experiment's budget
 * (or its fixed rounds) cannot decide it; where the history holds no noise
 * of the host's load now, the pilot that will measure it (pilot.c).  With
 * choose_restart (not on --resume), restart = auto across servers takes
 * its spacing from the same record, and says so, before the time is
 * given for that spacing.
 */
extern PreflightResult preflight_print(ExperimentSpec *spec, double noise, bool choose_restart,
									   FILE *out);

/* The pre-flight as a run prints it, then what schedule = auto and aslr = auto chose */
extern PreflightResult preflight_print_run(ExperimentSpec *spec, bool choose_restart);

/*
 * What an experiment's time can do for an effect, in the words of the
 * pilot and of the line after the second block: "cannot" where even the
 * time at the noise's lower bound (least_s) is more than left_s, "can"
 * where the time at its upper bound (most_s) fits, "may not" between.  A
 * time of NAN is more than any design gives.
 */
typedef enum BudgetWord
{
	BUDGET_CAN,
	BUDGET_MAY_NOT,
	BUDGET_CANNOT
} BudgetWord;

extern BudgetWord preflight_budget_word(double least_s, double most_s, double left_s);
extern const char *preflight_budget_word_name(BudgetWord word);

/* What a pilot measured, and what was said of it */
typedef struct PilotNoise
{
	int			rounds;			/* counted: both runs ok */
	double		round_sd;		/* of their paired log ratio */
	double		seconds;		/* the wall time of those rounds */
	/* filled by preflight_judge_pilot() */
	double		instance_sd;	/* from the history; 0: none there */
	double		expected_s;		/* to decide twice the threshold; NAN: no design */
	double		least_s;		/* the same at the sd's lower 90% bound */
	double		most_s;			/* and at its upper bounds */
	double		left_s;			/* of the experiment's time */
	double		largest_offset_sd;	/* two servers, no offset on record: the
									 * largest sd between instance pairs at
									 * which expected_s fits; NAN: none, or
									 * one is on record */
	const char *outcome;		/* "cannot", "may not" or "can" */
} PilotNoise;

/*
 * After a pilot: the expected time to decide twice the noise threshold at
 * its noise, against the time left (spent_s of a budget already gone):
 * "cannot decide" where even the pilot's lower bound on the noise needs
 * more, "can" where even its upper bound fits (and, for two servers, the
 * history holds their instance offset), "may not" between; of the
 * plan's instance pairs of unit_rounds rounds (0: of any).
 */
extern void preflight_judge_pilot(const ExperimentSpec *spec, double noise,
								  const PreflightResult *preflight, int unit_rounds,
								  PilotNoise *pilot, double spent_s, FILE *out);

#endif							/* PGBENCH_EXT_PREFLIGHT_H */
