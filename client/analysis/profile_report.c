/*-------------------------------------------------------------------------
 *
 * profile_report.c
 *		The profiles of a results directory compared: counted or sampled
 *		metrics per transaction as rows beside tps, with their medians and
 *		verdicts, and a verdict per function, all into r->profile for
 *		profile_report_write.c (the analysis stage of report.h's map).
 *
 * Every comparison is report_compare_samples(), the one the tps verdict
 * makes, on the same runs and rounds: the same rules, the same unit of
 * test.  Costs are compared with higher_is_better off, so that "more"
 * (the verdict's "slower") is a larger cost.
 *
 * Which functions are compared, their q-values, when one has changed and
 * the floor a run without it counts: docs/profiles.md, "A verdict per
 * function".
 *
 * In a counted experiment the runs' tps were measured under valgrind and
 * mean nothing: their comparisons are withdrawn, and the counted metrics
 * are the verdict.  Instructions per transaction repeat to a few hundredths
 * of a per cent, so their verdict has its own noise threshold,
 * PROFILE_COUNTED_NOISE, and "same within" it when the whole CI lies
 * inside; beside it the report gives how exact this experiment's design
 * is, from its own rounds: the spread an A/A would show and the MDE.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile.h"
#include "profile_report.h"
#include "profile_spec.h"
#include "results.h"
#include "safe_read.h"

#include <math.h>

typedef struct MetricDef
{
	const char *label;
	const char *events[3];
} MetricDef;

static const MetricDef counted_metrics[] = {
	{"instructions/tx", {"Ir"}},
	{"I1 misses/tx", {"I1mr"}},
	{"D1 misses/tx", {"D1mr", "D1mw"}},
	{"LL misses/tx", {"ILmr", "DLmr", "DLmw"}},
};
static const MetricDef sampled_metrics[] = {
	{"CPU ns/tx (sampled)", {"cpu-clock"}},
	{"cycles/tx (sampled)", {"cycles"}},
};

/* ---- loading ---- */

static double
num_at(json_t *a, int i)
{
	json_t	   *v = json_array_get(a, i);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/*
 * Whether a runs/NNNN.profile.json can be used: events named, a positive
 * total of the first (the event functions are compared on), a finite one
 * of the others, a positive floor for each, functions an object.  A
 * counted run's totals are a long run's counts less a short one's, so an
 * event as rare as a last-level write miss can come out 0 or below 0 per
 * transaction: that is a measurement of about nothing, not a broken
 * profile.  The report and the import ask the same.
 */
bool
profile_run_usable(json_t *doc)
{
	json_t	   *events = json_object_get(doc, "events");

	if (doc == NULL || !json_is_array(events) || json_array_size(events) < 1 ||
		json_array_size(events) > PROF_MAX_EVENTS || !json_is_object(json_object_get(doc, "functions")))
		return false;
	if (!(num_at(json_object_get(doc, "totals"), 0) > 0))
		return false;
	for (size_t e = 0; e < json_array_size(events); e++)
		if (!json_is_string(json_array_get(events, e)) ||
			!isfinite(num_at(json_object_get(doc, "totals"), e)) ||
			!(num_at(json_object_get(doc, "floor"), e) > 0))
			return false;
	return true;
}

static void
load_run(const ReportData *r, int i, RunProfile *rp)
{
	char	   *ignored;
	json_t	   *doc = safe_read_json(results_run_path(r->dir, r->runs[i].run_id, ".profile.json"),
									 SAFE_MAX_JSON, &ignored);

	memset(rp, 0, sizeof(*rp));
	if (!profile_run_usable(doc))
		return;
	rp->nevents = (int) json_array_size(json_object_get(doc, "events"));
	for (int e = 0; e < rp->nevents; e++)
	{
		rp->events[e] = json_string_value(json_array_get(json_object_get(doc, "events"), e));
		rp->totals[e] = num_at(json_object_get(doc, "totals"), e);
		rp->floor[e] = num_at(json_object_get(doc, "floor"), e);
	}
	rp->functions = json_object_get(doc, "functions");
	rp->stacks = json_object_get(doc, "stacks");
	rp->samples = (long long) json_integer_value(json_object_get(doc, "samples"));
	rp->present = true;
}

static int
event_index(const RunProfile *rp, const char *name)
{
	for (int e = 0; e < rp->nevents; e++)
		if (strcmp(rp->events[e], name) == 0)
			return e;
	return -1;
}

/* A figure of a run's profile, with what it is of; sampled by profile_sample() */
typedef double (*ProfileFigure) (const RunProfile *rp, const void *arg);

/*
 * A metric of a run: the sum of its events' totals, never below the floor
 * of the first (ratios are of logs, and a differenced count can be 0 or
 * less: profile_run_usable()), or NAN.
 */
static double
metric_value(const RunProfile *rp, const void *metric)
{
	const MetricDef *m = metric;
	double		v = 0;
	double		at_least = 0;

	for (int k = 0; k < lengthof(m->events) && m->events[k]; k++)
	{
		int			e = event_index(rp, m->events[k]);

		if (e < 0)
			return NAN;
		v += rp->totals[e];
		if (k == 0)
			at_least = rp->floor[e];
	}
	return Max(v, at_least);
}

/*
 * A name from a results directory that may be shown and written: no
 * control character (the terminal, folded stacks' lines) and no ';' in a
 * function's name (the folded format's separator).  The parsers write only
 * such names; others come from files someone edited, and are left out,
 * by the report and the import alike.
 */
bool
profile_name_ok(const char *name, bool stack)
{
	if (*name == '\0')
		return false;
	for (const unsigned char *p = (const unsigned char *) name; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (*p == ';' && !stack))
			return false;
	return true;
}

/* A function's self cost in a run, never below the run's floor. */
static double
function_value(const RunProfile *rp, const void *name)
{
	json_t	   *self = json_object_get(json_object_get(rp->functions, name), "self");
	double		v = num_at(self, 0);

	return isfinite(v) && v > rp->floor[0] ? v : rp->floor[0];
}

/* The profile of r->runs[run], or NULL when the run has none. */
static const RunProfile *
profile_at(const ReportData *r, int run)
{
	return r->profile->runs[run].present ? &r->profile->runs[run] : NULL;
}

/* More figures of a run's profile (ProfileFigures) */
static double
total_of(const RunProfile *rp, const void *arg)
{
	return rp->totals[0];
}

static double
incl_of(const RunProfile *rp, const void *name)
{
	return num_at(json_object_get(json_object_get(rp->functions, name), "incl"), 0);
}

/*
 * One figure of the profiles of a cell's side as a sample of it
 * (report_figure_sample()): figure(rp, arg) of each run's profile, none
 * for a run without one.
 */
static void
profile_sample(const ReportData *r, const ReportSample *side, ProfileFigure figure,
			   const void *arg, ReportSample *out)
{
	double	   *x = pg_malloc(sizeof(double) * (side->n + 1));

	for (int i = 0; i < side->n; i++)
	{
		const RunProfile *rp = profile_at(r, side->run_index[i]);

		x[i] = rp ? figure(rp, arg) : NAN;
	}
	report_figure_sample(side, x, out);
	pg_free(x);
}

/* The median of a sample, as stats_summarize() computes it (and SQL summarize()). */
static bool
sample_median(const ReportData *r, const ReportSample *s, double *median)
{
	StatsSummary sum;

	if (s->n == 0 || stats_summarize(s->tps, s->n, 1.0 - r->opt.alpha, &sum) != STATS_OK)
		return false;
	*median = sum.median;
	return true;
}

static double
shown_median(const ReportData *r, const ReportSample *side, ProfileFigure figure, const void *arg)
{
	ReportSample s;
	double		m = NAN;

	profile_sample(r, side, figure, arg, &s);
	if (s.n > 0)
		m = report_median(s.tps, s.n);
	report_free_figure_sample(&s);
	return m;
}

static int
cmp_change(const void *x, const void *y)
{
	const ProfileFunctionRow *a = x;
	const ProfileFunctionRow *b = y;
	double		da = fabs(a->b_median - a->a_median);
	double		db = fabs(b->b_median - b->a_median);

	if (a->changed != b->changed)
		return a->changed ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Mean stacks per transaction of one side's profiled runs. */
static void
mean_stacks(const ReportData *r, const ReportSample *side, Prof *out)
{
	int			n = 0;

	prof_init(out);
	for (int k = 0; k < side->n; k++)
		if (profile_at(r, side->run_index[k]))
			n++;
	for (int k = 0; k < side->n; k++)
	{
		const RunProfile *rp = profile_at(r, side->run_index[k]);
		const char *frames;
		json_t	   *v;

		if (rp == NULL)
			continue;
		json_object_foreach(rp->stacks, frames, v)
			if (json_is_number(v) && profile_name_ok(frames, true))
			prof_add_stack(out, frames, json_number_value(v) / n);
	}
}

static void
compare_functions(const ReportData *r, const ReportCell *c, CellProfile *cp)
{
	ProfIndex	seen;
	const ReportSample *sides[2] = {c->a, c->b};
	double	   *p;
	ReportSample ta,
				tb;
	int			k = 0;

	profile_sample(r, c->a, total_of, NULL, &ta);
	profile_sample(r, c->b, total_of, NULL, &tb);
	cp->has_total = sample_median(r, &ta, &cp->a_total) && sample_median(r, &tb, &cp->b_total);
	report_free_figure_sample(&ta);
	report_free_figure_sample(&tb);
	if (!cp->has_total)
		return;

	prof_index_init(&seen);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < sides[s]->n; i++)
		{
			const RunProfile *rp = profile_at(r, sides[s]->run_index[i]);
			const char *name;
			json_t	   *f;

			if (rp == NULL)
				continue;
			json_object_foreach(rp->functions, name, f)
			{
				ReportSample fa,
							fb;
				double		ma = 0,
							mb = 0;
				ProfileFunctionRow *row;

				if (prof_index_get(&seen, name) >= 0 || !profile_name_ok(name, false))
					continue;
				prof_index_put(&seen, name, 1);
				profile_sample(r, c->a, function_value, name, &fa);
				profile_sample(r, c->b, function_value, name, &fb);
				if (!sample_median(r, &fa, &ma) || !sample_median(r, &fb, &mb) ||
					(ma < PROFILE_MIN_SHARE * cp->a_total && mb < PROFILE_MIN_SHARE * cp->b_total))
				{
					report_free_figure_sample(&fa);
					report_free_figure_sample(&fb);
					continue;
				}
				cp->funcs = pg_realloc(cp->funcs, sizeof(ProfileFunctionRow) * (cp->nfuncs + 1));
				row = &cp->funcs[cp->nfuncs++];
				memset(row, 0, sizeof(*row));
				row->name = pg_strdup(name);
				row->object = report_json_str(f, "object", "");
				row->a_median = ma;
				row->b_median = mb;
				row->a_incl = shown_median(r, c->a, incl_of, name);
				row->b_incl = shown_median(r, c->b, incl_of, name);
				row->has = report_compare_samples(r, c, &fa, &fb, false, &row->cmp);
				report_free_figure_sample(&fa);
				report_free_figure_sample(&fb);
			}
		}
	prof_index_free(&seen);

	p = pg_malloc(sizeof(double) * (cp->nfuncs + 1));
	for (int i = 0; i < cp->nfuncs; i++)
		p[i] = cp->funcs[i].has && cp->funcs[i].cmp.has_p ? cp->funcs[i].cmp.p_value : 1.0;
	if (stats_bh_adjust(p, cp->nfuncs, p) == STATS_OK)
		for (int i = 0; i < cp->nfuncs; i++)
		{
			ProfileFunctionRow *row = &cp->funcs[i];

			row->q = p[i];
			row->changed = row->has && stats_fdr_discovery(&row->cmp, row->q, &r->opt);
			k += row->changed;
		}
	cp->nchanged = k;
	pfree(p);

	/*
	 * A single changed function has q = (functions compared) * p, and p is
	 * at least 2 / 2^rounds round by round: with too few rounds nothing
	 * can ever be a discovery, which the report must say.  With rounds
	 * enough, what keeps p up is rounds that differ by nothing (an A/A of
	 * one binary counts alike), and more rounds would not change that.
	 */
	{
		double		best = 1.0;
		int			pairs = 0;

		for (int i = 0; i < cp->nfuncs; i++)
			if (cp->funcs[i].has && cp->funcs[i].cmp.has_p)
			{
				best = fmin(best, cp->funcs[i].cmp.min_p);
				pairs = Max(pairs, cp->funcs[i].cmp.n_pairs);
			}
		if (cp->nfuncs > 0 && cp->nfuncs * best >= r->opt.alpha)
		{
			int			n = 1;

			while (cp->nfuncs * 2.0 / ldexp(1.0, n) >= r->opt.alpha)
				n++;
			cp->rounds_needed = pairs < n ? n : 0;
		}
	}
	qsort(cp->funcs, cp->nfuncs, sizeof(ProfileFunctionRow), cmp_change);
}

/*
 * How exact the counted instructions of this design are, from its own
 * rounds: the paired log ratios B/A of the rounds with a run on each side
 * vary by sd; an A/A of the same rounds would have a 95% CI of half-width
 * t(0.975, n - 1) * sd / sqrt(n) (a constant difference between the
 * variants does not change sd), and the MDE is the verdict's at that sd.
 */
static void
design_spread(const StatsOptions *opt, ProfileMetricRow *row)
{
	double		sum = 0,
				sq = 0;
	int			n = 0;

	for (int i = 0; i < row->a.n; i++)
		for (int j = 0; j < row->b.n; j++)
			if (row->a.rounds[i] == row->b.rounds[j] && row->a.tps[i] > 0 && row->b.tps[j] > 0)
			{
				double		d = log(row->b.tps[j] / row->a.tps[i]);

				sum += d;
				sq += d * d;
				n++;
				break;
			}
	if (n < 3)
		return;
	{
		double		sd = sqrt(fmax(0, (sq - sum * sum / n) / (n - 1)));

		row->spread_rounds = n;
		row->spread_pct = 100 * expm1(stats_t_quantile(0.975, n - 1) * sd / sqrt(n));
		if (!stats_verdict_mde_paired_pct(sd, n, opt, &row->spread_mde_pct))
			row->spread_mde_pct = NAN;	/* too few rounds for the verdict to see any */
		row->has_spread = true;
	}
}

/*
 * Instructions per transaction: the verdict at the counted threshold
 * (report_compare_samples() reads it from the report's options, here a
 * copy's), and the design's spread.
 */
static void
compare_instructions(const ReportData *r, const ReportCell *c, ProfileMetricRow *row)
{
	ReportData	tight = *r;

	tight.opt.noise = PROFILE_COUNTED_NOISE;
	row->noise = PROFILE_COUNTED_NOISE;
	row->has = report_compare_samples(&tight, c, &row->a, &row->b, false, &row->cmp);
	design_spread(&tight.opt, row);
}

/*
 * "more", "less", "same within ±0.05%" (the whole CI inside the metric's
 * threshold; with "(B more by 0.010–0.030%)" when it excludes 0), "more;
 * beyond 0.05% not settled", or "~ no change (MDE x%)".
 */
static char *
verdict_text(const ProfileMetricRow *row)
{
	const StatsComparison *cmp = &row->cmp;

	if (!row->has)
		return "-";
	if (row->decision == STATS_DECIDED_SAME)
		return psprintf("same within ±%g%%%s", 100 * row->noise,
						report_direction_range(cmp, "less", "more", 3));
	return report_verdict_words(cmp, "less", "more", 2);
}

/*
 * What the writers print of a metric: each side's median, its decision at
 * its threshold (stats_comparison_decision(): summary.json's "decision"),
 * and the verdict's words, which come from that decision.
 */
static void
metric_shown(const ReportData *r, ProfileMetricRow *row)
{
	row->has_median_a = sample_median(r, &row->a, &row->median_a);
	row->has_median_b = sample_median(r, &row->b, &row->median_b);
	row->decision = row->has ? stats_comparison_decision(&row->cmp, row->noise) : STATS_UNDECIDED;
	row->verdict = verdict_text(row);
}

void
profile_report_load(ReportData *r)
{
	ProfileReport *pr;
	const MetricDef *defs;
	int			ndefs;
	int			missing = 0;
	char		missing_ids[256] = "";

	if (r->spec.profile.mode == PROFILE_OFF)
		return;
	pr = r->profile = pg_malloc0(sizeof(ProfileReport));
	pr->mode = r->spec.profile.mode;
	pr->runs = pg_malloc0(sizeof(RunProfile) * (r->nruns + 1));
	pr->cells = pg_malloc0(sizeof(CellProfile) * (r->ncells + 1));
	defs = pr->mode == PROFILE_COUNTED ? counted_metrics : sampled_metrics;
	ndefs = pr->mode == PROFILE_COUNTED ? lengthof(counted_metrics) : lengthof(sampled_metrics);

	for (int i = 0; i < r->nruns; i++)
	{
		if (!report_run_counted(&r->runs[i]))
			continue;
		load_run(r, i, &pr->runs[i]);
		if (!pr->runs[i].present && missing++ < 8)
			snprintf(missing_ids + strlen(missing_ids), sizeof(missing_ids) - strlen(missing_ids),
					 "%s%d", missing > 1 ? ", " : "", r->runs[i].run_id);
		if (pr->runs[i].present && pr->unit == NULL)
		{
			const char *ev = pr->runs[i].events[0];

			pr->unit = strcmp(ev, "Ir") == 0 ? "instructions" : strcmp(ev, "cycles") == 0 ? "cycles" : "ns";
			pr->unit_long = strcmp(ev, "Ir") == 0 ? "instructions per transaction" :
				strcmp(ev, "cycles") == 0 ? "cycles per transaction (user space)" :
				"ns of CPU per transaction (user space)";
		}
	}
	if (pr->unit == NULL)
		pr->unit = pr->unit_long = "";
	if (missing > 0)
		report_warn(r, "%d counted run(s) have no %s profile: %s%s (runs.csv, reason)", missing,
					profile_mode_name(pr->mode), missing_ids, missing > 8 ? ", ..." : "");

	for (int i = 0; i < r->ncells; i++)
	{
		ReportCell *c = &r->cells[i];
		CellProfile *cp = &pr->cells[i];

		for (int m = 0; m < ndefs && cp->nmetrics < PROFILE_MAX_METRICS; m++)
		{
			ProfileMetricRow  *row = &cp->metrics[cp->nmetrics];

			profile_sample(r, c->a, metric_value, &defs[m], &row->a);
			profile_sample(r, c->b, metric_value, &defs[m], &row->b);
			if (row->a.n == 0 && row->b.n == 0)
				continue;
			row->label = defs[m].label;
			row->noise = r->opt.noise;
			if (pr->mode == PROFILE_COUNTED && m == 0)
				compare_instructions(r, c, row);
			else
				row->has = report_compare_samples(r, c, &row->a, &row->b, false, &row->cmp);
			metric_shown(r, row);
			cp->nmetrics++;
		}
		compare_functions(r, c, cp);
		mean_stacks(r, c->a, &cp->a_stacks);
		mean_stacks(r, c->b, &cp->b_stacks);
		/* tps under valgrind is not a measure of speed */
		if (pr->mode == PROFILE_COUNTED)
		{
			c->has_comparison = false;
			/* a row of build seeds pooled has no variant of its own */
			if (c->variant >= 0)
				r->has_geomean[c->variant] = false;
		}
	}

	/* symbols: the share of each variant's cost no symbol names */
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		double		unknown = 0,
					total = 0;

		for (int i = 0; i < r->nruns; i++)
		{
			const RunProfile *rp = &pr->runs[i];
			const char *name;
			json_t	   *f;

			if (!rp->present || strcmp(r->runs[i].variant, report_variant_name(r, v)) != 0)
				continue;
			total += rp->totals[0];
			json_object_foreach(rp->functions, name, f)
				if (strncmp(name, "[unknown", 8) == 0)
				unknown += num_at(json_object_get(f, "self"), 0);
		}
		if (total > 0 && unknown / total > PROFILE_UNRESOLVED_WARN)
			report_warn(r, "variant %s: %.0f%% of its profiled cost is in code without a symbol ([unknown in ...]); "
						"its binaries name exported functions only, static ones are unnamed (docs/profiles.md, Symbols)",
						report_variant_name(r, v), 100 * unknown / total);
	}
}
