/*-------------------------------------------------------------------------
 *
 * report_sections.c
 *		The sections of report.md and report.html: the experiment, the
 *		verdicts with their reasons, noise and warnings, and the tables
 *		people post on the lists — per-run tps side by side, "% change vs
 *		baseline" across client counts, server counters per transaction.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout.h"
#include "profile.h"
#include "farm.h"
#include "report.h"

#include "pqexpbuffer.h"

#include <math.h>

/* A counter of a run: a runs.csv column, a counters() figure, or waits. */
typedef enum MetricKind
{
	METRIC_LATENCY,
	METRIC_CSV,
	METRIC_COUNTER,
	METRIC_WAIT
} MetricKind;

typedef struct Metric
{
	MetricKind	kind;
	char	   *label;
	size_t		offset;			/* METRIC_CSV: of a double in ReportRun */
	bool		per_tx;			/* METRIC_CSV: divide by transactions */
	char	   *scope;			/* METRIC_COUNTER: scope and metric; */
	char	   *name;			/* METRIC_WAIT: wait event type and event */
} Metric;

/* Latencies and percentiles of counters() are per statement already. */
static bool
metric_is_raw(const char *name)
{
	return strstr(name, "_ms") != NULL || strstr(name, "_us_avg") != NULL;
}

/* "LWLock:WALWrite": a wait event of runs/NNNN.json's wait_profile */
static char *
wait_key(json_t *w)
{
	return psprintf("%s:%s", report_json_str(w, "wait_event_type", ""),
					report_json_str(w, "wait_event", ""));
}

static double
metric_value(const Metric *m, const ReportRun *run)
{
	double		v = NAN;
	json_t	   *j;

	switch (m->kind)
	{
		case METRIC_LATENCY:
			return run->latency_avg_ms;
		case METRIC_CSV:
			v = *(const double *) ((const char *) run + m->offset);
			return m->per_tx ? (run->transactions > 0 ? v / run->transactions : NAN) : v;
		case METRIC_COUNTER:
			j = json_object_get(json_object_get(json_object_get(run->detail, "counters"), m->scope), m->name);
			if (!json_is_number(j))
				return NAN;
			v = json_number_value(j);
			if (metric_is_raw(m->name))
				return v;
			return run->transactions > 0 ? v / run->transactions : NAN;
		case METRIC_WAIT:
			{
				size_t		i;
				json_t	   *w;
				double		sum = 0;
				bool		found = false;

				json_array_foreach(json_object_get(run->detail, "wait_profile"), i, w)
				{
					if (strcmp(wait_key(w), m->name) == 0)
						sum += json_number_value(json_object_get(w, "samples")), found = true;
				}
				return found && run->transactions > 0 ? sum / run->transactions : NAN;
			}
	}
	return NAN;
}

static int
add_metric(Metric *ms, int n, int max, Metric m)
{
	for (int i = 0; i < n; i++)
		if (ms[i].kind == m.kind && strcmp(ms[i].label, m.label) == 0)
			return n;
	if (n < max)
		ms[n++] = m;
	return n;
}

#define MAX_METRICS 64

/* Every metric at least one counted run has, in a stable order. */
static int
collect_metrics(const ReportData *r, Metric *ms)
{
	static const struct
	{
		const char *label;
		size_t		offset;
		bool		per_tx;
	}			csv[] = {
		{"CPU user µs/tx", offsetof(ReportRun, cpu_user_us_per_tx), false},
		{"CPU system µs/tx", offsetof(ReportRun, cpu_sys_us_per_tx), false},
		{"voluntary switches/tx", offsetof(ReportRun, voluntary_per_tx), false},
		{"involuntary switches/tx", offsetof(ReportRun, involuntary_per_tx), false},
		{"buffer hits/tx", offsetof(ReportRun, blks_hit), true},
		{"buffer reads/tx", offsetof(ReportRun, blks_read), true},
		{"WAL bytes/tx", offsetof(ReportRun, wal_bytes), true},
	};
	int			n = 0;

	n = add_metric(ms, n, MAX_METRICS, (Metric) {METRIC_LATENCY, "latency average ms"});
	for (int i = 0; i < lengthof(csv); i++)
	{
		Metric		m = {METRIC_CSV, (char *) csv[i].label, csv[i].offset, csv[i].per_tx};

		for (int k = 0; k < r->nruns; k++)
			if (report_run_counted(&r->runs[k]) && isfinite(metric_value(&m, &r->runs[k])))
			{
				n = add_metric(ms, n, MAX_METRICS, m);
				break;
			}
	}
	for (int k = 0; k < r->nruns; k++)
	{
		const char *scope;
		json_t	   *group;
		size_t		i;
		json_t	   *w;

		if (!report_run_counted(&r->runs[k]) || r->runs[k].detail == NULL)
			continue;
		json_object_foreach(json_object_get(r->runs[k].detail, "counters"), scope, group)
		{
			const char *name;
			json_t	   *val;

			/* bookkeeping (when the counters were reset), not a measurement */
			if (strcmp(scope, "meta") == 0)
				continue;

			json_object_foreach(group, name, val)
			{
				bool		raw = metric_is_raw(name);
				Metric		m = {METRIC_COUNTER,
					psprintf("%s %s%s", scope, name, raw ? "" : "/tx"), 0, true,
				pg_strdup(scope), pg_strdup(name)};

				n = add_metric(ms, n, MAX_METRICS, m);
			}
		}
		json_array_foreach(json_object_get(r->runs[k].detail, "wait_profile"), i, w)
		{
			char	   *key = wait_key(w);
			Metric		m = {METRIC_WAIT, psprintf("wait samples/tx %s", key), 0, true, NULL, key};

			if (i < 10)
				n = add_metric(ms, n, MAX_METRICS, m);
		}
	}
	return n;
}

/* Median of a metric over the counted runs of one variant in one cell. */
static bool
metric_median(const ReportData *r, const Metric *m, const char *script, int clients,
			  int v, double *median)
{
	double	   *x = pg_malloc(sizeof(double) * (r->nruns + 1));
	int			n = 0;

	for (int k = 0; k < r->nruns; k++)
	{
		const ReportRun *run = &r->runs[k];
		double		val;

		if (!report_run_counted(run) || run->clients != clients ||
			strcmp(run->script, script) != 0 || strcmp(run->variant, report_variant_name(r, v)) != 0)
			continue;
		val = metric_value(m, run);
		if (isfinite(val))
			x[n++] = val;
	}
	if (n > 0)
		*median = report_median(x, n);
	pfree(x);
	return n > 0;
}

static char *
fmt_value(double v)
{
	if (v >= 1000)
		return psprintf("%.0f", v);
	if (v >= 10)
		return psprintf("%.1f", v);
	return psprintf("%.3g", v);
}

static void
section_experiment(const ReportData *r, Doc *d)
{
	const ExperimentSpec *sp = &r->spec;
	json_t	   *machine = json_object_get(r->experiment, "machine");
	PQExpBufferData b;
	static const char *const hdr[] = {"variant", "server", "settings", "extension"};

	initPQExpBuffer(&b);
	for (int i = 0; i < sp->nclients; i++)
		appendPQExpBuffer(&b, "%s%d", i ? "," : "", sp->clients[i]);
	doc_heading(d, 2, "Experiment");
	doc_para(d, "Scale %d; %s %d; clients %s; %d rounds (%d warmup); reset %s; %d runs recorded. "
			 "Machine: %s, %d CPUs, kernel %s; fingerprint %s, signature %s (docs/farm.md).",
			 sp->scale, sp->duration_s ? "duration (s)" : "transactions",
			 sp->duration_s ? sp->duration_s : sp->transactions, b.data,
			 sp->rounds, sp->warmup, sp->reset == RESET_EVERY_RUN ? "every run" : "never",
			 r->nruns,
			 report_json_str(machine, "arch", "?"),
			 (int) json_integer_value(json_object_get(machine, "cpus")),
			 report_json_str(machine, "kernel", "?"),
			 farm_machine_of(r->experiment).fingerprint, farm_signature(r->experiment));
	doc_table_begin(d, lengthof(hdr), hdr);
	for (int v = 0; v < sp->nvariants; v++)
	{
		const VariantSpec *vs = &sp->variants[v];
		const char *cells[4];

		resetPQExpBuffer(&b);
		for (int i = 0; i < vs->nsettings; i++)
			appendPQExpBuffer(&b, "%s%s", i ? " " : "", vs->settings[i]);
		for (int i = 0; i < vs->nsession_settings; i++)
			appendPQExpBuffer(&b, "%ssession: %s", b.len ? " " : "", vs->session_settings[i]);
		cells[0] = v == r->baseline ? psprintf("%s (baseline)", vs->name) : vs->name;
		cells[1] = vs->cluster ? psprintf("variant %s's cluster", vs->cluster) :
			vs->bindir ? vs->bindir : vs->conninfo ? vs->conninfo : "";
		cells[2] = b.data;
		/* the runner records whether counters() answered on that server */
		cells[3] = !vs->extension ? "off" :
			json_is_false(json_object_get(json_object_get(json_object_get(r->experiment, "variants"),
														  vs->name), "counters"))
			? "on, without counters()" : "on";
		doc_table_row(d, cells);
	}
	doc_table_end(d);
	for (int i = 0; i < r->ndeclared; i++)
		doc_para(d, "Declared difference: %s.", r->declared[i]);
	termPQExpBuffer(&b);
}

static void
section_verdicts(const ReportData *r, Doc *d)
{
	static const char *const hdr[] = {"script", "clients", "variant", "baseline tps", "tps",
	"B/A", "CI", "p", "n", "verdict", "why"};

	doc_heading(d, 2, "Verdicts");
	doc_para(d, "Each variant against the baseline %s%s. tps: median ±half-width of its "
			 "distribution-free CI; B/A: the ratio with its CI, and p, two-sided, across the unit "
			 "n names: the highest level that varies between the two sides. "
			 "Across servers restarted during the experiment (n: instance pairs) and across layout "
			 "seeds (n: layout seed pairs), each pair is one sample, summarized by the mean of its "
			 "paired rounds' log ratios, and Student's t test and interval run across the pairs. "
			 "On one server (n: rounds), rounds holding one run of each side are compared round by "
			 "round, which cancels the machine's drift between rounds: the Hodges-Lehmann estimate "
			 "of the per-round ratios and the Wilcoxon signed-rank test; with too few such rounds "
			 "(n: runs of each side), all runs, with the Mann-Whitney U test. "
			 "alpha %g, noise threshold ±%g%%; restarts: %s.",
			 report_variant_name(r, r->baseline),
			 report_has_seed_baselines(r) ? " (each layout seed B@seedK against A@seedK)" : "",
			 r->opt.alpha, 100 * r->opt.noise,
			 r->restart_rounds > 0 ? psprintf("every %d round%s", r->restart_rounds,
											  r->restart_rounds == 1 ? "" : "s") : "never");
	doc_table_begin(d, lengthof(hdr), hdr);
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		const StatsComparison *cmp = &c->cmp;
		const char *cells[lengthof(hdr)];

		cells[0] = c->script;
		cells[1] = psprintf("%d", c->clients);
		cells[2] = c->name;
		cells[3] = report_median_pm(c->a);
		cells[4] = report_median_pm(c->b);
		report_comparison_cells(cmp, c->has_comparison, &cells[5]);
		cells[9] = c->has_comparison ? report_verdict_text(cmp) : "-";
		cells[10] = c->has_comparison ? cmp->reason : "";
		doc_table_row(d, cells);
	}
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const char *cells[lengthof(hdr)] = {"geomean", "", report_variant_name(r, v)};

		if (v == r->baseline || !r->has_geomean[v])
			continue;
		cells[3] = psprintf("%.1f", r->geomean_tps[report_baseline_of(r, v)]);
		cells[4] = psprintf("%.1f", r->geomean_tps[v]);
		cells[5] = report_pct(r->geomean_ratio[v]);
		doc_table_row(d, cells);
	}
	doc_table_end(d);
}

/* Where each cell's noise lives, and the design that would decide it. */
static void
section_levels(const ReportData *r, Doc *d)
{
	static const char *const hdr[] = {"cell", "level", "A: sd of log tps", "B: sd of log tps",
	"B/A: sd of log ratio", "df (A, B, B/A)"};
	bool		any = false;

	for (int i = 0; i < r->ncells; i++)
		any |= r->cells[i].has_components;
	if (!any)
		return;
	doc_heading(d, 2, "Where the noise lives");
	doc_para(d, "Variance components of log tps by level (nested ANOVA, method of moments): between "
			 "builds (layout seeds), between instances (server starts), between rounds, and within a "
			 "run (its -P 1 seconds), for each side, and on the comparison's scale (the log ratios "
			 "of paired rounds), which is the noise a verdict sees. A level the data do not vary has "
			 "no estimate (-) and is inside the level above; * marks an estimate below 0, shown as 0. "
			 "The design is the cheapest next experiment whose verdict would see a change of %g%% "
			 "beyond the %g%% threshold with %.0f%% probability, from these components and what a "
			 "build, a restart (%.1f s with its warm-up runs) and a round (%.1f s) cost here.",
			 100 * r->design_effect, 100 * r->opt.noise, 100 * r->opt.power,
			 r->cost.restart_s, r->cost.round_s);
	doc_table_begin(d, lengthof(hdr), hdr);
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		char	   *where = report_cell_title(c);

		if (!c->has_components)
			continue;
		for (int l = STATS_LEVEL_BUILD; l < STATS_N_LEVELS; l++)
		{
			const StatsComponents *k[3] = {&c->run_a, &c->run_b, &c->ratio};
			const char *cells[lengthof(hdr)];

			if (!k[0]->has[l] && !k[1]->has[l] && !k[2]->has[l])
				continue;
			cells[0] = where;
			cells[1] = stats_level_name(l);
			for (int j = 0; j < 3; j++)
				cells[2 + j] = !k[j]->has[l] ? "-" :
					psprintf("%.2f%%%s", 100 * sqrt(k[j]->variance[l]), k[j]->truncated[l] ? "*" : "");
			cells[5] = psprintf("%d, %d, %d", k[0]->df[l], k[1]->df[l], k[2]->df[l]);
			doc_table_row(d, cells);
		}
	}
	doc_table_end(d);
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];

		if (c->has_design)
			doc_para(d, "Design, %s: %s.", report_cell_title(c), c->design.reason);
	}
}

static void
section_noise(const ReportData *r, Doc *d)
{
	static const char *const hdr[] = {"variant", "runs counted", "CV (median of cells)",
	"outliers (|modified z| > 3.5)", "drift tau", "drift p"};

	if (r->nseed_lines > 0)
	{
		doc_heading(d, 2, "Layout seeds");
		doc_para(d, "Each build is one sample of code layout; the verdicts per seed and over all seeds:");
		for (int i = 0; i < r->nseed_lines; i++)
			doc_para(d, "%s", r->seed_lines[i]);
	}
	doc_heading(d, 2, "Noise and warnings");
	doc_table_begin(d, lengthof(hdr), hdr);
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const ReportNoise *nz = &r->noise[v];
		const char *cells[6];

		cells[0] = report_variant_name(r, v);
		cells[1] = psprintf("%d", nz->counted);
		cells[2] = nz->has_cv ? psprintf("%.2f%%", 100 * nz->cv_median) : "-";
		cells[3] = psprintf("%d", nz->outliers);
		cells[4] = nz->has_trend ? psprintf("%+.3f", nz->trend.tau) : "-";
		cells[5] = nz->has_trend ? psprintf("%.3g", nz->trend.p_value) : "-";
		doc_table_row(d, cells);
	}
	doc_table_end(d);
	if (r->nwarnings == 0)
		doc_para(d, "No warnings.");
	for (int i = 0; i < r->nwarnings; i++)
		doc_para(d, "Warning: %s", r->warnings[i]);
}

/* Per-run tps of A and B side by side, by round, as posted on the lists. */
static void
section_per_run(const ReportData *r, Doc *d)
{
	doc_heading(d, 2, "Runs side by side");
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		const char *hdr[] = {"round", "instances", c->base_name, c->name, "diff", "%"};
		int			rounds = r->spec.rounds;

		/*
		 * The instances of each round only when the servers were restarted;
		 * else the first column moves over them.
		 */
		int			skip = r->restart_rounds > 0 ? 0 : 1;

		/* every seed pooled has many runs a round: its seeds are listed one by one */
		if (c->variant < 0)
			continue;

		doc_heading(d, 3, report_cell_title(c));
		if (skip)
			hdr[1] = hdr[0];
		doc_table_begin(d, lengthof(hdr) - skip, hdr + skip);
		for (int round = 1; round <= rounds; round++)
		{
			double		a = NAN,
						b = NAN;
			int			ia = 0,
						ib = 0;
			const char *cells[6];

			for (int k = 0; k < c->a->n; k++)
				if (c->a->rounds[k] == round)
					a = c->a->tps[k], ia = c->a->instances[k];
			for (int k = 0; k < c->b->n; k++)
				if (c->b->rounds[k] == round)
					b = c->b->tps[k], ib = c->b->instances[k];
			if (isnan(a) && isnan(b))
				continue;
			cells[0] = psprintf("%d", round);
			cells[1] = psprintf("%s, %s", ia ? psprintf("%d", ia) : "-", ib ? psprintf("%d", ib) : "-");
			cells[2] = isnan(a) ? "-" : psprintf("%.1f", a);
			cells[3] = isnan(b) ? "-" : psprintf("%.1f", b);
			cells[4] = isnan(a) || isnan(b) ? "-" : psprintf("%+.1f", b - a);
			cells[5] = isnan(a) || isnan(b) ? "-" : report_pct(b / a);
			if (skip)
				cells[1] = cells[0];
			doc_table_row(d, cells + skip);
		}
		{
			const char *cells[6] = {"median", "",
				c->a->has_summary ? psprintf("%.1f", c->a->summary.median) : "-",
				c->b->has_summary ? psprintf("%.1f", c->b->summary.median) : "-",
				c->a->has_summary && c->b->has_summary
				? psprintf("%+.1f", c->b->summary.median - c->a->summary.median) : "-",
				c->a->has_summary && c->b->has_summary
			? report_pct(c->b->summary.median / c->a->summary.median) : "-"};

			if (skip)
				cells[1] = cells[0];
			doc_table_row(d, cells + skip);
		}
		doc_table_end(d);
	}
}

/* Rows: variants; columns: client counts; cells: HL change vs baseline. */
static void
section_change_grid(const ReportData *r, Doc *d)
{
	const char **hdr = pg_malloc(sizeof(char *) * (r->spec.nclients + 1));
	const char **cells = pg_malloc(sizeof(char *) * (r->spec.nclients + 1));

	doc_heading(d, 2, "% change vs baseline");
	doc_para(d, "Hodges-Lehmann change of median tps against %s; \"~\" marks no significant "
			 "change, \"?\" too few runs to tell.", report_variant_name(r, r->baseline));
	hdr[0] = "variant";
	for (int c = 0; c < r->spec.nclients; c++)
		hdr[c + 1] = psprintf("%d client%s", r->spec.clients[c], r->spec.clients[c] == 1 ? "" : "s");
	for (int s = 0; s < r->spec.nscripts; s++)
	{
		if (r->spec.nscripts > 1)
			doc_heading(d, 3, r->spec.scripts[s]);
		doc_table_begin(d, r->spec.nclients + 1, hdr);
		for (int v = 0; v < r->spec.nvariants; v++)
		{
			if (v == r->baseline)
				continue;
			cells[0] = report_variant_name(r, v);
			for (int c = 0; c < r->spec.nclients; c++)
			{
				const ReportCell *cell = report_find_cell(r, r->spec.scripts[s], r->spec.clients[c],
														  report_variant_name(r, v));
				if (cell == NULL || !cell->has_comparison || !cell->cmp.has_estimate)
					cells[c + 1] = "-";
				else
					cells[c + 1] = psprintf("%s%s", report_pct(cell->cmp.estimate),
											cell->cmp.verdict == STATS_NO_CHANGE ? " ~" :
											cell->cmp.verdict == STATS_INSUFFICIENT ? " ?" : "");
			}
			doc_table_row(d, cells);
		}
		doc_table_end(d);
	}
}

static void
section_counters(const ReportData *r, Doc *d)
{
	Metric		ms[MAX_METRICS];
	int			nm = collect_metrics(r, ms);
	bool		any_counters = false;

	doc_heading(d, 2, "Server counters per transaction");
	for (int v = 0; v < r->spec.nvariants; v++)
		if (!r->spec.variants[v].extension)
			doc_para(d, "Variant %s ran without the extension: it has no server counters.",
					 report_variant_name(r, v));
	for (int i = 0; i < nm; i++)
		if (ms[i].kind == METRIC_COUNTER || ms[i].kind == METRIC_WAIT)
			any_counters = true;
	if (!any_counters)
		doc_para(d, "No run has counters from pgbench_ext.counters() (runs/NNNN.json); "
				 "shown are the figures from runs.csv.");
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		const char *hdr[] = {"metric (median of runs)", c->base_name, c->name, "B/A"};

		if (c->variant < 0)
			continue;

		doc_heading(d, 3, report_cell_title(c));
		doc_table_begin(d, lengthof(hdr), hdr);
		for (int m = 0; m < nm; m++)
		{
			double		a,
						b;
			bool		has_a = metric_median(r, &ms[m], c->script, c->clients, r->baseline, &a);
			bool		has_b = metric_median(r, &ms[m], c->script, c->clients, c->variant, &b);
			const char *cells[4];

			/* a command type the load never ran is noise in the table */
			if ((!has_a || a == 0) && (!has_b || b == 0))
				continue;
			cells[0] = ms[m].label;
			cells[1] = has_a ? fmt_value(a) : "-";
			cells[2] = has_b ? fmt_value(b) : "-";
			cells[3] = has_a && has_b && a > 0 ? report_pct(b / a) : "-";
			doc_table_row(d, cells);
		}
		doc_table_end(d);
	}
}

void
report_write_doc(const ReportData *r, Doc *d, const char *plots_note,
				 char **plots, int nplots)
{
	doc_begin(d, psprintf("pgbench_ext report: %s", r->dir));
	section_experiment(r, d);
	report_sequential_section(r, d);
	section_verdicts(r, d);
	report_probe_section(r, d);
	report_layout_section(r, d);
	section_levels(r, d);
	profile_write_sections(r, d);
	section_noise(r, d);
	section_change_grid(r, d);
	section_per_run(r, d);
	section_counters(r, d);
	doc_heading(d, 2, "Plots");
	if (nplots == 0)
		doc_para(d, "No plots: %s", plots_note ? plots_note : "nothing to plot");
	for (int i = 0; i < nplots; i++)
	{
		const char *base = strrchr(plots[i], '/');

		doc_svg(d, plots[i], base ? base + 1 : plots[i]);
	}
	doc_end(d);
}
