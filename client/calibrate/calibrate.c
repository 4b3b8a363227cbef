/*-------------------------------------------------------------------------
 *
 * calibrate.c
 *		The figures of a calibration, from the phases' results directories:
 *		false-positive rate, detection rate and CI coverage, noise by run
 *		length and the runs needed to see 1%, 2% and 5% here.
 *
 * Every verdict is the one the verdict table gives (report_compare_rounds()
 * on the block's rounds: across instance pairs when the servers were
 * restarted, round by round on one server), with the defaults a user gets
 * (alpha 0.05, noise threshold 1%): the calibration measures the harness
 * as it is used, not a tuned variant of it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "calibrate.h"
#include "pgbench_output.h"
#include "report.h"
#include "results.h"
#include "safe_file.h"
#include "stats.h"
#include "safe_read.h"

#include <limits.h>
#include <math.h>

static const double effects[CAL_NEFFECTS] = {0.01, 0.02, 0.05};

/* tps of one variant's counted runs in rounds [first, last], into x */
static int
select_tps(const ReportData *d, const char *variant, int first, int last, double *x)
{
	int			k = 0;

	for (int i = 0; i < d->nruns; i++)
	{
		const ReportRun *run = &d->runs[i];

		if (report_run_counted(run) && strcmp(run->variant, variant) == 0 &&
			run->round >= first && run->round <= last)
			x[k++] = run->tps;
	}
	return k;
}

/* Variant b against A in rounds [first, last]: the verdict table's comparison of their cell. */
static bool
compare_rounds(const ReportData *d, const char *b_name, int first, int last,
			   StatsComparison *out)
{
	const ReportCell *cell = report_find_cell(d, d->spec.scripts[0], d->spec.clients[0], b_name);

	return cell != NULL && report_compare_rounds(d, cell, first, last, out);
}

/*
 * Compare variant b with A in each block of consecutive rounds, as one
 * experiment of that size would; blocks too small for any verdict are
 * left out.  Returns the number of comparisons in out.
 */
int
calibrate_compare_blocks(const CalibrateOptions *o, const ReportData *d, const char *b_name,
						 StatsComparison *out, int *first_round)
{
	int			k = 0;

	for (int blk = 0; blk < o->blocks; blk++)
	{
		int			first = blk * o->rounds + 1;

		if (compare_rounds(d, b_name, first, first + o->rounds - 1, &out[k]) &&
			out[k].verdict != STATS_INSUFFICIENT)
		{
			if (first_round != NULL)
				first_round[k] = first;
			k++;
		}
	}
	return k;
}

/*
 * Noise by run length, from the per-second progress lines of variant A:
 * non-overlapping windows of w seconds, the CV of their mean tps and the
 * robust sd of its log, and the runs per side the MDE formula asks for.
 */
static void
analyse_noise(const CalibrateOptions *o, const ReportData *d, CalibrationResult *r)
{
	static const int lengths[] = {1, 2, 5, 10, 20, 30, 60, 120};
	StatsOptions opt;

	stats_default_options(&opt);
	r->nwindows = 0;
	for (int li = 0; li < lengthof(lengths) && lengths[li] <= o->duration_s; li++)
	{
		int			w = lengths[li];
		double	   *means = pg_malloc(sizeof(double) * (d->nruns * (o->duration_s / w + 1) + 1));
		double	   *steps = pg_malloc(sizeof(double) * (d->nruns * (o->duration_s / w + 1) + 1));
		int			nmeans = 0;
		int			nsteps = 0;
		StatsSummary s;
		double		sd_log;

		for (int i = 0; i < d->nruns; i++)
		{
			char	   *path;
			char	   *ignored;
			FILE	   *f;
			char		line[1024];
			double		sum = 0;
			int			k = 0;
			int			run_first;

			if (!report_run_counted(&d->runs[i]) || strcmp(d->runs[i].variant, "A") != 0)
				continue;
			path = results_run_path(d->dir, d->runs[i].run_id, ".err");
			/* a missing one is skipped, and so is one that is no regular file */
			if ((f = safe_fopen_read(path, SAFE_MAX_LOG, &ignored)) == NULL)
				continue;
			run_first = nmeans;
			while (fgets(line, sizeof(line), f))
			{
				PgbenchProgress p;

				line[strcspn(line, "\n")] = '\0';
				if (pgbench_progress_parse_line(line, &p) != 0)
					continue;
				sum += p.tps;
				if (++k == w)
				{
					/* the step from the run's previous window: noise without drift */
					if (nmeans > run_first && means[nmeans - 1] > 0 && sum > 0)
						steps[nsteps++] = log(sum / w / means[nmeans - 1]);
					means[nmeans++] = sum / w;
					sum = 0;
					k = 0;
				}
			}
			fclose(f);
		}
		if (nmeans < 3 || stats_summarize(means, nmeans, 0.95, &s) != 0 ||
			stats_pooled_log_sd(means, nmeans, NULL, 0, &sd_log) != 0)
		{
			pg_free(means);
			pg_free(steps);
			continue;
		}
		r->window_s[r->nwindows] = w;
		r->window_cv[r->nwindows] = s.cv;
		if (nsteps < 3 || stats_robust_sd(steps, nsteps, &r->window_step_sd[r->nwindows]) != 0)
			r->window_step_sd[r->nwindows] = NAN;
		for (int e = 0; e < CAL_NEFFECTS; e++)
		{
			r->runs_needed[r->nwindows][e] = 0;
			/* the CI must clear the noise threshold, so the MDE must fit below effect - noise */
			for (int m = 2; m <= 200; m++)
			{
				double		mde;

				if (effects[e] > opt.noise &&
					stats_mde_pct(sd_log, m, m, opt.alpha, opt.power, &mde) &&
					mde / 100 <= effects[e] - opt.noise)
				{
					r->runs_needed[r->nwindows][e] = m;
					break;
				}
			}
		}
		r->nwindows++;
		pg_free(means);
		pg_free(steps);
	}
}

/* The spread of per-round ratios, as the MDE of all of a phase's pairs. */
static void
set_round_noise(const StatsComparison *all, CalibrationResult *r)
{
	r->has_round_noise = all->n_pairs > 0 && all->has_mde;
	r->round_noise_pairs = all->n_pairs;
	r->round_noise_mde_pct = all->mde_pct;
}

/*
 * Paired rounds a comparison needs for its MDE to fit between the noise
 * threshold and the effect: the MDE shrinks as 1 / sqrt(rounds), and the
 * signed-rank test cannot reject at 0.05 with fewer than 6.
 */
static int
rounds_needed(const CalibrationResult *r, double effect, double noise)
{
	double		have = log1p(r->round_noise_mde_pct / 100),
				want = log1p(effect - noise);

	return Max(6, (int) ceil(r->round_noise_pairs * (have / want) * (have / want)));
}

/* whether the comparison's CI contains ratio */
bool
calibrate_covers(const StatsComparison *c, double ratio)
{
	return c->has_ci && c->ci_low <= ratio && ratio <= c->ci_high;
}

/*
 * One row per comparison of a phase; with true effects (truth not NULL),
 * each comparison's and whether its CI covers it, or by how many points it
 * missed.
 */
void
calibrate_print_blocks(FILE *f, const char *phase, const StatsComparison *cmp, int n,
					   const double *truth)
{
	for (int i = 0; i < n; i++)
	{
		const StatsComparison *c = &cmp[i];
		double		true_ratio = truth != NULL ? truth[i] : NAN;

		fprintf(f, "| %s %d | %+.2f%% | ", phase, i + 1, c->change_pct);
		if (c->has_ci)
			fprintf(f, "[%+.2f%%, %+.2f%%]", 100 * (c->ci_low - 1), 100 * (c->ci_high - 1));
		else
			fprintf(f, "-");
		fprintf(f, " | %.3g | %s | %s | ", c->p_value, report_comparison_n(c),
				stats_verdict_name(c->verdict));
		if (isnan(true_ratio))
			fprintf(f, "- | ");
		else
			fprintf(f, "%+.2f%% | ", 100 * (true_ratio - 1));
		if (isnan(true_ratio) || !c->has_ci)
			fprintf(f, "- |\n");
		else if (calibrate_covers(c, true_ratio))
			fprintf(f, "yes |\n");
		else
			fprintf(f, "no, by %.3f points |\n",
					100 * Max(c->ci_low - true_ratio, true_ratio - c->ci_high));
	}
}

/*
 * The true effect of the injected wait in rounds [first, last], independent
 * of tps: a busy-wait adds CPU per transaction, which the counters see, to
 * a transaction time per client of A's median tps there.  The backend's
 * user + system CPU per transaction of A and the slowed variant go to
 * cpu_us, A's transaction time to *tx_us, unless they are NULL.  NAN
 * without counters.
 */
double
calibrate_cpu_expected_ratio(const CalibrateOptions *o, const ReportData *d, int first, int last,
							 double cpu_us[2], double *tx_us)
{
	double		cpu[2] = {0, 0};
	double		mean_cpu[2];
	double		tx;
	int			k[2] = {0, 0};
	double	   *a = pg_malloc(sizeof(double) * (d->nruns + 1));
	double		tps = report_median(a, select_tps(d, "A", first, last, a));

	pg_free(a);
	for (int i = 0; i < d->nruns; i++)
	{
		const ReportRun *run = &d->runs[i];
		int			side = strcmp(run->variant, "A") == 0 ? 0 : 1;

		if (!report_run_counted(run) || isnan(run->cpu_user_us_per_tx) ||
			run->round < first || run->round > last)
			continue;
		cpu[side] += run->cpu_user_us_per_tx +
			(isnan(run->cpu_sys_us_per_tx) ? 0 : run->cpu_sys_us_per_tx);
		k[side]++;
	}
	mean_cpu[0] = k[0] > 0 ? cpu[0] / k[0] : NAN;
	mean_cpu[1] = k[1] > 0 ? cpu[1] / k[1] : NAN;
	tx = tps > 0 ? 1e6 * o->clients / tps : NAN;
	if (cpu_us != NULL)
		memcpy(cpu_us, mean_cpu, sizeof(mean_cpu));
	if (tx_us != NULL)
		*tx_us = tx;
	if (k[0] == 0 || k[1] == 0 || !(tx > 0))
		return NAN;
	return tx / (tx + (mean_cpu[1] - mean_cpu[0]));
}

bool
calibrate_analyse_aa(const CalibrateOptions *o, const char *dir, CalibrationResult *r,
					 char **error)
{
	ReportData *d = report_load(dir, NULL, error);
	StatsComparison *cmp;

	if (d == NULL)
		return false;
	cmp = r->aa_cmp = pg_malloc(sizeof(StatsComparison) * o->blocks);
	r->aa_blocks = calibrate_compare_blocks(o, d, "A2", cmp, NULL);
	r->aa_false_positives = 0;
	/* a direction within the threshold is not a claim of a difference beyond it */
	for (int i = 0; i < r->aa_blocks; i++)
		if (!stats_verdict_within_noise(cmp[i].verdict))
			r->aa_false_positives++;

	/* A2 against A over every round: a real difference, and the noise between rounds */
	r->has_aa_pooled = compare_rounds(d, "A2", 1, INT_MAX, &r->aa_pooled) &&
		r->aa_pooled.has_ci;
	if (r->has_aa_pooled)
		set_round_noise(&r->aa_pooled, r);
	analyse_noise(o, d, r);
	return true;
}

bool
calibrate_analyse_delay(const CalibrateOptions *o, const char *dir, CalibrationResult *r,
						char **error)
{
	ReportData *d = report_load(dir, NULL, error);
	StatsComparison pooled;
	StatsComparison *cmp;
	int		   *first_round;

	if (d == NULL)
		return false;

	/* the true effect, from every block at once */
	if (!compare_rounds(d, "delayed", 1, INT_MAX, &pooled) || !pooled.has_ci)
		return fail_with(error, "the delay phase in \"%s\" has too few completed runs to estimate the true effect", dir);
	r->pooled_ratio = pooled.estimate;
	r->pooled_ci_low = pooled.ci_low;
	r->pooled_ci_high = pooled.ci_high;
	/* without A/A rounds, these: the effect moves the ratios, not their spread */
	if (!r->has_round_noise)
		set_round_noise(&pooled, r);

	/*
	 * Without an A/A phase (--skip-aa), this phase's own A runs give the
	 * noise by run length: A runs alone here just the same.
	 */
	if (o->skip_aa)
		analyse_noise(o, d, r);

	r->cpu_ratio = calibrate_cpu_expected_ratio(o, d, 1, INT_MAX, r->cpu_us_per_tx, &r->cpu_tx_us);

	cmp = r->delay_cmp = pg_malloc(sizeof(StatsComparison) * o->blocks);
	first_round = pg_malloc(sizeof(int) * o->blocks);
	r->delay_truth = pg_malloc(sizeof(double) * o->blocks);
	r->delay_blocks = calibrate_compare_blocks(o, d, "delayed", cmp, first_round);
	r->detected = r->covered = r->covered_pooled = 0;
	for (int i = 0; i < r->delay_blocks; i++)
	{
		/* the comparison's own true effect; the pooled one if its CPU is unknown */
		r->delay_truth[i] = calibrate_cpu_expected_ratio(o, d, first_round[i],
											   first_round[i] + o->rounds - 1,
											   NULL, NULL);
		if (isnan(r->delay_truth[i]))
			r->delay_truth[i] = r->pooled_ratio;
		if (cmp[i].verdict == STATS_SLOWER)
			r->detected++;
		if (calibrate_covers(&cmp[i], r->delay_truth[i]))
			r->covered++;
		if (calibrate_covers(&cmp[i], r->pooled_ratio))
			r->covered_pooled++;
	}
	pg_free(first_round);
	return true;
}

/*
 * The sizing phase: the target used as the setting, over every round of
 * its directory.  Where backends share CPUs the true slowdown comes out
 * larger than the setting (inject_delay.c); a slowdown roughly in
 * proportion to the setting scales back to the target, within a factor of
 * four either way so that one unlucky measurement cannot run away with it,
 * and not at all when the sizing's CI includes no slowdown.
 */
bool
calibrate_analyse_sizing(const CalibrateOptions *o, const char *dir, CalibrationResult *r,
						 char **error)
{
	ReportData *d = report_load(dir, NULL, error);
	int			delay_ns = 0;
	double		slowdown;

	if (d == NULL)
		return false;
	r->sizing_setting_pct = 0;
	calibrate_recorded_slowdown(&d->spec, &delay_ns, &r->sizing_setting_pct);
	if (!(r->sizing_setting_pct > 0))
		return fail_with(error, "the sizing phase in \"%s\" has no inject_slowdown_pct setting", dir);
	if (!compare_rounds(d, "delayed", 1, INT_MAX, &r->sizing) || !r->sizing.has_ci)
		return fail_with(error, "the sizing phase in \"%s\" has too few completed runs to measure the slowdown", dir);
	r->has_sizing = true;
	slowdown = 1 - r->sizing.estimate;
	r->sized_setting_pct = r->sizing_setting_pct;
	/* a slowdown the sizing could not tell from none scales nothing */
	if (slowdown > 0 && r->sizing.ci_high < 1)
		r->sized_setting_pct = Min(50, Max(r->sizing_setting_pct / 4,
										   Min(r->sizing_setting_pct * 4,
											   r->sizing_setting_pct * o->target / slowdown)));
	/* to 0.01: the setting is printed and recorded that way */
	r->sized_setting_pct = Max(0.01, round(100 * r->sized_setting_pct) / 100);
	return true;
}

/* The first injection setting among settings, into its output; false if none. */
static bool
scan_slowdown(char *const *settings, int n, int *delay_ns, double *setting_pct)
{
	for (int i = 0; i < n; i++)
		if (sscanf(settings[i], "pgbench_ext.inject_delay_ns=%d", delay_ns) == 1 ||
			sscanf(settings[i], "pgbench_ext.inject_slowdown_pct=%lf", setting_pct) == 1)
			return true;
	return false;
}

/*
 * The slowdown a phase's "delayed" variant ran with, from its recorded
 * settings: a fixed wait into *delay_ns or a share into *setting_pct; the
 * other is left alone.
 */
void
calibrate_recorded_slowdown(const ExperimentSpec *spec, int *delay_ns, double *setting_pct)
{
	int			v = experiment_variant_index(spec, "delayed");

	/* in "set" (a server of its own) or "session_set" (A's server) */
	if (v >= 0 &&
		!scan_slowdown(spec->variants[v].settings, spec->variants[v].nsettings,
					   delay_ns, setting_pct))
		scan_slowdown(spec->variants[v].session_settings, spec->variants[v].nsession_settings,
					  delay_ns, setting_pct);
}

/* What the delayed variant injects, in words. */
char *
calibrate_slowdown_text(const CalibrateOptions *o)
{
	if (o->delay_ns > 0)
		return psprintf("with %d ns injected at each commit", o->delay_ns);
	if (fabs(o->setting_pct - 100 * o->target) < 1e-9)
		return psprintf("slowed down by %.1f%% (a wait at each commit in proportion to its transaction)",
						100 * o->target);
	return psprintf("slowed down with inject_slowdown_pct = %.2f, sized for %.1f%% (a wait at each commit in proportion to its transaction)",
					o->setting_pct, 100 * o->target);
}

double
calibrate_pct(int k, int n)
{
	return n > 0 ? 100.0 * k / n : NAN;
}

bool
calibrate_report(const CalibrateOptions *o, const CalibrationResult *r, FILE *out, char **error)
{
	char	   *path = psprintf("%s/calibration.md", o->dir);
	FILE	   *md = safe_fopen_write(path, false, error);

	if (md == NULL)
		return false;
	for (FILE *f = out; f != NULL; f = (f == out ? md : NULL))
	{
		fprintf(f, "\n# Calibration: %s, %d clients, %d s runs, %d rounds per comparison\n\n",
				escape_text(o->script, f == out ? ESCAPE_TERMINAL : ESCAPE_MARKDOWN),
				o->clients, o->duration_s, o->rounds);
		if (!o->skip_aa)
			fprintf(f, "- A/A false-positive rate: %d of %d comparisons (%.1f%%) were faster, slower or insufficient\n",
					r->aa_false_positives, r->aa_blocks, calibrate_pct(r->aa_false_positives, r->aa_blocks));
		if (!o->skip_aa && r->has_aa_pooled)
			fprintf(f, "- A2 against A over all %s: %+.2f%% [%+.2f%%, %+.2f%%] (a difference here is the two clusters, not noise)\n",
					report_comparison_n(&r->aa_pooled), r->aa_pooled.change_pct,
					100 * (r->aa_pooled.ci_low - 1), 100 * (r->aa_pooled.ci_high - 1));
		if (r->has_sizing)
			fprintf(f, "- sizing: inject_slowdown_pct = %.2f slowed A by %.2f%% [%.2f%%, %.2f%%] over %s; %s: %.2f\n",
					r->sizing_setting_pct, -r->sizing.change_pct,
					100 * (1 - r->sizing.ci_high), 100 * (1 - r->sizing.ci_low),
					report_comparison_n(&r->sizing),
					r->sizing.ci_high < 1 ? psprintf("scaled for %.1f%%", 100 * o->target)
					: "not told from no slowdown, so kept",
					r->sized_setting_pct);
		fprintf(f, "- A against A %s: true effect %+.2f%% [%+.2f%%, %+.2f%%] from all %d blocks pooled",
				calibrate_slowdown_text(o), 100 * (r->pooled_ratio - 1),
				100 * (r->pooled_ci_low - 1), 100 * (r->pooled_ci_high - 1), r->delay_blocks);
		if (!isnan(r->cpu_ratio))
			fprintf(f, "; expected from CPU time per transaction %+.2f%% "
					"(the backend's user + system CPU per transaction: A %.2f µs, slowed %.2f µs, "
					"against %.2f µs per transaction and client at A's median %.0f tps)",
					100 * (r->cpu_ratio - 1), r->cpu_us_per_tx[0], r->cpu_us_per_tx[1],
					r->cpu_tx_us, 1e6 * o->clients / r->cpu_tx_us);
		fprintf(f, "\n- detection rate: %d of %d comparisons (%.1f%%) said \"slower\"\n",
				r->detected, r->delay_blocks, calibrate_pct(r->detected, r->delay_blocks));
		fprintf(f, "- CI coverage of the true effect: %d of %d (%.1f%%), each comparison's own from its CPU time per transaction\n",
				r->covered, r->delay_blocks, calibrate_pct(r->covered, r->delay_blocks));
		fprintf(f, "- CI coverage of the pooled effect: %d of %d (%.1f%%)\n",
				r->covered_pooled, r->delay_blocks, calibrate_pct(r->covered_pooled, r->delay_blocks));
		if (r->has_round_noise)
			fprintf(f, "- noise between paired rounds: all %d rounds of the %s phase together detect %.2f%%; "
					"a comparison needs about %d rounds to see 2%%, %d to see %.1f%% and %d to see 5%% "
					"(80%% power, alpha 0.05, beyond the 1%% threshold)\n",
					r->round_noise_pairs, o->skip_aa ? "delay" : "A/A", r->round_noise_mde_pct,
					rounds_needed(r, 0.02, 0.01), rounds_needed(r, o->target, 0.01), 100 * o->target,
					rounds_needed(r, 0.05, 0.01));
		fprintf(f, "\n| comparison | B/A | CI | p | n | verdict | true effect | CI covers it |\n"
				"|---|---|---|---|---|---|---|---|\n");
		calibrate_print_blocks(f, "A/A", r->aa_cmp, r->aa_blocks, NULL);
		calibrate_print_blocks(f, "slowed", r->delay_cmp, r->delay_blocks, r->delay_truth);
		fprintf(f, "\n");
		if (r->nwindows > 0)
		{
			fprintf(f, "| run length | CV of tps | adjacent windows | runs per side for 1%% | 2%% | 5%% |\n"
					"|---|---|---|---|---|---|\n");
			for (int w = 0; w < r->nwindows; w++)
			{
				fprintf(f, "| %d s | %.2f%% |", r->window_s[w], 100 * r->window_cv[w]);
				if (isnan(r->window_step_sd[w]))
					fprintf(f, " - |");
				else
					fprintf(f, " %.2f%% |", 100 * r->window_step_sd[w]);
				for (int e = 0; e < CAL_NEFFECTS; e++)
				{
					if (effects[e] <= 0.01)
						fprintf(f, " not with a 1%% noise threshold |");
					else if (r->runs_needed[w][e] == 0)
						fprintf(f, " > 200 |");
					else
						fprintf(f, " %d |", r->runs_needed[w][e]);
				}
				fprintf(f, "\n");
			}
			fprintf(f, "\nRuns per side are those whose minimum detectable effect (80%% power, alpha 0.05) fits between the noise threshold and the effect; the CV is of non-overlapping windows of A's per-second tps over the whole phase (drift included); \"adjacent windows\" is the robust sd of the log ratio of each window to the one before it in the same run (drift left out).\n");
		}
	}
	if (!safe_fclose(md, error))
		return false;
	fprintf(out, "\n(also in %s)\n", escape_text(path, ESCAPE_TERMINAL));
	return true;
}
