/*-------------------------------------------------------------------------
 *
 * report_table.c
 *		The verdict table printed at the end of a run and by "report":
 *		one row per (script, clients, variant against the baseline), a
 *		geomean row, the forest plot in text, the declared differences no
 *		key names (the release), the warnings, then the probe's and the
 *		layouts' figures, and a counted profile's.
 *
 * It stays within a screen on purpose: the verdicts, their forest plot,
 * one line for each warning.  How the figures were made, the noise of
 * each variant and by level, the designs and a sampled profile's tables
 * come with --verbose; the per-run figures, the counters and the plots are
 * in report.md and report.html.
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "table.h"
#include "profile_report_write.h"
#include "report.h"

#include <math.h>

static char *
sd_text(const StatsComponents *k, StatsLevel level)
{
	if (!k->has[level])
		return "-";
	return psprintf("%.2f%%%s", 100 * sqrt(k->variance[level]), k->truncated[level] ? "*" : "");
}

/*
 * The components of a cell in one line: the sd of log tps at each level,
 * each side's and on the ratio, "-" for a level the data do not vary.
 */
static char *
components_text(const ReportData *r, const ReportCell *c)
{
	char	   *text = pg_strdup("");

	for (int l = STATS_LEVEL_BUILD; l < STATS_N_LEVELS; l++)
	{
		const StatsComponents *k[3] = {&c->run_a, &c->run_b, &c->ratio};

		if (!k[0]->has[l] && !k[1]->has[l] && (l == STATS_LEVEL_SECOND || !k[2]->has[l]))
			continue;
		text = psprintf("%s%s%s %s/%s", text, text[0] ? ", " : "", stats_level_name(l),
						sd_text(k[0], l), sd_text(k[1], l));
		if (l != STATS_LEVEL_SECOND)
			text = psprintf("%s (ratio %s)", text, sd_text(k[2], l));
	}
	return text;
}

/*
 * Under the table, for every cell: where its noise lives (sd of log tps
 * by level, each side and on the ratio) and the cheapest design that
 * would see the design effect.
 */
static void
print_levels(const ReportData *r, FILE *out)
{
	bool		any = false;

	for (int i = 0; i < r->ncells; i++)
		any |= r->cells[i].has_components;
	if (any)
		fprintf(out, "levels: the sd of log tps between builds (build seeds), instances (server starts), rounds and a run's seconds; "
				"ratio: of the paired rounds' log ratios; *: estimated below 0, shown as 0\n");
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		char	   *where = report_cell_title(c);

		if (c->has_components)
			fprintf(out, "levels: %s: sd of log tps %s/%s: %s\n", where, c->base_name, c->name,
					components_text(r, c));
		if (c->has_design)
			fprintf(out, "design: %s: %s\n", where, c->design.reason);
	}
}

/*
 * Under rounds = auto: why the experiment stopped, and for each cell left
 * undecided the design that would likely decide it.
 */
static void
print_sequential(const ReportData *r, FILE *out)
{
	fprintf(out, "rounds = auto: B/A, CI and p of each cell's deciding (or last) look, at that look's level; %s after %d block%s of %d rounds",
			r->stop_why, r->blocks_done, r->blocks_done == 1 ? "" : "s", r->budget.block_rounds);
	if (!isnan(r->spent_s) && r->spent_s > 0)
		fprintf(out, ", %.0f s of a budget of %d s", r->spent_s, r->budget.budget_s);
	fprintf(out, "\n");
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];

		if (report_look_decision(c) != STATS_UNDECIDED)
			continue;
		fprintf(out, "undecided: %s: %s; to decide: %s\n", report_cell_title(c),
				report_look_text(r, c),
				c->has_design ? c->design.reason : "no design could be planned from these runs");
	}
}

/* The verdict table's rows: one per comparison, then the geomeans. */
static void
add_rows(const ReportData *r, TextTable *t, int nh, bool many)
{
	const char *cells[13];

	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		int			k = 0;

		cells[k++] = c->script;
		cells[k++] = psprintf("%d", c->clients);
		if (many)
			cells[k++] = c->name;
		cells[k++] = report_median_pm(c->a);
		cells[k++] = report_median_pm(c->b);
		report_comparison_cells(report_cell_answer(r, c), report_cell_answer(r, c) != NULL, &cells[k]);
		k += 4;
		cells[k++] = report_cell_verdict(r, c);
		if (r->sequential)
			cells[k++] = c->look_stopped;
		table_add_row(t, cells);
	}
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		int			k = 0;

		if (v == r->baseline || (!many && v != r->cells[0].variant))
			continue;
		cells[k++] = "geomean";
		cells[k++] = "";
		if (many)
			cells[k++] = report_variant_name(r, v);
		cells[k++] = r->has_geomean[report_baseline_of(r, v)]
			? psprintf("%.1f", r->geomean_tps[report_baseline_of(r, v)]) : "-";
		cells[k++] = r->has_geomean[v] ? psprintf("%.1f", r->geomean_tps[v]) : "-";
		cells[k++] = r->has_geomean[v] ? report_pct(r->geomean_ratio[v]) : "-";
		while (k < nh)
			cells[k++] = "";
		table_add_row(t, cells);
	}
}

/* What only --verbose prints: how the figures were made, where the noise lives. */
static void
print_details(const ReportData *r, FILE *out)
{
	fprintf(out, "tps: median ±CI half-width at %.0f%%; B/A and its CI at %.0f%%, by what n counts:\n"
			"n instance/seed pairs: the mean per-round log ratio of each pair, t test across pairs;\n"
			"n rounds: Hodges-Lehmann of per-round ratios, p Wilcoxon signed-rank; n a+b: of all runs, p Mann-Whitney U\n",
			100 * (1 - r->opt.alpha), 100 * (1 - r->opt.alpha));
	if (r->sequential)
		fprintf(out, "plan: %s\n", r->budget.why);
	print_levels(r, out);
	fprintf(out, "noise:");
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		const ReportNoise *nz = &r->noise[v];

		fprintf(out, "%s %s", v ? ";" : "", report_variant_name(r, v));
		if (nz->has_cv)
			fprintf(out, " CV %.1f%%", 100 * nz->cv_median);
		fprintf(out, ", %d outlier%s", nz->outliers, nz->outliers == 1 ? "" : "s");
		if (nz->has_trend)
			fprintf(out, ", drift %+.1f%% over %d %s, tau %+.2f (p %.2g)", 100 * nz->drift.change,
					nz->drift.units, nz->drift_by_start ? "server starts" : "runs",
					nz->trend.tau, nz->trend.p_value);
	}
	fprintf(out, "\n");
}

/*
 * The table, its forest plot and what a reader must know at once (why a
 * cell is insufficient or undecided, declared differences, warnings, the
 * probe's, the layouts' and a counted profile's verdicts); with verbose
 * how the figures were made, where the noise lives and a sampled profile.
 */
void
report_print_table(const ReportData *r, FILE *out, bool verbose)
{
	bool		many = r->spec.nvariants > 2;
	const char *base = report_variant_name(r, r->baseline);
	/* seeded builds are compared with the baseline's build of their seed */
	char	   *hdr_a = report_has_seed_baselines(r) ? "baseline tps" : psprintf("%s tps", base);
	const char *headers[13];
	int			nh = 0;
	TextTable  *t;
	bool		insufficient = false;

	headers[nh++] = "script";
	headers[nh++] = "clients";
	if (many)
		headers[nh++] = "variant";
	headers[nh++] = hdr_a;
	headers[nh++] = "tps";
	headers[nh++] = "B/A";
	headers[nh++] = "CI";
	headers[nh++] = "p";
	headers[nh++] = "n";
	headers[nh++] = r->sequential ? "decision" : "verdict";
	if (r->sequential)
		headers[nh++] = "stopped";

	if (r->ncells == 0)
	{
		fprintf(out, "\nno variant to compare with the baseline %s\n", base);
		return;
	}
	headers[nh - (r->sequential ? 7 : 6)] = many ? "tps" : psprintf("%s tps", r->cells[0].name);
	t = table_create(nh, headers);
	add_rows(r, t, nh, many);
	fprintf(out, "\n");
	table_print(t, out);
	table_free(t);
	report_print_forest(r, out);

	for (int i = 0; i < r->ncells; i++)
		insufficient |= !r->sequential && r->cells[i].has_comparison &&
			r->cells[i].cmp.verdict == STATS_INSUFFICIENT;
	if (verbose)
		print_details(r, out);
	if (r->sequential)
		print_sequential(r, out);
	if (insufficient)
		fprintf(out, "insufficient: %s\n", r->cells[0].cmp.verdict == STATS_INSUFFICIENT
				? r->cells[0].cmp.reason : "too few runs in some cells (report.md says why)");
	for (int i = 0; i < r->nseed_lines; i++)
		fprintf(out, "build seeds: %s\n", r->seed_lines[i]);
	for (int i = 0; i < r->ndeclared; i++)
		fprintf(out, "declared: %s\n", r->declared[i]);
	for (int i = 0; i < r->nwarnings; i++)
		fprintf(out, "warning: %s\n", r->warnings[i]);
	/*
	 * The probe's and the layouts' verdicts; the profiles' too when they
	 * are the only ones (a counted profile: tps under valgrind is not
	 * compared), else with verbose.
	 */
	report_probe_print(r, out);
	report_layout_print(r, out);
	if (verbose || r->spec.profile.mode == PROFILE_COUNTED)
		profile_print_summary(r, out);
}
