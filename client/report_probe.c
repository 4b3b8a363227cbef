/*-------------------------------------------------------------------------
 *
 * report_probe.c
 *		The snapshot probe in the report: each figure of B against A, ns
 *		per GetSnapshotData() call under the run's own load, judged with
 *		the statistics and units of the tps verdict (report_compare_runs),
 *		lower being better.
 *
 * A run contributes one value per figure: the median (or p90) of its
 * probes of that mode (snapshot_probe.c).  The rows, computed once here,
 * are printed under the verdict table, written as a section of report.md
 * and report.html and exported to summary.json.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"
#include "snapshot_probe.h"

#include <math.h>

static double
full_median(const ReportRun *run)
{
	return run->snapshot.full_ns_median;
}

static double
full_p90(const ReportRun *run)
{
	return run->snapshot.full_ns_p90;
}

static double
reuse_median(const ReportRun *run)
{
	return run->snapshot.reuse_ns_median;
}

static double
reuse_p90(const ReportRun *run)
{
	return run->snapshot.reuse_ns_p90;
}

static double
probe_xcnt(const ReportRun *run)
{
	return run->snapshot.xcnt;
}

static double
probe_procs(const ReportRun *run)
{
	return run->snapshot.procs;
}

/* The share of the run's probing window a probe was in flight. */
static double
probe_duty(const ReportRun *run)
{
	json_t	   *p = json_object_get(run->detail, "snapshot_probe");
	double		window = json_number_value(json_object_get(p, "window_s"));

	return p && window > 0 ? json_number_value(json_object_get(p, "busy_s")) / window : NAN;
}

static const struct
{
	const char *mode;
	const char *statistic;
	ReportRunValue value;
}			figures[] = {
	{"full", "median", full_median},
	{"full", "p90", full_p90},
	{"reuse", "median", reuse_median},
	{"reuse", "p90", reuse_p90},
};

/* Median over a sample's counted runs of one figure; NAN when none has it. */
static double
probe_figure_median(const ReportData *r, const ReportSample *s, ReportRunValue value, int *n)
{
	ReportSample f;
	double		median;

	report_figure_sample(r, s, report_run_figure, &value, &f);
	*n = f.n;
	median = f.n > 0 ? report_median(f.tps, f.n) : NAN;
	report_free_figure_sample(&f);
	return median;
}

/*
 * The same for the figures that only describe the probes, where 0 is a
 * value (xcnt under a read-only load).
 */
static double
context_median(const ReportData *r, const ReportSample *s, ReportRunValue value)
{
	double	   *x = pg_malloc(sizeof(double) * (s->n + 1));
	int			n = 0;
	double		median;

	for (int i = 0; i < s->n; i++)
	{
		double		v = value(&r->runs[s->run_index[i]]);

		if (isfinite(v))
			x[n++] = v;
	}
	median = n > 0 ? report_median(x, n) : NAN;
	pg_free(x);
	return median;
}

static void
probe_warnings(ReportData *r)
{
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		int			missing = 0,
					counted = 0;

		if (!snapshot_probe_enabled(&r->spec, &r->spec.variants[v]))
			continue;
		for (int i = 0; i < r->nruns; i++)
		{
			const ReportRun *run = &r->runs[i];

			if (!report_run_counted(run) || strcmp(run->variant, report_variant_name(r, v)) != 0)
				continue;
			counted++;
			if (!isfinite(run->snapshot.full_ns_median))
				missing++;
		}
		if (missing > 0)
			report_warn(r, "%d of %d counted runs of variant %s have no snapshot probe figures (runs/NNNN.json, \"snapshot_probe\", says why)",
						missing, counted, report_variant_name(r, v));
	}
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const VariantSpec *a = &r->spec.variants[r->baseline];
		const VariantSpec *b = &r->spec.variants[v];

		if (snapshot_probe_enabled(&r->spec, a) == snapshot_probe_enabled(&r->spec, b))
			continue;
		report_warn(r, "variant %s ran with the snapshot probe and %s without it: their tps comparison includes what the probe costs (docs/experiments.md, \"The snapshot probe\")",
					snapshot_probe_enabled(&r->spec, a) ? a->name : b->name,
					snapshot_probe_enabled(&r->spec, a) ? b->name : a->name);
	}
}

void
report_probe_load(ReportData *r)
{
	bool		any = false;

	for (int i = 0; i < r->nruns && !any; i++)
		any = report_run_counted(&r->runs[i]) && isfinite(r->runs[i].snapshot.full_ns_median);
	probe_warnings(r);
	if (!any)
		return;

	r->probe_rows = pg_malloc0(sizeof(ReportProbeRow) * (r->ncells * lengthof(figures) + 1));
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];

		for (int f = 0; f < lengthof(figures); f++)
		{
			ReportProbeRow *row = &r->probe_rows[r->nprobe_rows];

			row->cell = c;
			row->mode = figures[f].mode;
			row->statistic = figures[f].statistic;
			row->median_a = probe_figure_median(r, c->a, figures[f].value, &row->n_a);
			row->median_b = probe_figure_median(r, c->b, figures[f].value, &row->n_b);
			/* a side that was not probed has nothing to compare */
			if (row->n_a == 0 || row->n_b == 0)
				continue;
			row->has_comparison = report_compare_runs(r, c, figures[f].value, false, &row->cmp);
			r->nprobe_rows++;
		}
	}
}

static char *
ns_text(double ns)
{
	return isfinite(ns) ? psprintf("%.1f", ns) : pg_strdup("-");
}

/*
 * "GetSnapshotData, full (median of each run's probes), under the run's
 * load: 51.2 -> 44.0 ns (-14.10%, CI [...], p 0.0312, 6 rounds), faster"
 */
static char *
probe_sentence(const ReportData *r, const ReportProbeRow *row)
{
	const char *cells[4];

	report_comparison_cells(&row->cmp, row->has_comparison, cells);
	return psprintf("GetSnapshotData, %s (%s of each run's probes), under the run's load: "
					"%s → %s ns (%s, CI %s, p %s, %s), %s",
					row->mode, row->statistic, ns_text(row->median_a), ns_text(row->median_b),
					cells[0], cells[1], cells[2], cells[3],
					row->has_comparison ? report_verdict_text(&row->cmp) : "-");
}

void
report_probe_print(const ReportData *r, FILE *out)
{
	const ReportCell *shown = NULL;

	if (r->nprobe_rows == 0)
		return;
	fprintf(out, "\nsnapshot probe: ns per GetSnapshotData() call, lower is better\n");
	for (int i = 0; i < r->nprobe_rows; i++)
	{
		const ReportProbeRow *row = &r->probe_rows[i];

		if (row->cell != shown)
			fprintf(out, "%s\n", report_cell_title(row->cell));
		shown = row->cell;
		fprintf(out, "  %s\n", probe_sentence(r, row));
	}
}

/* What the probes saw, per variant and cell: medians over the counted runs. */
static void
probe_context_table(const ReportData *r, Doc *d)
{
	static const char *const hdr[] = {"script", "clients", "variant", "runs probed",
	"xcnt", "backends", "probes per run", "in flight"};

	doc_table_begin(d, lengthof(hdr), hdr);
	for (int s = 0; s < r->spec.nscripts; s++)
		for (int c = 0; c < r->spec.nclients; c++)
			for (int v = 0; v < r->spec.nvariants; v++)
			{
				const ReportSample *smp = report_sample(r, s, c, v);
				double	   *probes = pg_malloc(sizeof(double) * (smp->n + 1));
				int			np = 0;
				double		xcnt = context_median(r, smp, probe_xcnt);
				double		procs = context_median(r, smp, probe_procs);
				double		duty = context_median(r, smp, probe_duty);
				const char *cells[lengthof(hdr)];

				for (int i = 0; i < smp->n; i++)
					if (r->runs[smp->run_index[i]].snapshot.probes > 0)
						probes[np++] = r->runs[smp->run_index[i]].snapshot.probes;
				if (np == 0)
				{
					pg_free(probes);
					continue;
				}
				cells[0] = r->spec.scripts[s];
				cells[1] = psprintf("%d", r->spec.clients[c]);
				cells[2] = report_variant_name(r, v);
				cells[3] = psprintf("%d of %d", np, smp->n);
				cells[4] = isfinite(xcnt) ? psprintf("%.1f", xcnt) : "-";
				cells[5] = isfinite(procs) ? psprintf("%.0f", procs) : "-";
				cells[6] = psprintf("%.0f", report_median(probes, np));
				cells[7] = isfinite(duty) ? psprintf("%.2f%%", 100 * duty) : "-";
				doc_table_row(d, cells);
				pg_free(probes);
			}
	doc_table_end(d);
}

void
report_probe_section(const ReportData *r, Doc *d)
{
	static const char *const hdr[] = {"script", "clients", "variant", "figure",
	"baseline ns", "ns", "B/A", "CI", "p", "n", "verdict", "why"};
	const ReportCell *shown = NULL;

	if (r->nprobe_rows == 0)
		return;
	doc_heading(d, 2, "GetSnapshotData under the run's load");
	doc_para(d, "During every run a session of the runner's own timed %d calls of "
			 "GetSnapshotData() (pgbench_ext.snapshot_bench), in 'full' mode (a proc-array "
			 "scan every call) and 'reuse' mode (the cached path, which commits invalidate) "
			 "in turn, with a pause of %d ms after each probe. Each run gives the median and "
			 "the p90 of its probes per mode; B is compared with A on those figures with the "
			 "statistics of the tps verdict (lower is better).",
			 SNAPSHOT_PROBE_CALLS, r->spec.snapshot_probe_interval_ms);
	for (int i = 0; i < r->nprobe_rows; i++)
	{
		if (r->probe_rows[i].cell != shown)
			doc_para(d, "%s:", report_cell_title(r->probe_rows[i].cell));
		shown = r->probe_rows[i].cell;
		doc_para(d, "%s", probe_sentence(r, &r->probe_rows[i]));
	}
	doc_table_begin(d, lengthof(hdr), hdr);
	for (int i = 0; i < r->nprobe_rows; i++)
	{
		const ReportProbeRow *row = &r->probe_rows[i];
		const char *cells[lengthof(hdr)];

		cells[0] = row->cell->script;
		cells[1] = psprintf("%d", row->cell->clients);
		cells[2] = report_variant_name(r, row->cell->variant);
		cells[3] = psprintf("%s, %s", row->mode, row->statistic);
		cells[4] = ns_text(row->median_a);
		cells[5] = ns_text(row->median_b);
		report_comparison_cells(&row->cmp, row->has_comparison, &cells[6]);
		cells[10] = row->has_comparison ? report_verdict_text(&row->cmp) : "-";
		cells[11] = row->has_comparison ? row->cmp.reason : "";
		doc_table_row(d, cells);
	}
	doc_table_end(d);
	doc_para(d, "What the probes saw (medians over the counted runs): xcnt of the last snapshot "
			 "of a probe, backends in the proc array, and the share of the probing window "
			 "during which a probe was in flight.");
	probe_context_table(r, d);
}

static json_t *
median_json(int n, double median)
{
	return json_pack("{s:i, s:o}", "n", n, "median", isfinite(median) ? json_real(median) : json_null());
}

json_t *
report_probe_json(const ReportData *r)
{
	json_t	   *rows = json_array();

	for (int i = 0; i < r->nprobe_rows; i++)
	{
		const ReportProbeRow *row = &r->probe_rows[i];

		json_array_append_new(rows,
							  json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:s}",
										"script", row->cell->script,
										"clients", row->cell->clients,
										"baseline", row->cell->base_name,
										"variant", report_variant_name(r, row->cell->variant),
										"mode", row->mode,
										"statistic", row->statistic,
										"unit", "ns per call",
										"higher_is_better", false,
										"a", median_json(row->n_a, row->median_a),
										"b", median_json(row->n_b, row->median_b),
										"comparison", report_comparison_json(&row->cmp, row->has_comparison, row->cell->unit),
										"sentence", probe_sentence(r, row)));
	}
	return rows;
}
