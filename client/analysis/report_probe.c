/*-------------------------------------------------------------------------
 *
 * report_probe.c
 *		The snapshot probe in the report: each figure of B against A, ns
 *		per GetSnapshotData() call under the run's own load, judged with
 *		the statistics and units of the tps verdict (report_compare_figure()),
 *		lower being better.
 *
 * A run contributes one value per figure: the median (or p90) of its
 * probes of that mode (snapshot_probe.c).  The rows, and what the probes
 * saw in each cell, are computed once here; report_probe_write.c prints
 * them under the verdict table, in report.md and report.html and in
 * summary.json.
 *
 * In report.h's map: the analysis stage.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"

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

/* The figure of each run of a cell's side, in the side's order. */
static double *
side_values(const ReportData *r, const ReportSample *s, ReportRunValue value)
{
	double	   *x = pg_malloc(sizeof(double) * (s->n + 1));

	for (int i = 0; i < s->n; i++)
		x[i] = value(&r->runs[s->run_index[i]]);
	return x;
}

/*
 * Median over a side's counted runs of one figure (values[k]: its k-th
 * run's, side_values()); NAN when none has it.
 */
static double
probe_figure_median(const ReportSample *s, const double *values, int *n)
{
	ReportSample f;
	double		median;

	report_figure_sample(s, values, &f);
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
	double	   *x = side_values(r, s, value);
	int			n = 0;
	double		median;

	for (int i = 0; i < s->n; i++)
		if (isfinite(x[i]))
			x[n++] = x[i];
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

/* What the probes saw, per variant and cell: medians over the counted runs. */
static void
probe_context(ReportData *r)
{
	int			max = r->spec.nscripts * r->spec.nclients * r->spec.nvariants;

	r->probe_context = pg_malloc0(sizeof(ReportProbeContext) * (max + 1));
	for (int s = 0; s < r->spec.nscripts; s++)
		for (int c = 0; c < r->spec.nclients; c++)
			for (int v = 0; v < r->spec.nvariants; v++)
			{
				const ReportSample *smp = report_sample(r, s, c, v);
				double	   *probes = pg_malloc(sizeof(double) * (smp->n + 1));
				int			np = 0;
				ReportProbeContext *x = &r->probe_context[r->nprobe_context];

				for (int i = 0; i < smp->n; i++)
					if (r->runs[smp->run_index[i]].snapshot.probes > 0)
						probes[np++] = r->runs[smp->run_index[i]].snapshot.probes;
				if (np == 0)
				{
					pg_free(probes);
					continue;
				}
				x->script = r->spec.scripts[s];
				x->clients = r->spec.clients[c];
				x->variant = v;
				x->probed = np;
				x->runs = smp->n;
				x->xcnt = context_median(r, smp, probe_xcnt);
				x->procs = context_median(r, smp, probe_procs);
				x->duty = context_median(r, smp, probe_duty);
				x->probes = report_median(probes, np);
				r->nprobe_context++;
				pg_free(probes);
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
			double	   *va = side_values(r, c->a, figures[f].value);
			double	   *vb = side_values(r, c->b, figures[f].value);

			row->cell = c;
			row->mode = figures[f].mode;
			row->statistic = figures[f].statistic;
			row->median_a = probe_figure_median(c->a, va, &row->n_a);
			row->median_b = probe_figure_median(c->b, vb, &row->n_b);
			/* a side that was not probed has nothing to compare */
			if (row->n_a > 0 && row->n_b > 0)
			{
				row->has_comparison = report_compare_figure(r, c, va, vb, false, &row->cmp);
				r->nprobe_rows++;
			}
			pg_free(va);
			pg_free(vb);
		}
	}
	probe_context(r);
}

