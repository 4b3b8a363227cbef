/*-------------------------------------------------------------------------
 *
 * pilot.c
 *		A few paired rounds before the first counted run, on the servers
 *		just set up: the sd of their paired log ratio is the noise at the
 *		host's load now, and from it the pre-flight forecasts the time to
 *		decide (preflight_judge_pilot()) where the host's history holds no
 *		noise of such a load — a fresh machine, or one newly loaded.
 *
 * The pilot pairs the first two variants in the first cell, as the plan
 * pairs them: under schedule = duet both at once on the two CPU sets,
 * traded every round; interleaved, one after the other, the order turned
 * every round.  Its runs are recorded in runs.csv like the warm-ups after
 * a start (round 0, warmup true, numbered past the plan's runs), so no
 * verdict rests on them and --resume finds them in place; pilot.json keeps
 * what they measured and what the pre-flight said of it.
 *
 * Each pilot round runs pgbench with a seed of its own (that of a round
 * past the plan's), shared by its pair, as every round of the plan does:
 * with one seed for all, every round would read the very keys whose pages
 * the round before left in the servers' caches, which is not the
 * experiment's load.  Where no run of the plan came before it, the
 * pilot's first pair warms the servers and is not counted.  Under
 * rounds = auto its time is part of the budget.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "pilot.h"
#include "preflight.h"
#include "results.h"
#include "run_one.h"
#include "stats.h"

#include <math.h>

/* The two runs of pilot round "round" (0: the warming one) into pr */
static void
plan_pilot_round(const ExperimentSpec *spec, int round, int block, int *last_id,
				 PlannedRun pr[2])
{
	bool		duet = spec->quiet.schedule == SCHEDULE_DUET;
	int			first = duet || round % 2 == 1 ? 0 : 1;

	for (int k = 0; k < 2; k++)
	{
		int			v = k == 0 ? first : 1 - first;

		pr[k] = plan_extra_warmup(spec, ++*last_id, block, v, 0, spec->clients[0]);
		pr[k].after_start = false;
		/* a seed of its own every round, as the plan's rounds have, shared by its pair */
		pr[k].seed_round = spec->rounds + 1 + round;
		pr[k].cpu_slot = round % 2;
		if (duet)
		{
			pr[k].partner = 1 - v;
			pr[k].cpu_slot = (round + v) % 2;
		}
	}
	pr[0].duet_first = duet;
}

static bool
run_pilot_round(Experiment *x, const PlannedRun pr[2], Progress *progress, double *log_ratio,
				char **error)
{
	RunRecord	rec[2];
	double		tps[2];

	progress->total_runs += 2;
	if (pr[0].duet_first)
	{
		if (!execute_and_record_duet(x, pr, progress, rec, error))
			return false;
	}
	else if (!execute_and_record_run(x, &pr[0], progress, &rec[0], error) ||
			 run_interrupted ||
			 !execute_and_record_run(x, &pr[1], progress, &rec[1], error))
		return false;
	for (int k = 0; k < 2; k++)
		tps[pr[k].variant] = strcmp(rec[k].status, "ok") == 0 ? rec[k].tps : NAN;
	*log_ratio = isfinite(tps[0]) && isfinite(tps[1]) && tps[0] > 0 && tps[1] > 0
		? log(tps[1] / tps[0]) : NAN;
	return true;
}

/* a figure, or null where it could not be had */
static json_t *
real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static void
write_pilot_json(const Experiment *x, const PilotNoise *p, const double *ratios, int nratios)
{
	json_t	   *arr = json_array();
	json_t	   *doc;
	char	   *error;

	for (int i = 0; i < nratios; i++)
		json_array_append_new(arr, real_or_null(ratios[i]));
	doc = json_pack("{s:[s,s], s:o, s:i, s:f}",
					"variants", x->spec->variants[0].name, x->spec->variants[1].name,
					"log_ratios", arr, "rounds", p->rounds, "seconds", p->seconds);
	if (p->rounds >= PILOT_MIN_ROUNDS)
		json_object_update_new(doc, json_pack("{s:f, s:f, s:o, s:o, s:o, s:o, s:i, s:f, s:s}",
											  "round_sd", p->round_sd, "instance_sd", p->instance_sd,
											  "largest_offset_sd", real_or_null(p->largest_offset_sd),
											  "expected_s", real_or_null(p->expected_s),
											  "least_s", real_or_null(p->least_s),
											  "most_s", real_or_null(p->most_s),
											  "restart_rounds", x->plan->restart_rounds,
											  "left_s", p->left_s, "decides", p->outcome));
	if (!results_write_json(x->dir, "pilot.json", doc, &error))
		log_warning_text(psprintf("the pilot's figures were not kept: %s", error));
	json_decref(doc);
}

bool
pilot_measure(Experiment *x, const PreflightResult *preflight, bool warm_first, int block,
			  double clock_zero, Progress *progress, int *last_id, char **error)
{
	const ExperimentSpec *spec = x->spec;
	int			rounds = preflight->pilot_rounds;
	double	   *ratios = pg_malloc(sizeof(double) * rounds);
	double		sum = 0,
				ss = 0,
				t0;
	PilotNoise	p = {0};
	PlannedRun	pr[2];
	StatsOptions opt;

	fflush(stdout);
	if (warm_first)
	{
		double		unused;

		plan_pilot_round(spec, 0, block, last_id, pr);
		if (!run_pilot_round(x, pr, progress, &unused, error))
			return false;
	}
	t0 = now_seconds();
	for (int r = 1; r <= rounds && !run_interrupted; r++)
	{
		plan_pilot_round(spec, r, block, last_id, pr);
		if (!run_pilot_round(x, pr, progress, &ratios[r - 1], error))
			return false;
		if (isfinite(ratios[r - 1]))
			p.rounds++, sum += ratios[r - 1];
	}
	if (run_interrupted)
		return true;
	p.seconds = now_seconds() - t0;
	for (int r = 0; r < rounds; r++)
		if (isfinite(ratios[r]))
			ss += (ratios[r] - sum / p.rounds) * (ratios[r] - sum / p.rounds);
	if (p.rounds < PILOT_MIN_ROUNDS)
		printf("pre-flight: pilot: %d of its %d rounds ran both sides well: too few to measure the noise; the first looks measure it\n",
			   p.rounds, rounds);
	else
	{
		p.round_sd = sqrt(ss / (p.rounds - 1));
		/* seconds per counted round: those of every round, failed runs' too */
		p.seconds *= (double) p.rounds / rounds;
		stats_default_options(&opt);
		preflight_judge_pilot(spec, opt.noise, preflight, x->plan->restart_rounds, &p,
							  now_seconds() - clock_zero, stdout);
	}
	fflush(stdout);
	write_pilot_json(x, &p, ratios, rounds);
	pfree(ratios);
	return true;
}
