/*-------------------------------------------------------------------------
 *
 * report_sequential.c
 *		rounds = auto: each cell's looks, replayed from the results
 *		directory alone, block by block, as the runner made them.
 *
 * A look after block b sees the runs of rounds 1 .. b * block_rounds and
 * compares them on the unit of the cell's fixed-rounds verdict (rounds on
 * one server, instance pairs across servers), with the level of that look
 * in the plan experiment.json records, at the information the budget's
 * clock gave it (budget.csv: budget_look_plan()).  A cell is decided at its
 * first look that decides (stats_sequential_decide(), which the extension's
 * experiment_report() calls too); that look's CI and decision are its
 * verdict, and later rounds (which it still runs: every round runs every
 * cell) do not change it.  The runner calls this after each block
 * to choose whether to go on; "report" calls it for the same figures.
 * The texts of each cell's decision and looks are made here too, once,
 * for report_sequential_write.c and the other writers.
 *
 * In report.h's map: the analysis stage.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"

#include <math.h>

/* The blocks whose planned rounds all have their runs in runs.csv. */
static int
complete_blocks(const ReportData *r)
{
	json_t	   *plan = json_object_get(r->experiment, "plan");
	int			max_id = 0;
	bool	   *done;
	int			blocks = r->budget.max_blocks;
	size_t		i;
	json_t	   *pr;

	for (int k = 0; k < r->nruns; k++)
		max_id = Max(max_id, r->runs[k].run_id);
	done = pg_malloc0(sizeof(bool) * (max_id + 1));
	for (int k = 0; k < r->nruns; k++)
		done[r->runs[k].run_id] = strcmp(r->runs[k].status, "interrupted") != 0;
	json_array_foreach(plan, i, pr)
	{
		int			id = (int) json_integer_value(json_object_get(pr, "run_id"));
		int			round = (int) json_integer_value(json_object_get(pr, "round"));

		if (round > 0 && (id > max_id || !done[id]))
			blocks = Min(blocks, (round - 1) / r->budget.block_rounds);
	}
	pfree(done);
	return blocks;
}

/*
 * Under rounds = auto: the plan, the blocks done, the time spent, and each
 * cell's deciding (or last) look.  Problems with budget.csv are warnings:
 * the looks need only runs.csv and experiment.json.
 */
void
report_sequential_load(ReportData *r)
{
	char	   *error = NULL;
	double	   *block_spent,
			   *info,
			   *z;
	int			recorded,
				looks;
	StatsSequentialPlan plan;
	StatsBudgetPlan bp;

	if (!r->spec.rounds_auto)
		return;
	if (!budget_from_json(r->experiment, &r->budget, &error))
	{
		report_warn(r, "%s: the looks of rounds = auto are not shown", error);
		return;
	}
	block_spent = pg_malloc(sizeof(double) * r->budget.max_blocks);
	if (!budget_read_spent(r->dir, &recorded, &r->spent_s, block_spent, r->budget.max_blocks,
						   &error))
	{
		if (r->budget.time_information)
		{
			report_warn(r, "%s: the looks of rounds = auto spend alpha by the budget spent, which budget.csv records; they are not shown",
						error);
			pfree(block_spent);
			return;
		}
		report_warn(r, "%s", error);
		r->spent_s = NAN;
	}
	r->sequential = true;
	r->blocks_done = complete_blocks(r);
	if (r->budget.time_information && recorded < r->blocks_done)
	{
		/* the budget's clock is the looks' information: none past budget.csv */
		report_warn(r, "budget.csv records %d of the %d blocks done: the looks of rounds = auto spend alpha by the budget spent, which budget.csv records; %s",
					recorded, r->blocks_done,
					recorded == 0 ? "they are not shown" : "the later looks are not shown");
		r->blocks_done = recorded;
		if (recorded == 0)
		{
			r->sequential = false;
			pfree(block_spent);
			return;
		}
	}
	/* a look's boundary depends only on the looks before it: once for all */
	looks = budget_look_of_block(&r->budget, r->blocks_done);
	info = pg_malloc(sizeof(double) * (looks + 1));
	z = pg_malloc(sizeof(double) * (looks + 1));
	budget_look_plan(&r->budget, looks, block_spent, info, &plan);
	budget_stats_plan(&r->budget, &bp);
	if (looks > 0 &&
		stats_sequential_bounds(plan.spending, r->opt.alpha, info, looks, z) != STATS_OK)
	{
		report_warn(r, "the plan's looks have no boundaries: the looks of rounds = auto "
					"are not shown");
		looks = 0;
	}
	r->all_decided = r->ncells > 0;
	for (int i = 0; i < r->ncells; i++)
	{
		ReportCell *c = &r->cells[i];
		int			b;

		/* started once: no look can decide (report_compare_cell says why) */
		if (looks > 0 && !report_started_once(r, c) &&
			report_look_cell(r, c, &bp, r->blocks_done, info, z, &c->look, &b))
		{
			c->has_look = true;
			c->look_block = b;
			c->look_rounds = b * r->budget.block_rounds;
			c->look_spent_s = block_spent[b - 1];
		}
		r->all_decided &= report_look_decision(c) != STATS_UNDECIDED;
	}
	if (r->all_decided)
		r->stop_why = "every cell decided";
	else if (budget_spent(&r->budget, r->blocks_done, isnan(r->spent_s) ? 0 : r->spent_s))
		r->stop_why = "budget spent";
	else
		r->stop_why = "stopped before the budget was spent (interrupted: --resume continues)";
	pfree(block_spent);
	pfree(info);
	pfree(z);
}

/*
 * "faster", "slower", "same within ±1%" or "undecided"; against a
 * reference ratio "above the reference -6.00%" or "below ...".  A look
 * whose CI excludes 0 says its direction after "same" or "undecided":
 * "same within ±1% (B slower by 0.35–0.65%)", "undecided (B slower;
 * beyond 1% not settled)", so that neither reads as no change.  Against a
 * reference the look's verdict is of B / reference, and says nothing of
 * B against A.
 */
static char *
decision_text(const ReportData *r, const ReportCell *c)
{
	StatsDecision d = report_look_decision(c);
	const char *dir = r->spec.reference > 0 || !c->has_look ? ""
		: report_direction_range(&c->look.cmp, "faster", "slower", 2);

	if (d == STATS_DECIDED_SAME)
		return psprintf("same within ±%g%%%s", 100 * r->opt.noise, dir);
	if (report_started_once(r, c))
		return pg_strdup("insufficient");
	if (r->spec.reference > 0 && (d == STATS_DECIDED_FASTER || d == STATS_DECIDED_SLOWER))
		return psprintf("%s the reference %s", d == STATS_DECIDED_FASTER ? "above" : "below",
						report_pct(r->spec.reference));
	if (d == STATS_UNDECIDED)
		return psprintf("undecided%s", dir);
	return pg_strdup(stats_decision_name(d));
}

/* "slower -39.8% [-41.0%, -38.5%] at 99.93%", "same within ±1%: ...", "undecided: ..." */
static char *
look_text(const ReportData *r, const ReportCell *c)
{
	const StatsComparison *cmp = &c->look.cmp;
	char	   *figures;

	if (!c->has_look)
		return pg_strdup("undecided: no look yet");
	figures = cmp->has_ci
		? psprintf("%s [%s, %s] at %.4g%%", report_pct(cmp->estimate), report_pct(cmp->ci_low),
				   report_pct(cmp->ci_high), 100 * (1 - c->look.alpha_look))
		: cmp->has_estimate ? psprintf("%s, no CI yet", report_pct(cmp->estimate)) : "no estimate";
	return psprintf(c->look.decision == STATS_DECIDED_FASTER || c->look.decision == STATS_DECIDED_SLOWER
					? "%s %s" : "%s: %s", decision_text(r, c), figures);
}

static char *
minutes(double s)
{
	return isnan(s) ? pg_strdup("?") : psprintf("%dm%02ds", (int) (s / 60), (int) fmod(s, 60));
}

/* "look 3 of 9, 15 rounds, 1m15s" and, when undecided, why it stopped */
static char *
look_stopped(const ReportData *r, const ReportCell *c)
{
	char	   *where;

	if (!c->has_look)
		return psprintf("no look: %d of %d rounds the first look needs", r->blocks_done * r->budget.block_rounds,
						r->budget.first_look * r->budget.block_rounds);
	where = psprintf("look %d of %d, %d rounds (%s), %s", c->look.look, r->budget.max_looks,
					 c->look_rounds, report_comparison_n(&c->look.cmp), minutes(c->look_spent_s));
	if (report_look_decision(c) != STATS_UNDECIDED)
		return psprintf("decided at %s", where);
	return psprintf("%s: %s", r->stop_why, where);
}

/* The texts of cell c's decision and looks, kept in the cell for every writer. */
void
report_look_texts(const ReportData *r, ReportCell *c)
{
	c->decision = decision_text(r, c);
	c->look_text = look_text(r, c);
	c->look_stopped = look_stopped(r, c);
}

