/*-------------------------------------------------------------------------
 *
 * plan.c
 *		Blocks × rounds × cells × variants, interleaved in a seeded random
 *		order.
 *
 * Every round runs every variant once in every cell (script, clients).
 * Within a round the order is shuffled, so drift over the session (a
 * neighbour's load, thermal throttling, a growing table) spreads over all
 * variants instead of landing on whichever ran last: never all-A-then-all-B.
 * The same seed gives the same plan, which is how --resume and --rerun
 * find their place.
 *
 * With restarts the rounds come in blocks: the runner restarts every
 * managed server before each block (a new instance: a new draw of memory
 * layout), and the block begins with one warm-up run per variant and
 * cell, recorded and not counted.  A block is the unit an experiment can
 * grow by: the rounds between two starts are one instance pair of the
 * nested verdict.  Warm-ups that a start outside the plan needs (a
 * resumed block, a server restarted after a crash) are numbered past the
 * plan's runs (plan_extra_warmup()).
 *
 * Under schedule = duet two runs go at once.  With two variants they are
 * the round's two; with more, every variant runs beside its baseline (the
 * first variant, or the first variant's build of its seed): the baseline
 * once per variant compared with it, so that each comparison of the report
 * pairs runs that shared the host's interference.  The pairs of a round
 * come in a shuffled order.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build_seeds.h"
#include "plan.h"

#include "common/pg_prng.h"

/* The variant whose server variant runs on: its own, or cluster = OTHER's. */
int
plan_server_of(const ExperimentSpec *spec, int variant)
{
	const VariantSpec *v = &spec->variants[variant];
	int			host = v->cluster ? experiment_variant_index(spec, v->cluster) : -1;

	return host >= 0 ? host : variant;
}

/* Whether that server is one the runner starts (and so can restart). */
bool
plan_server_managed(const ExperimentSpec *spec, int variant)
{
	const VariantSpec *owner = &spec->variants[plan_server_of(spec, variant)];

	return owner->conninfo == NULL && (owner->bindir != NULL || owner->source != NULL);
}

/* Whether some variant runs on another server than the first one's. */
bool
plan_two_servers(const ExperimentSpec *spec)
{
	for (int i = 1; i < spec->nvariants; i++)
		if (plan_server_of(spec, i) != plan_server_of(spec, 0))
			return true;
	return false;
}

/*
 * Under schedule = duet with three variants or more, the pairs of a cell's
 * round: first[k] beside second[k] (-1: first[k] runs alone, a baseline
 * no variant is compared with); n is 0 when the round's runs are not
 * base-paired.
 */
typedef struct DuetPairs
{
	int			n;
	int			first[MAX_VARIANTS];
	int			second[MAX_VARIANTS];
} DuetPairs;

static void
duet_base_pairs(const ExperimentSpec *spec, DuetPairs *pairs)
{
	int			n = 0;
	int		   *first = pairs->first,
			   *second = pairs->second;

	pairs->n = 0;
	if (spec->quiet.schedule != SCHEDULE_DUET || spec->nvariants < 3)
		return;
	for (int v = 0; v < spec->nvariants; v++)
	{
		int			base = build_seeds_baseline(spec, v);
		bool		partnered = false;

		if (base >= 0)
		{
			first[n] = base;
			second[n++] = v;
			continue;
		}
		for (int w = 0; w < spec->nvariants; w++)
			partnered |= build_seeds_baseline(spec, w) == v;
		if (!partnered)
		{
			first[n] = v;
			second[n++] = -1;
		}
	}
	pairs->n = n;
}

/*
 * The runs of a round: every variant in every cell (script and clients),
 * base-paired duets counting the baseline's run beside each variant.
 */
int
plan_round_runs(const ExperimentSpec *spec)
{
	DuetPairs	pairs;
	int			per_cell = spec->nvariants;

	duet_base_pairs(spec, &pairs);
	if (pairs.n > 0)
	{
		per_cell = 0;
		for (int k = 0; k < pairs.n; k++)
			per_cell += pairs.second[k] >= 0 ? 2 : 1;
	}
	return spec->nscripts * spec->nclients * per_cell;
}

/*
 * The runs of a round whose times add up: every run, or under schedule =
 * duet one a pair (with two variants; with one, it runs alone), in every
 * cell.
 */
int
plan_round_slots(const ExperimentSpec *spec)
{
	DuetPairs	pairs;
	int			per_cell = spec->nvariants;

	duet_base_pairs(spec, &pairs);
	if (pairs.n > 0)
		per_cell = pairs.n;
	else if (spec->quiet.schedule == SCHEDULE_DUET)
		per_cell = (spec->nvariants + 1) / 2;
	return spec->nscripts * spec->nclients * per_cell;
}

/*
 * Rounds per start of the servers, 0 for none.  restart = auto restarts
 * only when variants run on different servers, one at least a managed
 * one: a comparison on one server is made round by round, and restarts
 * add nothing to it.  Then as many rounds per instance as keep at least
 * RESTART_AUTO_MIN_INSTANCES instance pairs, and no more than
 * RESTART_AUTO_MAX_ROUNDS.
 */
int
plan_restart_rounds(const ExperimentSpec *spec, char **why)
{
	bool		two_servers = plan_two_servers(spec),
				managed = false;
	int			rounds;

	if (!spec->restart_auto)
	{
		*why = spec->restart_every > 0
			? psprintf("restart = %d", spec->restart_every) : pg_strdup("restart = never");
		return spec->restart_every;
	}
	for (int i = 0; i < spec->nvariants; i++)
		managed |= plan_server_managed(spec, i);
	if (!two_servers || !managed)
	{
		*why = pg_strdup(!two_servers
						 ? "restart = auto: every variant runs on one server, where the round is the unit; no restarts"
						 : "restart = auto: no server of the experiment is managed; no restarts");
		return 0;
	}
	/* under rounds = auto the budget, not the rounds, sets the instances */
	rounds = spec->rounds_auto ? RESTART_AUTO_MAX_ROUNDS
		: Max(1, Min(RESTART_AUTO_MAX_ROUNDS, spec->rounds / RESTART_AUTO_MIN_INSTANCES));
	*why = psprintf("restart = auto: variants on different servers; every %d round%s (at most %d, at least %d instance pairs when the rounds allow)",
					rounds, rounds == 1 ? "" : "s", RESTART_AUTO_MAX_ROUNDS,
					RESTART_AUTO_MIN_INSTANCES);
	return rounds;
}

/*
 * Rounds per block: those of a start of the servers; without restarts,
 * under rounds = auto, the rounds between two looks; else all of them.
 */
int
plan_block_rounds(const ExperimentSpec *spec, int restart_rounds)
{
	if (restart_rounds > 0)
		return restart_rounds;
	return spec->rounds_auto ? PLAN_LOOK_ROUNDS : spec->rounds;
}

/* Fisher–Yates over n runs. */
static void
shuffle(PlannedRun *r, int n, pg_prng_state *rng)
{
	for (int i = n - 1; i > 0; i--)
	{
		int			j = (int) pg_prng_uint64_range(rng, 0, i);
		PlannedRun	tmp = r[i];

		r[i] = r[j];
		r[j] = tmp;
	}
}

/* A run of the plan as add_round() makes it. */
static PlannedRun
round_run(const ExperimentSpec *spec, int round, int block, bool warmup, bool after_start,
		  int script, int client_index, int variant, int partner)
{
	PlannedRun	r = {0};

	r.round = round;
	r.block = block;
	r.variant = variant;
	r.script = script;
	r.clients = spec->clients[client_index];
	r.warmup = warmup;
	r.after_start = after_start;
	r.partner = partner;
	return r;
}

/*
 * One run of every variant in every cell, into r; returns how many.  Base-
 * paired (duet_base_pairs()), a cell's pairs instead, each pair's two runs
 * side by side in r.
 */
static int
add_round(const ExperimentSpec *spec, const DuetPairs *pairs, PlannedRun *r, int round,
		  int block, bool warmup, bool after_start)
{
	int			k = 0;

	for (int s = 0; s < spec->nscripts; s++)
		for (int c = 0; c < spec->nclients; c++)
		{
			if (pairs->n == 0)
				for (int v = 0; v < spec->nvariants; v++)
					r[k++] = round_run(spec, round, block, warmup, after_start, s, c, v, -1);
			for (int p = 0; p < pairs->n; p++)
			{
				r[k++] = round_run(spec, round, block, warmup, after_start, s, c,
								   pairs->first[p], pairs->second[p]);
				if (pairs->second[p] >= 0)
					r[k++] = round_run(spec, round, block, warmup, after_start, s, c,
									   pairs->second[p], pairs->first[p]);
			}
		}
	return k;
}

/*
 * Fisher–Yates over the base-paired round's pairs (a baseline alone is a
 * pair of one), then a coin for which of a pair is started first.
 */
static void
shuffle_pairs(PlannedRun *r, int n, pg_prng_state *rng)
{
	int		   *start = pg_malloc(sizeof(int) * n);
	int			npairs = 0;
	PlannedRun *copy = pg_malloc(sizeof(PlannedRun) * n);
	int			k = 0;

	for (int i = 0; i < n; i += r[i].partner >= 0 ? 2 : 1)
		start[npairs++] = i;
	for (int i = npairs - 1; i > 0; i--)
	{
		int			j = (int) pg_prng_uint64_range(rng, 0, i);
		int			tmp = start[i];

		start[i] = start[j];
		start[j] = tmp;
	}
	memcpy(copy, r, sizeof(PlannedRun) * n);
	for (int p = 0; p < npairs; p++)
	{
		const PlannedRun *pair = &copy[start[p]];

		if (pair->partner >= 0 && pg_prng_bool(rng))
		{
			r[k++] = pair[1];
			r[k++] = pair[0];
		}
		else
		{
			r[k++] = pair[0];
			if (pair->partner >= 0)
				r[k++] = pair[1];
		}
	}
	pfree(copy);
	pfree(start);
}

/* The cell of a run: its script and client count */
static bool
same_cell(const PlannedRun *a, const PlannedRun *b)
{
	return a->script == b->script && a->clients == b->clients;
}

/*
 * After a round is shuffled: its CPU sets, and under schedule = duet its
 * pairs.  Base-paired rounds come in pairs already (shuffle_pairs()).
 * Otherwise a duet pairs two runs of one cell, so the round's runs are
 * regrouped by cell (the cells in the order of their first run, each
 * cell's runs in shuffled order) and paired in turn; with one variant, it
 * runs alone.  The two of a pair get the two CPU sets, the lower-numbered
 * variant the set of the round's parity, so that each variant alternates
 * between them; interleaved runs take the round's set.
 */
static void
arrange_round(const ExperimentSpec *spec, PlannedRun *r, int n, int parity, bool base_paired)
{
	bool		duet = spec->quiet.schedule == SCHEDULE_DUET;

	if (duet && !base_paired)
	{
		PlannedRun *grouped = pg_malloc(sizeof(PlannedRun) * n);
		bool	   *taken = pg_malloc0(sizeof(bool) * n);
		int			k = 0;

		for (int i = 0; i < n; i++)
			for (int j = i; j < n && !taken[i]; j++)
				if (!taken[j] && same_cell(&r[i], &r[j]))
				{
					grouped[k++] = r[j];
					taken[j] = true;
				}
		memcpy(r, grouped, sizeof(PlannedRun) * n);
		pfree(grouped);
		pfree(taken);
	}
	for (int i = 0; i < n; i++)
	{
		r[i].cpu_slot = parity;
		r[i].duet_first = false;
	}
	if (!duet)
		return;
	for (int i = 0; i + 1 < n; i++)
	{
		if (base_paired ? r[i].partner < 0 : !same_cell(&r[i], &r[i + 1]))
			continue;
		r[i].duet_first = true;
		r[i].partner = r[i + 1].variant;
		r[i + 1].partner = r[i].variant;
		r[i].cpu_slot = (r[i].variant < r[i + 1].variant) ? parity : 1 - parity;
		r[i + 1].cpu_slot = 1 - r[i].cpu_slot;
		i++;
	}
}

/* A round's runs into r: made, shuffled and arranged. */
static void
plan_round(const ExperimentSpec *spec, const DuetPairs *pairs, PlannedRun *r, int n,
		   int round, int block, bool warmup, bool after_start, int parity, pg_prng_state *rng)
{
	add_round(spec, pairs, r, round, block, warmup, after_start);
	if (pairs->n > 0)
		shuffle_pairs(r, n, rng);
	else
		shuffle(r, n, rng);
	arrange_round(spec, r, n, parity, pairs->n > 0);
}

/*
 * How many runs plan_build() lays out: in floating point, since a spec
 * within each key's limits can ask for more than an int holds.
 */
double
plan_count_runs(const ExperimentSpec *spec)
{
	char	   *why;
	int			restart_rounds = plan_restart_rounds(spec, &why);
	int			block_rounds = plan_block_rounds(spec, restart_rounds);
	int			nblocks = (spec->rounds + block_rounds - 1) / block_rounds;

	return (double) plan_round_runs(spec) * (spec->rounds + (restart_rounds > 0 ? nblocks : 0));
}

Plan *
plan_build(const ExperimentSpec *spec)
{
	int			per_round = plan_round_runs(spec);
	Plan	   *plan = pg_malloc0(sizeof(Plan));
	DuetPairs	pairs;
	pg_prng_state rng;
	int			k = 0;

	duet_base_pairs(spec, &pairs);

	plan->restart_rounds = plan_restart_rounds(spec, &plan->restart_why);
	plan->block_rounds = plan_block_rounds(spec, plan->restart_rounds);
	plan->nblocks = (spec->rounds + plan->block_rounds - 1) / plan->block_rounds;
	plan->nruns = (int) plan_count_runs(spec);
	Assert(plan->nruns == per_round * (spec->rounds + (plan->restart_rounds > 0 ? plan->nblocks : 0)));
	plan->runs = pg_malloc0(sizeof(PlannedRun) * plan->nruns);
	pg_prng_seed(&rng, spec->seed);

	for (int round = 1; round <= spec->rounds; round++)
	{
		int			block = (round - 1) / plan->block_rounds + 1;

		/* a block's first round: after the start, its warm-up runs */
		if (plan->restart_rounds > 0 && (round - 1) % plan->restart_rounds == 0)
		{
			plan_round(spec, &pairs, &plan->runs[k], per_round, 0, block, true, true,
					   block % 2, &rng);
			k += per_round;
		}
		plan_round(spec, &pairs, &plan->runs[k], per_round, round, block,
				   round <= spec->warmup, false, round % 2, &rng);
		k += per_round;
	}
	Assert(k == plan->nruns);
	for (int i = 0; i < plan->nruns; i++)
		plan->runs[i].run_id = i + 1;
	return plan;
}

/* A warm-up after a start the plan did not foresee, numbered run_id. */
PlannedRun
plan_extra_warmup(const ExperimentSpec *spec, int run_id, int block, int variant,
				  int script, int clients)
{
	PlannedRun	r = {0};

	r.run_id = run_id;
	r.block = block;
	r.variant = variant;
	r.script = script;
	r.clients = clients;
	r.warmup = r.after_start = true;
	r.cpu_slot = block % 2;
	r.partner = -1;
	return r;
}

json_t *
plan_to_json(const Plan *plan, const ExperimentSpec *spec)
{
	json_t	   *arr = json_array();

	for (int i = 0; i < plan->nruns; i++)
	{
		const PlannedRun *r = &plan->runs[i];

		json_array_append_new(arr,
							  json_pack("{s:i, s:i, s:i, s:s, s:s, s:i, s:b, s:b, s:i, s:b, s:s?}",
										"run_id", r->run_id, "round", r->round,
										"block", r->block,
										"variant", spec->variants[r->variant].name,
										"script", spec->scripts[r->script],
										"clients", r->clients, "warmup", r->warmup,
										"warmup_after_start", r->after_start,
										"cpu_slot", r->cpu_slot, "duet_first", r->duet_first,
										"partner", r->partner >= 0 ? spec->variants[r->partner].name : NULL));
	}
	return arr;
}
