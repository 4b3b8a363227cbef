/*-------------------------------------------------------------------------
 *
 * calibrate_servers.c
 *		"calibrate --restart N": the A/A and the known slowdown across two
 *		servers, started once (the old scheme) against restarted every N
 *		rounds, each block of rounds judged as the verdict table judges it.
 *
 * Two servers of one build differ by the draw of their starts; a phase
 * that keeps one pair of starts for all its comparisons measures one
 * draw.  Restarted, each comparison holds several instance pairs and the
 * report's comparison of the cell (report_compare_samples()) judges it
 * across them.  The wall time per comparison is the restarts' cost.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "calibrate.h"
#include "plan.h"
#include "report.h"
#include "results.h"
#include "safe_file.h"
#include "stats.h"

#include <limits.h>
#include <math.h>

/*
 * The wall time of a phase: its counted runs, its warm-ups after each
 * start, and the instances it started (instances.csv).
 */
static void
phase_wall_time(const ReportData *d, CalibrationServersPhase *p)
{
	char	   *error;
	RunsCsv    *t = results_read_instances(d->dir, &d->spec, &error);

	p->runs_s = p->warmup_s = 0;
	for (int i = 0; i < d->nruns; i++)
	{
		const ReportRun *run = &d->runs[i];

		if (!isfinite(run->wall_s))
			continue;
		if (run->after_start)
			p->warmup_s += run->wall_s;
		else
			p->runs_s += run->wall_s;
	}
	p->starts = t != NULL ? t->nrows : 0;
}

/*
 * A phase of two servers, A against A2 (slowed false) or against the
 * slowed variant on a cluster of its own: each block of o->rounds
 * consecutive rounds judged by the report's comparison of its cell
 * (report_compare_samples(): across the instance pairs of the block when
 * the servers were restarted, round by round when they were started
 * once), the comparisons without a verdict left out.  A phase whose
 * variants share one server is not across servers: ran stays false.
 */
bool
calibrate_analyse_servers(const CalibrateOptions *o, const char *dir, bool slowed,
						  double elapsed_s, CalibrationServersPhase *p, char **error)
{
	ReportData *d = report_load_cells(dir, NULL, error);
	const char *b_name = slowed ? "delayed" : "A2";
	const ReportCell *cell;
	int			b;
	int		   *first;

	memset(p, 0, sizeof(*p));
	if (d == NULL)
		return false;
	b = experiment_variant_index(&d->spec, b_name);
	cell = report_find_cell(d, d->spec.scripts[0], d->spec.clients[0], b_name);
	if (b < 0 || cell == NULL)
		return fail_with(error, "\"%s\" has no variant \"%s\": it is not a phase of a calibration", dir, b_name);
	if (plan_server_of(&d->spec, d->baseline) == plan_server_of(&d->spec, b))
		return true;
	p->ran = true;
	p->slowed = slowed;
	p->restart_rounds = d->restart_rounds;
	p->elapsed_s = elapsed_s;
	p->has_pooled = cell->has_comparison && cell->cmp.has_ci;
	p->pooled = cell->cmp;
	p->cmp = pg_malloc(sizeof(StatsComparison) * o->blocks);
	p->truth = pg_malloc(sizeof(double) * o->blocks);
	first = pg_malloc(sizeof(int) * o->blocks);
	p->blocks = calibrate_compare_blocks(o, d, b_name, p->cmp, first);
	for (int k = 0; k < p->blocks; k++)
	{
		const StatsComparison *c = &p->cmp[k];

		p->truth[k] = slowed
			? calibrate_cpu_expected_ratio(o, d, first[k], first[k] + o->rounds - 1, NULL, NULL)
			: 1.0;
		if (slowed && isnan(p->truth[k]) && p->has_pooled)
			p->truth[k] = p->pooled.estimate;
		if (slowed ? c->verdict == STATS_SLOWER : !stats_verdict_within_noise(c->verdict))
			p->positives++;
		if (calibrate_covers(c, p->truth[k]))
			p->covered++;
	}
	pfree(first);
	phase_wall_time(d, p);
	return true;
}

/* "started once" or "restarted every N rounds" */
static char *
scheme_text(const CalibrationServersPhase *p)
{
	if (p->restart_rounds == 0)
		return pg_strdup("started once");
	return psprintf("restarted every %d round%s", p->restart_rounds,
					p->restart_rounds == 1 ? "" : "s");
}

/* What one comparison of a phase was judged across: "6 instance pairs" */
static char *
units_text(const CalibrationServersPhase *p)
{
	int			lo = INT_MAX,
				hi = 0;
	const char *unit;

	for (int i = 0; i < p->blocks; i++)
	{
		int			n = p->cmp[i].unit == STATS_UNIT_INSTANCE_PAIR ? p->cmp[i].n_units
			: p->cmp[i].n_pairs;

		lo = Min(lo, n);
		hi = Max(hi, n);
	}
	if (p->blocks == 0)
		return pg_strdup("-");
	unit = p->restart_rounds > 0 ? stats_unit_name(STATS_UNIT_INSTANCE_PAIR, hi) : "rounds";
	return lo == hi ? psprintf("%d %s", hi, unit) : psprintf("%d to %d %s", lo, hi, unit);
}

/* One row of the across-servers table. */
static void
print_servers_row(FILE *f, const char *what, const CalibrationServersPhase *p,
				  const CalibrationServersPhase *pooled_from, int comparisons)
{
	double		per = comparisons > 0 ? 1.0 / comparisons : NAN;

	if (!p->ran)
		return;
	fprintf(f, "| %s | %s | %d | %s | %d (%.1f%%) | %d (%.1f%%) | ",
			what, scheme_text(p), p->blocks, units_text(p),
			p->positives, calibrate_pct(p->positives, p->blocks),
			p->covered, calibrate_pct(p->covered, p->blocks));
	if (p->slowed && pooled_from != NULL)
		fprintf(f, "%d (%.1f%%) | ", p->covered_pooled, calibrate_pct(p->covered_pooled, p->blocks));
	else
		fprintf(f, "- | ");
	if (isnan(p->elapsed_s))
		fprintf(f, "- | ");
	else
		fprintf(f, "%.0f s | ", p->elapsed_s * per);
	fprintf(f, "%.0f s | %.0f s | %.1f |\n", p->runs_s * per, p->warmup_s * per,
			p->starts * per);
}

/* Every round of a phase at once: the report's verdict over the whole phase. */
static void
print_servers_pooled(FILE *f, const char *what, const CalibrationServersPhase *p)
{
	if (!p->ran || !p->has_pooled)
		return;
	fprintf(f, "- %s, %s, all rounds at once: %+.2f%% [%+.2f%%, %+.2f%%] across %s, %s\n",
			what, scheme_text(p), p->pooled.change_pct, 100 * (p->pooled.ci_low - 1),
			100 * (p->pooled.ci_high - 1), report_comparison_n(&p->pooled),
			stats_verdict_name(p->pooled.verdict));
}

/*
 * The across-servers figures, old scheme (servers started once) against
 * new (restarted), printed to out and appended to calibration.md.  The
 * slowed phases' CIs are also held against the slowdown measured across
 * every instance pair of the restarted phase: the effect averaged over
 * starts, free of any one pair's offset.
 */
bool
calibrate_report_servers(const CalibrateOptions *o, const CalibrationServers *s,
						 FILE *out, char **error)
{
	char	   *path = psprintf("%s/calibration.md", o->dir);
	FILE	   *md = safe_fopen_write(path, true, error);
	CalibrationServersPhase slowed[2] = {s->slowed_once, s->slowed_restarted};
	const CalibrationServersPhase *pooled_from =
		s->slowed_restarted.ran && s->slowed_restarted.has_pooled ? &s->slowed_restarted : NULL;

	if (md == NULL)
		return false;
	for (int k = 0; k < 2; k++)
	{
		slowed[k].covered_pooled = 0;
		for (int i = 0; pooled_from != NULL && i < slowed[k].blocks; i++)
			if (calibrate_covers(&slowed[k].cmp[i], pooled_from->pooled.estimate))
				slowed[k].covered_pooled++;
	}
	for (FILE *f = out; f != NULL; f = (f == out ? md : NULL))
	{
		fprintf(f, "\n## Across servers: two clusters started once against restarted every %d round%s\n\n",
				o->restart_rounds, o->restart_rounds == 1 ? "" : "s");
		fprintf(f, "Each comparison is %d consecutive rounds judged as the verdict table judges them: "
				"across instance pairs when the servers were restarted, round by round when they were started once.\n\n",
				o->rounds);
		print_servers_pooled(f, "A2 against A", &s->aa_once);
		print_servers_pooled(f, "A2 against A", &s->aa_restarted);
		print_servers_pooled(f, "slowed against A", &slowed[0]);
		print_servers_pooled(f, "slowed against A", &slowed[1]);
		fprintf(f, "\n| phase | servers | comparisons | each across | A/A: faster, slower or insufficient; slowed: \"slower\" "
				"| CI covers the true effect (A/A: 0; slowed: from CPU) | CI covers the slowdown across all instance pairs "
				"| elapsed per comparison | runs | warm-ups | starts |\n"
				"|---|---|---|---|---|---|---|---|---|---|---|\n");
		print_servers_row(f, "A/A", &s->aa_once, NULL, o->blocks);
		print_servers_row(f, "A/A", &s->aa_restarted, NULL, o->blocks);
		print_servers_row(f, "slowed", &slowed[0], pooled_from, o->blocks);
		print_servers_row(f, "slowed", &slowed[1], pooled_from, o->blocks);
		if (pooled_from != NULL)
			fprintf(f, "\nThe slowdown across all instance pairs: %+.2f%%, the restarted slowed phase's estimate over all its rounds.\n",
					pooled_from->pooled.change_pct);
		fprintf(f, "\n| comparison | B/A | CI | p | n | verdict | true effect | CI covers it |\n"
				"|---|---|---|---|---|---|---|---|\n");
		calibrate_print_blocks(f, "A/A once", s->aa_once.cmp, s->aa_once.blocks, s->aa_once.truth);
		calibrate_print_blocks(f, "A/A restarted", s->aa_restarted.cmp, s->aa_restarted.blocks,
					 s->aa_restarted.truth);
		calibrate_print_blocks(f, "slowed once", slowed[0].cmp, slowed[0].blocks, slowed[0].truth);
		calibrate_print_blocks(f, "slowed restarted", slowed[1].cmp, slowed[1].blocks, slowed[1].truth);
	}
	return safe_fclose(md, error);
}
