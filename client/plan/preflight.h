/*-------------------------------------------------------------------------
 *
 * preflight.h
 *		Before the first counted run, and in the dry run (--check): what the
 *		host allows and what power the experiment's time has to see a change
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
 * Print what the host allows, the expected time to see an effect of twice
 * the noise threshold with 80% power, and the power the experiment's
 * budget (or its fixed rounds) has to see it, with a warning where that is
 * below 80% at the noise's estimate or where the time can decide nothing
 * whatever it measures; where the history holds no noise
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
 * pilot and of the line after the second block.  preflight_budget_word()
 * (the line after the second block): "cannot" where even the time at the
 * noise's lower bound (least_s) is more than left_s, "can" where the time
 * at its upper bound (most_s) fits, "may not" between; a time of NAN is
 * more than any design gives.  The pilot's (preflight_judge_pilot()):
 * "cannot" only where the time left can decide nothing whatever it
 * measures, "can" where even the noise's upper bound leaves it 80% power.
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
	double		expected_s;		/* to see twice the threshold with 80% power;
								 * NAN: no design */
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
 * After a pilot: the expected time to see twice the noise threshold with
 * 80% power at its noise, and the power of the time left (spent_s of a
 * budget already gone): "cannot" where that time can decide nothing
 * whatever it measures (too few instance pairs or rounds for any test, two
 * servers never restarted), "can" where even the pilot's upper bound on
 * the noise leaves 80% power (and, for two servers, the history holds
 * their instance offset), "may not" otherwise; of the plan's instance
 * pairs of unit_rounds rounds (0: of any).
 */
extern void preflight_judge_pilot(const ExperimentSpec *spec, double noise,
								  const PreflightResult *preflight, int unit_rounds,
								  PilotNoise *pilot, double spent_s, FILE *out);

#endif							/* PGBENCH_EXT_PREFLIGHT_H */
