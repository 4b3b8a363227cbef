/*-------------------------------------------------------------------------
 *
 * report_export.c
 *		summary.json (every figure of the verdict table, as doubles printed
 *		exactly) and benchstat.txt (Go benchmark format, one line per
 *		counted run, so that "benchstat -col variant benchstat.txt" reads
 *		the same runs).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile.h"
#include "report.h"
#include "safe_file.h"

#include <ctype.h>

/* A double, or null for a figure that could not be computed. */
static json_t *
num(bool has, double v)
{
	return has ? json_real(v) : json_null();
}

static json_t *
sample_json(const ReportSample *s)
{
	const StatsSummary *m = &s->summary;
	json_t	   *tps = json_array();
	json_t	   *rounds = json_array();

	for (int i = 0; i < s->n; i++)
	{
		json_array_append_new(tps, json_real(s->tps[i]));
		json_array_append_new(rounds, json_integer(s->rounds[i]));
	}
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o}",
					 "n", s->n,
					 "median", num(s->has_summary, m->median),
					 "median_ci_low", num(s->has_summary && m->has_median_ci, m->median_ci_low),
					 "median_ci_high", num(s->has_summary && m->has_median_ci, m->median_ci_high),
					 "median_ci_confidence", num(s->has_summary, m->median_ci_confidence),
					 "mean", num(s->has_summary, m->mean),
					 "stddev", num(s->has_summary, m->stddev),
					 "cv", num(s->has_summary, m->cv),
					 "mad", num(s->has_summary, m->mad),
					 "outliers", s->outliers,
					 "tps", tps,
					 "rounds", rounds);
}

static json_t *
comparison_json(const ReportCell *c)
{
	const StatsComparison *x = &c->cmp;
	bool		ok = c->has_comparison;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:i, s:s, s:s}",
					 "estimate", num(ok && x->has_estimate, x->estimate),
					 "change_pct", num(ok && x->has_estimate, x->change_pct),
					 "ci_low", num(ok && x->has_ci, x->ci_low),
					 "ci_high", num(ok && x->has_ci, x->ci_high),
					 "ci_confidence", num(ok && x->has_estimate, x->ci_confidence),
					 "p_value", num(ok && x->has_p, x->p_value),
					 "u", num(ok && x->has_p, x->u),
					 "min_p", num(ok && x->has_p, x->min_p),
					 "mde_pct", num(ok && x->has_mde, x->mde_pct),
					 "p_exact", ok && x->p_exact,
					 "n_pairs", ok ? x->n_pairs : 0,
					 "verdict", ok ? stats_verdict_name(x->verdict) : "insufficient",
					 "reason", ok ? x->reason : "");
}

json_t *
report_summary_json(const ReportData *r)
{
	json_t	   *cells = json_array();
	json_t	   *geomean = json_array();
	json_t	   *noise = json_array();
	json_t	   *warnings = json_array();

	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];

		json_array_append_new(cells,
							  json_pack("{s:s, s:i, s:s, s:s, s:o, s:o, s:o}",
										"script", c->script, "clients", c->clients,
										"baseline", report_variant_name(r, r->baseline),
										"variant", report_variant_name(r, c->variant),
										"a", sample_json(c->a), "b", sample_json(c->b),
										"comparison", comparison_json(c)));
	}
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const ReportNoise *nz = &r->noise[v];

		json_array_append_new(geomean,
							  json_pack("{s:s, s:o, s:o}", "variant", report_variant_name(r, v),
										"ratio", num(r->has_geomean[v], r->geomean_ratio[v]),
										"median_tps", num(r->has_geomean[v], r->geomean_tps[v])));
		json_array_append_new(noise,
							  json_pack("{s:s, s:i, s:o, s:i, s:o, s:o}", "variant", report_variant_name(r, v),
										"counted", nz->counted, "cv", num(nz->has_cv, nz->cv_median),
										"outliers", nz->outliers,
										"drift_tau", num(nz->has_trend, nz->trend.tau),
										"drift_p_value", num(nz->has_trend, nz->trend.p_value)));
	}
	for (int i = 0; i < r->nwarnings; i++)
		json_array_append_new(warnings, json_string(r->warnings[i]));
	return json_pack("{s:s, s:f, s:f, s:o, s:o, s:o, s:o, s:o?}",
					 "baseline", report_variant_name(r, r->baseline),
					 "alpha", r->opt.alpha, "noise", r->opt.noise,
					 "cells", cells, "geomean", geomean, "noise_by_variant", noise,
					 "warnings", warnings, "profiles", profile_summary_json(r));
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
		fprintf(f, "variant: %s\n", report_variant_name(r, v));
		for (int i = 0; i < r->nruns; i++)
		{
			const ReportRun *run = &r->runs[i];

			if (strcmp(run->variant, report_variant_name(r, v)) != 0 || !report_run_counted(run))
				continue;
			fprintf(f, "%s %lld %.17g tps", bench_name(run->script, run->clients),
					run->transactions > 0 ? run->transactions : 1, run->tps);
			if (run->latency_avg_ms > 0)
				fprintf(f, " %.17g ms/tx", run->latency_avg_ms);
			fprintf(f, "\n");
		}
	}
	if (fclose(f) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		return false;
	}
	return true;
}
