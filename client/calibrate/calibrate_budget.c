/*-------------------------------------------------------------------------
 *
 * calibrate_budget.c
 *		"calibrate --rounds auto --budget D": the budgeted mode measured,
 *		each comparison a budgeted experiment of its own, as a user runs one.
 *
 * Three phases of K comparisons each (--blocks K): A against an identical
 * A2 on a server of its own (restart = auto: across instance pairs, as a
 * user's A/B of two servers is judged), then A against A slowed down by 2%
 * and by 5% (inject_slowdown_pct, on A's own server: round by round).  Of
 * each phase: the decisions (a false positive is an A/A "faster" or
 * "slower"; detection, "slower"), how often the deciding (or last) look's
 * CI covers the true effect, and the median time and rounds to decide.
 * The true effect of a slowed phase is its pooled estimate: every paired
 * round of all its comparisons, round by round; an A/A's is none.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "calibrate.h"
#include "report.h"
#include "safe_file.h"

#include <math.h>

static const char *const calibrate_budget_phase_names[CAL_BUDGET_NPHASES] = {"aa", "slowed-2", "slowed-5"};
const double calibrate_budget_slowdown_pct[CAL_BUDGET_NPHASES] = {0, 2, 5};

/* Where comparison k (1-based) of phase p runs. */
char *
calibrate_budget_dir(const CalibrateOptions *o, int phase, int k)
{
	return psprintf("%s/auto-%s-%d", o->dir, calibrate_budget_phase_names[phase], k);
}

typedef struct BudgetPhase
{
	int			n;
	int			decisions[4];	/* by StatsDecision */
	int			covered;
	bool		has_truth;
	double		truth;			/* ratio b/a */
	double	   *spent_s;		/* of the decided comparisons */
	double	   *rounds;
	int			ndecided;
	ReportData **data;
} BudgetPhase;

/* Every paired round of the phase's comparisons, round by round: its estimate. */
static bool
pooled_truth(BudgetPhase *ph)
{
	int			max = 0,
				na = 0,
				nb = 0;
	double	   *a,
			   *b;
	int		   *ra,
			   *rb;
	StatsComparison cmp;
	StatsOptions opt;

	for (int k = 0; k < ph->n; k++)
		max += ph->data[k]->cells[0].a->n + ph->data[k]->cells[0].b->n;
	a = pg_malloc(sizeof(double) * (max + 1));
	b = pg_malloc(sizeof(double) * (max + 1));
	ra = pg_malloc(sizeof(int) * (max + 1));
	rb = pg_malloc(sizeof(int) * (max + 1));
	for (int k = 0; k < ph->n; k++)
	{
		const ReportCell *c = &ph->data[k]->cells[0];

		/* rounds of different comparisons never pair */
		for (int i = 0; i < c->a->n; i++, na++)
			a[na] = c->a->tps[i], ra[na] = k * 100000 + c->a->rounds[i];
		for (int i = 0; i < c->b->n; i++, nb++)
			b[nb] = c->b->tps[i], rb[nb] = k * 100000 + c->b->rounds[i];
	}
	stats_default_options(&opt);
	ph->has_truth = stats_compare_rounds(a, ra, na, b, rb, nb, &opt, &cmp) == STATS_OK &&
		cmp.has_estimate;
	ph->truth = cmp.estimate;
	pfree(a);
	pfree(b);
	pfree(ra);
	pfree(rb);
	return ph->has_truth;
}

static bool
load_phase(const CalibrateOptions *o, int p, BudgetPhase *ph, char **error)
{
	memset(ph, 0, sizeof(*ph));
	ph->data = pg_malloc0(sizeof(ReportData *) * o->blocks);
	ph->spent_s = pg_malloc0(sizeof(double) * o->blocks);
	ph->rounds = pg_malloc0(sizeof(double) * o->blocks);
	for (int k = 1; k <= o->blocks; k++)
	{
		ReportData *r = report_load_cells(calibrate_budget_dir(o, p, k), NULL, error);

		if (r == NULL)
			return false;
		if (!r->sequential || r->ncells != 1)
			return fail_with(error, "%s is not a budgeted comparison of two variants",
							 calibrate_budget_dir(o, p, k));
		ph->data[ph->n++] = r;
	}
	if (p == 0)
	{
		ph->has_truth = true;
		ph->truth = 1.0;
	}
	else
		pooled_truth(ph);
	for (int k = 0; k < ph->n; k++)
	{
		const ReportCell *c = &ph->data[k]->cells[0];
		StatsDecision d = report_look_decision(c);

		ph->decisions[d]++;
		if (ph->has_truth && c->has_look && calibrate_covers(&c->look.cmp, ph->truth))
			ph->covered++;
		if (d != STATS_UNDECIDED)
		{
			ph->spent_s[ph->ndecided] = c->look_spent_s;
			ph->rounds[ph->ndecided++] = c->look_rounds;
		}
	}
	return true;
}

static void
print_phase(FILE *f, int p, const BudgetPhase *ph)
{
	fprintf(f, "| %s | %d | %d | %d | %d | %d | %s | %d of %d | %s | %s |\n",
			p == 0 ? "A/A, two servers (restart = auto)"
			: psprintf("%g%% (inject_slowdown_pct), one server", calibrate_budget_slowdown_pct[p]),
			ph->n, ph->decisions[STATS_DECIDED_FASTER], ph->decisions[STATS_DECIDED_SLOWER],
			ph->decisions[STATS_DECIDED_SAME], ph->decisions[STATS_UNDECIDED],
			p == 0 ? "none" : ph->has_truth ? report_pct(ph->truth) : "-",
			ph->covered, ph->n,
			ph->ndecided > 0 ? psprintf("%.0f s", report_median(ph->spent_s, ph->ndecided)) : "-",
			ph->ndecided > 0 ? psprintf("%.0f", report_median(ph->rounds, ph->ndecided)) : "-");
}

static void
print_comparisons(FILE *f, int p, const BudgetPhase *ph)
{
	for (int k = 0; k < ph->n; k++)
	{
		const ReportData *r = ph->data[k];
		const ReportCell *c = &r->cells[0];

		fprintf(f, "| %s %d | %s | %s | %s |\n", calibrate_budget_phase_names[p], k + 1,
				stats_decision_name(report_look_decision(c)),
				report_look_text(r, c), c->look_stopped);
	}
}

/* The figures of a budgeted calibration, to out and DIR/calibration-budget.md. */
bool
calibrate_budget_report(const CalibrateOptions *o, FILE *out, char **error)
{
	BudgetPhase phases[CAL_BUDGET_NPHASES];
	char	   *path = psprintf("%s/calibration-budget.md", o->dir);
	FILE	   *md;

	for (int p = 0; p < CAL_BUDGET_NPHASES; p++)
		if (!load_phase(o, p, &phases[p], error))
			return false;
	if ((md = safe_fopen_write(path, false, error)) == NULL)
		return false;
	for (FILE *f = out; f != NULL; f = (f == out ? md : NULL))
	{
		const BudgetPhase *aa = &phases[0];

		fprintf(f, "\n# Calibration of rounds = auto: %s, %d clients, %d s runs, a budget of %d s per comparison\n\n",
				escape_text(o->script, f == out ? ESCAPE_TERMINAL : ESCAPE_MARKDOWN),
				o->clients, o->duration_s, o->budget_s);
		fprintf(f, "- A/A false-positive rate (rounds = auto): %d of %d comparisons (%.1f%%) decided faster or slower\n",
				aa->decisions[STATS_DECIDED_FASTER] + aa->decisions[STATS_DECIDED_SLOWER], aa->n,
				calibrate_pct(aa->decisions[STATS_DECIDED_FASTER] + aa->decisions[STATS_DECIDED_SLOWER], aa->n));
		for (int p = 1; p < CAL_BUDGET_NPHASES; p++)
			fprintf(f, "- detection at %g%%: %d of %d comparisons (%.1f%%) decided slower; CI coverage of the pooled effect %s: %d of %d\n",
					calibrate_budget_slowdown_pct[p], phases[p].decisions[STATS_DECIDED_SLOWER],
					phases[p].n, calibrate_pct(phases[p].decisions[STATS_DECIDED_SLOWER], phases[p].n),
					phases[p].has_truth ? report_pct(phases[p].truth) : "-", phases[p].covered,
					phases[p].n);
		fprintf(f, "\n| phase | comparisons | faster | slower | same | undecided | true effect | CI covers it | median time to decide | median rounds to decide |\n"
				"| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (int p = 0; p < CAL_BUDGET_NPHASES; p++)
			print_phase(f, p, &phases[p]);
		fprintf(f, "\n| comparison | decision | estimate and CI of the deciding (or last) look | stopped |\n"
				"| --- | --- | --- | --- |\n");
		for (int p = 0; p < CAL_BUDGET_NPHASES; p++)
			print_comparisons(f, p, &phases[p]);
	}
	return safe_fclose(md, error);
}
