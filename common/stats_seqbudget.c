/*-------------------------------------------------------------------------
 *
 * stats_seqbudget.c
 *		rounds = auto: where a budget's looks fall on the information
 *		scale, and the decision a cell's looks reach, in one place for the
 *		client (its runner and its report) and the extension's SQL.
 *
 * The looks spend alpha by the budget's clock (Lan and DeMets' error
 * spending on calendar time): a look's information fraction is the share
 * of the budget spent by the end of its block, and the look after which
 * the budget has no room for another block spends all that is left.  A
 * cell is decided at its first look that decides, on the rounds seen by
 * then; later rounds do not change it.  Everything here depends only on
 * the plan, the time each block took and the runs, so the looks replayed
 * from a results directory, by "report" or in SQL after "import", are the
 * ones the runner made.
 *
 * A cell may also be decided against a reference ratio other than 1
 * (stats_sequential_decide_against(), the experiment's "reference" key):
 * the same looks on B shifted by it, which side of the reference B/A lies.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool
stats_budget_spent(const StatsBudgetPlan *b, int blocks, double spent_s)
{
	return blocks >= b->max_blocks ||
		(blocks > 0 && spent_s + spent_s / blocks > b->budget_s);
}

void
stats_budget_info(const StatsBudgetPlan *b, int looks, const double *block_spent_s,
				  double *info)
{
	for (int k = 0; k < looks; k++)
	{
		int			block = b->first_look + k;
		double		spent = block_spent_s ? block_spent_s[block - 1] : NAN;
		double		t = (double) block / b->max_blocks;

		if (b->time_information && isfinite(spent) && spent > 0)
			t = stats_budget_spent(b, block, spent) ? 1.0 : fmin(1.0, spent / b->budget_s);
		/* strictly increasing, as the boundaries need */
		if (k > 0 && t <= info[k - 1])
			t = fmin(1.0, info[k - 1] + 1e-9);
		info[k] = t;
	}
}

/*
 * The runs of rounds 1 .. last of one side, in their order, into the
 * caller's arrays (unit ids too when given); returns how many.
 */
static int
rounds_up_to(const double *x, const int *round, const int *unit, int n, int last,
			 double *x_out, int *round_out, int *unit_out)
{
	int			k = 0;

	for (int i = 0; i < n; i++)
	{
		if (round[i] < 1 || round[i] > last)
			continue;
		x_out[k] = x[i];
		round_out[k] = round[i];
		if (unit != NULL)
			unit_out[k] = unit[i];
		k++;
	}
	return k;
}

/* Room for one side's runs of some rounds. */
typedef struct SideBuf
{
	double	   *x;
	int		   *round;
	int		   *unit;
	int			n;
} SideBuf;

static bool
side_alloc(SideBuf *s, int n)
{
	s->x = stats_malloc(sizeof(double) * (n + 1));
	s->round = stats_malloc(sizeof(int) * (n + 1));
	s->unit = stats_malloc(sizeof(int) * (n + 1));
	s->n = 0;
	return s->x != NULL && s->round != NULL && s->unit != NULL;
}

static void
side_free(SideBuf *s)
{
	stats_free(s->x);
	stats_free(s->round);
	stats_free(s->unit);
}

/*
 * The t boundaries of a cell compared across units, for its "looks"
 * looks: the units each look has, counted in the rounds it sees (never
 * fewer than the look before), and one simulation for all of them.  A
 * look's boundary depends only on the looks before it, so it is the same
 * when the runner looked and when a report looks again.  NULL when they
 * cannot be had: each look then computes its own.
 */
static double *
cell_t_bounds(const double *a, const int *round_a, const int *unit_a, int n_a,
			  const double *b, const int *round_b, const int *unit_b, int n_b,
			  StatsUnit unit, const StatsBudgetPlan *plan, int looks, const double *info,
			  const StatsOptions *opt, SideBuf *sa, SideBuf *sb)
{
	int		   *units = stats_malloc(sizeof(int) * looks);
	double	   *crit = stats_malloc(sizeof(double) * looks);

	if (units == NULL || crit == NULL)
	{
		stats_free(units);
		stats_free(crit);
		return NULL;
	}
	for (int k = 0; k < looks; k++)
	{
		int			last = (plan->first_look + k) * plan->block_rounds;
		StatsComparison cmp;

		STATS_CHECK_FOR_INTERRUPTS();
		sa->n = rounds_up_to(a, round_a, unit_a, n_a, last, sa->x, sa->round, sa->unit);
		sb->n = rounds_up_to(b, round_b, unit_b, n_b, last, sb->x, sb->round, sb->unit);
		units[k] = stats_compare_units(sa->x, sa->round, sa->unit, sa->n, sb->x, sb->round,
									   sb->unit, sb->n, unit, opt, &cmp) == STATS_OK
			? cmp.n_units : 0;
		if (k > 0 && units[k] < units[k - 1])
			units[k] = units[k - 1];
	}
	if (stats_sequential_t_bounds(plan->spending, opt->alpha, info, units, looks,
								  crit) != STATS_OK)
	{
		stats_free(crit);
		crit = NULL;
	}
	stats_free(units);
	return crit;
}

int
stats_sequential_decide(const double *a, const int *round_a, const int *unit_a, int n_a,
						const double *b, const int *round_b, const int *unit_b, int n_b,
						StatsUnit unit, const StatsBudgetPlan *plan, int blocks_done,
						const double *info, const double *z, const StatsOptions *opt,
						StatsLook *out, int *block)
{
	int			looks = blocks_done >= plan->first_look ? blocks_done - plan->first_look + 1 : 0;
	bool		units = unit_a != NULL && unit_b != NULL;
	double	   *t_crit = NULL;
	SideBuf		sa = {0},
				sb = {0};
	int			rc = STATS_OK;

	memset(out, 0, sizeof(*out));
	*block = 0;
	if (n_a < 0 || n_b < 0)
		return STATS_ERR_SIZE;
	if (looks < 1)
		return STATS_OK;
	if (!side_alloc(&sa, n_a) || !side_alloc(&sb, n_b))
		rc = STATS_ERR_NOMEM;
	if (rc == STATS_OK && units)
		t_crit = cell_t_bounds(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b, unit,
							   plan, looks, info, opt, &sa, &sb);
	for (int blk = plan->first_look; rc == STATS_OK && blk <= blocks_done; blk++)
	{
		StatsSequentialPlan p;
		StatsLook	look;
		int			last = blk * plan->block_rounds;

		STATS_CHECK_FOR_INTERRUPTS();
		p.look = blk - plan->first_look + 1;
		p.max_looks = plan->max_looks;
		p.info = info;
		p.spending = plan->spending;
		p.z = z;
		p.t_crit = t_crit;
		sa.n = rounds_up_to(a, round_a, unit_a, n_a, last, sa.x, sa.round, sa.unit);
		sb.n = rounds_up_to(b, round_b, unit_b, n_b, last, sb.x, sb.round, sb.unit);
		/* a look that cannot be made (no runs yet on a side) leaves the last */
		if (stats_sequential_look(sa.x, sa.round, unit_a ? sa.unit : NULL, sa.n,
								  sb.x, sb.round, unit_b ? sb.unit : NULL, sb.n,
								  unit, &p, opt, &look) != STATS_OK)
			continue;
		*out = look;
		*block = blk;
		if (look.decision != STATS_UNDECIDED)
			break;
	}
	stats_free(t_crit);
	side_free(&sa);
	side_free(&sb);
	return rc;
}

int
stats_sequential_decide_against(const double *a, const int *round_a, const int *unit_a, int n_a,
								const double *b, const int *round_b, const int *unit_b, int n_b,
								StatsUnit unit, const StatsBudgetPlan *plan, int blocks_done,
								const double *info, const double *z, double reference,
								const StatsOptions *opt, StatsLook *out, int *block)
{
	StatsOptions shifted_opt = *opt;
	StatsComparison *c = &out->cmp;
	double	   *shifted;
	int			rc;

	/* no reference: the ordinary looks, against no change within the noise */
	if (reference == 0)
		return stats_sequential_decide(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b, unit,
									   plan, blocks_done, info, z, opt, out, block);
	memset(out, 0, sizeof(*out));
	*block = 0;
	if (!(reference > 0) || !isfinite(reference))
		return STATS_ERR_OPTION;
	if (n_b < 0)
		return STATS_ERR_SIZE;
	if ((shifted = stats_malloc(sizeof(double) * (n_b + 1))) == NULL)
		return STATS_ERR_NOMEM;
	/* the null log(B/A) = log(reference) is the null 0 of B / reference */
	for (int i = 0; i < n_b; i++)
		shifted[i] = b[i] / reference;
	shifted_opt.noise = 0.0;
	rc = stats_sequential_decide(a, round_a, unit_a, n_a, shifted, round_b, unit_b, n_b, unit,
								 plan, blocks_done, info, z, &shifted_opt, out, block);
	stats_free(shifted);
	if (rc != STATS_OK || *block == 0)
		return rc;
	c->estimate *= reference;
	c->change_pct = 100.0 * (c->estimate - 1.0);
	c->ci_low *= reference;
	c->ci_high *= reference;
	if (c->has_ci)
		snprintf(out->reason, STATS_REASON_LEN,
				 "look %d at level %.3g: the CI [%+.2f%%, %+.2f%%] lies %s the reference %+.2f%%",
				 out->look, out->alpha_look, 100.0 * (c->ci_low - 1.0), 100.0 * (c->ci_high - 1.0),
				 c->ci_low > reference ? "above" : c->ci_high < reference ? "below" : "across",
				 100.0 * (reference - 1.0));
	/* the comparison's own reason spoke of the shifted data */
	memcpy(c->reason, out->reason, STATS_REASON_LEN);
	return STATS_OK;
}
