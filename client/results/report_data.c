/*-------------------------------------------------------------------------
 *
 * report_data.c
 *		The load stage of a report (report.h's map): a results directory
 *		read back into a ReportData (report_read()).
 *
 * A run counts when its status is ok, it is not a warmup run and it has a
 * tps figure.  runs.csv is read by column name, so that columns added
 * later do not shift what is read.  In the map it comes after
 * report_render.c, which calls it, and above the analysis, which reads
 * what it loaded through report_access.c; it calls no file of the report
 * but report_access.c.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "stats.h"
#include "report.h"
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
	c_seed = runs_csv_column(t, "build_seed");
	c_instance = runs_csv_column(t, "instance");
	c_duration = runs_csv_column(t, "duration_s");
	c_wall = runs_csv_column(t, "wall_s");
	c_reset = runs_csv_column(t, "reset_s");
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
		run->instance = atoi(field_str(fl, c_instance));
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

/* Run i, counted, appended to smp. */
static void
sample_add(const ReportData *r, ReportSample *smp, int i)
{
	const ReportRun *run = &r->runs[i];

	smp->tps[smp->n] = run->tps;
	smp->rounds[smp->n] = run->round;
	smp->run_ids[smp->n] = run->run_id;
	smp->instances[smp->n] = run->instance;
	smp->seeds[smp->n] = run->build_seed;
	smp->run_index[smp->n] = i;
	smp->n++;
}

/*
 * Each run's partner, the variant the plan in experiment.json ran beside
 * it (interleaved ones have none).
 */
static bool
read_partners(ReportData *r)
{
	json_t	   *plan = json_object_get(r->experiment, "plan");
	int			max_id = 0;
	int		   *partner_of;
	bool		any = false;
	size_t		k;
	json_t	   *pr;

	for (int i = 0; i < r->nruns; i++)
		max_id = Max(max_id, r->runs[i].run_id);
	partner_of = pg_malloc(sizeof(int) * (max_id + 1));
	for (int id = 0; id <= max_id; id++)
		partner_of[id] = -1;
	json_array_foreach(plan, k, pr)
	{
		json_int_t	id = json_integer_value(json_object_get(pr, "run_id"));
		const char *partner = json_string_value(json_object_get(pr, "partner"));

		if (partner != NULL && id > 0 && id <= max_id)
			partner_of[id] = report_variant_index(r, partner);
	}
	for (int i = 0; i < r->nruns; i++)
	{
		r->runs[i].partner = partner_of[r->runs[i].run_id];
		any |= r->runs[i].partner >= 0;
	}
	pfree(partner_of);
	return any;
}

/*
 * Distribute counted runs over the samples, in run order; with partners,
 * also over the samples of each variant's runs beside each other one.
 */
static void
fill_samples(ReportData *r)
{
	int			nv = r->spec.nvariants;
	int			nsamples = r->spec.nscripts * r->spec.nclients * nv;
	bool		partners = read_partners(r);

	r->samples = pg_malloc0(sizeof(ReportSample) * nsamples);
	for (int i = 0; i < nsamples; i++)
		report_sample_alloc(&r->samples[i], r->nruns);
	if (partners)
		r->partner_samples = pg_malloc0(sizeof(ReportSample) * nsamples * nv);
	for (int i = 0; i < r->nruns; i++)
	{
		const ReportRun *run = &r->runs[i];
		int			s = report_script_index(r, run->script);
		int			c = report_clients_index(r, run->clients);
		int			v = report_variant_index(r, run->variant);
		ReportSample *smp;

		if (s < 0 || c < 0 || v < 0 || !report_run_counted(run))
			continue;
		sample_add(r, report_sample(r, s, c, v), i);
		if (run->partner < 0 || r->partner_samples == NULL)
			continue;
		smp = &r->partner_samples[((s * r->spec.nclients + c) * nv + v) * nv + run->partner];
		if (smp->tps == NULL)
			report_sample_alloc(smp, r->nruns);
		sample_add(r, smp, i);
	}
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
	r->restart_rounds = results_restart_rounds(r->experiment);
	r->design_effect = r->opt.noise + 0.01;
	if (!read_runs_csv(r, error))
		return NULL;
	fill_samples(r);
	return r;
}
