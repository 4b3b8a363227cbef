/*-------------------------------------------------------------------------
 *
 * report_analysis.c
 *		Every figure of a report, computed once from a results directory
 *		read back (report_data.c), with the statistics of common/ (the same
 *		code the extension's compare() runs): the verdict of each cell and
 *		the geometric means, the seeds' and the levels' figures, the noise
 *		of each variant, the warnings, and the figures of the environment,
 *		the snapshot probe, the layouts and the profiles.
 *
 * report_analyze() is the analysis stage of report.h's map, in order: the
 * cells and their verdicts, then what each module adds; the writers only
 * format what it leaves.  Runs that did not count, and runs with a
 * checkpoint or autovacuum inside, become warnings.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile_report.h"
#include "report.h"

#include <math.h>

/* One run of a variant, for putting them in run order. */
typedef struct RunInOrder
{
	int			run_id;
	int			instance;
	double		relative;		/* tps / its cell's median */
} RunInOrder;

static int
cmp_run_id(const void *a, const void *b)
{
	int			x = ((const RunInOrder *) a)->run_id,
				y = ((const RunInOrder *) b)->run_id;

	return (x > y) - (x < y);
}

/*
 * The runs of one variant over all its cells, each relative to its cell's
 * median so that cells can be merged, in run order, with the server start
 * of each; the count.  (Sorted, not inserted: a plan may have 500,000 runs.)
 */
static int
variant_runs_in_order(ReportData *r, int v, double *order, int *instances)
{
	RunInOrder *runs = pg_malloc(sizeof(RunInOrder) * (r->nruns + 1));
	int			n = 0;

	for (int s = 0; s < r->spec.nscripts; s++)
		for (int c = 0; c < r->spec.nclients; c++)
		{
			ReportSample *smp = report_sample(r, s, c, v);

			for (int i = 0; smp->has_summary && i < smp->n; i++)
				runs[n++] = (RunInOrder) {smp->run_ids[i], smp->instances[i],
				smp->tps[i] / smp->summary.median};
		}
	qsort(runs, n, sizeof(RunInOrder), cmp_run_id);
	for (int i = 0; i < n; i++)
	{
		order[i] = runs[i].relative;
		instances[i] = runs[i].instance;
	}
	pfree(runs);
	return n;
}

/*
 * CV, outliers and drift of each variant, over all its cells.  Runs of one
 * server start share its offset (a layout drawn at the start), so they are
 * not independent: across restarts the drift is judged on one value per
 * start, which are; on one start, on every run.
 */
static void
compute_noise(ReportData *r)
{
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		ReportNoise *nz = &r->noise[v];
		double	   *cvs = pg_malloc(sizeof(double) * (r->spec.nscripts * r->spec.nclients + 1));
		double	   *order = pg_malloc(sizeof(double) * (r->nruns + 1));
		int		   *instances = pg_malloc(sizeof(int) * (r->nruns + 1));
		int			ncv = 0,
					n;
		bool		restarted = false;

		for (int s = 0; s < r->spec.nscripts; s++)
			for (int c = 0; c < r->spec.nclients; c++)
			{
				ReportSample *smp = report_sample(r, s, c, v);

				nz->outliers += smp->outliers;
				nz->counted += smp->n;
				if (smp->has_summary && smp->n >= 2)
					cvs[ncv++] = smp->summary.cv;
			}
		if (ncv > 0)
		{
			nz->cv_median = report_median(cvs, ncv);
			nz->has_cv = true;
		}
		n = variant_runs_in_order(r, v, order, instances);
		for (int i = 1; i < n; i++)
			restarted |= instances[i] != instances[0];
		nz->has_trend = n >= 3 &&
			stats_drift(order, restarted ? instances : NULL, n, &nz->drift) == STATS_OK &&
			nz->drift.units >= 3;
		nz->trend = nz->drift.trend;
		nz->drift_by_start = restarted;
		pfree(cvs);
		pfree(order);
		pfree(instances);
	}
}

static void
compute_cells(ReportData *r)
{
	int			max = r->spec.nscripts * r->spec.nclients * r->spec.nvariants;
	double	   *medians[MAX_VARIANTS];
	int			nmedians[MAX_VARIANTS] = {0};

	/* room for the rows of every seed pooled, one per cell at most per variant */
	r->cells = pg_malloc0(sizeof(ReportCell) * (2 * max + 1));
	for (int v = 0; v < r->spec.nvariants; v++)
		medians[v] = pg_malloc(sizeof(double) * (max + 1));
	for (int s = 0; s < r->spec.nscripts; s++)
		for (int c = 0; c < r->spec.nclients; c++)
		{
			for (int v = 0; v < r->spec.nvariants; v++)
			{
				ReportSample *smp = report_sample(r, s, c, v);
				ReportCell *cell;

				if (smp->has_summary)
					medians[v][nmedians[v]++] = smp->summary.median;
				if (v == r->baseline)
					continue;
				cell = &r->cells[r->ncells++];
				cell->script = r->spec.scripts[s];
				cell->clients = r->spec.clients[c];
				cell->variant = v;
				cell->base = report_baseline_of(r, v);
				cell->name = report_variant_name(r, v);
				cell->base_name = report_variant_name(r, cell->base);
				cell->a = report_side_sample(r, s, c, cell->base, v);
				cell->b = report_side_sample(r, s, c, v, cell->base);
				report_compare_cell(r, cell);
			}
		}
	/* the geomeans of the ratios come with the answers (report_answer_geomeans) */
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		r->has_geomean[v] = nmedians[v] > 0;
		if (r->has_geomean[v])
			stats_geomean(medians[v], nmedians[v], &r->geomean_tps[v]);
		pfree(medians[v]);
	}
}

/*
 * A variant whose tps moved across the session by at least the noise
 * threshold, by a Mann-Kendall test at STATS_WARN_RATE over the variants
 * tested (stats_drift_warns()): on steady noise, at most 1 experiment in
 * 100 shows this warning (test_stats_warn.c measures it).  Every round runs
 * each variant, so a move they all share does not bias the verdict (it
 * widens its CI) and the words say so; a move of one variant alone does,
 * and the words say that instead (alike: the same way, each at least half
 * as far as the one that moved most).
 */
static void
drift_warnings(ReportData *r)
{
	int			ntests = 0;
	bool		shared = true;
	double		largest = 0.0;

	for (int v = 0; v < r->spec.nvariants; v++)
		if (fabs(r->noise[v].drift.change) > fabs(largest))
			largest = r->noise[v].drift.change;
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const ReportNoise *nz = &r->noise[v];

		ntests += nz->has_trend;
		/* alike: every variant moved the same way, at least half as far as the most */
		shared &= nz->has_trend && nz->drift.change * largest > 0 &&
			fabs(nz->drift.change) >= fabs(largest) / 2;
	}
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const StatsDrift *d = &r->noise[v].drift;

		if (r->noise[v].has_trend &&
			stats_drift_warns(d, ntests, STATS_WARN_RATE, r->opt.noise))
			report_warn(r, "variant %s moved %+.1f%% across the session (Mann-Kendall over its %d %s, p %.2g): "
						"the machine changed under it; %s",
						report_variant_name(r, v), 100 * d->change, d->units,
						r->noise[v].drift_by_start ? "server starts" : "runs", d->trend.p_value,
						shared ? "every variant moved alike, and each round runs all of them, "
						"so this does not bias the verdict but widens its CI" :
						"the other variants did not move alike, so the comparison includes this move "
						"(runs.csv, in run order)");
	}
}

static void
run_warnings(ReportData *r)
{
	int			failed = 0,
				disturbed = 0,
				no_tps = 0;
	char		failed_ids[256] = "",
				disturbed_ids[256] = "",
				no_tps_ids[256] = "";
	bool		too_few = false;

	for (int i = 0; i < r->nruns; i++)
	{
		const ReportRun *run = &r->runs[i];
		char		id[16];

		snprintf(id, sizeof(id), "%d", run->run_id);
		if (strcmp(run->status, "ok") != 0)
		{
			if (failed++ < 10)
				snprintf(failed_ids + strlen(failed_ids), sizeof(failed_ids) - strlen(failed_ids),
						 "%s%s (%s)", failed > 1 ? ", " : "", id, run->status);
		}
		else if (!run->warmup && !(isfinite(run->tps) && run->tps > 0))
		{
			if (no_tps++ < 10)
				snprintf(no_tps_ids + strlen(no_tps_ids), sizeof(no_tps_ids) - strlen(no_tps_ids),
						 "%s%s", no_tps > 1 ? ", " : "", id);
		}
		else if (!run->warmup && (run->checkpoints > 0 || run->autovacuums > 0))
		{
			if (disturbed++ < 10)
				snprintf(disturbed_ids + strlen(disturbed_ids),
						 sizeof(disturbed_ids) - strlen(disturbed_ids),
						 "%s%s (%s%s%s)", disturbed > 1 ? ", " : "", id,
						 run->checkpoints > 0 ? "checkpoint" : "",
						 run->checkpoints > 0 && run->autovacuums > 0 ? "+" : "",
						 run->autovacuums > 0 ? "autovacuum" : "");
		}
	}
	if (failed > 0)
		report_warn(r, "%d run(s) did not complete and are not counted: %s%s (runs.csv, status and reason)",
					failed, failed_ids, failed > 10 ? ", ..." : "");
	if (no_tps > 0)
		report_warn(r, "%d run(s) have status ok but no usable tps and are not counted: %s%s (runs.csv, runs/NNNN.out)",
					no_tps, no_tps_ids, no_tps > 10 ? ", ..." : "");
	if (disturbed > 0)
		report_warn(r, "%d run(s) had a checkpoint or autovacuum inside them: %s%s",
					disturbed, disturbed_ids, disturbed > 10 ? ", ..." : "");
	for (int i = 0; i < r->spec.nscripts * r->spec.nclients * r->spec.nvariants; i++)
		if (r->samples[i].n < REPORT_MIN_RUNS)
			too_few = true;
	if (too_few)
		report_warn(r, "fewer than %d counted runs per variant in some cells: no 95%% CI of a median exists below 6; make more rounds (-r)",
					REPORT_MIN_RUNS);
	drift_warnings(r);
}

/*
 * The cells, their units and, under rounds = auto, their looks: all that
 * the look after a block needs.  Not the levels, noise, probe, layouts or
 * profiles, which a long budget would read again after every block.
 */
void
report_analyze_cells(ReportData *r)
{
	int			nsamples = r->spec.nscripts * r->spec.nclients * r->spec.nvariants;

	/* each sample's median, CI and outliers, first: the cells compare them */
	for (int i = 0; i < nsamples; i++)
		report_summarize_sample(r, &r->samples[i]);
	for (int i = 0; r->partner_samples && i < nsamples * r->spec.nvariants; i++)
		report_summarize_sample(r, &r->partner_samples[i]);
	compute_cells(r);
	report_pooled_seed_cells(r);
	report_sequential_load(r);
	report_answer_geomeans(r);
}

/*
 * Every figure of a report, in order, into r as report_read() left it; the
 * cells' answers last, since a counted profile withdraws the tps
 * comparisons its valgrind runs cannot make.
 */
void
report_analyze(ReportData *r)
{
	report_analyze_cells(r);
	build_seeds_verdicts(r);
	report_measure_costs(r);
	for (int i = 0; i < r->ncells; i++)
		report_cell_levels(r, &r->cells[i]);
	compute_noise(r);
	run_warnings(r);
	report_environment_warnings(r);
	report_metrics_load(r);
	report_probe_load(r);
	report_layout_load(r);
	profile_report_load(r);
	report_cell_answers(r);
}
