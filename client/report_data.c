/*-------------------------------------------------------------------------
 *
 * report_data.c
 *		A results directory read back into a ReportData (report_read()),
 *		and what every part of the report shares: looking up variants,
 *		cells and samples, warnings, the one way B is compared with A
 *		(report_compare_samples()), and the formatting of figures.
 *
 * A run counts when its status is ok, it is not a warmup run and it has a
 * tps figure.  runs.csv is read by column name, so that columns added
 * later do not shift what is read.  The figures of the report are
 * computed in report_analysis.c, which calls this file and never the
 * other way round.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "stats.h"
#include "build_seeds.h"
#include "report.h"
#include "results.h"

#include <limits.h>
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
		run->build_seed = atoi(field_str(fl, c_seed));
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
		if (run->build_seed > 0)
			smp->seeds[smp->n] = run->build_seed;
		else
			(void) build_seeds_base(run->variant, &smp->seeds[smp->n]);
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

/*
 * The plain median of n > 0 values (sorted in place), for figures that are
 * only shown, never tested: zeros allowed, unlike the statistics of common/.
 */
double
report_median(double *x, int n)
{
	stats_sort(x, n);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/*
 * The runs of one side of a cell that have a figure (value(r, run, arg):
 * NAN or <= 0 when a run has none), as a sample of that figure: its
 * values in tps, with the runs' rounds and ids and their places in the
 * side (of_side), by which a comparison finds each run's unit.  Every
 * figure compared beside tps is sampled here: the probe's, the profiles'
 * metrics and functions.
 */
void
report_figure_sample(const ReportData *r, const ReportSample *side, ReportFigureValue value,
					 const void *arg, ReportSample *out)
{
	memset(out, 0, sizeof(*out));
	out->tps = pg_malloc(sizeof(double) * (side->n + 1));
	out->rounds = pg_malloc(sizeof(int) * (side->n + 1));
	out->run_ids = pg_malloc(sizeof(int) * (side->n + 1));
	out->of_side = pg_malloc(sizeof(int) * (side->n + 1));
	for (int i = 0; i < side->n; i++)
	{
		double		v = value(r, side->run_index[i], arg);

		if (!isfinite(v) || v <= 0)
			continue;
		out->tps[out->n] = v;
		out->rounds[out->n] = side->rounds[i];
		out->run_ids[out->n] = side->run_ids[i];
		out->of_side[out->n] = i;
		out->n++;
	}
}

/* A ReportRunValue as a ReportFigureValue: arg points to the ReportRunValue. */
double
report_run_figure(const ReportData *r, int run, const void *arg)
{
	return (*(const ReportRunValue *) arg) (&r->runs[run]);
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
 * The kind of unit a cell's comparisons pass to common/: round by round is
 * the instance-pair comparison with one pair.
 */
static StatsUnit
stats_unit_of(const ReportCell *c)
{
	return c->unit == STATS_UNIT_ROUND ? STATS_UNIT_INSTANCE_PAIR : c->unit;
}

/*
 * B against A in cell c, as every verdict of the report is made: tps, the
 * snapshot probe's figures and the profiles' metrics and functions, each
 * across the unit report_compare_cell() decided for the cell.  a and b are
 * the cell's samples or samples of one figure of their runs (of_side set,
 * report_figure_sample()).
 */
bool
report_compare_samples(const ReportData *r, const ReportCell *c,
					   const ReportSample *a, const ReportSample *b,
					   bool higher_is_better, StatsComparison *out)
{
	StatsOptions opt = r->opt;
	int		   *ua = units_of(c->unit_a, a);
	int		   *ub = units_of(c->unit_b, b);
	int			rc;

	opt.higher_is_better = higher_is_better;
	rc = stats_compare_units(a->tps, a->rounds, ua, a->n, b->tps, b->rounds, ub, b->n,
							 stats_unit_of(c), &opt, out);
	if (ua)
		pg_free(ua);
	if (ub)
		pg_free(ub);
	return rc == STATS_OK;
}

/*
 * Under rounds = auto: cell c's decision after blocks_done blocks of the
 * plan, on the units of the cell's verdict (stats_sequential_decide(),
 * which the extension's experiment_report() calls too; against the
 * experiment's reference ratio when it has one,
 * stats_sequential_decide_against()): its deciding (or last) look into
 * out and that look's block into *block (0: none).
 */
bool
report_look_cell(const ReportData *r, const ReportCell *c, const StatsBudgetPlan *plan,
				 int blocks_done, const double *info, const double *z,
				 StatsLook *out, int *block)
{
	ReportSample a,
				b;
	int		   *ua,
			   *ub;
	int			rc;

	report_cell_rounds(r, c, 1, INT_MAX, &a, &b);
	ua = units_of(c->unit_a, &a);
	ub = units_of(c->unit_b, &b);
	if (r->spec.reference > 0)
		rc = stats_sequential_decide_against(a.tps, a.rounds, ua, a.n, b.tps, b.rounds, ub, b.n,
											 stats_unit_of(c), plan, blocks_done, info, z,
											 r->spec.reference, &r->opt, out, block);
	else
		rc = stats_sequential_decide(a.tps, a.rounds, ua, a.n, b.tps, b.rounds, ub, b.n,
									 stats_unit_of(c), plan, blocks_done, info, z, &r->opt,
									 out, block);
	if (ua)
		pg_free(ua);
	if (ub)
		pg_free(ub);
	report_free_figure_sample(&a);
	report_free_figure_sample(&b);
	return rc == STATS_OK && *block > 0;
}

/*
 * The tps of each side of cell c in rounds [first, last], as figure
 * samples: one block of a calibration, or the rounds a look has seen.
 */
void
report_cell_rounds(const ReportData *r, const ReportCell *c, int first, int last,
				   ReportSample *a, ReportSample *b)
{
	ReportRunValue tps = report_run_tps;
	ReportSample *side[2] = {a, b};

	report_figure_sample(r, c->a, report_run_figure, &tps, a);
	report_figure_sample(r, c->b, report_run_figure, &tps, b);
	for (int s = 0; s < 2; s++)
	{
		ReportSample *x = side[s];
		int			k = 0;

		for (int i = 0; i < x->n; i++)
		{
			if (x->rounds[i] < first || x->rounds[i] > last)
				continue;
			x->tps[k] = x->tps[i];
			x->rounds[k] = x->rounds[i];
			x->run_ids[k] = x->run_ids[i];
			x->of_side[k] = x->of_side[i];
			k++;
		}
		x->n = k;
	}
}

/* B against A in cell c over rounds [first, last], as the verdict table compares. */
bool
report_compare_rounds(const ReportData *r, const ReportCell *c, int first, int last,
					  StatsComparison *out)
{
	ReportSample a,
				b;
	bool		ok;

	report_cell_rounds(r, c, first, last, &a, &b);
	ok = report_compare_samples(r, c, &a, &b, r->opt.higher_is_better, out);
	report_free_figure_sample(&a);
	report_free_figure_sample(&b);
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

	report_figure_sample(r, c->a, report_run_figure, &value, &fa);
	report_figure_sample(r, c->b, report_run_figure, &value, &fb);
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

/*
 * A results directory read back: the experiment, every run of runs.csv
 * and the counted runs of each cell in samples.  The report's figures
 * come after (report_load(), report_analysis.c).
 */
ReportData *
report_read(const char *dir, const char *baseline, char **error)
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
	return r;
}

/* ---- formatting shared by every writer ---- */

/* A figure for JSON: null when there is none (json_real() takes no NaN). */
json_t *
report_json_num(bool has, double v)
{
	return has && isfinite(v) ? json_real(v) : json_null();
}

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

/*
 * One comparison's figures; ok false: none could be made.  unit is the
 * one the design called for, shown when no comparison could be made.
 */
json_t *
report_comparison_json(const StatsComparison *x, bool ok, StatsUnit unit)
{
	static const StatsComparison none;

	/* no comparison at all: its figures are read, and written as null */
	if (x == NULL)
		x = &none, ok = false;
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:i, s:s, s:i, s:o, s:s, s:s}",
					 "estimate", report_json_num(ok && x->has_estimate, x->estimate),
					 "change_pct", report_json_num(ok && x->has_estimate, x->change_pct),
					 "ci_low", report_json_num(ok && x->has_ci, x->ci_low),
					 "ci_high", report_json_num(ok && x->has_ci, x->ci_high),
					 "ci_confidence", report_json_num(ok && x->has_estimate, x->ci_confidence),
					 "p_value", report_json_num(ok && x->has_p, x->p_value),
					 "u", report_json_num(ok && x->has_p, x->u),
					 "min_p", report_json_num(ok && x->has_p, x->min_p),
					 "mde_pct", report_json_num(ok && x->has_mde, x->mde_pct),
					 "p_exact", ok && x->p_exact,
					 "n_pairs", ok ? x->n_pairs : 0,
					 "unit", stats_unit_name(ok ? x->unit : unit, 1),
					 "n_units", ok ? x->n_units : 0,
					 "df", report_json_num(ok && x->has_p && x->df > 0, x->df),
					 "verdict", ok ? stats_verdict_name(x->verdict) : "insufficient",
					 "reason", ok ? x->reason : "");
}
