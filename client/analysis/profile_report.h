/*-------------------------------------------------------------------------
 *
 * profile_report.h
 *		Profiles in the report: metrics and functions compared, every
 *		figure computed once into r->profile (profile_report.c, of the
 *		analysis stage); profile_report_write.h has their writers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_REPORT_H
#define PGBENCH_EXT_PROFILE_REPORT_H

#include "profile_data.h"
#include "profile_spec.h"
#include "report.h"

#define PROFILE_MAX_METRICS 6

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

typedef struct ProfileMetricRow
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
	bool		has_median_a;	/* each side's median, as stats_summarize() gives it */
	bool		has_median_b;
	double		median_a;
	double		median_b;
	char	   *verdict;		/* "more", "less", "same within ±x%", ... */
	StatsDecision decision;		/* at its threshold: summary.json's "decision" */
} ProfileMetricRow;

typedef struct ProfileFunctionRow
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
} ProfileFunctionRow;

typedef struct CellProfile
{
	int			nmetrics;
	ProfileMetricRow	metrics[PROFILE_MAX_METRICS];
	ProfileFunctionRow *funcs;			/* compared ones, largest change first */
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

/* r->profile: what profile_report.c computed, for profile_report_write.c */
struct ProfileReport
{
	ProfileMode mode;
	RunProfile *runs;			/* parallel to r->runs */
	CellProfile *cells;			/* parallel to r->cells */
	const char *unit;			/* "instructions", "ns", "cycles" */
	const char *unit_long;
};

/* A cost's verdict: "more" and "less" for the verdict's slower and faster. */
static inline const char *
profile_cost_verdict_name(StatsVerdict v)
{
	switch (v)
	{
		case STATS_SLOWER:
			return "more";
		case STATS_FASTER:
			return "less";
		case STATS_SLOWER_WITHIN:
			return "more, by less than the threshold";
		case STATS_FASTER_WITHIN:
			return "less, by less than the threshold";
		case STATS_SLOWER_UNSETTLED:
			return "more; beyond the threshold not settled";
		case STATS_FASTER_UNSETTLED:
			return "less; beyond the threshold not settled";
		case STATS_NO_CHANGE:
		case STATS_INSUFFICIENT:
			break;
	}
	return stats_verdict_name(v);
}

extern void profile_report_load(ReportData *r);

/* A runs/NNNN.profile.json the report (and import) can use */
extern bool profile_run_usable(json_t *doc);
extern bool profile_name_ok(const char *name, bool stack);

#endif							/* PGBENCH_EXT_PROFILE_REPORT_H */
