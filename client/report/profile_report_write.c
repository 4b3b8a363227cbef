/*-------------------------------------------------------------------------
 *
 * profile_report_write.c
 *		The profiles in the outputs: the metrics under the terminal's
 *		verdict table, the sections of report.md and report.html, their part
 *		of summary.json, and the folded stacks and flame graphs of each cell;
 *		with counted_view = on, its counted experiment's table, sections and
 *		part of summary.json (its files are its own report's).
 *
 * A writer: every comparison, median, verdict and function row is the one
 * profile_report.c computed into r->profile.
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "counted_view_spec.h"
#include "table.h"
#include "profile.h"
#include "profile_report.h"
#include "profile_report_write.h"
#include "profile_spec.h"
#include "profile_flame.h"
#include "safe_file.h"

#include <math.h>

#define TOP_CHANGES 5			/* function changes under the verdict table */
#define TABLE_FUNCTIONS 30		/* rows of the function table in the reports */

/* "instructions/tx: an A/A of this design ±0.020% (10 rounds), MDE 0.06%" */
static char *
spread_text(const ProfileMetricRow *row)
{
	return psprintf("%s: an A/A of this design would read within ±%.3f%% (95%% CI half-width from the "
					"variation of its %d paired rounds), MDE %s; verdict threshold ±%g%%",
					row->label, row->spread_pct, row->spread_rounds,
					isnan(row->spread_mde_pct) ? "beyond reach of so few rounds"
					: psprintf("%.3f%%", row->spread_mde_pct), 100 * row->noise);
}

static char *
fmt_cost(double v)
{
	double		a = fabs(v);

	if (isnan(v))
		return "-";
	if (a >= 100)
		return psprintf("%.0f", v);
	if (a >= 1)
		return psprintf("%.1f", v);
	return psprintf("%.3g", v);
}

static char *
fmt_signed(double v)
{
	return psprintf("%s%s", v >= 0 ? "+" : "", fmt_cost(v));
}

/* "(+172% [+171%, +173%], q 0.0039)": a function's change, relative */
static char *
change_figures(const ProfileFunctionRow *f)
{
	return psprintf("(%s [%s, %s], q %.2g)",
					f->cmp.has_estimate ? report_pct(f->cmp.estimate) : "-",
					f->cmp.has_ci ? report_pct(f->cmp.ci_low) : "-",
					f->cmp.has_ci ? report_pct(f->cmp.ci_high) : "-", f->q);
}

static char *
too_few_rounds(const CellProfile *cp)
{
	if (cp->rounds_needed == 0)
		return "";
	return psprintf("; with so few runs not even one function could reach q < alpha among %d: "
					"make at least %d rounds", cp->nfuncs, cp->rounds_needed);
}

static const char *
captures_note(ProfileMode mode)
{
	return mode == PROFILE_COUNTED
		? "Counted under valgrind (callgrind): the backends' user-space instructions per transaction, "
		"each connection's after its warm-up; with cache_sim, misses of callgrind's simulated caches. "
		"Not seen: the kernel, I/O and lock waits, real cache contention between cores, and time itself "
		"(reading the client's socket and flushing statistics are left out); "
		"the tps of these runs is not a measure of speed and is not compared."
		: "Sampled by perf during the runs: user-space CPU per transaction of the server's processes "
		"(samples times their period, divided by the run's transactions). Not seen: the kernel, "
		"time spent waiting (I/O, locks, the network), and code below the sampling rate.";
}

/* The 11 cells of a metric's row, as the terminal and the reports print it. */
static void
metric_cells(const ReportData *r, const ReportCell *c, const ProfileMetricRow *row, const char **cells)
{
	cells[0] = c->script;
	cells[1] = psprintf("%d", c->clients);
	cells[2] = report_variant_name(r, c->variant);
	cells[3] = row->label;
	cells[4] = row->has_median_a ? fmt_cost(row->median_a) : "-";
	cells[5] = row->has_median_b ? fmt_cost(row->median_b) : "-";
	report_comparison_cells(&row->cmp, row->has, &cells[6]);
	cells[10] = row->verdict;
}

/* A profile's table and function changes under a heading already printed */
static void
print_profile(const ReportData *r, FILE *out)
{
	const ProfileReport *pr = r->profile;
	const char *headers[] = {"script", "clients", "variant", "metric", "A", "B", "B/A", "CI", "p", "n", "verdict"};
	TextTable  *t;

	t = table_create(lengthof(headers), headers);
	for (int i = 0; i < r->ncells; i++)
		for (int m = 0; m < pr->cells[i].nmetrics; m++)
		{
			const char *cells[lengthof(headers)];

			metric_cells(r, &r->cells[i], &pr->cells[i].metrics[m], cells);
			table_add_row(t, cells);
		}
	table_print(t, out);
	table_free(t);
	for (int i = 0; i < r->ncells; i++)
		for (int m = 0; m < pr->cells[i].nmetrics; m++)
			if (pr->cells[i].metrics[m].has_spread)
				fprintf(out, "%s, %s\n", report_cell_title(&r->cells[i]), spread_text(&pr->cells[i].metrics[m]));
	for (int i = 0; i < r->ncells; i++)
	{
		const CellProfile *cp = &pr->cells[i];

		fprintf(out, "function changes, %s (%s, q < %g beyond ±%g%%):", report_cell_title(&r->cells[i]),
				pr->unit, r->opt.alpha, 100 * r->opt.noise);
		if (!cp->has_total)
		{
			fprintf(out, " no profiled runs\n");
			continue;
		}
		if (cp->nchanged == 0)
			fprintf(out, " none of %d functions compared%s\n", cp->nfuncs, too_few_rounds(cp));
		else
		{
			fprintf(out, "\n");
			for (int f = 0; f < cp->nfuncs && f < TOP_CHANGES && cp->funcs[f].changed; f++)
				fprintf(out, "  %s %s %s\n", cp->funcs[f].name,
						fmt_signed(cp->funcs[f].b_median - cp->funcs[f].a_median),
						change_figures(&cp->funcs[f]));
			fprintf(out, "  of %s %s per transaction in total; %d of %d functions compared changed\n",
					fmt_signed(cp->b_total - cp->a_total), pr->unit, cp->nchanged, cp->nfuncs);
		}
	}
}

void
profile_print_summary(const ReportData *r, FILE *out)
{
	const ProfileReport *pr = r->profile;

	if (pr == NULL || r->ncells == 0)
		return;
	fprintf(out, "\n%s profile (%s): %s\n", profile_mode_name(pr->mode),
			pr->mode == PROFILE_COUNTED ? "tps above is under valgrind and not compared" : "runs as above",
			pr->unit_long);
	print_profile(r, out);
}

/* "counted/: the same variants under valgrind, 1 client, 1000 transactions a run, 10 rounds" */
static char *
counted_view_design(const ReportData *cv)
{
	return psprintf("%s/: the same variants under valgrind, 1 client, %d transactions a run, %d rounds",
					COUNTED_VIEW_DIR, cv->spec.transactions, cv->spec.rounds);
}

/* counted_view = on: its counted experiment under the verdict table */
void
profile_print_counted_view(const ReportData *r, FILE *out)
{
	const ReportData *cv = r->counted_view;

	if (!r->spec.profile.counted_view)
		return;
	if (cv == NULL || cv->profile == NULL || cv->ncells == 0)
	{
		fprintf(out, "\ncounted view: %s\n", r->counted_view_note ? r->counted_view_note : "no counted runs");
		return;
	}
	fprintf(out, "\ncounted view (%s): %s\n", counted_view_design(cv), cv->profile->unit_long);
	print_profile(cv, out);
}

static void write_profile_sections(const ReportData *r, Doc *d);

void
profile_write_sections(const ReportData *r, Doc *d)
{
	const ProfileReport *pr = r->profile;

	if (pr == NULL)
		return;
	doc_heading(d, 2, psprintf("%s profile", pr->mode == PROFILE_COUNTED ? "Counted" : "Sampled"));
	write_profile_sections(r, d);
}

/* counted_view = on: its counted experiment's sections */
void
profile_write_counted_view(const ReportData *r, Doc *d)
{
	const ReportData *cv = r->counted_view;

	if (!r->spec.profile.counted_view)
		return;
	doc_heading(d, 2, "Counted view");
	if (cv == NULL || cv->profile == NULL || cv->ncells == 0)
	{
		doc_para(d, "%s.", r->counted_view_note ? r->counted_view_note : "No counted runs");
		return;
	}
	doc_para(d, "After the timed runs, %s (counted_view = on): instructions per transaction, "
			 "which say whether and where the work changed, beside tps, which says what it costs "
			 "on this machine. Its own report, with the flame graphs: %s/report.html.",
			 counted_view_design(cv), COUNTED_VIEW_DIR);
	write_profile_sections(cv, d);
}

/* A profile's sections under a heading already written */
static void
write_profile_sections(const ReportData *r, Doc *d)
{
	const ProfileReport *pr = r->profile;
	static const char *const mhdr[] = {"script", "clients", "variant", "metric", "A (median)",
	"B (median)", "B/A", "CI", "p", "n", "verdict", "why"};
	static const char *const fhdr[] = {"function", "object", "A self", "B self", "change",
	"B/A", "CI", "p", "q", "changed", "A inclusive", "B inclusive"};

	doc_para(d, "%s", captures_note(pr->mode));
	doc_para(d, "Each metric is compared with the same statistics as tps (B/A of costs: above 1 is more). "
			 "Functions whose self cost is at least %.0f%% of a side's total are compared one by one; "
			 "q is the Benjamini-Hochberg false discovery rate over the functions of a comparison, and a "
			 "function has changed when q < %g and its whole CI lies beyond ±%g%%. Self costs add up to "
			 "the total; inclusive ones (what a function and its callees cost) do not, and are shown only.",
			 100 * PROFILE_MIN_SHARE, r->opt.alpha, 100 * r->opt.noise);
	doc_table_begin(d, lengthof(mhdr), mhdr);
	for (int i = 0; i < r->ncells; i++)
		for (int m = 0; m < pr->cells[i].nmetrics; m++)
		{
			const ProfileMetricRow *row = &pr->cells[i].metrics[m];
			const char *cells[lengthof(mhdr)];

			metric_cells(r, &r->cells[i], row, cells);
			cells[11] = row->has ? row->cmp.reason : "";
			doc_table_row(d, cells);
		}
	doc_table_end(d);
	for (int i = 0; i < r->ncells; i++)
		for (int m = 0; m < pr->cells[i].nmetrics; m++)
			if (pr->cells[i].metrics[m].has_spread)
				doc_para(d, "%s, %s.", report_cell_title(&r->cells[i]), spread_text(&pr->cells[i].metrics[m]));

	for (int i = 0; i < r->ncells; i++)
	{
		const CellProfile *cp = &pr->cells[i];

		doc_heading(d, 3, psprintf("Functions, %s", report_cell_title(&r->cells[i])));
		if (!cp->has_total)
		{
			doc_para(d, "No profiled runs on both sides.");
			continue;
		}
		if (cp->nchanged == 0)
			doc_para(d, "No function changed: %d compared, %s %s per transaction in total%s.",
					 cp->nfuncs, fmt_signed(cp->b_total - cp->a_total), pr->unit, too_few_rounds(cp));
		else
			for (int f = 0; f < cp->nfuncs && cp->funcs[f].changed; f++)
				doc_para(d, "%s %s of %s %s per transaction %s", cp->funcs[f].name,
						 fmt_signed(cp->funcs[f].b_median - cp->funcs[f].a_median),
						 fmt_signed(cp->b_total - cp->a_total), pr->unit,
						 change_figures(&cp->funcs[f]));
		doc_table_begin(d, lengthof(fhdr), fhdr);
		for (int f = 0; f < cp->nfuncs && f < TABLE_FUNCTIONS; f++)
		{
			const ProfileFunctionRow *row = &cp->funcs[f];
			const char *cells[lengthof(fhdr)];

			cells[0] = row->name;
			cells[1] = row->object;
			cells[2] = fmt_cost(row->a_median);
			cells[3] = fmt_cost(row->b_median);
			cells[4] = fmt_signed(row->b_median - row->a_median);
			cells[5] = row->has && row->cmp.has_estimate ? report_pct(row->cmp.estimate) : "-";
			cells[6] = row->has && row->cmp.has_ci
				? psprintf("[%s, %s]", report_pct(row->cmp.ci_low), report_pct(row->cmp.ci_high)) : "-";
			cells[7] = row->has && row->cmp.has_p ? psprintf("%.3g", row->cmp.p_value) : "-";
			cells[8] = psprintf("%.3g", row->q);
			cells[9] = row->changed ? (row->cmp.estimate > 1 ? "more" : "less") : "";
			cells[10] = fmt_cost(row->a_incl);
			cells[11] = fmt_cost(row->b_incl);
			doc_table_row(d, cells);
		}
		doc_table_end(d);
		if (cp->nfuncs > TABLE_FUNCTIONS)
			doc_para(d, "%d more functions compared, none of them changed; all are in summary.json.",
					 cp->nfuncs - TABLE_FUNCTIONS);
		if (cp->flame)
			doc_svg(d, cp->flame,
					psprintf("Differential flame graph, %s: width is %s's %s, colour the change against %s "
							 "(red more, blue less). Folded stacks per variant: profiles/.",
							 report_cell_title(&r->cells[i]), report_variant_name(r, r->cells[i].variant),
							 pr->unit_long, r->cells[i].base_name));
	}
}

/* ---- summary.json ---- */

static json_t *
comparison_figures(const StatsComparison *x, bool ok)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:i, s:s}",
					 "estimate", report_json_num(ok && x->has_estimate, x->estimate),
					 "ci_low", report_json_num(ok && x->has_ci, x->ci_low),
					 "ci_high", report_json_num(ok && x->has_ci, x->ci_high),
					 "p_value", report_json_num(ok && x->has_p, x->p_value),
					 "n_pairs", ok ? x->n_pairs : 0,
					 "verdict", ok ? profile_cost_verdict_name(x->verdict) : "insufficient");
}

json_t *
profile_summary_json(const ReportData *r)
{
	const ProfileReport *pr = r->profile;
	json_t	   *cells = json_array();

	if (pr == NULL)
		return NULL;
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		const CellProfile *cp = &pr->cells[i];
		json_t	   *metrics = json_array();
		json_t	   *funcs = json_array();

		for (int m = 0; m < cp->nmetrics; m++)
		{
			const ProfileMetricRow *row = &cp->metrics[m];
			json_t	   *j = comparison_figures(&row->cmp, row->has);
			double		ma = row->has_median_a ? row->median_a : 0,
						mb = row->has_median_b ? row->median_b : 0;
			bool		ha = row->has_median_a,
						hb = row->has_median_b;

			json_object_set_new(j, "metric", json_string(row->label));
			json_object_set_new(j, "noise", json_real(row->noise));
			json_object_set_new(j, "verdict_text", json_string(row->verdict));
			json_object_set_new(j, "decision", json_string(report_decision_word(row->decision)));
			if (row->has_spread)
			{
				json_object_set_new(j, "aa_spread_pct", json_real(row->spread_pct));
				json_object_set_new(j, "aa_mde_pct", report_json_num(!isnan(row->spread_mde_pct), row->spread_mde_pct));
				json_object_set_new(j, "aa_rounds", json_integer(row->spread_rounds));
			}
			json_object_set_new(j, "a_median", report_json_num(ha, ma));
			json_object_set_new(j, "b_median", report_json_num(hb, mb));
			json_array_append_new(metrics, j);
		}
		for (int f = 0; f < cp->nfuncs; f++)
		{
			const ProfileFunctionRow *row = &cp->funcs[f];
			json_t	   *j = comparison_figures(&row->cmp, row->has);

			json_object_set_new(j, "function", json_string(row->name));
			json_object_set_new(j, "object", json_string(row->object));
			json_object_set_new(j, "a_median", json_real(row->a_median));
			json_object_set_new(j, "b_median", json_real(row->b_median));
			json_object_set_new(j, "change", json_real(row->b_median - row->a_median));
			json_object_set_new(j, "q_value", json_real(row->q));
			json_object_set_new(j, "changed", json_boolean(row->changed));
			json_array_append_new(funcs, j);
		}
		json_array_append_new(cells,
							  json_pack("{s:s, s:i, s:s, s:s, s:o, s:o, s:o, s:i, s:o}",
										"script", c->script, "clients", c->clients,
										"baseline", c->base_name,
										"variant", report_variant_name(r, c->variant),
										"a_total", report_json_num(cp->has_total, cp->a_total),
										"b_total", report_json_num(cp->has_total, cp->b_total),
										"metrics", metrics, "changed", cp->nchanged,
										"functions", funcs));
	}
	return json_pack("{s:s, s:s, s:f, s:o}", "mode", profile_mode_name(pr->mode),
					 "unit", pr->unit_long, "min_share", PROFILE_MIN_SHARE, "cells", cells);
}

/* counted_view = on: where its counted experiment is and what it found */
json_t *
profile_counted_view_json(const ReportData *r)
{
	const ReportData *cv = r->counted_view;

	if (!r->spec.profile.counted_view)
		return NULL;
	if (cv == NULL || cv->profile == NULL)
		return json_pack("{s:s, s:s}", "dir", COUNTED_VIEW_DIR,
						 "note", r->counted_view_note ? r->counted_view_note : "no counted runs");
	return json_pack("{s:s, s:i, s:i, s:o}", "dir", COUNTED_VIEW_DIR,
					 "transactions", cv->spec.transactions, "rounds", cv->spec.rounds,
					 "profiles", profile_summary_json(cv));
}

/* ---- files: folded stacks and flame graphs ---- */

/* A name safe in a file name: what variant names allow, the rest '_'. */
static char *
file_part(const char *s)
{
	char	   *out = pg_strdup(s);

	for (char *p = out; *p; p++)
		if (!isalnum((unsigned char) *p) && *p != '-' && *p != '.' && *p != '@')
			*p = '_';
	return out;
}

/*
 * Folded stacks, "frame;frame;frame COUNT" per line, COUNT in thousandths
 * of the unit per transaction (folded-stack readers want whole numbers).
 */
static bool
write_folded(const char *path, const Prof *stacks, char **error)
{
	FILE	   *f = safe_fopen_write(path, false, error);

	if (f == NULL)
		return false;
	for (int s = 0; s < stacks->nstacks; s++)
	{
		long long	count = llround(stacks->stacks[s].value * 1000);

		if (count > 0)
			fprintf(f, "%s %lld\n", stacks->stacks[s].frames, count);
	}
	return safe_fclose(f, error);
}

bool
profile_write_files(const ReportData *r, char **error)
{
	ProfileReport *pr = r->profile;
	char	   *profiles = psprintf("%s/profiles", r->dir);
	char	   *plots = psprintf("%s/plots", r->dir);

	if (pr == NULL)
		return true;
	if (!safe_mkdir(profiles, 0755, 0, error) || !safe_mkdir(plots, 0755, 0, error))
		return false;
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		CellProfile *cp = &pr->cells[i];
		char	   *cell = psprintf("%s.c%d", file_part(c->script), c->clients);
		char	   *flame = psprintf("%s/flame-%d.svg", plots, i + 1);
		FILE	   *f;

		if (!write_folded(psprintf("%s/%s.%s.folded", profiles, c->base_name, cell),
						  &cp->a_stacks, error) ||
			!write_folded(psprintf("%s/%s.%s.folded", profiles, report_variant_name(r, c->variant), cell),
						  &cp->b_stacks, error))
			return false;
		if (cp->b_stacks.nstacks == 0)
			continue;
		if ((f = safe_fopen_write(flame, false, error)) == NULL)
			return false;
		prof_flame_svg(f, cp->a_stacks.stacks, cp->a_stacks.nstacks,
					   cp->b_stacks.stacks, cp->b_stacks.nstacks,
					   psprintf("%s profile, %s", profile_mode_name(pr->mode), report_cell_title(c)),
					   pr->unit_long);
		if (!safe_fclose(f, error))
			return false;
		cp->flame = flame;
	}
	return true;
}
