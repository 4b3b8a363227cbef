/*-------------------------------------------------------------------------
 *
 * report_seeds.c
 *		With layout seeds, the report's lines of B@seedK against A@seedK
 *		for every K, each across the unit of the table's verdicts, and a
 *		warning where the seeds disagree about the direction of the change
 *		(every seed against every seed is a row of the table:
 *		report_pooled_seed_cells() in report_levels.c).
 *
 * One build is one sample of code layout: a change of a few percent can
 * come from where the linker happened to put the hot functions.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout_seeds.h"
#include "report.h"

#include <math.h>

/* B@seedK against A@seedK, as the table compares across servers. */
static char *
seed_verdict_line(ReportData *r, int s, int c, int b, int a, double *change)
{
	ReportCell	cell = {0};
	const StatsComparison *cmp = &cell.cmp;
	const char *script = r->spec.scripts[s];
	int			clients = r->spec.clients[c];
	int			baseline = r->baseline;

	cell.script = script;
	cell.clients = clients;
	cell.variant = b;
	cell.name = r->spec.variants[b].name;
	cell.base_name = r->spec.variants[a].name;
	cell.a = report_sample(r, s, c, a);
	cell.b = report_sample(r, s, c, b);
	/* the unit follows the servers of the two seeds compared */
	r->baseline = a;
	report_compare_cell(r, &cell);
	r->baseline = baseline;
	*change = NAN;
	if (!cell.has_comparison)
		return psprintf("%s, %d client%s: %s vs %s: no comparison", script, clients,
						clients == 1 ? "" : "s", cell.name, cell.base_name);
	if (cmp->has_estimate)
		*change = cmp->change_pct;
	return psprintf("%s, %d client%s: %s vs %s: %s%s, %s (%s)", script, clients,
					clients == 1 ? "" : "s", cell.name, cell.base_name,
					cmp->has_estimate ? psprintf("%+.2f%%", cmp->change_pct) : "-",
					cmp->has_ci ? psprintf(" [%+.2f%%, %+.2f%%]", 100 * (cmp->ci_low - 1),
										   100 * (cmp->ci_high - 1)) : "",
					report_verdict_text(cmp), report_comparison_n(cmp));
}

/*
 * With layout seeds: the verdict of B@seedK against A@seedK for every K,
 * as lines after the table (every seed against every seed, across seed
 * pairs, is a row of the table: report_pooled_seed_cells()), and a
 * warning where the seeds disagree in sign.  Nothing without seeds.
 */
void
layout_seed_verdicts(ReportData *r)
{
	char	   *pooled[MAX_VARIANTS];
	int			npooled = layout_seed_pooled(&r->spec, pooled);

	if (npooled == 0)
		return;
	for (int s = 0; s < r->spec.nscripts; s++)
		for (int c = 0; c < r->spec.nclients; c++)
		{
			double		change[MAX_VARIANTS];

			for (int v = 1; v < r->spec.nvariants; v++)
			{
				int			base = layout_seed_baseline(&r->spec, v);

				change[v] = NAN;
				if (base >= 0)
					report_add_seed_line(r, seed_verdict_line(r, s, c, v, base, &change[v]));
			}
			for (int k = 1; k < npooled; k++)
			{
				int			up = 0,
							down = 0;

				for (int v = 1; v < r->spec.nvariants; v++)
					if (layout_seed_matches(pooled[k], r->spec.variants[v].name) && !isnan(change[v]))
					{
						up += change[v] > 0;
						down += change[v] < 0;
					}
				if (up > 0 && down > 0)
					report_warn(r, "layout seeds disagree in sign for %s vs %s (%s, %d clients): %d faster, %d slower; the change is within code-layout noise",
								pooled[k], pooled[0], r->spec.scripts[s], r->spec.clients[c], up, down);
			}
		}
}
