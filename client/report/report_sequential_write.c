/*-------------------------------------------------------------------------
 *
 * report_sequential_write.c
 *		rounds = auto in the outputs: each cell's looks in summary.json and
 *		the section of report.md and report.html on how they went.
 *
 * A writer: the decisions, the looks and their texts are the ones
 * report_sequential.c computed into the cells.
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"

#include <math.h>

json_t *
report_look_json(const ReportData *r, const ReportCell *c)
{
	if (!r->sequential)
		return json_null();
	return json_pack("{s:s, s:b, s:i, s:i, s:i, s:i, s:o, s:o, s:o, s:s, s:o, s:s}",
					 "decision", stats_decision_name(report_look_decision(c)),
					 "decided", report_look_decision(c) != STATS_UNDECIDED,
					 "look", c->has_look ? c->look.look : 0,
					 "max_looks", r->budget.max_looks,
					 "block", c->has_look ? c->look_block : 0,
					 "rounds", c->has_look ? c->look_rounds : 0,
					 "alpha_look", report_json_num(c->has_look, c->look.alpha_look),
					 "alpha_spent", report_json_num(c->has_look, c->look.alpha_spent),
					 "spent_s", report_json_num(c->has_look && !isnan(c->look_spent_s), c->look_spent_s),
					 "stopped", c->look_stopped,
					 "comparison", report_comparison_json(&c->look.cmp, c->has_look, c->unit),
					 "reason", c->has_look ? c->look.reason : "");
}

/* report.md and report.html: how each cell's looks went. */
void
report_sequential_section(const ReportData *r, Doc *d)
{
	static const char *const hdr[] = {"script", "clients", "variant", "decision",
	"B/A and CI of the deciding (or last) look", "stopped", "to decide"};

	if (!r->sequential)
		return;
	doc_heading(d, 2, "Decisions (rounds = auto)");
	doc_para(d, "Looks after each block of %d rounds, on the unit of each cell's verdict, each at the "
			 "nominal level of its group-sequential boundary, alpha spent over the looks of the plan "
			 "(%s); a cell is decided at its first look whose CI lies %s. %s after %d block%s%s. "
			 "These decisions are the experiment's verdict, in the table at the top; all rounds "
			 "compared at alpha %g as if their number had been fixed are the next section's, not a verdict.",
			 r->budget.block_rounds, r->budget.why,
			 r->spec.reference > 0
			 ? psprintf("wholly above or wholly below the experiment's reference ratio %s (no noise band)",
						report_pct(r->spec.reference))
			 : psprintf("wholly beyond ±%g%% (faster, slower) or wholly inside it (same)", 100 * r->opt.noise),
			 r->stop_why, r->blocks_done, r->blocks_done == 1 ? "" : "s",
			 isnan(r->spent_s) ? "" : psprintf(", %.0f s of a budget of %d s", r->spent_s, r->budget.budget_s),
			 r->opt.alpha);
	doc_table_begin(d, lengthof(hdr), hdr);
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		bool		decided = report_look_decision(c) != STATS_UNDECIDED;
		const char *cells[lengthof(hdr)];

		cells[0] = c->script;
		cells[1] = psprintf("%d", c->clients);
		cells[2] = c->name;
		cells[3] = report_decision_text(r, c);
		cells[4] = report_look_text(r, c);
		cells[5] = c->look_stopped;
		cells[6] = decided ? "" : c->has_design ? c->design.reason : "no design could be planned from these runs";
		doc_table_row(d, cells);
	}
	doc_table_end(d);
}
