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
 * In report.h's map: the analysis stage.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build_seeds.h"
#include "report.h"

#include <math.h>

/* The line of a row B@seedK vs A@seedK; its change and p in *change, *p. */
static char *
seed_verdict_line(const ReportCell *cell, double *change, double *p)
{
	const StatsComparison *cmp = &cell->cmp;

	*change = NAN;
	*p = 1.0;
	if (!cell->has_comparison)
		return psprintf("%s: no comparison", report_cell_title(cell));
	if (cmp->has_estimate)
		*change = cmp->change_pct;
	if (cmp->has_p)
		*p = cmp->p_value;
	return psprintf("%s: %s%s, %s (%s)", report_cell_title(cell),
					cmp->has_estimate ? psprintf("%+.2f%%", cmp->change_pct) : "-",
					cmp->has_ci ? psprintf(" [%+.2f%%, %+.2f%%]", 100 * (cmp->ci_low - 1),
										   100 * (cmp->ci_high - 1)) : "",
					report_verdict_text(cmp), report_comparison_n(cmp));
}

/* The rows B@seedK vs A@seedK of the table: the tests the warning shares its rate among. */
static int
seed_rows(const ReportData *r)
{
	int			n = 0;

	for (int i = 0; i < r->ncells; i++)
		n += r->cells[i].variant >= 0 &&
			build_seeds_baseline(&r->spec, r->cells[i].variant) >= 0;
	return Max(n, 1);
}

/*
 * With build seeds: the verdict of B@seedK against A@seedK for every K,
 * as lines after the table (every seed against every seed, across seed
 * pairs, is a row of the table: report_pooled_seed_cells()), and a
 * warning where the seeds disagree in sign beyond chance: one seed faster
 * and another slower, each at p < STATS_WARN_RATE / N over the N rows
 * B@seedK vs A@seedK of the experiment.  Were every seed's change the
 * same (no layout effect), a warning would need some seed's test to reject
 * on the wrong side of it, which each does with probability at most half
 * its level: at most STATS_WARN_RATE / 2 an experiment.  Point estimates
 * of opposite signs alone, the rule before, are what chance gives two
 * seeds of an unchanged build half the time.  Nothing without seeds.
 */
void
build_seeds_verdicts(ReportData *r)
{
	char	   *pooled[MAX_VARIANTS];
	int			npooled = build_seeds_pooled(&r->spec, pooled);
	double		level;

	if (npooled == 0)
		return;
	level = STATS_WARN_RATE / seed_rows(r);
	for (int s = 0; s < r->spec.nscripts; s++)
		for (int c = 0; c < r->spec.nclients; c++)
		{
			double		change[MAX_VARIANTS],
						p[MAX_VARIANTS];

			for (int v = 0; v < r->spec.nvariants; v++)
				change[v] = NAN, p[v] = 1.0;
			/* the table's rows of B@seedK, each against A@seedK */
			for (int i = 0; i < r->ncells; i++)
			{
				const ReportCell *cell = &r->cells[i];

				if (cell->variant < 0 || cell->script != r->spec.scripts[s] ||
					cell->clients != r->spec.clients[c] ||
					build_seeds_baseline(&r->spec, cell->variant) < 0)
					continue;
				report_add_seed_line(r, seed_verdict_line(cell, &change[cell->variant], &p[cell->variant]));
			}
			for (int k = 1; k < npooled; k++)
			{
				double		ck[MAX_VARIANTS],
							pk[MAX_VARIANTS];
				int			n = 0,
							up = 0,
							down = 0;

				for (int v = 1; v < r->spec.nvariants; v++)
					if (build_seeds_matches(pooled[k], r->spec.variants[v].name) &&
						!isnan(change[v]))
					{
						ck[n] = change[v], pk[n++] = p[v];
						up += change[v] > 0 && p[v] < level;
						down += change[v] < 0 && p[v] < level;
					}
				if (stats_signs_disagree(ck, pk, n, level))
					report_warn(r, "build seeds disagree in sign for %s vs %s (%s, %d clients): %d faster, %d slower, each at p < %.2g (1%% over the experiment's %d seed rows); the change is within code-layout noise",
								pooled[k], pooled[0], r->spec.scripts[s], r->spec.clients[c], up, down,
								level, seed_rows(r));
			}
		}
}
