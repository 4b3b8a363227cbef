/*-------------------------------------------------------------------------
 *
 * plan.c
 *		Rounds × cells × variants, interleaved in a seeded random order.
 *
 * Every round runs every variant once in every cell (script, clients).
 * Within a round the order is shuffled, so drift over the session (a
 * neighbour's load, thermal throttling, a growing table) spreads over all
 * variants instead of landing on whichever ran last: never all-A-then-all-B.
 * The same seed gives the same plan, which is how --resume and --rerun
 * find their place.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "plan.h"

#include "common/pg_prng.h"

Plan *
plan_build(const ExperimentSpec *spec)
{
	int			ncells = spec->nscripts * spec->nclients;
	int			per_round = ncells * spec->nvariants;
	Plan	   *plan = pg_malloc0(sizeof(Plan));
	pg_prng_state rng;

	plan->nruns = per_round * spec->rounds;
	plan->runs = pg_malloc0(sizeof(PlannedRun) * plan->nruns);
	pg_prng_seed(&rng, spec->seed);

	for (int round = 0; round < spec->rounds; round++)
	{
		PlannedRun *r = &plan->runs[round * per_round];
		int			k = 0;

		for (int s = 0; s < spec->nscripts; s++)
			for (int c = 0; c < spec->nclients; c++)
				for (int v = 0; v < spec->nvariants; v++)
				{
					r[k].round = round + 1;
					r[k].variant = v;
					r[k].script = s;
					r[k].clients = spec->clients[c];
					r[k].warmup = round < spec->warmup;
					k++;
				}

		/* Fisher–Yates within the round */
		for (int i = per_round - 1; i > 0; i--)
		{
			int			j = (int) pg_prng_uint64_range(&rng, 0, i);
			PlannedRun	tmp = r[i];

			r[i] = r[j];
			r[j] = tmp;
		}
	}
	for (int i = 0; i < plan->nruns; i++)
		plan->runs[i].run_id = i + 1;
	return plan;
}

json_t *
plan_to_json(const Plan *plan, const ExperimentSpec *spec)
{
	json_t	   *arr = json_array();

	for (int i = 0; i < plan->nruns; i++)
	{
		const PlannedRun *r = &plan->runs[i];

		json_array_append_new(arr,
							  json_pack("{s:i, s:i, s:s, s:s, s:i, s:b}",
										"run_id", r->run_id, "round", r->round,
										"variant", spec->variants[r->variant].name,
										"script", spec->scripts[r->script],
										"clients", r->clients, "warmup", r->warmup));
	}
	return arr;
}
