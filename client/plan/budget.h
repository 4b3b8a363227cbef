/*-------------------------------------------------------------------------
 *
 * budget.h
 *		rounds = auto: the plan of a budgeted experiment's blocks and looks,
 *		and the time it has spent, per block.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_BUDGET_H
#define PGBENCH_EXT_BUDGET_H

#include "experiment.h"
#include "stats.h"

/*
 * Estimated cost of a run beyond its -T seconds (the data's reset, the
 * CHECKPOINT, the counters pulled, pgbench's start) and of one restart of
 * one server; docs/experiments.md gives the measurements behind them.
 */
#define BUDGET_RUN_OVERHEAD_S		0.5
#define BUDGET_RESET_OVERHEAD_S		2.0 /* more with reset = every-run */
#define BUDGET_RESTART_S			2.0

/* At most this many blocks: the plan (experiment.json) stays small. */
#define BUDGET_MAX_BLOCKS			200

/*
 * The plan lays out as many blocks as the budget would pay for if they
 * cost this share of the estimate, or their rounds' pgbench time alone
 * where that is less: a cautious estimate of their number, so that blocks
 * cheaper than estimated spend the budget instead of returning it (a 1 s
 * run with reset = every-run, estimated at 3.5 s, took 1.3 s in a duet on
 * 2026-12-05, its reset 0.1 s); the budget, not the plan, ends the experiment.
 */
#define BUDGET_PLAN_SHARE			0.5

typedef struct BudgetPlan
{
	int			budget_s;
	int			block_rounds;	/* rounds per block; one look after each */
	int			first_look;		/* the block of the first look (min_rounds reached) */
	int			max_blocks;		/* blocks the budget pays for, by the estimate */
	int			max_looks;		/* max_blocks - first_look + 1 */
	double		run_s;			/* estimated seconds of one run */
	double		block_s;		/* estimated seconds of one block */
	StatsSpending spending;
	bool		time_information;	/* a look's information fraction is the
									 * budget's share spent (else blocks done
									 * of max_blocks: plans recorded before) */
	char	   *why;			/* the estimate in words */
} BudgetPlan;

extern bool budget_plan(ExperimentSpec *spec, BudgetPlan *out, char **error);
extern json_t *budget_to_json(const BudgetPlan *b);
extern bool budget_from_json(json_t *experiment, BudgetPlan *out, char **error);
extern void budget_stats_plan(const BudgetPlan *b, StatsBudgetPlan *out);
extern bool budget_spent(const BudgetPlan *b, int blocks, double spent_s);
extern int	budget_look_of_block(const BudgetPlan *b, int block);
extern void budget_look_plan(const BudgetPlan *b, int look, const double *block_spent_s,
							 double *info, StatsSequentialPlan *plan);

/* budget.csv: the time spent by the end of each block, appended durably */
extern bool budget_record_block(const char *dir, int block, int rounds, double spent_s,
								char **error);
extern bool budget_read_spent(const char *dir, int *blocks, double *spent_s,
							  double *block_spent_s, int max_blocks, char **error);

#endif							/* PGBENCH_EXT_BUDGET_H */
