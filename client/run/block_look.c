/*-------------------------------------------------------------------------
 *
 * block_look.c
 *		rounds = auto, after each block of rounds: every cell looked at
 *		from what the results directory holds so far (the report's load
 *		and analysis), a line per block or per cell, and after the second
 *		block what the noise so far says of the budget.
 *
 * The looks are computed by the report's own analysis from the results
 * on disk, so a resumed experiment and the final report see exactly the
 * looks this made.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "block_look.h"
#include "preflight.h"
#include "report.h"
#include "pqexpbuffer.h"

#include <math.h>

/*
 * After the second block, while undecided: what the noise of its rounds so
 * far says it takes to decide, against the budget, in a line per cell, so
 * that a budget too small for this host is said while most of it is left,
 * on a host with no noise history as on one with (the pre-flight's
 * estimate comes from that history).  The design is the one the report
 * prints at the end ("to decide: ..."), from the data seen so far, which
 * plans with the noise's upper bound; on a few instance pairs that bound
 * is far above the estimate, so the budget is said to be unable to see it
 * only where even the design at the noise's lower bound takes more
 * (report_cell_design_low()), the words of the pilot's judgement
 * (preflight.c).  It speaks of the effect the design is for, not of the
 * verdict to come: a change far smaller than that one, as in an A/A, can
 * still end "same" in the budget.
 */
static void
print_forecast(ReportData *r, const BudgetPlan *b, int rounds)
{
	report_measure_costs(r);
	for (int i = 0; i < r->ncells; i++)
	{
		ReportCell *c = &r->cells[i];
		StatsDesign low;
		double		least_s;
		BudgetWord	word;
		const char *why = "";

		if (report_look_decision(c) != STATS_UNDECIDED)
			continue;
		report_cell_levels(r, c);
		if (!c->has_design)
			continue;
		/* with no design at the lower bounds, nothing says the low end cannot */
		least_s = !report_cell_design_low(r, c, &low) ? 0 : low.found ? low.seconds : NAN;
		word = preflight_budget_word(least_s, c->design.found ? c->design.seconds : NAN,
									 b->budget_s);
		if (word == BUDGET_CANNOT)
			why = ", even at the low end of that noise";
		else if (word == BUDGET_MAY_NOT && least_s > 0)
			why = psprintf(" (at the low end of that noise it takes %s)", format_duration(least_s));
		fprintf(stderr, "rounds = auto: %s: at the noise of its first %d rounds, %s; the budget of %s %s see %g%% with the design's power%s\n",
				report_cell_title(c), rounds, c->design.reason, format_duration(b->budget_s),
				preflight_budget_word_name(word), 100 * r->design_effect, why);
	}
}

/*
 * Every cell looked at after block "block", with a line per cell when
 * print (and after the second, print_forecast()'s); *stop when every cell
 * is decided or the budget has no room for another block.
 */
bool
block_look(const char *dir, const BudgetPlan *b, int block, double spent, bool print,
				 bool *stop, char **error)
{
	ReportData *r = report_load_cells(dir, NULL, error);
	char	   *header;

	if (r == NULL)
		return false;
	*stop = r->all_decided || budget_spent(b, block, spent);
	header = psprintf("block %d of at most %d (%d rounds, %.0f of %d s)",
					  block, b->max_blocks, block * b->block_rounds, spent, b->budget_s);
	/* a line per cell with --verbose; else one per block, each cell in a word */
	if (print && !report_verbose)
	{
		PQExpBufferData line;

		initPQExpBuffer(&line);
		for (int i = 0; i < r->ncells; i++)
			appendPQExpBuffer(&line, "%s%s: %s", i ? "; " : "", report_cell_title(&r->cells[i]),
							  report_decision_text(r, &r->cells[i]));
		fprintf(stderr, "%s: %s\n", header, escape_text(line.data, ESCAPE_TERMINAL));
		termPQExpBuffer(&line);
	}
	for (int i = 0; print && report_verbose && i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];

		fprintf(stderr, "%s: %s: %s%s\n", header,
				escape_text(report_cell_title(c), ESCAPE_TERMINAL), report_look_text(r, c),
				report_look_decision(c) != STATS_UNDECIDED
				? psprintf(" (decided at look %d)", c->look.look) : "");
	}
	if (print && !*stop && block == 2)
		print_forecast(r, b, block * b->block_rounds);
	if (print && *stop)
		fprintf(stderr, "rounds = auto: %s after %d block%s\n",
				r->all_decided ? "every cell decided" : "budget spent", block,
				block == 1 ? "" : "s");
	return true;
}
