/*-------------------------------------------------------------------------
 *
 * profile_report.c
 *		The profiles of a results directory compared: counted or sampled
 *		metrics per transaction as rows beside tps, a verdict per function,
 *		and what every writer prints of them.
 *
 * Every comparison is report_compare_samples(), the one the tps verdict
 * makes, on the same runs and rounds: the same rules, the same unit of
 * test.  Costs are compared with higher_is_better off, so that "more"
 * (the verdict's "slower") is a larger cost.
 *
 * Functions: each whose self cost per transaction (median over runs) is
 * at least PROFILE_MIN_SHARE of its side's total gets a comparison; their
 * p-values get Benjamini–Hochberg q-values over the cell; a function has
 * changed when q < alpha and its whole CI lies beyond the noise threshold
 * (the verdict's rule, with q for p).  A run whose profile lacks a
 * function counts its floor, half the smallest cost it could have seen,
 * so that functions that appear or vanish are compared too.  Its part of
 * the total change is the difference of its medians, beside that of the
 * totals.
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
#include "table.h"
#include "profile.h"
#include "profile_report.h"
#include "profile_spec.h"
#include "profile_flame.h"
#include "results.h"
#include "safe_file.h"
#include "safe_read.h"

#include <math.h>
#include <sys/stat.h>

#define MAX_METRICS 6
#define TOP_CHANGES 5			/* function changes under the verdict table */
#define TABLE_FUNCTIONS 30		/* rows of the function table in the reports */

typedef struct RunProfile
{
	bool		present;
	json_t	   *functions;
	json_t	   *stacks;
	int			nevents;
	const char *events[PROF_MAX_EVENTS];
	double		totals[PROF_MAX_EVENTS];
	double		floor[PROF_MAX_EVENTS];
	long long	samples;
} RunProfile;

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

typedef struct MetricRow
{
	const char *label;
	ReportSample a;
	ReportSample b;
	bool		has;
	StatsComparison cmp;
	double		noise;			/* its verdict's threshold */
	bool		has_spread;		/* counted instructions: the design's exactness */
	int			spread_rounds;	/* rounds with a run on both sides */
	double		spread_pct;		/* half-width of an A/A's 95% CI */
	double		spread_mde_pct; /* and the MDE, at the same variation */
} MetricRow;

typedef struct FunctionRow
{
	char	   *name;
	const char *object;
	double		a_median;		/* self cost per transaction */
	double		b_median;
	double		a_incl;			/* inclusive, median: shown only */
	double		b_incl;
	bool		has;
	StatsComparison cmp;
	double		q;
	bool		changed;
} FunctionRow;

typedef struct CellProfile
{
	int			nmetrics;
	MetricRow	metrics[MAX_METRICS];
	FunctionRow *funcs;			/* compared ones, largest change first */
	int			nfuncs;
	int			nchanged;
	int			rounds_needed;	/* > 0: too few for one function to reach q < alpha */
	bool		has_total;
	double		a_total;		/* medians of the first event's total */
	double		b_total;
	Prof		a_stacks;		/* mean stacks per transaction */
	Prof		b_stacks;
	char	   *flame;			/* plots/flame-N.svg once written */
} CellProfile;

struct ProfileReport
{
	ProfileMode mode;
	RunProfile *runs;			/* parallel to r->runs */
	CellProfile *cells;			/* parallel to r->cells */
	const char *unit;			/* "instructions", "ns", "cycles" */
	const char *unit_long;
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

/*
 * A metric of a run: the sum of its events' totals, never below the floor
 * of the first (ratios are of logs, and a differenced count can be 0 or
 * less: profile_run_usable()), or NAN.
 */
static double
metric_value(const RunProfile *rp, const MetricDef *m)
{
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
function_value(const RunProfile *rp, const char *name)
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

/* ReportFigureValues of a run's profile, for report_figure_sample() */
static double
metric_of(const ReportData *r, int run, const void *metric)
{
	const RunProfile *rp = profile_at(r, run);

	return rp ? metric_value(rp, metric) : NAN;
}

static double
function_of(const ReportData *r, int run, const void *name)
{
	const RunProfile *rp = profile_at(r, run);

	return rp ? function_value(rp, name) : NAN;
}

static double
total_of(const ReportData *r, int run, const void *arg)
{
	const RunProfile *rp = profile_at(r, run);

	return rp ? rp->totals[0] : NAN;
}

static double
incl_of(const ReportData *r, int run, const void *name)
{
	const RunProfile *rp = profile_at(r, run);

	return rp ? num_at(json_object_get(json_object_get(rp->functions, name), "incl"), 0) : NAN;
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
shown_median(const ReportData *r, const ReportSample *side, ReportFigureValue value, const void *arg)
{
	ReportSample s;
	double		m = NAN;

	report_figure_sample(r, side, value, arg, &s);
	if (s.n > 0)
		m = report_median(s.tps, s.n);
	report_free_figure_sample(&s);
	return m;
}

static int
cmp_change(const void *x, const void *y)
{
	const FunctionRow *a = x;
	const FunctionRow *b = y;
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

	report_figure_sample(r, c->a, total_of, NULL, &ta);
	report_figure_sample(r, c->b, total_of, NULL, &tb);
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
				FunctionRow *row;

				if (prof_index_get(&seen, name) >= 0 || !profile_name_ok(name, false))
					continue;
				prof_index_put(&seen, name, 1);
				report_figure_sample(r, c->a, function_of, name, &fa);
				report_figure_sample(r, c->b, function_of, name, &fb);
				if (!sample_median(r, &fa, &ma) || !sample_median(r, &fb, &mb) ||
					(ma < PROFILE_MIN_SHARE * cp->a_total && mb < PROFILE_MIN_SHARE * cp->b_total))
				{
					report_free_figure_sample(&fa);
					report_free_figure_sample(&fb);
					continue;
				}
				cp->funcs = pg_realloc(cp->funcs, sizeof(FunctionRow) * (cp->nfuncs + 1));
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
			FunctionRow *row = &cp->funcs[i];

			row->q = p[i];
			row->changed = row->has && stats_fdr_discovery(&row->cmp, row->q, &r->opt);
			k += row->changed;
		}
	cp->nchanged = k;
	pfree(p);

	/*
	 * A single changed function has q = (functions compared) * p, and p is
	 * at least 2 / 2^rounds round by round: with too few rounds nothing
	 * can ever be a discovery, which the report must say.
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
			cp->rounds_needed = n;
		}
	}
	qsort(cp->funcs, cp->nfuncs, sizeof(FunctionRow), cmp_change);
}

/*
 * How exact the counted instructions of this design are, from its own
 * rounds: the paired log ratios B/A of the rounds with a run on each side
 * vary by sd; an A/A of the same rounds would have a 95% CI of half-width
 * t(0.975, n - 1) * sd / sqrt(n) (a constant difference between the
 * variants does not change sd), and the MDE is the verdict's at that sd.
 */
static void
design_spread(const StatsOptions *opt, MetricRow *row)
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
compare_instructions(const ReportData *r, const ReportCell *c, MetricRow *row)
{
	ReportData	tight = *r;

	tight.opt.noise = PROFILE_COUNTED_NOISE;
	row->noise = PROFILE_COUNTED_NOISE;
	row->has = report_compare_samples(&tight, c, &row->a, &row->b, false, &row->cmp);
	design_spread(&tight.opt, row);
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

		for (int m = 0; m < ndefs && cp->nmetrics < MAX_METRICS; m++)
		{
			MetricRow  *row = &cp->metrics[cp->nmetrics];

			report_figure_sample(r, c->a, metric_of, &defs[m], &row->a);
			report_figure_sample(r, c->b, metric_of, &defs[m], &row->b);
			if (row->a.n == 0 && row->b.n == 0)
				continue;
			row->label = defs[m].label;
			row->noise = r->opt.noise;
			if (pr->mode == PROFILE_COUNTED && m == 0)
				compare_instructions(r, c, row);
			else
				row->has = report_compare_samples(r, c, &row->a, &row->b, false, &row->cmp);
			cp->nmetrics++;
		}
		compare_functions(r, c, cp);
		mean_stacks(r, c->a, &cp->a_stacks);
		mean_stacks(r, c->b, &cp->b_stacks);
		/* tps under valgrind is not a measure of speed */
		if (pr->mode == PROFILE_COUNTED)
		{
			c->has_comparison = false;
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

/* ---- formatting ---- */

/* A cost's verdict: "more" and "less" for the verdict's slower and faster. */
static const char *
cost_verdict_name(StatsVerdict v)
{
	return v == STATS_SLOWER ? "more" : v == STATS_FASTER ? "less" : stats_verdict_name(v);
}

/*
 * A metric's decision at its threshold (stats_comparison_decision()):
 * summary.json's "decision" and the verdict's words both come from it.
 */
static StatsDecision
metric_decision(const MetricRow *row)
{
	return row->has ? stats_comparison_decision(&row->cmp, row->noise) : STATS_UNDECIDED;
}

/*
 * "more", "less", "same within ±0.05%" (the whole CI inside the metric's
 * threshold), or "~ no change (MDE x%)".
 */
static char *
verdict_text(const MetricRow *row)
{
	const StatsComparison *cmp = &row->cmp;

	if (!row->has)
		return "-";
	if (metric_decision(row) == STATS_DECIDED_SAME)
		return psprintf("same within ±%g%%", 100 * row->noise);
	if (cmp->verdict == STATS_NO_CHANGE && cmp->has_mde)
		return psprintf("~ no change (MDE %.2f%%)", cmp->mde_pct);
	return pstrdup(cost_verdict_name(cmp->verdict));
}

/* "instructions/tx: an A/A of this design ±0.020% (10 rounds), MDE 0.06%" */
static char *
spread_text(const MetricRow *row)
{
	return psprintf("%s: an A/A of this design would read within ±%.3f%% (95%% CI half-width from the "
					"variation of its %d paired rounds), MDE %s; verdict threshold ±%g%%",
					row->label, row->spread_pct, row->spread_rounds,
					isnan(row->spread_mde_pct) ? "beyond reach of so few rounds"
					: psprintf("%.3f%%", row->spread_mde_pct), 100 * row->noise);
}

static char *
fmt_cost(double v)
{
	double		a = fabs(v);

	if (isnan(v))
		return "-";
	if (a >= 100)
		return psprintf("%.0f", v);
	if (a >= 1)
		return psprintf("%.1f", v);
	return psprintf("%.3g", v);
}

static char *
fmt_signed(double v)
{
	return psprintf("%s%s", v >= 0 ? "+" : "", fmt_cost(v));
}

/* "GetSnapshotData +2011 (+172% [+171%, +173%], q 0.0039)" */
static char *
change_text(const FunctionRow *f)
{
	return psprintf("%s %s (%s [%s, %s], q %.2g)", f->name, fmt_signed(f->b_median - f->a_median),
					f->cmp.has_estimate ? report_pct(f->cmp.estimate) : "-",
					f->cmp.has_ci ? report_pct(f->cmp.ci_low) : "-",
					f->cmp.has_ci ? report_pct(f->cmp.ci_high) : "-", f->q);
}

static char *
too_few_rounds(const CellProfile *cp)
{
	if (cp->rounds_needed == 0)
		return "";
	return psprintf("; with so few runs not even one function could reach q < alpha among %d: "
					"make at least %d rounds", cp->nfuncs, cp->rounds_needed);
}

static const char *
captures_note(ProfileMode mode)
{
	return mode == PROFILE_COUNTED
		? "Counted under valgrind (callgrind): the backends' user-space instructions per transaction, "
		"each connection's after its warm-up; with cache_sim, misses of callgrind's simulated caches. "
		"Not seen: the kernel, I/O and lock waits, real cache contention between cores, and time itself "
		"(reading the client's socket and flushing statistics are left out); "
		"the tps of these runs is not a measure of speed and is not compared."
		: "Sampled by perf during the runs: user-space CPU per transaction of the server's processes "
		"(samples times their period, divided by the run's transactions). Not seen: the kernel, "
		"time spent waiting (I/O, locks, the network), and code below the sampling rate.";
}

/* The 11 cells of a metric's row, as the terminal and the reports print it. */
static void
metric_cells(const ReportData *r, const ReportCell *c, const MetricRow *row, const char **cells)
{
	double		ma,
				mb;

	cells[0] = c->script;
	cells[1] = psprintf("%d", c->clients);
	cells[2] = report_variant_name(r, c->variant);
	cells[3] = row->label;
	cells[4] = sample_median(r, &row->a, &ma) ? fmt_cost(ma) : "-";
	cells[5] = sample_median(r, &row->b, &mb) ? fmt_cost(mb) : "-";
	report_comparison_cells(&row->cmp, row->has, &cells[6]);
	cells[10] = verdict_text(row);
}

void
profile_print_summary(const ReportData *r, FILE *out)
{
	const ProfileReport *pr = r->profile;
	const char *headers[] = {"script", "clients", "variant", "metric", "A", "B", "B/A", "CI", "p", "n", "verdict"};
	TextTable  *t;

	if (pr == NULL || r->ncells == 0)
		return;
	fprintf(out, "\n%s profile (%s): %s\n", profile_mode_name(pr->mode),
			pr->mode == PROFILE_COUNTED ? "tps above is under valgrind and not compared" : "runs as above",
			pr->unit_long);
	t = table_create(lengthof(headers), headers);
	for (int i = 0; i < r->ncells; i++)
		for (int m = 0; m < pr->cells[i].nmetrics; m++)
		{
			const char *cells[lengthof(headers)];

			metric_cells(r, &r->cells[i], &pr->cells[i].metrics[m], cells);
			table_add_row(t, cells);
		}
	table_print(t, out);
	table_free(t);
	for (int i = 0; i < r->ncells; i++)
		for (int m = 0; m < pr->cells[i].nmetrics; m++)
			if (pr->cells[i].metrics[m].has_spread)
				fprintf(out, "%s, %s\n", report_cell_title(&r->cells[i]), spread_text(&pr->cells[i].metrics[m]));
	for (int i = 0; i < r->ncells; i++)
	{
		const CellProfile *cp = &pr->cells[i];

		fprintf(out, "function changes, %s (%s, q < %g beyond ±%g%%):", report_cell_title(&r->cells[i]),
				pr->unit, r->opt.alpha, 100 * r->opt.noise);
		if (!cp->has_total)
		{
			fprintf(out, " no profiled runs\n");
			continue;
		}
		if (cp->nchanged == 0)
			fprintf(out, " none of %d functions compared%s\n", cp->nfuncs, too_few_rounds(cp));
		else
		{
			fprintf(out, "\n");
			for (int f = 0; f < cp->nfuncs && f < TOP_CHANGES && cp->funcs[f].changed; f++)
				fprintf(out, "  %s\n", change_text(&cp->funcs[f]));
			fprintf(out, "  of %s %s per transaction in total; %d of %d functions compared changed\n",
					fmt_signed(cp->b_total - cp->a_total), pr->unit, cp->nchanged, cp->nfuncs);
		}
	}
}

void
profile_write_sections(const ReportData *r, Doc *d)
{
	const ProfileReport *pr = r->profile;
	static const char *const mhdr[] = {"script", "clients", "variant", "metric", "A (median)",
	"B (median)", "B/A", "CI", "p", "n", "verdict", "why"};
	static const char *const fhdr[] = {"function", "object", "A self", "B self", "change",
	"B/A", "CI", "p", "q", "changed", "A inclusive", "B inclusive"};

	if (pr == NULL)
		return;
	doc_heading(d, 2, psprintf("%s profile", pr->mode == PROFILE_COUNTED ? "Counted" : "Sampled"));
	doc_para(d, "%s", captures_note(pr->mode));
	doc_para(d, "Each metric is compared with the same statistics as tps (B/A of costs: above 1 is more). "
			 "Functions whose self cost is at least %.0f%% of a side's total are compared one by one; "
			 "q is the Benjamini-Hochberg false discovery rate over the functions of a comparison, and a "
			 "function has changed when q < %g and its whole CI lies beyond ±%g%%. Self costs add up to "
			 "the total; inclusive ones (what a function and its callees cost) do not, and are shown only.",
			 100 * PROFILE_MIN_SHARE, r->opt.alpha, 100 * r->opt.noise);
	doc_table_begin(d, lengthof(mhdr), mhdr);
	for (int i = 0; i < r->ncells; i++)
		for (int m = 0; m < pr->cells[i].nmetrics; m++)
		{
			const MetricRow *row = &pr->cells[i].metrics[m];
			const char *cells[lengthof(mhdr)];

			metric_cells(r, &r->cells[i], row, cells);
			cells[11] = row->has ? row->cmp.reason : "";
			doc_table_row(d, cells);
		}
	doc_table_end(d);
	for (int i = 0; i < r->ncells; i++)
		for (int m = 0; m < pr->cells[i].nmetrics; m++)
			if (pr->cells[i].metrics[m].has_spread)
				doc_para(d, "%s, %s.", report_cell_title(&r->cells[i]), spread_text(&pr->cells[i].metrics[m]));

	for (int i = 0; i < r->ncells; i++)
	{
		const CellProfile *cp = &pr->cells[i];

		doc_heading(d, 3, psprintf("Functions, %s", report_cell_title(&r->cells[i])));
		if (!cp->has_total)
		{
			doc_para(d, "No profiled runs on both sides.");
			continue;
		}
		if (cp->nchanged == 0)
			doc_para(d, "No function changed: %d compared, %s %s per transaction in total%s.",
					 cp->nfuncs, fmt_signed(cp->b_total - cp->a_total), pr->unit, too_few_rounds(cp));
		else
			for (int f = 0; f < cp->nfuncs && cp->funcs[f].changed; f++)
				doc_para(d, "%s %s of %s %s per transaction (%s [%s, %s], q %.2g)", cp->funcs[f].name,
						 fmt_signed(cp->funcs[f].b_median - cp->funcs[f].a_median),
						 fmt_signed(cp->b_total - cp->a_total), pr->unit,
						 cp->funcs[f].cmp.has_estimate ? report_pct(cp->funcs[f].cmp.estimate) : "-",
						 cp->funcs[f].cmp.has_ci ? report_pct(cp->funcs[f].cmp.ci_low) : "-",
						 cp->funcs[f].cmp.has_ci ? report_pct(cp->funcs[f].cmp.ci_high) : "-",
						 cp->funcs[f].q);
		doc_table_begin(d, lengthof(fhdr), fhdr);
		for (int f = 0; f < cp->nfuncs && f < TABLE_FUNCTIONS; f++)
		{
			const FunctionRow *row = &cp->funcs[f];
			const char *cells[lengthof(fhdr)];

			cells[0] = row->name;
			cells[1] = row->object;
			cells[2] = fmt_cost(row->a_median);
			cells[3] = fmt_cost(row->b_median);
			cells[4] = fmt_signed(row->b_median - row->a_median);
			cells[5] = row->has && row->cmp.has_estimate ? report_pct(row->cmp.estimate) : "-";
			cells[6] = row->has && row->cmp.has_ci
				? psprintf("[%s, %s]", report_pct(row->cmp.ci_low), report_pct(row->cmp.ci_high)) : "-";
			cells[7] = row->has && row->cmp.has_p ? psprintf("%.3g", row->cmp.p_value) : "-";
			cells[8] = psprintf("%.3g", row->q);
			cells[9] = row->changed ? (row->cmp.estimate > 1 ? "more" : "less") : "";
			cells[10] = fmt_cost(row->a_incl);
			cells[11] = fmt_cost(row->b_incl);
			doc_table_row(d, cells);
		}
		doc_table_end(d);
		if (cp->nfuncs > TABLE_FUNCTIONS)
			doc_para(d, "%d more functions compared, none of them changed; all are in summary.json.",
					 cp->nfuncs - TABLE_FUNCTIONS);
		if (cp->flame)
			doc_svg(d, cp->flame,
					psprintf("Differential flame graph, %s: width is %s's %s, colour the change against %s "
							 "(red more, blue less). Folded stacks per variant: profiles/.",
							 report_cell_title(&r->cells[i]), report_variant_name(r, r->cells[i].variant),
							 pr->unit_long, r->cells[i].base_name));
	}
}

/* ---- summary.json ---- */

static json_t *
comparison_figures(const StatsComparison *x, bool ok)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:i, s:s}",
					 "estimate", report_json_num(ok && x->has_estimate, x->estimate),
					 "ci_low", report_json_num(ok && x->has_ci, x->ci_low),
					 "ci_high", report_json_num(ok && x->has_ci, x->ci_high),
					 "p_value", report_json_num(ok && x->has_p, x->p_value),
					 "n_pairs", ok ? x->n_pairs : 0,
					 "verdict", ok ? cost_verdict_name(x->verdict) : "insufficient");
}

json_t *
profile_summary_json(const ReportData *r)
{
	const ProfileReport *pr = r->profile;
	json_t	   *cells = json_array();

	if (pr == NULL)
		return NULL;
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		const CellProfile *cp = &pr->cells[i];
		json_t	   *metrics = json_array();
		json_t	   *funcs = json_array();

		for (int m = 0; m < cp->nmetrics; m++)
		{
			const MetricRow *row = &cp->metrics[m];
			json_t	   *j = comparison_figures(&row->cmp, row->has);
			double		ma = 0,
						mb = 0;
			bool		ha = sample_median(r, &row->a, &ma),
						hb = sample_median(r, &row->b, &mb);

			json_object_set_new(j, "metric", json_string(row->label));
			json_object_set_new(j, "noise", json_real(row->noise));
			json_object_set_new(j, "verdict_text", json_string(verdict_text(row)));
			json_object_set_new(j, "decision", json_string(report_decision_word(metric_decision(row))));
			if (row->has_spread)
			{
				json_object_set_new(j, "aa_spread_pct", json_real(row->spread_pct));
				json_object_set_new(j, "aa_mde_pct", report_json_num(!isnan(row->spread_mde_pct), row->spread_mde_pct));
				json_object_set_new(j, "aa_rounds", json_integer(row->spread_rounds));
			}
			json_object_set_new(j, "a_median", report_json_num(ha, ma));
			json_object_set_new(j, "b_median", report_json_num(hb, mb));
			json_array_append_new(metrics, j);
		}
		for (int f = 0; f < cp->nfuncs; f++)
		{
			const FunctionRow *row = &cp->funcs[f];
			json_t	   *j = comparison_figures(&row->cmp, row->has);

			json_object_set_new(j, "function", json_string(row->name));
			json_object_set_new(j, "object", json_string(row->object));
			json_object_set_new(j, "a_median", json_real(row->a_median));
			json_object_set_new(j, "b_median", json_real(row->b_median));
			json_object_set_new(j, "change", json_real(row->b_median - row->a_median));
			json_object_set_new(j, "q_value", json_real(row->q));
			json_object_set_new(j, "changed", json_boolean(row->changed));
			json_array_append_new(funcs, j);
		}
		json_array_append_new(cells,
							  json_pack("{s:s, s:i, s:s, s:s, s:o, s:o, s:o, s:i, s:o}",
										"script", c->script, "clients", c->clients,
										"baseline", c->base_name,
										"variant", report_variant_name(r, c->variant),
										"a_total", report_json_num(cp->has_total, cp->a_total),
										"b_total", report_json_num(cp->has_total, cp->b_total),
										"metrics", metrics, "changed", cp->nchanged,
										"functions", funcs));
	}
	return json_pack("{s:s, s:s, s:f, s:o}", "mode", profile_mode_name(pr->mode),
					 "unit", pr->unit_long, "min_share", PROFILE_MIN_SHARE, "cells", cells);
}

/* ---- files: folded stacks and flame graphs ---- */

/* A name safe in a file name: what variant names allow, the rest '_'. */
static char *
file_part(const char *s)
{
	char	   *out = pg_strdup(s);

	for (char *p = out; *p; p++)
		if (!isalnum((unsigned char) *p) && *p != '-' && *p != '.' && *p != '@')
			*p = '_';
	return out;
}

/*
 * Folded stacks, "frame;frame;frame COUNT" per line, COUNT in thousandths
 * of the unit per transaction (folded-stack readers want whole numbers).
 */
static bool
write_folded(const char *path, const Prof *stacks, char **error)
{
	FILE	   *f = safe_fopen_write(path, false, error);

	if (f == NULL)
		return false;
	for (int s = 0; s < stacks->nstacks; s++)
	{
		long long	count = llround(stacks->stacks[s].value * 1000);

		if (count > 0)
			fprintf(f, "%s %lld\n", stacks->stacks[s].frames, count);
	}
	return safe_fclose(f, error);
}

bool
profile_write_files(const ReportData *r, char **error)
{
	ProfileReport *pr = r->profile;
	char	   *profiles = psprintf("%s/profiles", r->dir);
	char	   *plots = psprintf("%s/plots", r->dir);

	if (pr == NULL)
		return true;
	if (!safe_mkdir(profiles, 0755, 0, error) || !safe_mkdir(plots, 0755, 0, error))
		return false;
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		CellProfile *cp = &pr->cells[i];
		char	   *cell = psprintf("%s.c%d", file_part(c->script), c->clients);
		char	   *flame = psprintf("%s/flame-%d.svg", plots, i + 1);
		FILE	   *f;

		if (!write_folded(psprintf("%s/%s.%s.folded", profiles, c->base_name, cell),
						  &cp->a_stacks, error) ||
			!write_folded(psprintf("%s/%s.%s.folded", profiles, report_variant_name(r, c->variant), cell),
						  &cp->b_stacks, error))
			return false;
		if (cp->b_stacks.nstacks == 0)
			continue;
		if ((f = safe_fopen_write(flame, false, error)) == NULL)
			return false;
		prof_flame_svg(f, cp->a_stacks.stacks, cp->a_stacks.nstacks,
					   cp->b_stacks.stacks, cp->b_stacks.nstacks,
					   psprintf("%s profile, %s", profile_mode_name(pr->mode), report_cell_title(c)),
					   pr->unit_long);
		if (!safe_fclose(f, error))
			return false;
		cp->flame = flame;
	}
	return true;
}
