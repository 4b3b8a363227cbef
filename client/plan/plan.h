/*-------------------------------------------------------------------------
 *
 * plan.h
 *		The order of an experiment's runs, in blocks of rounds.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PLAN_H
#define PGBENCH_EXT_PLAN_H

#include "experiment.h"

/*
 * The most runs a plan may have.  Runs past the plan (the warm-ups after a
 * crash) are numbered after it, so a results directory's run numbers go
 * to twice that (RESULTS_MAX_RUN_ID): what a report reads is bounded
 * before it takes memory by run number.
 */
#define PLAN_MAX_RUNS	500000

typedef struct PlannedRun
{
	int			run_id;			/* 1-based position in the plan (or past it: below) */
	int			round;			/* 1-based; 0 for a warm-up after a start */
	int			block;			/* 1-based: the rounds one start of the servers serves */
	int			variant;		/* index into spec->variants */
	int			script;			/* index into spec->scripts */
	int			clients;
	bool		warmup;			/* recorded, not counted */
	bool		after_start;	/* the warm-up run of its variant and cell after a start */
	int			cpu_slot;		/* pin = on: the CPU set of its server and pgbench (quiet.c) */
	bool		duet_first;		/* schedule = duet: runs at once with the next run */
	int			partner;		/* schedule = duet: the variant it runs beside, -1 for none */
	int			seed_round;		/* > 0: the round whose pgbench seed it takes
								 * instead of its own (a pilot's, past the
								 * plan's rounds) */
} PlannedRun;

typedef struct Plan
{
	PlannedRun *runs;
	int			nruns;
	int			restart_rounds; /* rounds per start of the servers; 0: no restarts */
	int			block_rounds;	/* rounds per block: restart_rounds, else under
								 * rounds = auto PLAN_LOOK_ROUNDS, else all */
	int			nblocks;
	char	   *restart_why;	/* how restart_rounds was chosen, in words */
} Plan;

/*
 * Under restart = auto: at most this many rounds per start of the servers,
 * and at least this many instance pairs when the rounds allow
 * (docs/experiments.md says why, from measurements).
 */
#define RESTART_AUTO_MAX_ROUNDS 5
#define RESTART_AUTO_MIN_INSTANCES 6
/*
 * ... and, chosen from the host's noise history, at least this many rounds
 * per start when the rounds allow, so that every experiment measures the
 * sd between rounds apart from that between instance pairs
 */
#define RESTART_AUTO_MIN_ROUNDS 2
/* the degrees of freedom of each sd a history record needs to choose */
#define RESTART_AUTO_MIN_DF 10

/* Under rounds = auto without restarts: a look after every this many rounds. */
#define PLAN_LOOK_ROUNDS 5

extern int	plan_server_of(const ExperimentSpec *spec, int variant);
extern bool plan_server_managed(const ExperimentSpec *spec, int variant);
extern bool plan_two_servers(const ExperimentSpec *spec);
extern int	plan_round_runs(const ExperimentSpec *spec);
extern int	plan_round_slots(const ExperimentSpec *spec);
extern int	plan_restart_rounds(const ExperimentSpec *spec, char **why);
extern int	plan_block_rounds(const ExperimentSpec *spec, int restart_rounds);
extern double plan_count_runs(const ExperimentSpec *spec);
extern Plan *plan_build(const ExperimentSpec *spec);
extern PlannedRun plan_extra_warmup(const ExperimentSpec *spec, int run_id, int block,
									int variant, int script, int clients);
extern json_t *plan_to_json(const Plan *plan, const ExperimentSpec *spec);

#endif							/* PGBENCH_EXT_PLAN_H */
