/*-------------------------------------------------------------------------
 *
 * report_format.c
 *		The formatting every writer of a report shares: a ratio as a
 *		change, a median and its CI, a comparison's cells, its n and its
 *		verdict as text, and its figures as JSON.
 *
 * Functions of report.h's types alone: they read a computed figure and
 * compute none (report.h's map), so the analysis may use them for the
 * texts it stores, and the writers for what they print.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"
#include "stats.h"

#include <math.h>

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
 * What a comparison's test counted: "6 instance pairs" or "3 build seed
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

/*
 * A verdict in words with its threshold: "faster", "slower, by less than
 * 1%", "slower; beyond 1% not settled", "~ no change (MDE 1.6%)", ...;
 * up and down are the words of the two directions ("faster" and "slower"
 * for tps, "less" and "more" for a cost), decimals those of the MDE.
 */
char *
report_verdict_words(const StatsComparison *cmp, const char *up, const char *down, int decimals)
{
	const char *dir = stats_verdict_direction(cmp->verdict) > 0 ? up : down;

	switch (cmp->verdict)
	{
		case STATS_FASTER:
		case STATS_SLOWER:
			return pg_strdup(dir);
		case STATS_FASTER_WITHIN:
		case STATS_SLOWER_WITHIN:
			return psprintf("%s, by less than %g%%", dir, 100 * cmp->noise);
		case STATS_FASTER_UNSETTLED:
		case STATS_SLOWER_UNSETTLED:
			return psprintf("%s; beyond %g%% not settled", dir, 100 * cmp->noise);
		case STATS_NO_CHANGE:
			if (cmp->has_mde)
				return psprintf("~ no change (MDE %.*f%%)", decimals, cmp->mde_pct);
			break;
		case STATS_INSUFFICIENT:
			break;
	}
	return pg_strdup(stats_verdict_name(cmp->verdict));
}

char *
report_verdict_text(const StatsComparison *cmp)
{
	return report_verdict_words(cmp, "faster", "slower", 1);
}

/*
 * " (B slower by 0.35–0.65%)" when the CI excludes 0, else "": what a
 * decision of the same within the threshold (or an undecided one) still
 * knows of the direction; decimals those of the two ends.
 */
char *
report_direction_range(const StatsComparison *cmp, const char *up, const char *down, int decimals)
{
	int			dir = stats_verdict_direction(cmp->verdict);
	double		lo = fabs(cmp->ci_low - 1.0),
				hi = fabs(cmp->ci_high - 1.0);

	if (dir == 0 || !cmp->has_ci)
		return "";
	if (stats_verdict_within_noise(cmp->verdict) && cmp->verdict != STATS_FASTER_WITHIN &&
		cmp->verdict != STATS_SLOWER_WITHIN)
		return psprintf(" (B %s; beyond %g%% not settled)", dir > 0 ? up : down, 100 * cmp->noise);
	return psprintf(" (B %s by %.*f–%.*f%%)", dir > 0 ? up : down,
					decimals, 100 * fmin(lo, hi), decimals, 100 * fmax(lo, hi));
}

/*
 * A decision as summary.json's "decision" names it: "differs" (faster,
 * slower, or a side of the reference), "same", "undecided".
 */
const char *
report_decision_word(StatsDecision d)
{
	return d == STATS_DECIDED_SAME ? "same" : d == STATS_UNDECIDED ? "undecided" : "differs";
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
