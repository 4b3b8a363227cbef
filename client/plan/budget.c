/*-------------------------------------------------------------------------
 *
 * budget.c
 *		rounds = auto: how many blocks of rounds a budget pays for, where
 *		the looks fall among them, and the time spent, block by block.
 *
 * The looks spend alpha by the budget's clock (Lan and DeMets' error
 * spending on calendar time): a look's information fraction is the share
 * of the budget spent by the end of its block, and the look after which
 * the budget has no room for another block spends all that is left.  Both
 * depend on time only, never on the data, so the error rates hold however
 * many blocks the budget turns out to pay for; the number of blocks the
 * plan lays out is only a most, from the least a block can cost (its
 * rounds' pgbench time, or BUDGET_PLAN_SHARE of the expected cost of a
 * block where that is less: a run its -T seconds plus an estimated
 * overhead, BUDGET_*_S, a block its rounds' runs, the warm-ups after a
 * start and the restarts), so that it ends with the budget, not before.
 * The looks are after each block from the one that reaches min_rounds on.
 * The plan is recorded in experiment.json, so --resume and report use the
 * one the experiment started with (plans recorded before time information
 * are replayed by blocks).  How long the blocks really took is appended
 * to budget.csv after each one (fsync'd): what --resume has left, and each
 * look's information.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "budget.h"
#include "plan.h"
#include "results.h"

#include <math.h>
#include <unistd.h>

static const char budget_columns[] = "block,rounds,spent_s";

static int
managed_servers(const ExperimentSpec *spec)
{
	int			n = 0;

	for (int i = 0; i < spec->nvariants; i++)
		n += plan_server_of(spec, i) == i && plan_server_managed(spec, i);
	return n;
}

/*
 * The plan of a budgeted experiment, and spec->rounds set to its most
 * rounds (what plan_build() lays out); false with the problem when the
 * budget cannot pay for min_rounds or for one block.
 */
bool
budget_plan(ExperimentSpec *spec, BudgetPlan *out, char **error)
{
	char	   *restart_why;
	int			restart_rounds = plan_restart_rounds(spec, &restart_why);
	int			per_round = plan_round_runs(spec);
	int			slots = plan_round_slots(spec);
	int			floor_rounds = Max(spec->min_rounds, spec->warmup + 1);
	int			servers = restart_rounds > 0 ? managed_servers(spec) : 0;
	double		least_block_s;

	memset(out, 0, sizeof(*out));
	out->budget_s = spec->budget_s;
	out->spending = STATS_SPEND_OBRIEN_FLEMING;
	out->block_rounds = plan_block_rounds(spec, restart_rounds);
	out->run_s = spec->duration_s + BUDGET_RUN_OVERHEAD_S +
		(spec->reset == RESET_EVERY_RUN ? BUDGET_RESET_OVERHEAD_S : 0);
	out->block_s = slots * (out->block_rounds + (restart_rounds > 0 ? 1 : 0)) * out->run_s +
		servers * BUDGET_RESTART_S;
	out->first_look = (floor_rounds + out->block_rounds - 1) / out->block_rounds;
	out->time_information = true;
	out->max_blocks = Min(BUDGET_MAX_BLOCKS, (int) floor(spec->budget_s / out->block_s));
	if (out->max_blocks < out->first_look)
	{
		char	   *block = psprintf("a block of %d round%s of %d run%s%s, about %.0f s (each run %d s plus an estimated %.1f s%s)",
									 out->block_rounds, out->block_rounds == 1 ? "" : "s",
									 per_round, per_round == 1 ? "" : "s",
									 slots < per_round ? " in pairs at once" : "", out->block_s,
									 spec->duration_s, out->run_s - spec->duration_s,
									 restart_rounds > 0 ? ", with a warm-up round and the restarts" : "");

		if (spec->min_rounds > 0)
			*error = psprintf("min_rounds = %d needs %d blocks, more than a budget of %d s pays for (%d; %s); give a budget of at least %.0f s or a lower min_rounds",
							  spec->min_rounds, out->first_look, spec->budget_s,
							  out->max_blocks, block, ceil(out->first_look * out->block_s));
		else
			*error = psprintf("a budget of %d s is less than one block of rounds (%s); give a budget of at least %.0f s",
							  spec->budget_s, block, ceil(out->first_look * out->block_s));
		return false;
	}
	/*
	 * The least a block can cost is its rounds' pgbench time alone: planned
	 * at that (or at BUDGET_PLAN_SHARE of the estimate where that is
	 * less), the plan's last block can come only with the budget spent.
	 */
	least_block_s = Min(BUDGET_PLAN_SHARE * out->block_s,
						(double) slots * out->block_rounds * spec->duration_s);
	out->max_blocks = Min(BUDGET_MAX_BLOCKS, (int) floor(spec->budget_s / least_block_s));
	out->max_looks = out->max_blocks - out->first_look + 1;
	spec->rounds = out->max_blocks * out->block_rounds;
	out->why = psprintf("%d s of budget / about %.0f s a block (%d round%s of %d runs%s of %d s + %.1f s%s), planned at %.0f s a block (%s) = %d blocks, %d rounds at most; a look after each block from block %d on (%d rounds), until the budget has no room for another block; alpha spent O'Brien-Fleming by the share of the budget spent",
						spec->budget_s, out->block_s, out->block_rounds,
						out->block_rounds == 1 ? "" : "s", per_round,
						slots < per_round ? " in pairs at once" : "", spec->duration_s,
						out->run_s - spec->duration_s,
						restart_rounds > 0 ? psprintf(", a warm-up round and %d restart%s", servers, servers == 1 ? "" : "s") : "",
						least_block_s,
						least_block_s < BUDGET_PLAN_SHARE * out->block_s
						? "its rounds' pgbench time alone"
						: psprintf("%.0f%% of the estimate", 100 * BUDGET_PLAN_SHARE),
						out->max_blocks, spec->rounds, out->first_look,
						out->first_look * out->block_rounds);
	return true;
}

json_t *
budget_to_json(const BudgetPlan *b)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:f, s:f, s:s, s:s, s:s}",
					 "budget_s", b->budget_s, "block_rounds", b->block_rounds,
					 "first_look_block", b->first_look, "max_blocks", b->max_blocks,
					 "max_looks", b->max_looks, "run_s_estimate", b->run_s,
					 "block_s_estimate", b->block_s,
					 "spending", b->spending == STATS_SPEND_POCOCK ? "pocock" : "obrien-fleming",
					 "information", b->time_information ? "budget spent" : "blocks",
					 "why", b->why);
}

/* The plan experiment.json records as "sequential", checked as untrusted data. */
bool
budget_from_json(json_t *experiment, BudgetPlan *out, char **error)
{
	json_t	   *seq = json_object_get(experiment, "sequential");
	json_int_t	budget,
				block_rounds,
				first,
				max_blocks,
				max_looks;
	double		run_s,
				block_s;
	const char *spending,
			   *why;

	memset(out, 0, sizeof(*out));
	if (seq == NULL)
	{
		*error = pg_strdup("experiment.json has rounds = auto but no \"sequential\" plan");
		return false;
	}
	if (json_unpack(seq, "{s:I, s:I, s:I, s:I, s:I, s:F, s:F, s:s, s:s}",
					"budget_s", &budget, "block_rounds", &block_rounds,
					"first_look_block", &first, "max_blocks", &max_blocks,
					"max_looks", &max_looks, "run_s_estimate", &run_s,
					"block_s_estimate", &block_s, "spending", &spending, "why", &why) != 0 ||
		budget < 1 || block_rounds < 1 || block_rounds > 100000 || first < 1 ||
		max_blocks < first || max_blocks > BUDGET_MAX_BLOCKS ||
		max_looks != max_blocks - first + 1 ||
		(strcmp(spending, "pocock") != 0 && strcmp(spending, "obrien-fleming") != 0))
	{
		*error = pg_strdup("experiment.json: its \"sequential\" plan is damaged (budget_s, block_rounds, first_look_block, max_blocks, max_looks, spending)");
		return false;
	}
	out->budget_s = (int) budget;
	out->block_rounds = (int) block_rounds;
	out->first_look = (int) first;
	out->max_blocks = (int) max_blocks;
	out->max_looks = (int) max_looks;
	out->run_s = run_s;
	out->block_s = block_s;
	out->spending = strcmp(spending, "pocock") == 0 ? STATS_SPEND_POCOCK : STATS_SPEND_OBRIEN_FLEMING;
	out->time_information =
		json_is_string(json_object_get(seq, "information")) &&
		strcmp(json_string_value(json_object_get(seq, "information")), "budget spent") == 0;
	out->why = pg_strdup(why);
	return true;
}

/* The plan as common/ takes it (stats_seqbudget.c). */
void
budget_stats_plan(const BudgetPlan *b, StatsBudgetPlan *out)
{
	out->budget_s = b->budget_s;
	out->block_rounds = b->block_rounds;
	out->first_look = b->first_look;
	out->max_blocks = b->max_blocks;
	out->max_looks = b->max_looks;
	out->spending = b->spending;
	out->time_information = b->time_information;
}

/*
 * Whether the budget has no room for another block after "blocks" blocks
 * took spent_s seconds (stats_budget_spent()).  The runner stops by it,
 * and the report says why by it.
 */
bool
budget_spent(const BudgetPlan *b, int blocks, double spent_s)
{
	StatsBudgetPlan plan;

	budget_stats_plan(b, &plan);
	return stats_budget_spent(&plan, blocks, spent_s);
}

/* The look (1-based) made after block, or 0 for a block before the first look. */
int
budget_look_of_block(const BudgetPlan *b, int block)
{
	return block >= b->first_look ? block - b->first_look + 1 : 0;
}

/*
 * Look "look" in the plan: the information fractions of looks 1 .. look
 * into info (room for look values), stats_budget_info() of the time each
 * block took (block_spent_s, by block; NULL: none).
 */
void
budget_look_plan(const BudgetPlan *b, int look, const double *block_spent_s,
				 double *info, StatsSequentialPlan *plan)
{
	StatsBudgetPlan bp;

	budget_stats_plan(b, &bp);
	stats_budget_info(&bp, look, block_spent_s, info);
	plan->look = look;
	plan->max_looks = b->max_looks;
	plan->info = info;
	plan->spending = b->spending;
	plan->z = NULL;
	plan->t_crit = NULL;
}

bool
budget_record_block(const char *dir, int block, int rounds, double spent_s, char **error)
{
	FILE	   *f = results_open_csv(dir, "budget.csv", budget_columns, error);

	if (f == NULL)
		return false;
	fprintf(f, "%d,%d,%.3f\n", block, rounds, spent_s);
	return results_close_csv(f, dir, "budget.csv", error);
}

static bool
check_budget_row(const RunsCsv *t, char **f, const void *arg, char **problem)
{
	static const char *const numbers[] = {"spent_s"};
	int			max_blocks = *(const int *) arg;
	long		n;

	if (!results_parse_int(f[runs_csv_column(t, "block")], 1, &n) || n > max_blocks)
		return fail_with(problem, "block \"%s\" is not a whole number from 1 to %d",
						 escape_text(f[runs_csv_column(t, "block")], ESCAPE_TERMINAL), max_blocks);
	return results_check_numbers(t, f, numbers, lengthof(numbers), problem);
}

/*
 * What budget.csv says: the blocks finished, the seconds spent by the end
 * of the last, and by the end of each block b in block_spent_s[b - 1]
 * (NAN for a block it lacks; room for max_blocks; NULL: not wanted).
 * No file: none.
 */
bool
budget_read_spent(const char *dir, int *blocks, double *spent_s, double *block_spent_s,
				  int max_blocks, char **error)
{
	static const char *const required[] = {"block", "rounds", "spent_s"};
	char	   *path = psprintf("%s/budget.csv", dir);
	RunsCsv    *t;

	*blocks = 0;
	*spent_s = 0;
	for (int i = 0; block_spent_s != NULL && i < max_blocks; i++)
		block_spent_s[i] = NAN;
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return true;
	t = results_read_csv(path, required, lengthof(required), check_budget_row, &max_blocks,
						 "budget.csv is written by pgbench_ext after each block of rounds; restore it from a copy of the results directory",
						 error);
	if (t == NULL)
		return false;
	for (int i = 0; i < t->nrows; i++)
	{
		int			b = atoi(t->rows[i][runs_csv_column(t, "block")]);
		double		s = strtod(t->rows[i][runs_csv_column(t, "spent_s")], NULL);

		if (block_spent_s != NULL)
			block_spent_s[b - 1] = s;
		if (b > *blocks)
		{
			*blocks = b;
			*spent_s = s;
		}
	}
	return true;
}
