/*-------------------------------------------------------------------------
 *
 * report_access.c
 *		The accessors of a report: variants, scripts, clients, cells and
 *		samples as the load (report_data.c) left them, and each cell's
 *		answer as the analysis stored it.
 *
 * In report.h's map: the accessors.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build_seeds.h"
#include "report.h"

#include <math.h>

bool
report_run_counted(const ReportRun *run)
{
	return strcmp(run->status, "ok") == 0 && !run->warmup &&
		isfinite(run->tps) && run->tps > 0;
}

int
report_script_index(const ReportData *r, const char *script)
{
	for (int s = 0; s < r->spec.nscripts; s++)
		if (strcmp(r->spec.scripts[s], script) == 0)
			return s;
	return -1;
}

int
report_variant_index(const ReportData *r, const char *name)
{
	return experiment_variant_index(&r->spec, name);
}

/*
 * The variant v is compared with: the baseline, or for B@seedK the
 * baseline's build of the same seed, so that a row never mixes two code
 * layouts' luck into its change.
 */
int
report_baseline_of(const ReportData *r, int v)
{
	int			seed_base = build_seeds_baseline(&r->spec, v);

	return seed_base > 0 && r->baseline == 0 ? seed_base : r->baseline;
}

/* whether some row is compared with a build of its seed, not the baseline */
bool
report_has_seed_baselines(const ReportData *r)
{
	for (int i = 0; i < r->ncells; i++)
		if (r->cells[i].variant >= 0 && r->cells[i].base != r->baseline)
			return true;
	return false;
}

/* "select-only, 2 clients: B vs A", the heading of a cell's sections */
char *
report_cell_title(const ReportCell *c)
{
	return psprintf("%s, %d client%s: %s vs %s", c->script, c->clients,
					c->clients == 1 ? "" : "s", c->name, c->base_name);
}

int
report_clients_index(const ReportData *r, int clients)
{
	for (int c = 0; c < r->spec.nclients; c++)
		if (r->spec.clients[c] == clients)
			return c;
	return -1;
}

const char *
report_variant_name(const ReportData *r, int v)
{
	return r->spec.variants[v].name;
}

/* The row of a variant (by name) in a cell, or NULL. */
const ReportCell *
report_find_cell(const ReportData *r, const char *script, int clients, const char *variant)
{
	for (int i = 0; i < r->ncells; i++)
		if (strcmp(r->cells[i].script, script) == 0 && r->cells[i].clients == clients &&
			strcmp(r->cells[i].name, variant) == 0)
			return &r->cells[i];
	return NULL;
}

ReportSample *
report_sample(const ReportData *r, int script, int clients, int variant)
{
	return &r->samples[(script * r->spec.nclients + clients) * r->spec.nvariants + variant];
}

/* Room in smp for every run of the results. */
void
report_sample_alloc(ReportSample *smp, int nruns)
{
	smp->tps = pg_malloc(sizeof(double) * (nruns + 1));
	smp->rounds = pg_malloc(sizeof(int) * (nruns + 1));
	smp->run_ids = pg_malloc(sizeof(int) * (nruns + 1));
	smp->instances = pg_malloc(sizeof(int) * (nruns + 1));
	smp->seeds = pg_malloc(sizeof(int) * (nruns + 1));
	smp->run_index = pg_malloc(sizeof(int) * (nruns + 1));
}

/*
 * A sample's median, CI and outliers.  A run is an outlier beyond what
 * chance gives: each of the experiment's samples (script x clients x
 * variant) has its share of STATS_WARN_RATE, so that on steady noise at
 * most 1 experiment in 100 counts one (stats_outlier_threshold()).
 */
void
report_summarize_sample(const ReportData *r, ReportSample *smp)
{
	int			nsamples = Max(1, r->spec.nscripts * r->spec.nclients * r->spec.nvariants);

	if (smp->n > 0)
	{
		smp->has_summary = stats_summarize(smp->tps, smp->n, 1.0 - r->opt.alpha,
										   &smp->summary) == STATS_OK;
		smp->outliers = Max(0, stats_outliers_at(smp->tps, smp->n, STATS_WARN_RATE / nsamples,
												 NULL, NULL));
	}
}

/*
 * The runs of variant in a cell to compare with other: under a base-paired
 * duet those that ran beside other, when there are any; else all of them.
 */
ReportSample *
report_side_sample(const ReportData *r, int script, int clients, int variant, int other)
{
	int			nv = r->spec.nvariants;
	ReportSample *smp;

	if (r->partner_samples == NULL || other < 0)
		return report_sample(r, script, clients, variant);
	smp = &r->partner_samples[((script * r->spec.nclients + clients) * nv + variant) * nv + other];
	return smp->n > 0 ? smp : report_sample(r, script, clients, variant);
}

/* The figure of the verdict, as a ReportRunValue. */
double
report_run_tps(const ReportRun *run)
{
	return run->tps;
}

/* ---- the answers of the analysis, as the writers read them ---- */

/* The cell's answer (report_answer.c), NULL when there is none. */
const StatsComparison *
report_cell_answer(const ReportData *r, const ReportCell *c)
{
	return c->answer;
}

/* "faster", "~ no change (MDE 3.1%)", "same within ±1%", "undecided", "not compared", ... */
char *
report_cell_verdict(const ReportData *r, const ReportCell *c)
{
	return c->verdict;
}

/* The cell's decision, undecided before its first look. */
StatsDecision
report_look_decision(const ReportCell *c)
{
	return c->has_look ? c->look.decision : STATS_UNDECIDED;
}

/* "faster", "slower", "same within ±1%" or "undecided" */
char *
report_decision_text(const ReportData *r, const ReportCell *c)
{
	return c->decision;
}

/* "slower -39.8% [-41.0%, -38.5%] at 99.93%", "same within ±1%: ...", "undecided: ..." */
char *
report_look_text(const ReportData *r, const ReportCell *c)
{
	return c->look_text;
}
