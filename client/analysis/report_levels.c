/*-------------------------------------------------------------------------
 *
 * report_levels.c
 *		The levels of a comparison: the unit its verdict is made across,
 *		where its noise lives, and the cheapest design that would decide.
 *
 * One server start is one sample of memory layout, one build one sample
 * of code layout.  So the unit of a verdict is the highest level that
 * varies between its two sides (Kalibera and Jones 2013):
 *
 *	 sides on one server (cluster = A)	 the round: round by round
 *	 different servers, restarted		 the instance pair: the rounds between
 *										 two starts of both servers
 *	 every build seed of B against		 the build seed pair: B@seedK with
 *	 every seed of A ("B@seed*")		 A@seedK
 *
 * Different servers started once (restart = never) have no unit to judge
 * across: their rounds share one pair of starts, whose offset no CI of
 * the rounds holds, so their verdict is "insufficient", saying what to
 * set; the rounds' estimate stays, for what it describes.
 * experiment_report() in SQL says the same.
 *
 * The unit of a run is a number both sides' runs of one unit share: an
 * instance pair is "instance of A * 32768 + instance of B" in the run's
 * round, a seed pair the seed.  The extension's experiment_report()
 * numbers them the same way, so psql gives the same digits.
 *
 * In report.h's map: the analysis stage.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build_seeds.h"
#include "pgbench_output.h"
#include "plan.h"
#include "report.h"
#include "results.h"
#include "safe_read.h"

#include <math.h>

/* An instance pair's number: that of A's instance, then B's, in one int. */
#define PAIR_ID(instance_a, instance_b) ((instance_a) * (RESULTS_MAX_INSTANCE + 1) + (instance_b))

/* A run's place: (outer level, round) with its instance, for the pairing. */
typedef struct Place
{
	int			outer;
	int			round;
	int			instance;
	int			count;			/* runs of one side at this place */
} Place;

static int
cmp_place(const void *x, const void *y)
{
	const Place *a = x,
			   *b = y;

	if (a->outer != b->outer)
		return a->outer < b->outer ? -1 : 1;
	return (a->round > b->round) - (a->round < b->round);
}

/* One side's places, sorted, one per (outer, round) with its run count. */
static Place *
places_of(const ReportSample *s, const int *outer, int *n)
{
	Place	   *p = pg_malloc(sizeof(Place) * (s->n + 1));
	int			k = 0;

	for (int i = 0; i < s->n; i++)
		p[i] = (Place) {outer ? outer[i] : 0, s->rounds[i], s->instances[i], 1};
	qsort(p, s->n, sizeof(Place), cmp_place);
	for (int i = 0; i < s->n; i++)
	{
		if (k > 0 && cmp_place(&p[k - 1], &p[i]) == 0)
			p[k - 1].count++;
		else
			p[k++] = p[i];
	}
	*n = k;
	return p;
}

/* The instance of the other side's one run at (outer, round), or 0. */
static int
other_instance(const Place *other, int n, int outer, int round)
{
	Place		key = {outer, round};
	const Place *hit = bsearch(&key, other, n, sizeof(Place), cmp_place);

	return hit != NULL && hit->count == 1 ? hit->instance : 0;
}

/*
 * Instance-pair ids of both sides' runs: runs of A and B in one round
 * (of one seed, when outer holds seeds) get the id of their two
 * instances.  A run without a partner in its round gets one no partner
 * shares.
 */
static void
instance_pair_ids(const ReportCell *c, const int *outer_a, const int *outer_b,
				  int *ids_a, int *ids_b)
{
	int			na,
				nb;
	Place	   *pa = places_of(c->a, outer_a, &na);
	Place	   *pb = places_of(c->b, outer_b, &nb);

	for (int i = 0; i < c->a->n; i++)
		ids_a[i] = PAIR_ID(c->a->instances[i],
						   other_instance(pb, nb, outer_a ? outer_a[i] : 0, c->a->rounds[i]));
	for (int i = 0; i < c->b->n; i++)
		ids_b[i] = PAIR_ID(other_instance(pa, na, outer_b ? outer_b[i] : 0, c->b->rounds[i]),
						   c->b->instances[i]);
	pfree(pa);
	pfree(pb);
}

/*
 * The unit of a comparison of variants a and b (indexes; -1 for every
 * seed pooled) and the unit of each run.
 */
static void
decide_unit(ReportData *r, ReportCell *c)
{
	int			a = c->base;

	c->unit_a = c->unit_b = NULL;
	if (c->variant < 0)
	{
		c->unit = STATS_UNIT_SEED_PAIR;
		c->unit_a = c->a->seeds;
		c->unit_b = c->b->seeds;
		return;
	}
	if (plan_server_of(&r->spec, a) == plan_server_of(&r->spec, c->variant) ||
		r->restart_rounds == 0)
	{
		c->unit = STATS_UNIT_ROUND;
		return;
	}
	c->unit = STATS_UNIT_INSTANCE_PAIR;
	c->unit_a = pg_malloc(sizeof(int) * (c->a->n + 1));
	c->unit_b = pg_malloc(sizeof(int) * (c->b->n + 1));
	instance_pair_ids(c, NULL, NULL, c->unit_a, c->unit_b);
}

/* Whether the cell's two sides are different servers, each started once. */
bool
report_started_once(const ReportData *r, const ReportCell *c)
{
	return c->variant >= 0 && c->unit == STATS_UNIT_ROUND &&
		plan_server_of(&r->spec, c->base) != plan_server_of(&r->spec, c->variant);
}

/* B against A in one cell, across the unit the design calls for. */
void
report_compare_cell(ReportData *r, ReportCell *c)
{
	decide_unit(r, c);
	c->has_comparison = report_compare_figure(r, c, NULL, NULL, r->opt.higher_is_better, &c->cmp);
	if (c->has_comparison && report_started_once(r, c))
	{
		c->cmp.verdict = STATS_INSUFFICIENT;
		snprintf(c->cmp.reason, sizeof(c->cmp.reason),
				 "different servers, each started once: one pair of starts, whose offset no CI of rounds holds; "
				 "set restart = auto (or N rounds)");
	}
}

/* The variant named by pattern whose build seed is that of variant v, or -1. */
static int
same_seed_variant(const ReportData *r, const char *pattern, int v)
{
	int			seed,
				other_seed;

	(void) build_seeds_base(r->spec.variants[v].name, &seed);
	for (int w = 0; w < r->spec.nvariants; w++)
	{
		if (!build_seeds_matches(pattern, r->spec.variants[w].name))
			continue;
		(void) build_seeds_base(r->spec.variants[w].name, &other_seed);
		if (other_seed == seed)
			return w;
	}
	return -1;
}

/*
 * The runs of every seed of the variant named by pattern, in one sample:
 * of each seed those to compare with the same seed of the variant named by
 * other (report_side_sample()).
 */
static ReportSample *
pooled_sample(const ReportData *r, int s, int c, const char *pattern, const char *other)
{
	ReportSample *out = pg_malloc0(sizeof(ReportSample));

	report_sample_alloc(out, r->nruns);
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const ReportSample *smp;

		if (!build_seeds_matches(pattern, r->spec.variants[v].name))
			continue;
		smp = report_side_sample(r, s, c, v, same_seed_variant(r, other, v));
		memcpy(out->tps + out->n, smp->tps, sizeof(double) * smp->n);
		memcpy(out->rounds + out->n, smp->rounds, sizeof(int) * smp->n);
		memcpy(out->run_ids + out->n, smp->run_ids, sizeof(int) * smp->n);
		memcpy(out->instances + out->n, smp->instances, sizeof(int) * smp->n);
		memcpy(out->seeds + out->n, smp->seeds, sizeof(int) * smp->n);
		memcpy(out->run_index + out->n, smp->run_index, sizeof(int) * smp->n);
		out->n += smp->n;
	}
	report_summarize_sample(r, out);
	return out;
}

/*
 * With build seeds: a row of every seed of B against every seed of A
 * ("B@seed*" against "A@seed*") in each cell, across seed pairs.  This
 * replaces pooling all runs of all seeds as if each were independent.
 */
void
report_pooled_seed_cells(ReportData *r)
{
	char	   *pooled[MAX_VARIANTS];
	int			npooled = build_seeds_pooled(&r->spec, pooled);

	for (int s = 0; s < r->spec.nscripts; s++)
		for (int c = 0; c < r->spec.nclients; c++)
			for (int k = 1; k < npooled; k++)
			{
				ReportCell *cell = &r->cells[r->ncells++];

				cell->script = r->spec.scripts[s];
				cell->clients = r->spec.clients[c];
				cell->variant = -1;
				cell->base = -1;
				cell->name = pooled[k];
				cell->base_name = pooled[0];
				cell->a = pooled_sample(r, s, c, pooled[0], pooled[k]);
				cell->b = pooled_sample(r, s, c, pooled[k], pooled[0]);
				report_compare_cell(r, cell);
			}
}

/* ---- where the noise lives ---- */

/* A run's per-second tps from its -P 1 lines, read once. */
static void
read_seconds(const ReportData *r, ReportRun *run)
{
	FILE	   *f;
	char		line[1024];
	int			cap = 64;

	if (run->seconds_read)
		return;
	run->seconds_read = true;
	run->seconds = pg_malloc(sizeof(double) * cap);
	if ((f = safe_fopen_read_optional(results_run_path(r->dir, run->run_id, ".err"), SAFE_MAX_LOG)) == NULL)
		return;
	while (fgets(line, sizeof(line), f))
	{
		PgbenchProgress p;

		line[strcspn(line, "\n")] = '\0';
		if (pgbench_progress_parse_line(line, &p) != 0 || !(p.tps > 0) || !isfinite(p.tps))
			continue;
		if (run->nseconds == cap)
			run->seconds = pg_realloc(run->seconds, sizeof(double) * (cap *= 2));
		run->seconds[run->nseconds++] = p.tps;
	}
	fclose(f);
}

/* One side's log tps by level: seeds as builds, its server's instances. */
static bool
side_components(ReportData *r, const ReportSample *s, bool seeds, StatsComponents *out)
{
	const double **sec = pg_malloc(sizeof(double *) * (s->n + 1));
	int		   *nsec = pg_malloc(sizeof(int) * (s->n + 1));
	bool		ok;

	for (int i = 0; i < s->n; i++)
	{
		ReportRun  *run = &r->runs[s->run_index[i]];

		read_seconds(r, run);
		sec[i] = run->seconds;
		nsec[i] = run->nseconds;
	}
	ok = s->n > 0 && stats_run_components(s->tps, s->n, seeds ? s->seeds : NULL, s->instances,
										  (const double *const *) sec, nsec, out) == STATS_OK;
	pfree(sec);
	pfree(nsec);
	return ok;
}

/* On one server: the sd of a paired round's log ratio */
static double
paired_round_sd(const ReportCell *c)
{
	return sqrt(c->ratio.variance[STATS_LEVEL_ROUND] + c->ratio.variance[STATS_LEVEL_INSTANCE]);
}

/* Whether a cell's two variants share a server: rounds are its units */
static bool
cell_on_one_server(const ReportData *r, const ReportCell *c)
{
	return c->variant >= 0 &&
		plan_server_of(&r->spec, c->base) == plan_server_of(&r->spec, c->variant);
}

/*
 * On one server: the rounds a round-by-round verdict needs to see the
 * effect with the power asked, from sd, the spread of the paired rounds.
 */
static void
design_rounds(const ReportData *r, double sd, StatsDesign *d)
{
	memset(d, 0, sizeof(*d));
	d->unit = STATS_UNIT_ROUND;
	d->builds = d->instances = 1;
	for (int n = 6; n <= STATS_DESIGN_MAX_ROUNDS && !d->found; n++)
	{
		double		mde;

		if (stats_verdict_mde_paired_pct(sd, n, &r->opt, &mde) && mde <= 100 * r->design_effect)
		{
			d->found = true;
			d->rounds = d->n_units = n;
			d->seconds = n * r->cost.round_s;
		}
	}
	if (d->found)
		snprintf(d->reason, STATS_REASON_LEN, "to see %g%%: %d rounds on one server, about %.0f %s",
				 100 * r->design_effect, d->rounds,
				 d->seconds >= 120 ? d->seconds / 60 : d->seconds,
				 d->seconds >= 120 ? "minutes" : "seconds");
	else
		snprintf(d->reason, STATS_REASON_LEN,
				 "no experiment of up to %d rounds sees %g%% beyond the %g%% noise threshold",
				 STATS_DESIGN_MAX_ROUNDS, 100 * r->design_effect, 100 * r->opt.noise);
}

/*
 * The variance components of a cell, on each side and on the comparison's
 * scale, and the cheapest design that would see design_effect.
 */
void
report_cell_levels(ReportData *r, ReportCell *c)
{
	bool		seeds = c->variant < 0;
	int		   *pair_a,
			   *pair_b;

	c->has_components = false;
	c->has_design = false;
	if (c->a->n == 0 || c->b->n == 0)
		return;
	/* on the ratio scale, pairs of instances (within pairs of seeds) */
	pair_a = pg_malloc(sizeof(int) * (c->a->n + 1));
	pair_b = pg_malloc(sizeof(int) * (c->b->n + 1));
	instance_pair_ids(c, seeds ? c->a->seeds : NULL, seeds ? c->b->seeds : NULL, pair_a, pair_b);
	c->has_components =
		side_components(r, c->a, seeds, &c->run_a) &&
		side_components(r, c->b, seeds, &c->run_b) &&
		stats_ratio_components(c->a->tps, seeds ? c->a->seeds : NULL, pair_a, c->a->rounds, c->a->n,
							   c->b->tps, seeds ? c->b->seeds : NULL, pair_b, c->b->rounds, c->b->n,
							   &c->ratio) == STATS_OK &&
		c->ratio.n_obs > 0;
	pfree(pair_a);
	pfree(pair_b);
	if (!c->has_components)
		return;
	if (cell_on_one_server(r, c))
	{
		design_rounds(r, paired_round_sd(c), &c->design);
		c->has_design = true;
	}
	else
		c->has_design =
			stats_plan_design(&c->ratio, &c->run_a, &c->run_b, &r->cost, seeds,
							  r->design_effect, &r->opt, &c->design) == STATS_OK;
}

/*
 * The cheapest design at the low end of the noise a cell has shown so far:
 * each component at its lower 90% confidence bound
 * (stats_components_at_lower_bound(); one server, the paired rounds' sd
 * at its own), where c->design plans with the upper bound.  Where even
 * this one takes more than the time left, the time cannot decide
 * design_effect; where only c->design does, it may not.  After
 * report_cell_levels(); false where that gave no design.
 */
bool
report_cell_design_low(const ReportData *r, const ReportCell *c, StatsDesign *out)
{
	StatsComponents low;

	if (!c->has_design || c->ratio.n_obs < 2)
		return false;
	if (cell_on_one_server(r, c))
	{
		design_rounds(r, paired_round_sd(c) * stats_sd_lower_bound_factor(c->ratio.n_obs - 1), out);
		return true;
	}
	stats_components_at_lower_bound(&c->ratio, &low);
	return stats_plan_design(&low, &c->run_a, &c->run_b, &r->cost, c->variant < 0,
							 r->design_effect, &r->opt, out) == STATS_OK;
}

/* ---- what a build, a restart and a round cost here ---- */

/*
 * The wall time of a run: as recorded, or for one that failed before its
 * end, what it recorded of pgbench's and the reset's.
 */
static double
run_wall(const ReportRun *run)
{
	if (isfinite(run->wall_s))
		return run->wall_s;
	return (isfinite(run->duration_s) ? run->duration_s : 0) +
		(isfinite(run->reset_s) ? run->reset_s : 0);
}

/*
 * From the results directory: one round (every variant in every cell,
 * the mean over the rounds run), one restart of every server with its
 * warm-up runs (instances.csv's stops and starts; without restarts the
 * setup's starts and a round), one build of every variant (build.json's
 * build_s, 0 for installations).
 */
void
report_measure_costs(ReportData *r)
{
	char	   *error;
	RunsCsv    *t = results_read_instances(r->dir, &r->spec, &error);
	double		rounds_s = 0,
				warm_s = 0,
				restart_s = 0,
				start_s = 0;
	int			max_round = 0,
				nwarm = 0,
				nrestarts = 0,
				nstarts = 0,
				servers = 0;
	json_t	   *facts = json_object_get(r->experiment, "variants");

	memset(&r->cost, 0, sizeof(r->cost));
	for (int i = 0; i < r->nruns; i++)
	{
		const ReportRun *run = &r->runs[i];

		if (run->after_start)
			warm_s += run_wall(run), nwarm++;
		else
		{
			rounds_s += run_wall(run);
			max_round = Max(max_round, run->round);
		}
	}
	/* a duet's two runs at once cost the round one run's time */
	r->cost.round_s = max_round > 0
		? rounds_s / max_round * plan_round_slots(&r->spec) / plan_round_runs(&r->spec) : 0;
	for (int i = 0; t != NULL && i < t->nrows; i++)
	{
		char	  **f = t->rows[i];
		double		stop = strtod(f[runs_csv_column(t, "stop_s")], NULL);
		double		start = strtod(f[runs_csv_column(t, "start_s")], NULL);

		if (strcmp(f[runs_csv_column(t, "cause")], "restart") == 0 && stop > 0)
			restart_s += stop + start, nrestarts++;
		start_s += start, nstarts++;
	}
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		json_t	   *build = json_object_get(json_object_get(facts, r->spec.variants[v].name), "build");

		servers += plan_server_managed(&r->spec, v) && plan_server_of(&r->spec, v) == v;
		r->cost.build_s += json_number_value(json_object_get(build, "build_s"));
	}
	/* per restart of every server: the mean per server, times the servers */
	if (nrestarts > 0)
		r->cost.restart_s = restart_s / nrestarts * servers;
	else if (nstarts > 0)
		r->cost.restart_s = 2 * start_s / nstarts * servers;
	/* and the warm-up of every variant in every cell: without any, a round */
	r->cost.restart_s += nwarm > 0
		? warm_s / nwarm * plan_round_slots(&r->spec)
		: r->cost.round_s;
}
