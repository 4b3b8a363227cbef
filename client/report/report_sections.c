/*-------------------------------------------------------------------------
 *
 * report_sections.c
 *		The sections of report.md and report.html: first the answer (the
 *		forest plot, the verdicts with their reasons and the warnings, the
 *		experiment as it ran), then the details: the experiment, all
 *		rounds as if fixed under rounds = auto, the noise, and the tables
 *		people post on the lists — per-run tps side by side, "% change vs
 *		baseline" across client counts.
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile_report_write.h"
#include "farm.h"
#include "report.h"

#include "pqexpbuffer.h"

#include <math.h>

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
	doc_para(d, "In force for the managed servers: schedule %s%s; pin %s; address-space randomization %s; "
			 "pgbench seed %s; prewarm %s; huge pages %s (each run's runs/NNNN.json has what /proc showed of its server).",
			 quiet_schedule_name(sp->quiet.schedule),
			 sp->quiet.schedule != SCHEDULE_DUET ? "" :
			 sp->quiet.swap_ms > 0 ? psprintf(", the sides' CPUs traded every %s within a run", quiet_swap_name(sp->quiet.swap_ms)) :
			 ", the sides' CPUs traded between rounds only",
			 sp->quiet.pin || sp->quiet.schedule == SCHEDULE_DUET ? "on" : "off",
			 sp->quiet.aslr ? "on" : "off",
			 sp->quiet.shared_seed ? "shared by the variants of each round" : "pgbench's own",
			 sp->quiet.prewarm ? "on" : "off",
			 sp->quiet.huge_pages == HUGE_PAGES_SERVER ? "the servers' own setting" :
			 quiet_huge_pages_name(sp->quiet.huge_pages));
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

/*
 * The verdict table: each comparison's answer, or (fixed) under rounds =
 * auto the other view of the same runs, all rounds compared as if their
 * number had been fixed, which is not the experiment's verdict.
 */
static void
verdict_table(const ReportData *r, Doc *d, bool fixed)
{
	const char *hdr[] = {"script", "clients", "variant", "baseline tps", "tps",
	"B/A", "CI", "p", "n", r->sequential && !fixed ? "decision" : "verdict", "why"};

	doc_table_begin(d, lengthof(hdr), hdr);
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		const StatsComparison *cmp = fixed ? (c->has_comparison ? &c->cmp : NULL)
			: report_cell_answer(r, c);
		const char *cells[lengthof(hdr)];

		cells[0] = c->script;
		cells[1] = psprintf("%d", c->clients);
		cells[2] = c->name;
		cells[3] = report_median_pm(c->a);
		cells[4] = report_median_pm(c->b);
		report_comparison_cells(cmp, cmp != NULL, &cells[5]);
		cells[9] = fixed ? (cmp ? report_verdict_text(cmp) : "not compared")
			: report_cell_verdict(r, c);
		cells[10] = r->sequential && !fixed ? (c->has_look ? c->look.reason : "no look yet")
			: cmp ? cmp->reason : "";
		/* the answer in the forest plot's colour; the other view in none */
		doc_table_row_marked(d, cells, 9, fixed ? NULL : report_class_colour(c->klass));
	}
	for (int v = 0; v < r->spec.nvariants && !fixed; v++)
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

/* The verdicts (the decisions under rounds = auto), how they were made, folded, and the warnings. */
static void
section_verdicts(const ReportData *r, Doc *d)
{
	doc_heading(d, 2, r->sequential ? "Decisions" : "Verdicts");
	verdict_table(r, d, false);
	if (r->sequential)
		doc_para(d, "rounds = auto: each B/A, CI and p is that of the cell's deciding look (its first "
				 "look that decided, or its last), at that look's level: the experiment's verdict. "
				 "How the looks went is in \"Decisions (rounds = auto)\" below, and all rounds "
				 "compared as if their number had been fixed (not the verdict) after it.");
	doc_details_begin(d, "How the verdicts were made");
	doc_para(d, "Each variant against the baseline %s%s. tps: median ±half-width of its "
			 "distribution-free CI; B/A: the ratio with its CI, and p, two-sided, across the unit "
			 "n names: the highest level that varies between the two sides. "
			 "Across servers restarted during the experiment (n: instance pairs) and across build "
			 "seeds (n: build seed pairs), each pair is one sample, summarized by the mean of its "
			 "paired rounds' log ratios, and Student's t test and interval run across the pairs. "
			 "On one server (n: rounds), rounds holding one run of each side are compared round by "
			 "round, which cancels the machine's drift between rounds: the Hodges-Lehmann estimate "
			 "of the per-round ratios and the Wilcoxon signed-rank test; with too few such rounds "
			 "(n: runs of each side), all runs, with the Mann-Whitney U test%s. "
			 "alpha %g, noise threshold ±%g%%; restarts: %s.",
			 report_variant_name(r, r->baseline),
			 report_has_seed_baselines(r) ? " (each build seed B@seedK against A@seedK)" : "",
			 r->sequential ? " (a look of rounds = auto chooses so at alpha, not at its own level: "
			 "from 6 rounds it stays round by round, undecided until they can reach its level)" : "",
			 r->opt.alpha, 100 * r->opt.noise,
			 r->restart_rounds > 0 ? psprintf("every %d round%s", r->restart_rounds,
											  r->restart_rounds == 1 ? "" : "s") : "never");
	doc_para(d, "faster or slower: p < alpha and the whole CI beyond ±%g%%. Short of that, a CI that "
			 "excludes 0 still settles the direction: \"by less than %g%%\" when it lies wholly inside "
			 "the threshold, \"beyond %g%% not settled\" when it crosses the threshold's edge. "
			 "No change only when the CI includes 0, with the smallest change the verdict would see (MDE).",
			 100 * r->opt.noise, 100 * r->opt.noise, 100 * r->opt.noise);
	doc_details_end(d);
	if (r->nwarnings == 0)
		doc_para(d, "No warnings.");
	for (int i = 0; i < r->nwarnings; i++)
		doc_para(d, "Warning: %s", r->warnings[i]);
}

/* Under rounds = auto, the other view of the same runs, named as such. */
static void
section_all_rounds(const ReportData *r, Doc *d)
{
	if (!r->sequential)
		return;
	doc_heading(d, 2, "All rounds as if fixed (not the verdict)");
	doc_para(d, "Every counted round compared at alpha %g as if the number of rounds had been fixed "
			 "before the experiment. It was not: the rounds ran until a look decided, and this view "
			 "ignores the looks, so its CI is too narrow and its p too small for a verdict.",
			 r->opt.alpha);
	verdict_table(r, d, true);
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
			 "builds (build seeds), between instances (server starts), between rounds, and within a "
			 "run (its -P 1 seconds), for each side, and on the comparison's scale (the log ratios "
			 "of paired rounds), which is the noise a verdict sees. A level the data do not vary has "
			 "no estimate (-) and is inside the level above; * marks an estimate below 0, shown as 0. "
			 "The design is the cheapest next experiment whose verdict would see a change of %g%% "
			 "beyond the %g%% threshold with %.0f%% probability, from these components and what a "
			 "build, a restart (%.1f s with its warm-up runs) and a round (%.1f s) cost in this experiment.",
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
	"outliers (beyond chance: 1% of experiments)", "drift across the session", "drift tau", "drift p"};

	if (r->nseed_lines > 0)
	{
		doc_heading(d, 2, "Build seeds");
		doc_para(d, "Each build is one sample of code layout; the verdicts per seed and over all seeds:");
		for (int i = 0; i < r->nseed_lines; i++)
			doc_para(d, "%s", r->seed_lines[i]);
	}
	doc_heading(d, 2, "Noise");
	doc_table_begin(d, lengthof(hdr), hdr);
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const ReportNoise *nz = &r->noise[v];
		const char *cells[7];

		cells[0] = report_variant_name(r, v);
		cells[1] = psprintf("%d", nz->counted);
		cells[2] = nz->has_cv ? psprintf("%.2f%%", 100 * nz->cv_median) : "-";
		cells[3] = psprintf("%d", nz->outliers);
		cells[4] = nz->has_trend ? psprintf("%+.2f%% (%d %s)", 100 * nz->drift.change, nz->drift.units,
											nz->drift_by_start ? "server starts" : "runs") : "-";
		cells[5] = nz->has_trend ? psprintf("%+.3f", nz->trend.tau) : "-";
		cells[6] = nz->has_trend ? psprintf("%.3g", nz->trend.p_value) : "-";
		doc_table_row(d, cells);
	}
	doc_table_end(d);
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
			const char *cells[7];

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

/* A row per variant and a column per client count, each cell the HL change against the baseline. */
static void
section_change_grid(const ReportData *r, Doc *d)
{
	const char **hdr = pg_malloc(sizeof(char *) * (r->spec.nclients + 1));
	const char **cells = pg_malloc(sizeof(char *) * (r->spec.nclients + 1));

	doc_heading(d, 2, "% change vs baseline");
	doc_para(d, "The change of tps against %s, as in the verdicts; \"~\" marks no significant "
			 "change (or the same within the noise), \"*\" a change whose direction the CI settles "
			 "but not that it exceeds the noise threshold, \"?\" too few runs or no decision.",
			 report_variant_name(r, r->baseline));
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
				const StatsComparison *cmp = cell ? report_cell_answer(r, cell) : NULL;
				ReportClass k = cell ? cell->klass : REPORT_INSUFFICIENT;

				if (cmp == NULL || !cmp->has_estimate)
					cells[c + 1] = "-";
				else
					cells[c + 1] = psprintf("%s%s", report_pct(cmp->estimate),
											k == REPORT_NO_CHANGE || k == REPORT_SAME ? " ~" :
											k == REPORT_LEANS_FASTER || k == REPORT_LEANS_SLOWER ? " *" :
											k == REPORT_INSUFFICIENT || k == REPORT_UNDECIDED ? " ?" : "");
			}
			doc_table_row(d, cells);
		}
		doc_table_end(d);
	}
}

/* Is plots[i] one of the rounds plots (tps_rounds.svg, tps_rounds_2.svg, ...)? */
static bool
is_rounds_plot(const char *path)
{
	const char *base = strrchr(path, '/');

	return strncmp(base ? base + 1 : path, "tps_rounds", 10) == 0;
}

/*
 * The answer first — the forest plot, the verdict table, the warnings, the
 * experiment as it ran — then every detail in a section of its own,
 * collapsed in the HTML.
 */
void
report_write_doc(const ReportData *r, Doc *d, const char *forest, const char *plots_note,
				 char **plots, char **titles, int nplots)
{
	bool		any_rounds = false;

	doc_begin(d, psprintf("pgbench_ext report: %s", r->dir));
	if (r->ncells > 0)
		doc_svg(d, forest, "Each comparison's B/A with its CI, coloured and marked by its verdict");
	section_verdicts(r, d);
	for (int i = 0; i < nplots; i++)
		if (is_rounds_plot(plots[i]))
		{
			if (!any_rounds)
				doc_heading(d, 2, "The experiment as it ran");
			any_rounds = true;
			doc_svg(d, plots[i], titles[i]);
		}
	doc_collapse_sections(d);
	report_metrics_section(r, d);
	section_experiment(r, d);
	report_sequential_section(r, d);
	section_all_rounds(r, d);
	report_probe_section(r, d);
	report_layout_section(r, d);
	section_levels(r, d);
	profile_write_sections(r, d);
	profile_write_counted_view(r, d);
	section_noise(r, d);
	section_change_grid(r, d);
	section_per_run(r, d);
	doc_heading(d, 2, "Plots");
	if (nplots == 0)
		doc_para(d, "No plots: %s", plots_note ? plots_note : "nothing to plot");
	for (int i = 0; i < nplots; i++)
		if (!is_rounds_plot(plots[i]))
			doc_svg(d, plots[i], titles[i]);
	doc_end(d);
}
