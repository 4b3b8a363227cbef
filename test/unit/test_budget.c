/*-------------------------------------------------------------------------
 *
 * test_budget.c
 *	  Unit tests (TAP) of rounds = auto's budget (client/plan/budget.c and the
 *	  looks' timing it takes from common/stats_seqbudget.c): the blocks a
 *	  budget pays for, from a block's estimated cost (its runs, one per
 *	  pair of a duet, a warm-up round and the restarts after a start) and
 *	  planned at the least a block can cost; the first look at min_rounds
 *	  and past the warm-ups; a budget or min_rounds too small for that
 *	  refused, naming the block and the budget to give; the plan kept in
 *	  experiment.json and read back, a damaged one refused; when the budget
 *	  has no room for another block; the look after each block and each
 *	  look's information, the share of the budget spent; and budget.csv
 *	  written block by block and read back, a damaged row refused.
 *
 * test/unit/test_budget.c
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "budget.h"
#include "experiment.h"
#include "plan.h"

#include <math.h>
#include <unistd.h>

#include "test_client_util.h"

static char *dir;

#define ONE_SERVER "experiment|rounds|auto", "experiment|duration|1", "experiment|schedule|interleaved", \
	"variant A|bindir|/x", "variant B|cluster|A"

static void
test_plan(void)
{
	ExperimentSpec spec;
	BudgetPlan	b;
	char	   *error = NULL;
	const char *const one[] = {ONE_SERVER, "experiment|budget|240", "experiment|reset|never", NULL};
	const char *const reset[] = {ONE_SERVER, "experiment|budget|240", NULL};
	const char *const two[] = {"experiment|rounds|auto", "experiment|duration|2", "experiment|budget|10m",
		"experiment|restart|2", "experiment|reset|never", "experiment|schedule|interleaved",
		"variant A|bindir|/x", "variant B|bindir|/y", NULL};
	const char *const duet[] = {"experiment|rounds|auto", "experiment|duration|2", "experiment|budget|10m",
		"experiment|restart|2", "experiment|reset|never", "experiment|schedule|duet",
		"variant A|bindir|/x", "variant B|bindir|/y", NULL};

	if (!spec_of(&spec, one))
		return;
	ok(budget_plan(&spec, &b, &error), "one server, a budget of 240 s: a plan%s%s", error ? ": " : "", error ? error : "");
	ok(b.block_rounds == PLAN_LOOK_ROUNDS && b.first_look == 1, "a look every %d rounds from the first block",
	   PLAN_LOOK_ROUNDS);
	is_close(b.run_s, 1 + BUDGET_RUN_OVERHEAD_S, 1e-12, "a run: its 1 s and the overhead");
	is_close(b.block_s, 2 * 5 * b.run_s, 1e-12, "a block: 2 runs x 5 rounds");
	ok(b.max_blocks == 32 && b.max_looks == 32 && spec.rounds == 160,
	   "planned at half the estimate (7.5 s), under the pgbench time (10 s): 32 blocks, 160 rounds (%d, %d)",
	   b.max_blocks, spec.rounds);
	ok(b.time_information && b.spending == STATS_SPEND_OBRIEN_FLEMING && strstr(b.why, "planned at 8 s a block (50% of the estimate)") &&
	   strstr(b.why, "= 32 blocks, 160 rounds at most") != NULL, "its looks by the budget spent, and the plan in words");

	if (!spec_of(&spec, reset))
		return;
	ok(budget_plan(&spec, &b, &error), "reset = every-run: a plan");
	is_close(b.run_s, 1 + BUDGET_RUN_OVERHEAD_S + BUDGET_RESET_OVERHEAD_S, 1e-12, "a run: the reset's overhead too");
	ok(b.max_blocks == 24 && strstr(b.why, "its rounds' pgbench time alone"),
	   "planned at the rounds' pgbench time (10 s), under half the estimate (17.5 s): 24 blocks");

	if (!spec_of(&spec, two))
		return;
	ok(budget_plan(&spec, &b, &error), "two servers restarted every 2 rounds: a plan");
	is_close(b.block_s, 2 * (2 + 1) * 2.5 + 2 * BUDGET_RESTART_S, 1e-12,
			 "a block: 2 runs x (2 rounds + a warm-up round), and 2 restarts");
	ok(b.block_rounds == 2 && b.max_blocks == 75 && spec.rounds == 150,
	   "planned at its 8 s of pgbench time, under half the estimate (9.5 s): 75 blocks of 2 rounds");
	if (!spec_of(&spec, duet))
		return;
	ok(budget_plan(&spec, &b, &error), "the same as a duet: a plan");
	is_close(b.block_s, 1 * (2 + 1) * 2.5 + 2 * BUDGET_RESTART_S, 1e-12, "a duet's two runs cost one's time");
	ok(b.max_blocks == 150 && strstr(b.why, "in pairs at once"), "planned at 4 s: 150 blocks, said to be pairs");

	spec.min_rounds = 12;
	ok(budget_plan(&spec, &b, &error) && b.first_look == 6 && b.max_looks == b.max_blocks - 5,
	   "min_rounds = 12 in blocks of 2: the first look after block 6");
	spec.min_rounds = 0;
	spec.warmup = 2;
	ok(budget_plan(&spec, &b, &error) && b.first_look == 2, "2 warm-up rounds: the first look after block 2");
}

static void
test_refused(void)
{
	ExperimentSpec spec;
	BudgetPlan	b;
	char	   *error = NULL;
	const char *const small[] = {ONE_SERVER, "experiment|budget|10", NULL};
	const char *const min[] = {ONE_SERVER, "experiment|budget|2m", "experiment|min_rounds|100", NULL};

	if (!spec_of(&spec, small))
		return;
	ok(!budget_plan(&spec, &b, &error) &&
	   strstr(error, "a budget of 10 s is less than one block of rounds (a block of 5 rounds of 2 runs, about 35 s") &&
	   strstr(error, "give a budget of at least 35 s"), "a budget below one block: the block, and the budget to give");
	if (!spec_of(&spec, min))
		return;
	ok(!budget_plan(&spec, &b, &error) &&
	   strstr(error, "min_rounds = 100 needs 20 blocks, more than a budget of 120 s pays for (3; ") &&
	   strstr(error, "give a budget of at least 700 s or a lower min_rounds"),
	   "min_rounds past the budget: the blocks it needs, and the budget to give");
	if (error && !strstr(error, "700 s"))
		diag("%s", error);
}

static void
test_json(void)
{
	ExperimentSpec spec;
	BudgetPlan	b,
				back;
	char	   *error = NULL;
	json_t	   *experiment;
	const char *const one[] = {ONE_SERVER, "experiment|budget|240", "experiment|reset|never",
		"experiment|min_rounds|10", NULL};

	if (!spec_of(&spec, one) || !budget_plan(&spec, &b, &error))
		return;
	experiment = json_pack("{s:o}", "sequential", budget_to_json(&b));
	ok(budget_from_json(experiment, &back, &error) && back.budget_s == 240 && back.block_rounds == 5 &&
	   back.first_look == 2 && back.max_blocks == b.max_blocks && back.max_looks == b.max_looks &&
	   back.run_s == b.run_s && back.time_information && strcmp(back.why, b.why) == 0,
	   "the plan as experiment.json keeps it, read back the same");
	json_object_set_new(json_object_get(experiment, "sequential"), "information", json_string("blocks"));
	ok(budget_from_json(experiment, &back, &error) && !back.time_information,
	   "information by blocks: looks by the blocks done");
	json_object_set_new(json_object_get(experiment, "sequential"), "max_looks", json_integer(b.max_looks + 1));
	ok(!budget_from_json(experiment, &back, &error) && strstr(error, "its \"sequential\" plan is damaged"),
	   "looks that do not add up: damaged");
	json_object_set_new(json_object_get(experiment, "sequential"), "max_looks", json_integer(b.max_looks));
	json_object_set_new(json_object_get(experiment, "sequential"), "spending", json_string("whenever"));
	ok(!budget_from_json(experiment, &back, &error), "an unknown spending: damaged");
	json_object_set_new(json_object_get(experiment, "sequential"), "spending", json_string("pocock"));
	json_object_set_new(json_object_get(experiment, "sequential"), "max_blocks", json_integer(BUDGET_MAX_BLOCKS + 1));
	ok(!budget_from_json(experiment, &back, &error), "more blocks than a plan may have: damaged");
	json_object_del(experiment, "sequential");
	ok(!budget_from_json(experiment, &back, &error) && strstr(error, "no \"sequential\" plan"), "no plan: said");
	json_decref(experiment);
}

static void
test_looks(void)
{
	BudgetPlan	b = {0};
	double		spent[10] = {20, 45, 70, 100, 130, 160, 190, 215, 240, 240};
	double		info[10];
	StatsSequentialPlan seq;
	bool		increasing = true;

	b.budget_s = 240;
	b.block_rounds = 5;
	b.first_look = 3;
	b.max_blocks = 10;
	b.max_looks = 8;
	b.time_information = true;
	ok(budget_look_of_block(&b, 2) == 0 && budget_look_of_block(&b, 3) == 1 && budget_look_of_block(&b, 7) == 5,
	   "no look before the first look's block, then one after each block");
	ok(!budget_spent(&b, 3, 170) && budget_spent(&b, 3, 181),
	   "room for another block while the mean block fits: 170 s + 56.7 s, not 181 s + 60.3 s of 240");
	ok(budget_spent(&b, 10, 50) && !budget_spent(&b, 0, 0), "the plan's blocks done: spent; none done: not");

	budget_look_plan(&b, 4, spent, info, &seq);
	is_close(info[0], 70.0 / 240, 1e-12, "look 1's information: the share of the budget spent by block 3");
	is_close(info[3], 160.0 / 240, 1e-12, "look 4's: by block 6");
	ok(seq.look == 4 && seq.max_looks == 8 && seq.info == info, "the looks' plan the statistics take");
	budget_look_plan(&b, 5, (double[]) {20, 45, 70, 100, 130, 160, 215}, info, &seq);
	is_close(info[4], 1.0, 1e-12, "a look after which no block fits: all the information");
	budget_look_plan(&b, 4, NULL, info, &seq);
	is_close(info[1], 4.0 / 10, 1e-12, "no times: the blocks done of the plan's");
	budget_look_plan(&b, 3, (double[]) {20, 45, 70, 70, 70}, info, &seq);
	for (int k = 1; k < 3; k++)
		increasing &= info[k] > info[k - 1];
	ok(increasing, "information strictly increasing, even where the time did not grow");
	b.time_information = false;
	budget_look_plan(&b, 2, spent, info, &seq);
	is_close(info[1], 4.0 / 10, 1e-12, "a plan recorded by blocks: blocks done, whatever the time");
}

static void
test_csv(void)
{
	char	   *error = NULL;
	int			blocks;
	double		spent;
	double		each[4];
	char	   *path = psprintf("%s/budget.csv", dir);
	FILE	   *f;

	ok(budget_read_spent(dir, &blocks, &spent, each, 4, &error) && blocks == 0 && spent == 0 && isnan(each[0]),
	   "no budget.csv: nothing spent");
	ok(budget_record_block(dir, 1, 5, 31.25, &error) && budget_record_block(dir, 2, 5, 60.5, &error),
	   "two blocks recorded%s%s", error ? ": " : "", error ? error : "");
	ok(budget_read_spent(dir, &blocks, &spent, each, 4, &error) && blocks == 2 && spent == 60.5 &&
	   each[0] == 31.25 && each[1] == 60.5 && isnan(each[2]),
	   "read back: 2 blocks, 60.5 s, each block's time");
	f = fopen(path, "a");
	fputs("7,5,90\n", f);
	fclose(f);
	ok(!budget_read_spent(dir, &blocks, &spent, each, 4, &error) &&
	   strstr(error, "block \"7\" is not a whole number from 1 to 4"), "a block past the plan's: refused");
	f = fopen(path, "w");
	fputs("block,rounds,spent_s\n1,5,soon\n", f);
	fclose(f);
	ok(!budget_read_spent(dir, &blocks, &spent, each, 4, &error) && strstr(error, "spent_s"),
	   "a time that is no number: refused, naming the column");
	if (error && !strstr(error, "spent_s"))
		diag("%s", error);
	unlink(path);
}

int
main(void)
{
	dir = client_test_begin("test_budget");
	test_plan();
	test_refused();
	test_json();
	test_looks();
	test_csv();
	rmdir(dir);
	return done_testing();
}
