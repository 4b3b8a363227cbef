/*-------------------------------------------------------------------------
 *
 * report_build_seeds.c
 *		With build seeds, the lines of B@seedK against A@seedK for every K
 *		(the table's rows: each seeded build is compared with the
 *		baseline's build of its own seed, report_baseline_of()), and a
 *		warning where the seeds disagree about the direction of the change
 *		(every seed against every seed is a row of the table:
 *		report_pooled_seed_cells() in report_levels.c).
 *
 * One build is one sample of code layout: a change of a few percent can
 * come from where the linker happened to put the hot functions.
 *
 * In report.h's map: the analysis stage, called by report_analysis.c; it
 * calls report_access.c, report_format.c and report_lines.c, below it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build_seeds.h"
#include "report.h"

#include <math.h>

/* The line of a row B@seedK vs A@seedK; its change in *change. */
static char *
seed_verdict_line(const ReportCell *cell, double *change)
{
	const StatsComparison *cmp = &cell->cmp;

	*change = NAN;
	if (!cell->has_comparison)
		return psprintf("%s: no comparison", report_cell_title(cell));
	if (cmp->has_estimate)
		*change = cmp->change_pct;
	return psprintf("%s: %s%s, %s (%s)", report_cell_title(cell),
					cmp->has_estimate ? psprintf("%+.2f%%", cmp->change_pct) : "-",
					cmp->has_ci ? psprintf(" [%+.2f%%, %+.2f%%]", 100 * (cmp->ci_low - 1),
										   100 * (cmp->ci_high - 1)) : "",
					report_verdict_text(cmp), report_comparison_n(cmp));
}

/*
 * With build seeds: the verdict of B@seedK against A@seedK for every K,
 * as lines after the table (every seed against every seed, across seed
 * pairs, is a row of the table: report_pooled_seed_cells()), and a
 * warning where the seeds disagree in sign.  Nothing without seeds.
 */
void
build_seeds_verdicts(ReportData *r)
{
	char	   *pooled[MAX_VARIANTS];
	int			npooled = build_seeds_pooled(&r->spec, pooled);

	if (npooled == 0)
		return;
	for (int s = 0; s < r->spec.nscripts; s++)
		for (int c = 0; c < r->spec.nclients; c++)
		{
			double		change[MAX_VARIANTS];

			for (int v = 0; v < r->spec.nvariants; v++)
				change[v] = NAN;
			/* the table's rows of B@seedK, each against A@seedK */
			for (int i = 0; i < r->ncells; i++)
			{
				const ReportCell *cell = &r->cells[i];

				if (cell->variant < 0 || cell->script != r->spec.scripts[s] ||
					cell->clients != r->spec.clients[c] ||
					build_seeds_baseline(&r->spec, cell->variant) < 0)
					continue;
				report_add_seed_line(r, seed_verdict_line(cell, &change[cell->variant]));
			}
			for (int k = 1; k < npooled; k++)
			{
				int			up = 0,
							down = 0;

				for (int v = 1; v < r->spec.nvariants; v++)
					if (build_seeds_matches(pooled[k], r->spec.variants[v].name) && !isnan(change[v]))
					{
						up += change[v] > 0;
						down += change[v] < 0;
					}
				if (up > 0 && down > 0)
					report_warn(r, "build seeds disagree in sign for %s vs %s (%s, %d clients): %d faster, %d slower; the change is within code-layout noise",
								pooled[k], pooled[0], r->spec.scripts[s], r->spec.clients[c], up, down);
			}
		}
}
