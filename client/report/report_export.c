/*-------------------------------------------------------------------------
 *
 * report_export.c
 *		summary.json (every figure of the verdict table, as doubles printed
 *		exactly) and benchstat.txt (Go benchmark format, one line per
 *		counted run, so that "benchstat -col variant benchstat.txt" reads
 *		the same runs).
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile_report_write.h"
#include "report.h"
#include "safe_file.h"

#include <ctype.h>
#include <math.h>

static json_t *
sample_json(const ReportSample *s)
{
	const StatsSummary *m = &s->summary;
	json_t	   *tps = json_array();
	json_t	   *rounds = json_array();
	json_t	   *instances = json_array();
	json_t	   *seeds = json_array();

	for (int i = 0; i < s->n; i++)
	{
		json_array_append_new(tps, json_real(s->tps[i]));
		json_array_append_new(rounds, json_integer(s->rounds[i]));
		json_array_append_new(instances, json_integer(s->instances[i]));
		json_array_append_new(seeds, json_integer(s->seeds[i]));
	}
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o, s:o, s:o}",
					 "n", s->n,
					 "median", report_json_num(s->has_summary, m->median),
					 "median_ci_low", report_json_num(s->has_summary && m->has_median_ci, m->median_ci_low),
					 "median_ci_high", report_json_num(s->has_summary && m->has_median_ci, m->median_ci_high),
					 "median_ci_confidence", report_json_num(s->has_summary, m->median_ci_confidence),
					 "mean", report_json_num(s->has_summary, m->mean),
					 "stddev", report_json_num(s->has_summary, m->stddev),
					 "cv", report_json_num(s->has_summary, m->cv),
					 "mad", report_json_num(s->has_summary, m->mad),
					 "outliers", s->outliers,
					 "tps", tps,
					 "rounds", rounds,
					 "instances", instances,
					 "build_seeds", seeds);
}

/* A cell's variance components: per level its sd, variance, df, or null. */
static json_t *
components_json(const StatsComponents *k)
{
	json_t	   *levels = json_object();

	for (int l = STATS_LEVEL_BUILD; l < STATS_N_LEVELS; l++)
		json_object_set_new(levels, stats_level_name(l),
							!k->has[l] ? json_null() :
							json_pack("{s:f, s:f, s:f, s:i, s:i, s:b}",
									  "sd", sqrt(k->variance[l]), "variance", k->variance[l],
									  "raw", k->raw[l], "df", k->df[l],
									  "groups", k->n_groups[l], "truncated", k->truncated[l]));
	return levels;
}

static json_t *
levels_json(const ReportCell *c)
{
	const StatsDesign *d = &c->design;

	return json_pack("{s:o, s:o}",
					 "components", !c->has_components ? json_null() :
					 json_pack("{s:o, s:o, s:o}", "a", components_json(&c->run_a),
							   "b", components_json(&c->run_b),
							   "ratio", components_json(&c->ratio)),
					 "design", !c->has_design ? json_null() :
					 json_pack("{s:b, s:s, s:i, s:i, s:i, s:i, s:o, s:o, s:s}",
							   "found", d->found, "unit", stats_unit_name(d->unit, 1),
							   "builds", d->builds, "instance_pairs", d->instances,
							   "rounds", d->rounds, "units", d->n_units,
							   "power", report_json_num(d->found, d->power), "seconds", report_json_num(d->found, d->seconds),
							   "reason", d->reason));
}

/* Under rounds = auto: the plan, the blocks done, the time, why it stopped. */
static json_t *
sequential_json(const ReportData *r)
{
	if (!r->sequential)
		return json_null();
	return json_pack("{s:o, s:i, s:o, s:b, s:s}",
					 "plan", budget_to_json(&r->budget), "blocks_done", r->blocks_done,
					 "spent_s", report_json_num(!isnan(r->spent_s), r->spent_s),
					 "all_decided", r->all_decided, "stopped", r->stop_why);
}

json_t *
report_summary_json(const ReportData *r)
{
	json_t	   *cells = json_array();
	json_t	   *geomean = json_array();
	json_t	   *noise = json_array();
	json_t	   *warnings = json_array();
	json_t	   *declared = json_array();

	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];

		json_array_append_new(cells,
							  json_pack("{s:s, s:i, s:s, s:s, s:b, s:o, s:o, s:o, s:s, s:s, s:o, s:o, s:o, s:o}",
										"script", c->script, "clients", c->clients,
										"baseline", c->base_name,
										"variant", c->name,
										"every_seed", c->variant < 0,
										"a", sample_json(c->a), "b", sample_json(c->b),
										/* the answer; under rounds = auto the deciding look's */
										"comparison", report_comparison_json(report_cell_answer(r, c),
																			 report_cell_answer(r, c) != NULL, c->unit),
										"verdict", report_cell_verdict(r, c),
										/* the verdict's decision, to be read by programs */
										"decision", report_decision_word(c->outcome),
										"reference", report_json_num(r->spec.reference > 0, r->spec.reference),
										/* the other view, named so: all rounds as if fixed */
										"all_rounds_as_if_fixed", r->sequential
										? report_comparison_json(&c->cmp, c->has_comparison, c->unit) : json_null(),
										"levels", levels_json(c),
										"sequential", report_look_json(r, c)));
	}
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const ReportNoise *nz = &r->noise[v];

		json_array_append_new(geomean,
							  json_pack("{s:s, s:o, s:o}", "variant", report_variant_name(r, v),
										"ratio", report_json_num(r->has_geomean[v], r->geomean_ratio[v]),
										"median_tps", report_json_num(r->has_geomean[v], r->geomean_tps[v])));
		json_array_append_new(noise,
							  json_pack("{s:s, s:i, s:o, s:i, s:o, s:o, s:o}", "variant", report_variant_name(r, v),
										"counted", nz->counted, "cv", report_json_num(nz->has_cv, nz->cv_median),
										"outliers", nz->outliers,
										"drift_change", report_json_num(nz->has_trend, nz->drift.change),
										"drift_tau", report_json_num(nz->has_trend, nz->trend.tau),
										"drift_p_value", report_json_num(nz->has_trend, nz->trend.p_value)));
	}
	for (int i = 0; i < r->nwarnings; i++)
		json_array_append_new(warnings, json_string(r->warnings[i]));
	for (int i = 0; i < r->ndeclared; i++)
		json_array_append_new(declared, json_string(r->declared[i]));
	return json_pack("{s:s, s:s, s:f, s:f, s:i, s:{s:f, s:f, s:f}, s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o?, s:o?, s:o}",
					 "format", RESULTS_FORMAT,
					 "baseline", report_variant_name(r, r->baseline),
					 "alpha", r->opt.alpha, "noise", r->opt.noise,
					 "restart_rounds", r->restart_rounds,
					 "cost_s", "build", r->cost.build_s, "restart", r->cost.restart_s,
					 "round", r->cost.round_s,
					 "design_effect", r->design_effect,
					 "cells", cells, "geomean", geomean, "noise_by_variant", noise,
					 "snapshot_probe", report_probe_json(r),
					 "layout_diffs", report_layout_json(r),
					 "declared", declared, "warnings", warnings, "profiles", profile_summary_json(r),
					 "counted_view", profile_counted_view_json(r),
					 "sequential", sequential_json(r));
}

/*
 * A benchmark name may hold no white space, and must not have a lower-case
 * letter right after "Benchmark".
 */
static char *
bench_name(const char *script, int clients)
{
	char	   *s = psprintf("BenchmarkPgbench/script=%s/clients=%d", script, clients);

	for (char *p = s; *p; p++)
		if (isspace((unsigned char) *p))
			*p = '_';
	return s;
}

bool
report_write_benchstat(const ReportData *r, const char *path, char **error)
{
	FILE	   *f = safe_fopen_write(path, false, error);

	if (f == NULL)
		return false;
	fprintf(f, "goos: linux\npkg: pgbench_ext\n");
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		int			instance = 0;

		fprintf(f, "variant: %s\n", report_variant_name(r, v));
		for (int i = 0; i < r->nruns; i++)
		{
			const ReportRun *run = &r->runs[i];

			if (strcmp(run->variant, report_variant_name(r, v)) != 0 || !report_run_counted(run))
				continue;
			/* with restarts, the server start of each run, the unit of the verdict */
			if (r->restart_rounds > 0 && run->instance != instance)
				fprintf(f, "instance: %d\n", instance = run->instance);
			fprintf(f, "%s %lld %.17g tps", bench_name(run->script, run->clients),
					run->transactions > 0 ? run->transactions : 1, run->tps);
			if (run->latency_avg_ms > 0)
				fprintf(f, " %.17g ms/tx", run->latency_avg_ms);
			fprintf(f, "\n");
		}
	}
	return safe_fclose(f, error);
}
