/*-------------------------------------------------------------------------
 *
 * report_data.c
 *		The load stage of a report (report.h's map): a results directory
 *		read back into a ReportData (report_read()), and the accessors
 *		every stage reads it with: variants, cells and samples, and each
 *		cell's answer as the analysis stored it.
 *
 * A run counts when its status is ok, it is not a warmup run and it has a
 * tps figure.  runs.csv is read by column name, so that columns added
 * later do not shift what is read.  The figures of the report are
 * computed in the analysis (report_analyze(), report_analysis.c), which
 * calls this file and never the other way round; the accessors compute
 * nothing, so the writers may call them.
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
	c_seed = runs_csv_column(t, "build_seed");
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
 * come after (report_analyze(), report_analysis.c).
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

/* ---- the answers of the analysis, as the writers read them ---- */

/* The cell's answer (report_answer.c), NULL when there is none. */
const StatsComparison *
report_cell_answer(const ReportData *r, const ReportCell *c)
{
	return c->answer;
}

ReportClass
report_cell_class(const ReportData *r, const ReportCell *c)
{
	return c->klass;
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

/* "look 3 of 9, 15 rounds, 1m15s" and, when undecided, why it stopped */
char *
report_look_stopped(const ReportData *r, const ReportCell *c)
{
	return c->look_stopped;
}
