/*-------------------------------------------------------------------------
 *
 * report_answer.c
 *		The one answer of each comparison: its figures, the kind of answer
 *		it is and its verdict's text, stored in each cell; and the geometric
 *		means of the answers' ratios.
 *
 * A comparison has one estimate, one CI and one verdict: the ones the
 * experiment's design decided.  With a fixed number of rounds that is the
 * comparison of all rounds; under rounds = auto it is the cell's deciding
 * look (or its last look when none decided), at that look's level.  Every
 * table, plot and export takes its figures from the cell's answer and
 * verdict (report_cell_answer(), report_cell_verdict()), so that no two
 * places of a report can give two numbers for one question; the other view
 * of the same data (all rounds as if their number had been fixed) is shown
 * only in the details, under that name.
 *
 * In report.h's map: the analysis stage.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"

static const StatsComparison *
cell_answer(const ReportData *r, const ReportCell *c)
{
	if (r->sequential)
		return c->has_look ? &c->look.cmp : NULL;
	return c->has_comparison ? &c->cmp : NULL;
}

static ReportClass
cell_class(const ReportData *r, const ReportCell *c)
{
	if (r->sequential)
	{
		switch (report_look_decision(c))
		{
			case STATS_DECIDED_FASTER:
				return REPORT_FASTER;
			case STATS_DECIDED_SLOWER:
				return REPORT_SLOWER;
			case STATS_DECIDED_SAME:
				return REPORT_SAME;
			case STATS_UNDECIDED:
				break;
		}
		return REPORT_UNDECIDED;
	}
	if (!c->has_comparison)
		return REPORT_INSUFFICIENT;
	switch (c->cmp.verdict)
	{
		case STATS_FASTER:
			return REPORT_FASTER;
		case STATS_SLOWER:
			return REPORT_SLOWER;
		case STATS_FASTER_WITHIN:
		case STATS_FASTER_UNSETTLED:
			return REPORT_LEANS_FASTER;
		case STATS_SLOWER_WITHIN:
		case STATS_SLOWER_UNSETTLED:
			return REPORT_LEANS_SLOWER;
		case STATS_NO_CHANGE:
			return REPORT_NO_CHANGE;
		case STATS_INSUFFICIENT:
			break;
	}
	return REPORT_INSUFFICIENT;
}

/*
 * The cell's decision: under rounds = auto its deciding look's (none for a
 * cell started once), else its comparison's at the noise threshold
 * (stats_comparison_decision()).
 */
static StatsDecision
cell_outcome(const ReportData *r, const ReportCell *c)
{
	if (r->sequential)
		return report_started_once(r, c) ? STATS_UNDECIDED : report_look_decision(c);
	return c->has_comparison ? stats_comparison_decision(&c->cmp, r->opt.noise) : STATS_UNDECIDED;
}

/* "faster", "~ no change (MDE 3.1%)", "same within ±1%", "undecided", "not compared", ... */
static char *
cell_verdict(const ReportData *r, const ReportCell *c)
{
	if (r->sequential)
		return report_decision_text(r, c);
	/* none: no runs on a side, or tps under valgrind (a counted profile) */
	return c->has_comparison ? report_verdict_text(&c->cmp) : pg_strdup("not compared");
}

/*
 * Each cell's answer, its class and its verdict's text, with the texts of
 * its looks: last, since what comes after the looks may still withdraw a
 * comparison (tps under valgrind, profile_report.c).
 */
void
report_cell_answers(ReportData *r)
{
	for (int i = 0; i < r->ncells; i++)
	{
		ReportCell *c = &r->cells[i];

		report_look_texts(r, c);
		c->answer = cell_answer(r, c);
		c->klass = cell_class(r, c);
		c->outcome = cell_outcome(r, c);
		c->verdict = cell_verdict(r, c);
	}
}

/*
 * Per variant, the geometric mean over its cells of the answers' ratios;
 * after the looks, since under rounds = auto they are the answers.
 */
void
report_answer_geomeans(ReportData *r)
{
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		double	   *ratios = pg_malloc(sizeof(double) * (r->ncells + 1));
		int			n = 0;

		for (int i = 0; i < r->ncells; i++)
		{
			const StatsComparison *cmp = cell_answer(r, &r->cells[i]);

			if (r->cells[i].variant == v && cmp != NULL && cmp->has_estimate)
				ratios[n++] = cmp->estimate;
		}
		if (v == r->baseline)
			r->geomean_ratio[v] = 1.0;
		else if (n == 0)
			r->has_geomean[v] = false;
		else
			stats_geomean(ratios, n, &r->geomean_ratio[v]);
		pfree(ratios);
	}
}
