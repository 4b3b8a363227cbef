/*-------------------------------------------------------------------------
 *
 * test_plan.c
 *	  Unit tests (TAP) of an experiment's plan (client/plan/plan.c): every round
 *	  runs every variant once in every cell (script, clients), in blocks
 *	  of rounds between restarts, each block after a start opened by a
 *	  warm-up round, the experiment's first rounds warm-ups when asked;
 *	  the rounds between restarts that restart = auto chooses (none on one
 *	  server or on servers not managed; enough instance pairs; rounds =
 *	  auto's most); the order within a round shuffled by the seed, the
 *	  same seed giving the same plan and another seed another; duets of
 *	  two variants run in pairs of one cell on the two CPU sets, each
 *	  variant alternating between them, and of three variants or more
 *	  each beside the first; and the counts a budget and a check read
 *	  (plan_round_runs(), plan_round_slots(), plan_count_runs()).
 *
 * test/unit/test_plan.c
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "experiment.h"
#include "plan.h"

#include "test_client_util.h"

/* every round of plan holds each (variant, script, clients) once: its problem, or NULL */
static const char *
rounds_complete(const ExperimentSpec *spec, const Plan *plan, bool with_warmups)
{
	int			per_round = plan_round_runs(spec);

	for (int i = 0; i < plan->nruns; i += per_round)
	{
		const PlannedRun *r = &plan->runs[i];

		for (int j = 0; j < per_round; j++)
		{
			if (r[j].round != r[0].round || r[j].block != r[0].block)
				return "a round's runs are not together";
			for (int k = j + 1; k < per_round; k++)
				if (r[k].variant == r[j].variant && r[k].script == r[j].script &&
					r[k].clients == r[j].clients && r[k].partner == r[j].partner)
					return "a run twice in one round";
		}
		if (!with_warmups && r[0].round == 0)
			return "a warm-up round";
	}
	return NULL;
}

static void
test_shape(void)
{
	ExperimentSpec spec;
	Plan	   *plan;
	const char *const keys[] = {"experiment|clients|1,4", "experiment|rounds|4", "experiment|restart|never",
		"experiment|schedule|interleaved", "experiment|script|select-only,tpcb-like",
		"variant A|bindir|/x", "variant B|bindir|/x", "variant C|cluster|A", NULL};
	int			counts[3][2][2] = {{{0}}};
	bool		ids = true;
	const char *problem;

	if (!spec_of(&spec, keys))
		return;
	plan = plan_build(&spec);
	ok(plan_round_runs(&spec) == 12 && plan_round_slots(&spec) == 12,
	   "a round: 3 variants x 2 scripts x 2 client counts, one at a time");
	ok(plan->nruns == 48 && plan_count_runs(&spec) == 48, "4 rounds of them: 48 runs");
	ok(plan->restart_rounds == 0 && plan->nblocks == 1 && plan->block_rounds == 4,
	   "restart = never: one block of all the rounds");
	for (int i = 0; i < plan->nruns; i++)
	{
		const PlannedRun *r = &plan->runs[i];

		ids &= r->run_id == i + 1 && r->round == i / 12 + 1 && !r->warmup && !r->after_start &&
			r->partner == -1 && !r->duet_first && r->cpu_slot == r->round % 2;
		counts[r->variant][r->script][r->clients == 4]++;
	}
	ok(ids, "run ids in order, rounds in order, none a warm-up or a pair, the CPU set the round's parity");
	problem = rounds_complete(&spec, plan, false);
	ok(problem == NULL, "every round: each variant once in each cell%s%s", problem ? ": " : "", problem ? problem : "");
	ok(counts[2][1][1] == 4 && counts[0][0][0] == 4, "each variant and cell in 4 runs");

	spec.warmup = 1;
	plan = plan_build(&spec);
	ok(plan->runs[0].warmup && plan->runs[11].warmup && !plan->runs[12].warmup && !plan->runs[47].warmup,
	   "warmup = 1: the first round's runs are recorded, not counted");
}

static void
test_restarts(void)
{
	ExperimentSpec spec;
	Plan	   *plan;
	char	   *why;
	const char *const keys[] = {"experiment|rounds|5", "experiment|restart|2", "experiment|schedule|interleaved",
		"variant A|bindir|/x", "variant B|bindir|/y", NULL};
	bool		shape = true;
	const char *problem;

	if (!spec_of(&spec, keys))
		return;
	plan = plan_build(&spec);
	ok(plan->restart_rounds == 2 && plan->block_rounds == 2 && plan->nblocks == 3,
	   "restart = 2 of 5 rounds: blocks of 2, the last of 1");
	ok(plan->nruns == 2 * (5 + 3), "each block opened by a warm-up round: 8 rounds of 2 runs");
	/* block b: a warm-up round, then its rounds */
	for (int i = 0, round = 0; i < plan->nruns; i += 2)
	{
		const PlannedRun *r = &plan->runs[i];
		bool		opens = round % 2 == 0 && r->round == 0;

		if (opens)
			shape &= r->warmup && r->after_start && r[1].after_start && r->block == round / 2 + 1;
		else
		{
			round++;
			shape &= r->round == round && r->block == (round - 1) / 2 + 1 && !r->warmup && !r->after_start;
		}
	}
	ok(shape, "a start, its warm-ups (round 0), the block's rounds, numbered by block");
	problem = rounds_complete(&spec, plan, true);
	ok(problem == NULL, "warm-up rounds too run every variant once%s%s", problem ? ": " : "", problem ? problem : "");

	spec.restart_auto = true;
	spec.restart_every = 0;
	spec.rounds = 12;
	ok(plan_restart_rounds(&spec, &why) == 2 && strstr(why, "every 2 rounds"),
	   "restart = auto, 12 rounds: every 2, so 6 instance pairs");
	spec.rounds = 60;
	ok(plan_restart_rounds(&spec, &why) == RESTART_AUTO_MAX_ROUNDS, "60 rounds: every %d, the most",
	   RESTART_AUTO_MAX_ROUNDS);
	spec.rounds = 3;
	ok(plan_restart_rounds(&spec, &why) == 1, "3 rounds: every round");
	spec.rounds_auto = true;
	ok(plan_restart_rounds(&spec, &why) == RESTART_AUTO_MAX_ROUNDS, "rounds = auto: the most, the budget sets the pairs");
	ok(plan_block_rounds(&spec, 0) == PLAN_LOOK_ROUNDS && plan_block_rounds(&spec, 3) == 3,
	   "blocks: a start's rounds, else under rounds = auto the rounds between looks");
	spec.rounds_auto = false;

	spec.variants[1].cluster = pg_strdup("A");
	spec.variants[1].bindir = NULL;
	ok(!plan_two_servers(&spec) && plan_restart_rounds(&spec, &why) == 0 && strstr(why, "one server"),
	   "restart = auto on one server: none, and why");
	spec.variants[1].cluster = NULL;
	spec.variants[0].bindir = spec.variants[1].bindir = NULL;
	spec.variants[0].conninfo = pg_strdup("host=/a");
	spec.variants[1].conninfo = pg_strdup("host=/b");
	ok(plan_two_servers(&spec) && plan_restart_rounds(&spec, &why) == 0 && strstr(why, "no server of the experiment is managed"),
	   "restart = auto on servers not managed: none, and why");
}

static void
test_seeds(void)
{
	ExperimentSpec spec;
	Plan	   *a,
			   *b,
			   *c;
	const char *const keys[] = {"experiment|rounds|40", "experiment|restart|never", "experiment|seed|42",
		"experiment|schedule|interleaved", "variant A|bindir|/x", "variant B|bindir|/x",
		"variant C|bindir|/x", NULL};
	bool		same = true;
	bool		differ = false;
	int			first[3] = {0};

	if (!spec_of(&spec, keys))
		return;
	a = plan_build(&spec);
	b = plan_build(&spec);
	spec.seed = 43;
	c = plan_build(&spec);
	for (int i = 0; i < a->nruns; i++)
	{
		same &= a->runs[i].variant == b->runs[i].variant;
		differ |= a->runs[i].variant != c->runs[i].variant;
		if (i % 3 == 0)
			first[a->runs[i].variant]++;
	}
	ok(same, "the same seed: the same plan");
	ok(differ, "another seed: another order");
	/* each variant first in 40/3 rounds on average; below 4 is p < 0.001 each */
	ok(first[0] >= 4 && first[1] >= 4 && first[2] >= 4,
	   "the order within rounds shuffled: each variant first in some (%d, %d, %d of 40)",
	   first[0], first[1], first[2]);
}

static void
test_duets(void)
{
	ExperimentSpec spec;
	Plan	   *plan;
	const char *const two[] = {"experiment|rounds|6", "experiment|restart|never", "experiment|clients|1,2",
		"experiment|schedule|duet", "variant A|bindir|/x", "variant B|bindir|/y", NULL};
	const char *const three[] = {"experiment|rounds|6", "experiment|restart|never", "experiment|schedule|duet",
		"variant A|bindir|/x", "variant B|bindir|/y", "variant C|bindir|/z", NULL};
	bool		paired = true;
	bool		alternate = true;
	int			a_slot[7] = {0};

	if (!spec_of(&spec, two))
		return;
	plan = plan_build(&spec);
	ok(plan_round_runs(&spec) == 4 && plan_round_slots(&spec) == 2,
	   "a duet of two variants in two cells: 4 runs, 2 at a time");
	for (int i = 0; i < plan->nruns; i += 2)
	{
		const PlannedRun *r = &plan->runs[i];
		int			lower = r[0].variant < r[1].variant ? 0 : 1;

		paired &= r[0].duet_first && !r[1].duet_first && r[0].clients == r[1].clients &&
			r[0].variant != r[1].variant && r[0].partner == r[1].variant && r[1].partner == r[0].variant &&
			r[0].cpu_slot != r[1].cpu_slot && r[lower].cpu_slot == r->round % 2;
		a_slot[r->round] = r[0].variant == 0 ? r[0].cpu_slot : r[1].cpu_slot;
	}
	for (int round = 2; round <= 6; round++)
		alternate &= a_slot[round] != a_slot[round - 1];
	ok(paired, "runs in pairs of one cell, each beside the other variant, on the two CPU sets");
	ok(alternate, "each variant alternates between the CPU sets round by round");

	if (!spec_of(&spec, three))
		return;
	plan = plan_build(&spec);
	ok(plan_round_runs(&spec) == 4 && plan_round_slots(&spec) == 2,
	   "a duet of three variants: B beside A, C beside A: 4 runs, 2 at a time");
	paired = true;
	for (int i = 0; i < plan->nruns; i += 2)
	{
		const PlannedRun *r = &plan->runs[i];

		paired &= r[0].duet_first && (r[0].variant == 0) != (r[1].variant == 0) &&
			r[0].partner == r[1].variant && r[1].partner == r[0].variant;
	}
	ok(paired, "every pair: the first variant beside another");
}

static void
test_limits(void)
{
	ExperimentSpec spec;
	PlannedRun	r;
	const char *const keys[] = {"experiment|rounds|100000", "experiment|clients|1,2,3,4,5,6,7,8",
		"experiment|restart|never", "experiment|schedule|interleaved",
		"variant A|bindir|/x", "variant B|bindir|/x", NULL};

	if (!spec_of(&spec, keys))
		return;
	ok(plan_count_runs(&spec) == 1600000.0 && plan_count_runs(&spec) > PLAN_MAX_RUNS,
	   "a plan's runs counted without building it: 1,600,000, past the most an experiment may have");
	r = plan_extra_warmup(&spec, 77, 3, 1, 0, 4);
	ok(r.run_id == 77 && r.block == 3 && r.variant == 1 && r.clients == 4 && r.warmup && r.after_start &&
	   r.round == 0 && r.partner == -1 && r.cpu_slot == 1,
	   "a warm-up past the plan: its number, its block's CPU set, alone");
}

int
main(void)
{
	client_test_begin(NULL);
	test_shape();
	test_restarts();
	test_seeds();
	test_duets();
	test_limits();
	return done_testing();
}
