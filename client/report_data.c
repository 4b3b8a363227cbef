/*-------------------------------------------------------------------------
 *
 * report_data.c
 *		Read a results directory back and compute every figure of the
 *		report once, with the statistics of common/ (the same code the
 *		extension's compare() runs).
 *
 * A run counts when its status is ok, it is not a warmup run and it has a
 * tps figure.  runs.csv is read by column name, so that columns added
 * later do not shift what is read.  Runs that did not count, and runs
 * with a checkpoint or autovacuum inside, become warnings.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout_seeds.h"
#include "profile.h"
#include "report.h"

#include "plan.h"
#include "results.h"

#include <math.h>

static double
field_double(char **f, int col)
{
	return col < 0 || f[col][0] == '\0' ? NAN : strtod(f[col], NULL);
}

static const char *
field_str(char **f, int col)
{
	return col < 0 ? "" : f[col];
}

/*
 * runs.csv and runs/NNNN.json, read by results.c as untrusted data: every
 * name in them is one of experiment.json's, every number a number.
 */
static bool
read_runs_csv(ReportData *r, char **error)
{
	RunsCsv    *t = results_read_runs(r->dir, &r->spec, error);
	int			c_id, c_round, c_var, c_script, c_clients, c_warm, c_tps, c_lat,
				c_tx, c_status, c_ckpt, c_av, c_user, c_sys, c_vol, c_invol,
				c_hit, c_read, c_wal, c_reason, c_build, c_seed, c_instance,
				c_duration, c_wall, c_reset;
	int			c_snap[7];
	static const char *const snap_columns[7] = {
		"snapshot_full_ns_median", "snapshot_full_ns_p90", "snapshot_reuse_ns_median",
		"snapshot_reuse_ns_p90", "snapshot_xcnt", "snapshot_procs", "snapshot_probes"
	};

	if (t == NULL)
		return false;
	c_id = runs_csv_column(t, "run_id");
	c_round = runs_csv_column(t, "round");
	c_var = runs_csv_column(t, "variant");
	c_script = runs_csv_column(t, "script");
	c_clients = runs_csv_column(t, "clients");
	c_warm = runs_csv_column(t, "warmup");
	c_tps = runs_csv_column(t, "tps");
	c_lat = runs_csv_column(t, "latency_avg_ms");
	c_tx = runs_csv_column(t, "transactions");
	c_status = runs_csv_column(t, "status");
	c_ckpt = runs_csv_column(t, "checkpoints_during");
	c_av = runs_csv_column(t, "autovacuum_during");
	c_user = runs_csv_column(t, "cpu_user_us_per_tx");
	c_sys = runs_csv_column(t, "cpu_sys_us_per_tx");
	c_vol = runs_csv_column(t, "voluntary_switches_per_tx");
	c_invol = runs_csv_column(t, "involuntary_switches_per_tx");
	c_hit = runs_csv_column(t, "blks_hit");
	c_read = runs_csv_column(t, "blks_read");
	c_wal = runs_csv_column(t, "wal_bytes");
	c_reason = runs_csv_column(t, "reason");
	for (int i = 0; i < lengthof(snap_columns); i++)
		c_snap[i] = runs_csv_column(t, snap_columns[i]);
	c_build = runs_csv_column(t, "build");
	c_seed = runs_csv_column(t, "layout_seed");
	c_instance = runs_csv_column(t, "instance");
	c_duration = runs_csv_column(t, "duration_s");
	c_wall = runs_csv_column(t, "wall_s");
	c_reset = runs_csv_column(t, "reset_s");
	if (c_tps < 0)
	{
		*error = psprintf("\"%s\" has no column \"tps\"", t->path);
		return false;
	}

	r->runs = pg_malloc0(sizeof(ReportRun) * (t->nrows + 1));
	for (int i = 0; i < t->nrows; i++)
	{
		char	  **fl = t->rows[i];
		ReportRun  *run = &r->runs[r->nruns++];

		run->run_id = atoi(field_str(fl, c_id));
		run->round = atoi(field_str(fl, c_round));
		run->variant = pg_strdup(field_str(fl, c_var));
		run->script = pg_strdup(field_str(fl, c_script));
		run->clients = atoi(field_str(fl, c_clients));
		run->warmup = strcmp(field_str(fl, c_warm), "true") == 0;
		run->after_start = run->warmup && run->round == 0;
		run->build = pg_strdup(field_str(fl, c_build));
		run->layout_seed = atoi(field_str(fl, c_seed));
		/* results without the column: one instance of each server */
		run->instance = c_instance < 0 ? 1 : atoi(field_str(fl, c_instance));
		run->duration_s = field_double(fl, c_duration);
		run->wall_s = field_double(fl, c_wall);
		run->reset_s = field_double(fl, c_reset);
		run->status = pg_strdup(field_str(fl, c_status));
		run->reason = pg_strdup(field_str(fl, c_reason));
		run->tps = field_double(fl, c_tps);
		run->latency_avg_ms = field_double(fl, c_lat);
		run->transactions = atoll(field_str(fl, c_tx));
		run->checkpoints = atoi(field_str(fl, c_ckpt));
		run->autovacuums = atoi(field_str(fl, c_av));
		run->cpu_user_us_per_tx = field_double(fl, c_user);
		run->cpu_sys_us_per_tx = field_double(fl, c_sys);
		run->voluntary_per_tx = field_double(fl, c_vol);
		run->involuntary_per_tx = field_double(fl, c_invol);
		run->blks_hit = field_double(fl, c_hit);
		run->blks_read = field_double(fl, c_read);
		run->wal_bytes = field_double(fl, c_wal);
		run->snapshot.full_ns_median = field_double(fl, c_snap[0]);
		run->snapshot.full_ns_p90 = field_double(fl, c_snap[1]);
		run->snapshot.reuse_ns_median = field_double(fl, c_snap[2]);
		run->snapshot.reuse_ns_p90 = field_double(fl, c_snap[3]);
		run->snapshot.xcnt = field_double(fl, c_snap[4]);
		run->snapshot.procs = field_double(fl, c_snap[5]);
		run->snapshot.probes = atoi(field_str(fl, c_snap[6]));
		if (!results_read_run_detail(r->dir, run->run_id, &run->detail, error))
			return false;
	}
	return true;
}

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

static void add_line(char ***lines, int *n, const char *fmt, va_list ap) pg_attribute_printf(3, 0);

static void
add_line(char ***lines, int *n, const char *fmt, va_list ap)
{
	char		buf[2048];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* values of experiment.json are quoted: no escape sequence reaches a terminal */
	for (char *p = buf; *p; p++)
		if ((unsigned char) *p < 0x20 || *p == 0x7f)
			*p = ' ';
	*lines = pg_realloc(*lines, sizeof(char *) * (*n + 1));
	(*lines)[(*n)++] = pg_strdup(buf);
}

void
report_warn(ReportData *r, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	add_line(&r->warnings, &r->nwarnings, fmt, ap);
	va_end(ap);
}

void
report_declare(ReportData *r, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	add_line(&r->declared, &r->ndeclared, fmt, ap);
	va_end(ap);
}

void
report_add_seed_line(ReportData *r, char *line)
{
	r->seed_lines = pg_realloc(r->seed_lines, sizeof(char *) * (r->nseed_lines + 1));
	r->seed_lines[r->nseed_lines++] = line;
}

/* Distribute counted runs over the samples, in run order. */
static void
fill_samples(ReportData *r)
{
	int			nsamples = r->spec.nscripts * r->spec.nclients * r->spec.nvariants;

	r->samples = pg_malloc0(sizeof(ReportSample) * nsamples);
	for (int i = 0; i < nsamples; i++)
	{
		r->samples[i].tps = pg_malloc(sizeof(double) * (r->nruns + 1));
		r->samples[i].rounds = pg_malloc(sizeof(int) * (r->nruns + 1));
		r->samples[i].run_ids = pg_malloc(sizeof(int) * (r->nruns + 1));
		r->samples[i].instances = pg_malloc(sizeof(int) * (r->nruns + 1));
		r->samples[i].seeds = pg_malloc(sizeof(int) * (r->nruns + 1));
		r->samples[i].run_index = pg_malloc(sizeof(int) * (r->nruns + 1));
	}
	for (int i = 0; i < r->nruns; i++)
	{
		const ReportRun *run = &r->runs[i];
		int			s = report_script_index(r, run->script);
		int			c = report_clients_index(r, run->clients);
		int			v = report_variant_index(r, run->variant);
		ReportSample *smp;

		if (s < 0 || c < 0 || v < 0 || !report_run_counted(run))
			continue;
		smp = report_sample(r, s, c, v);
		smp->tps[smp->n] = run->tps;
		smp->rounds[smp->n] = run->round;
		smp->run_ids[smp->n] = run->run_id;
		smp->instances[smp->n] = run->instance;
		/* older results have no seed column: the name tells */
		if (run->layout_seed > 0)
			smp->seeds[smp->n] = run->layout_seed;
		else
			(void) layout_seed_base(run->variant, &smp->seeds[smp->n]);
		smp->run_index[smp->n] = i;
		smp->n++;
	}
	for (int i = 0; i < nsamples; i++)
	{
		ReportSample *smp = &r->samples[i];

		if (smp->n > 0)
		{
			smp->has_summary = stats_summarize(smp->tps, smp->n, 1.0 - r->opt.alpha,
											   &smp->summary) == STATS_OK;
			smp->outliers = Max(0, stats_outliers(smp->tps, smp->n, NULL, NULL));
		}
	}
}

static int
cmp_double(const void *x, const void *y)
{
	double		a = *(const double *) x,
				b = *(const double *) y;

	return (a > b) - (a < b);
}

/*
 * The plain median of n > 0 values (sorted in place), for figures that are
 * only shown, never tested: zeros allowed, unlike the statistics of common/.
 */
double
report_median(double *x, int n)
{
	qsort(x, n, sizeof(double), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* CV, outliers and drift of each variant, over all its cells. */
static void
compute_noise(ReportData *r)
{
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		ReportNoise *nz = &r->noise[v];
		double	   *cvs = pg_malloc(sizeof(double) * (r->spec.nscripts * r->spec.nclients + 1));
		double	   *order = pg_malloc(sizeof(double) * (r->nruns + 1));
		int		   *ids = pg_malloc(sizeof(int) * (r->nruns + 1));
		int			ncv = 0,
					n = 0;

		for (int s = 0; s < r->spec.nscripts; s++)
			for (int c = 0; c < r->spec.nclients; c++)
			{
				ReportSample *smp = report_sample(r, s, c, v);

				nz->outliers += smp->outliers;
				nz->counted += smp->n;
				if (smp->has_summary && smp->n >= 2)
					cvs[ncv++] = smp->summary.cv;
				/* relative to the cell's median, so cells can be merged */
				for (int i = 0; smp->has_summary && i < smp->n; i++)
				{
					order[n] = smp->tps[i] / smp->summary.median;
					ids[n] = smp->run_ids[i];
					n++;
				}
			}
		if (ncv > 0)
		{
			nz->cv_median = report_median(cvs, ncv);
			nz->has_cv = true;
		}
		/* put the relative values in run order (insertion sort by run id) */
		for (int i = 1; i < n; i++)
			for (int j = i; j > 0 && ids[j - 1] > ids[j]; j--)
			{
				int			ti = ids[j];
				double		tv = order[j];

				ids[j] = ids[j - 1], order[j] = order[j - 1];
				ids[j - 1] = ti, order[j - 1] = tv;
			}
		nz->has_trend = n >= 3 && stats_mann_kendall(order, n, &nz->trend) == STATS_OK;
		pfree(cvs);
		pfree(order);
		pfree(ids);
	}
}

/*
 * The runs of one side of a cell that have a figure (value: NAN or <= 0
 * when a run has none), as a sample of that figure: its values in tps,
 * with the runs' rounds and ids and their places in the side (of_side),
 * by which a comparison finds each run's unit.
 */
void
report_figure_sample(const ReportData *r, const ReportSample *side, ReportRunValue value,
					 ReportSample *out)
{
	memset(out, 0, sizeof(*out));
	out->tps = pg_malloc(sizeof(double) * (side->n + 1));
	out->rounds = pg_malloc(sizeof(int) * (side->n + 1));
	out->run_ids = pg_malloc(sizeof(int) * (side->n + 1));
	out->of_side = pg_malloc(sizeof(int) * (side->n + 1));
	for (int i = 0; i < side->n; i++)
	{
		double		v = value(&r->runs[side->run_index[i]]);

		if (!isfinite(v) || v <= 0)
			continue;
		out->tps[out->n] = v;
		out->rounds[out->n] = side->rounds[i];
		out->run_ids[out->n] = side->run_ids[i];
		out->of_side[out->n] = i;
		out->n++;
	}
}

void
report_free_figure_sample(ReportSample *s)
{
	pg_free(s->tps);
	pg_free(s->rounds);
	pg_free(s->run_ids);
	pg_free(s->of_side);
}

/* Each run's unit in a figure's sample, from its cell side's; NULL: rounds. */
static int *
units_of(const int *side_units, const ReportSample *s)
{
	int		   *units;

	if (side_units == NULL)
		return NULL;
	units = pg_malloc(sizeof(int) * (s->n + 1));
	for (int i = 0; i < s->n; i++)
		units[i] = side_units[s->of_side ? s->of_side[i] : i];
	return units;
}

/*
 * B against A in cell c, as every verdict of the report is made: tps, the
 * snapshot probe's figures and the profiles' metrics and functions, each
 * across the unit report_compare_cell() decided for the cell.  a and b
 * are the cell's samples or samples of one figure of their runs (of_side
 * set, report_figure_sample()).
 */
bool
report_compare_samples(const ReportData *r, const ReportCell *c,
					   const ReportSample *a, const ReportSample *b,
					   bool higher_is_better, StatsComparison *out)
{
	StatsOptions opt = r->opt;
	int		   *ua = units_of(c->unit_a, a);
	int		   *ub = units_of(c->unit_b, b);
	bool		ok;

	opt.higher_is_better = higher_is_better;
	/* round by round is the instance-pair comparison with one pair */
	ok = stats_compare_units(a->tps, a->rounds, ua, a->n, b->tps, b->rounds, ub, b->n,
							 c->unit == STATS_UNIT_ROUND ? STATS_UNIT_INSTANCE_PAIR : c->unit,
							 &opt, out) == STATS_OK;
	if (ua)
		pg_free(ua);
	if (ub)
		pg_free(ub);
	return ok;
}

/* B against A in cell c for one figure of each counted run. */
bool
report_compare_runs(const ReportData *r, const ReportCell *c, ReportRunValue value,
					bool higher_is_better, StatsComparison *out)
{
	ReportSample fa,
				fb;

	bool		ok;

	report_figure_sample(r, c->a, value, &fa);
	report_figure_sample(r, c->b, value, &fb);
	ok = report_compare_samples(r, c, &fa, &fb, higher_is_better, out);
	report_free_figure_sample(&fa);
	report_free_figure_sample(&fb);
	return ok;
}

/* The figure of the verdict, as a ReportRunValue. */
double
report_run_tps(const ReportRun *run)
{
	return run->tps;
}

static void
compute_cells(ReportData *r)
{
	int			max = r->spec.nscripts * r->spec.nclients * r->spec.nvariants;
	double	   *ratios[MAX_VARIANTS];
	double	   *medians[MAX_VARIANTS];
	int			nratios[MAX_VARIANTS] = {0};
	int			nmedians[MAX_VARIANTS] = {0};

	/* room for the rows of every seed pooled, one per cell at most per variant */
	r->cells = pg_malloc0(sizeof(ReportCell) * (2 * max + 1));
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		ratios[v] = pg_malloc(sizeof(double) * (max + 1));
		medians[v] = pg_malloc(sizeof(double) * (max + 1));
	}
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
				cell->name = report_variant_name(r, v);
				cell->base_name = report_variant_name(r, r->baseline);
				cell->a = report_sample(r, s, c, r->baseline);
				cell->b = smp;
				report_compare_cell(r, cell);
				if (cell->has_comparison && cell->cmp.has_estimate)
					ratios[v][nratios[v]++] = cell->cmp.estimate;
			}
		}
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		r->has_geomean[v] = (v == r->baseline || nratios[v] > 0) && nmedians[v] > 0;
		if (r->has_geomean[v])
		{
			if (v == r->baseline)
				r->geomean_ratio[v] = 1.0;
			else
				stats_geomean(ratios[v], nratios[v], &r->geomean_ratio[v]);
			stats_geomean(medians[v], nmedians[v], &r->geomean_tps[v]);
		}
		pfree(ratios[v]);
		pfree(medians[v]);
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
	for (int v = 0; v < r->spec.nvariants; v++)
		if (r->noise[v].has_trend && r->noise[v].trend.p_value < r->opt.alpha)
			report_warn(r, "variant %s drifts across the session (Mann-Kendall tau %+.2f, p %.3g): the machine changed under it",
						report_variant_name(r, v), r->noise[v].trend.tau,
						r->noise[v].trend.p_value);
}

/*
 * A comparison of two servers that were each started once measures one
 * draw of their layouts: say so, once, with what to do.
 */
static void
level_warnings(ReportData *r)
{
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];

		if (c->variant < 0 || c->unit != STATS_UNIT_ROUND ||
			plan_server_of(&r->spec, r->baseline) == plan_server_of(&r->spec, c->variant))
			continue;
		report_warn(r, "%s and %s ran on different servers started once (restart = never): their verdict is round by round on one pair of server starts, whose offset (1-2%% here) is not in its CI; run with restart = N for a verdict across instance pairs",
					c->name, c->base_name);
		break;
	}
}

ReportData *
report_load(const char *dir, const char *baseline, char **error)
{
	ReportData *r = pg_malloc0(sizeof(ReportData));

	r->dir = pg_strdup(dir);
	if ((r->experiment = results_read_spec(dir, &r->spec, error)) == NULL)
		return NULL;
	stats_default_options(&r->opt);
	r->baseline = 0;
	if (baseline != NULL && (r->baseline = report_variant_index(r, baseline)) < 0)
	{
		*error = psprintf("no variant \"%s\" in %s; its variants are %s", baseline, dir,
						  experiment_variant_names(&r->spec));
		return NULL;
	}
	/* older results have no "restart": never */
	r->restart_rounds = results_restart_rounds(r->experiment);
	r->design_effect = r->opt.noise + 0.01;
	if (!read_runs_csv(r, error))
		return NULL;
	fill_samples(r);
	compute_cells(r);
	report_pooled_seed_cells(r);
	layout_seed_verdicts(r);
	report_measure_costs(r);
	for (int i = 0; i < r->ncells; i++)
		report_cell_levels(r, &r->cells[i]);
	compute_noise(r);
	run_warnings(r);
	level_warnings(r);
	report_environment_warnings(r);
	report_probe_load(r);
	report_layout_load(r);
	profile_report_load(r);
	return r;
}

/* ---- formatting shared by every writer ---- */

/* A string member of a JSON object, or dflt when absent or not a string. */
const char *
report_json_str(json_t *obj, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : dflt;
}

char *
report_pct(double ratio)
{
	return psprintf("%+.2f%%", 100.0 * (ratio - 1.0));
}

/* "1615 ±3.2%": the median and the larger distance to a CI bound */
char *
report_median_pm(const ReportSample *s)
{
	const StatsSummary *m = &s->summary;

	if (!s->has_summary)
		return pg_strdup("-");
	if (!m->has_median_ci)
		return psprintf("%.1f ±∞", m->median);
	return psprintf("%.1f ±%.1f%%", m->median,
					100.0 * Max(m->median_ci_high - m->median, m->median - m->median_ci_low) / m->median);
}

/* B/A, its CI and p as every table prints them ("-": none). */
void
report_comparison_cells(const StatsComparison *cmp, bool ok, const char **cells)
{
	cells[0] = ok && cmp->has_estimate ? report_pct(cmp->estimate) : "-";
	cells[1] = ok && cmp->has_ci
		? psprintf("[%s, %s]", report_pct(cmp->ci_low), report_pct(cmp->ci_high)) : "-";
	cells[2] = ok && cmp->has_p ? psprintf("%.3g", cmp->p_value) : "-";
	cells[3] = ok ? report_comparison_n(cmp) : "-";
}

/*
 * What a comparison's test counted: "6 instance pairs" or "3 layout seed
 * pairs" (across units), "15 rounds" (round by round), "8+8" (unpaired).
 */
char *
report_comparison_n(const StatsComparison *cmp)
{
	if (cmp->unit != STATS_UNIT_RUN && cmp->unit != STATS_UNIT_ROUND)
		return psprintf("%d %s", cmp->n_units, stats_unit_name(cmp->unit, cmp->n_units));
	return cmp->n_pairs > 0 ? psprintf("%d rounds", cmp->n_pairs)
		: psprintf("%d+%d", cmp->n_a, cmp->n_b);
}

char *
report_verdict_text(const StatsComparison *cmp)
{
	if (cmp->verdict == STATS_NO_CHANGE && cmp->has_mde)
		return psprintf("~ no change (MDE %.1f%%)", cmp->mde_pct);
	return pg_strdup(stats_verdict_name(cmp->verdict));
}
