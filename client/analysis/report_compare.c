/*-------------------------------------------------------------------------
 *
 * report_compare.c
 *		The one way the analysis compares B with A in a cell
 *		(report_compare_samples()): tps, the snapshot probe's figures, the
 *		server counters and the profiles' metrics and functions, each as a
 *		sample of one figure of the cell's runs (report_figure_sample()),
 *		across the unit report_compare_cell() decided; and the looks of
 *		rounds = auto on the same units.
 *
 * Part of the analysis stage (report.h's map): it reads what report_data.c
 * loaded and calls the statistics of common/; no writer calls it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"
#include "stats.h"

#include <limits.h>
#include <math.h>

/*
 * The plain median of n > 0 values (sorted in place), for figures that are
 * only shown, never tested: zeros allowed, unlike the statistics of common/.
 */
double
report_median(double *x, int n)
{
	stats_sort(x, n);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/*
 * The runs of one side of a cell that have a figure, as a sample of that
 * figure: values[k] is the figure of the side's k-th run (NAN or <= 0 when
 * it has none; NULL: the side's tps), and the sample holds the values in
 * tps, with the runs' rounds and ids and their places in the side
 * (of_side), by which a comparison finds each run's unit.  Every figure
 * compared beside tps is sampled here, from the values its own file of
 * the analysis computed: the probe's, the counters, the profiles' metrics
 * and functions.
 */
void
report_figure_sample(const ReportSample *side, const double *values, ReportSample *out)
{
	memset(out, 0, sizeof(*out));
	out->tps = pg_malloc(sizeof(double) * (side->n + 1));
	out->rounds = pg_malloc(sizeof(int) * (side->n + 1));
	out->run_ids = pg_malloc(sizeof(int) * (side->n + 1));
	out->of_side = pg_malloc(sizeof(int) * (side->n + 1));
	for (int i = 0; i < side->n; i++)
	{
		double		v = values ? values[i] : side->tps[i];

		if (!isfinite(v) || v <= 0)
			continue;
		out->tps[out->n] = v;
		out->rounds[out->n] = side->rounds[i];
		out->run_ids[out->n] = side->run_ids[i];
		out->of_side[out->n] = i;
		out->n++;
	}
}

void
report_free_figure_sample(ReportSample *s)
{
	pg_free(s->tps);
	pg_free(s->rounds);
	pg_free(s->run_ids);
	pg_free(s->of_side);
}

/* Each run's unit in a figure's sample, from its cell side's; NULL: rounds. */
static int *
units_of(const int *side_units, const ReportSample *s)
{
	int		   *units;

	if (side_units == NULL)
		return NULL;
	units = pg_malloc(sizeof(int) * (s->n + 1));
	for (int i = 0; i < s->n; i++)
		units[i] = side_units[s->of_side ? s->of_side[i] : i];
	return units;
}

/*
 * The kind of unit a cell's comparisons pass to common/: round by round is
 * the instance-pair comparison with one pair.
 */
static StatsUnit
stats_unit_of(const ReportCell *c)
{
	return c->unit == STATS_UNIT_ROUND ? STATS_UNIT_INSTANCE_PAIR : c->unit;
}

/*
 * B against A in cell c, as every verdict of the report is made: tps, the
 * snapshot probe's figures and the profiles' metrics and functions, each
 * across the unit report_compare_cell() decided for the cell.  a and b are
 * the cell's samples or samples of one figure of their runs (of_side set,
 * report_figure_sample()).
 */
bool
report_compare_samples(const ReportData *r, const ReportCell *c,
					   const ReportSample *a, const ReportSample *b,
					   bool higher_is_better, StatsComparison *out)
{
	StatsOptions opt = r->opt;
	int		   *ua = units_of(c->unit_a, a);
	int		   *ub = units_of(c->unit_b, b);
	int			rc;

	opt.higher_is_better = higher_is_better;
	rc = stats_compare_units(a->tps, a->rounds, ua, a->n, b->tps, b->rounds, ub, b->n,
							 stats_unit_of(c), &opt, out);
	if (ua)
		pg_free(ua);
	if (ub)
		pg_free(ub);
	return rc == STATS_OK;
}

/*
 * The tps of each side of cell c in rounds [first, last], as figure
 * samples: one block of a calibration, or the rounds a look has seen.
 */
static void
cell_rounds(const ReportData *r, const ReportCell *c, int first, int last,
			ReportSample *a, ReportSample *b)
{
	ReportSample *side[2] = {a, b};

	report_figure_sample(c->a, NULL, a);
	report_figure_sample(c->b, NULL, b);
	for (int s = 0; s < 2; s++)
	{
		ReportSample *x = side[s];
		int			k = 0;

		for (int i = 0; i < x->n; i++)
		{
			if (x->rounds[i] < first || x->rounds[i] > last)
				continue;
			x->tps[k] = x->tps[i];
			x->rounds[k] = x->rounds[i];
			x->run_ids[k] = x->run_ids[i];
			x->of_side[k] = x->of_side[i];
			k++;
		}
		x->n = k;
	}
}

/*
 * Under rounds = auto: cell c's decision after blocks_done blocks of the
 * plan, on the units of the cell's verdict (stats_sequential_decide(),
 * which the extension's experiment_report() calls too; against the
 * experiment's reference ratio when it has one,
 * stats_sequential_decide_against()): its deciding (or last) look into
 * out and that look's block into *block (0: none).
 */
bool
report_look_cell(const ReportData *r, const ReportCell *c, const StatsBudgetPlan *plan,
				 int blocks_done, const double *info, const double *z,
				 StatsLook *out, int *block)
{
	ReportSample a,
				b;
	int		   *ua,
			   *ub;
	int			rc;

	cell_rounds(r, c, 1, INT_MAX, &a, &b);
	ua = units_of(c->unit_a, &a);
	ub = units_of(c->unit_b, &b);
	rc = stats_sequential_decide_against(a.tps, a.rounds, ua, a.n, b.tps, b.rounds, ub, b.n,
										 stats_unit_of(c), plan, blocks_done, info, z,
										 r->spec.reference, &r->opt, out, block);
	if (ua)
		pg_free(ua);
	if (ub)
		pg_free(ub);
	report_free_figure_sample(&a);
	report_free_figure_sample(&b);
	return rc == STATS_OK && *block > 0;
}

/* B against A in cell c over rounds [first, last], as the verdict table compares. */
bool
report_compare_rounds(const ReportData *r, const ReportCell *c, int first, int last,
					  StatsComparison *out)
{
	ReportSample a,
				b;
	bool		ok;

	cell_rounds(r, c, first, last, &a, &b);
	ok = report_compare_samples(r, c, &a, &b, r->opt.higher_is_better, out);
	report_free_figure_sample(&a);
	report_free_figure_sample(&b);
	return ok;
}

/*
 * B against A in cell c for one figure of each counted run: values_a[k]
 * of the k-th run of the cell's A side, values_b of its B side (NAN or
 * <= 0: none; NULL: tps).
 */
bool
report_compare_figure(const ReportData *r, const ReportCell *c, const double *values_a,
					  const double *values_b, bool higher_is_better, StatsComparison *out)
{
	ReportSample fa,
				fb;
	bool		ok;

	report_figure_sample(c->a, values_a, &fa);
	report_figure_sample(c->b, values_b, &fb);
	ok = report_compare_samples(r, c, &fa, &fb, higher_is_better, out);
	report_free_figure_sample(&fa);
	report_free_figure_sample(&fb);
	return ok;
}
