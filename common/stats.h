/*-------------------------------------------------------------------------
 *
 * stats.h
 *		The statistics behind pgbench_ext's verdicts, shared by the client
 *		and the extension.
 *
 * One copy of this code is compiled into both the client program and the
 * server module, so that pgbench_ext.compare() in psql and the client's
 * terminal table print the same figures to the last digit.  It is plain
 * C99 with libm: no PostgreSQL headers, no global state, no output; but
 * for stats_host.h, which in the server module (only) gives its memory
 * from palloc and its long loops CHECK_FOR_INTERRUPTS().
 *
 * Inputs are arrays of per-run measurements (tps, or latency), all of
 * which must be finite and > 0: comparisons work on their logarithms, so
 * that an effect is a ratio B/A and noise is relative.  Functions that can
 * fail return a negative StatsError (STATS_OK or a count otherwise), and no
 * figure is ever NaN: one that cannot be computed (too few runs) is marked
 * by a has_* flag set to false, and its value is then 0.
 *
 * Files: stats_dist.c (exact and normal distributions, with and without
 * ties), stats_tdist.c (Student's t and its power), stats_rank.c (rank
 * tests and estimates), stats.c (summaries, outliers, robust spread),
 * stats_mde.c (minimum detectable effects), stats_pairs.c (which runs
 * pair), stats_compare.c (B against A and the verdict), stats_nested.c
 * (the verdict across instance or seed pairs), stats_components.c (where
 * the noise lives), stats_design.c (the cheapest design that would
 * decide), stats_sequential.c (decisions after every block of rounds),
 * stats_seqbounds.c (their group-sequential boundaries), stats_seqbudget.c
 * (a budget's looks and the decision they reach), stats_fdr.c
 * (Benjamini–Hochberg), stats_changepoint.c (change points in a history),
 * stats_warn.c (the rules of the warnings that judge data).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_STATS_H
#define PGBENCH_EXT_STATS_H

#include <stdbool.h>

typedef enum StatsError
{
	STATS_OK = 0,
	STATS_ERR_NOMEM = -1,		/* malloc failed */
	STATS_ERR_VALUE = -2,		/* a value is not finite, or not > 0 */
	STATS_ERR_OPTION = -3,		/* alpha, noise, power, effect or plan out of range */
	STATS_ERR_SIZE = -4,		/* negative count, or too many pairs */
	STATS_ERR_UNIT = -5,		/* unit ids for one side only, or a unit kind not above the round */
	STATS_ERR_PROB = -6			/* a p-value not in [0, 1] */
} StatsError;

extern const char *stats_strerror(int err);

/* Reason strings are at most this long, including the terminating NUL. */
#define STATS_REASON_LEN 256

/*
 * Exact distributions are used up to this many arrangements, i.e. while
 * counts are exact integers in a double (2^53); normal approximations
 * (with tie and continuity corrections) past that.
 */
#define STATS_EXACT_MAX_COUNT 9.0e15

/*
 * The Hodges–Lehmann estimate sorts all n_a * n_b pairwise ratios; past
 * this many (80 MB of doubles) it is refused with STATS_ERR_SIZE.
 */
#define STATS_MAX_PAIRS 10000000

typedef struct StatsOptions
{
	double		alpha;			/* two-sided significance level, (0,1) */
	double		noise;			/* smallest ratio change that counts, [0,1) */
	double		power;			/* for the minimum detectable effect, (0,1) */
	bool		higher_is_better;	/* true for tps, false for latency */
} StatsOptions;

/* alpha 0.05, noise 0.01, power 0.8, higher_is_better true */
extern void stats_default_options(StatsOptions *opt);
extern int	stats_check_options(const StatsOptions *opt);

/* ---- One sample (one variant in one cell) ---- */

typedef struct StatsSummary
{
	int			n;
	double		median;
	bool		has_median_ci;	/* false when n is too small for the level */
	double		median_ci_low;
	double		median_ci_high;
	/* achieved confidence (>= the level asked); if !has_median_ci, the best n allows */
	double		median_ci_confidence;
	int			median_ci_rank; /* CI = [x(k), x(n+1-k)], 1-based */
	double		mean;
	double		stddev;			/* sample sd (n-1); 0 when n < 2 */
	double		cv;				/* stddev / mean; 0 when n < 2 */
	double		mad;			/* median absolute deviation, unscaled */
	double		min;
	double		max;
} StatsSummary;

/* level is the confidence asked for the median CI, e.g. 1 - alpha */
/* x sorted ascending in place (NaN-free values) */
extern void stats_sort(double *x, int n);

extern int	stats_summarize(const double *x, int n, double level,
							StatsSummary *out);

/* ---- B against A ---- */

/*
 * What a comparison says.  Only faster and slower decide (the whole CI
 * beyond the noise threshold); the four values after them are what was
 * once all "no change": the CI excludes 1, so the direction is known, and
 * either its size is too (the whole CI inside the threshold) or whether it
 * exceeds the threshold is not (the CI crosses the threshold's edge).  New
 * values go at the end: the numbers are the same in every build.
 */
typedef enum StatsVerdict
{
	STATS_INSUFFICIENT,			/* too few runs (or units) for the test ever to reject */
	STATS_NO_CHANGE,			/* the CI includes 1 (or there is none) */
	STATS_FASTER,
	STATS_SLOWER,
	STATS_FASTER_WITHIN,		/* CI inside (1, 1 + noise]: faster by less */
	STATS_SLOWER_WITHIN,
	STATS_FASTER_UNSETTLED,		/* CI above 1, across 1 + noise */
	STATS_SLOWER_UNSETTLED
} StatsVerdict;

/*
 * "insufficient", "no change", "faster", "slower", "faster, by less than
 * the threshold", "slower, by less than the threshold", "faster; beyond
 * the threshold not settled", "slower; beyond the threshold not settled":
 * SQL's and summary.json's values, the threshold not in them so that they
 * can be compared.
 */
extern const char *stats_verdict_name(StatsVerdict v);

/* +1 for a verdict that says faster (beyond, within or unsettled), -1 slower, 0 otherwise */
extern int	stats_verdict_direction(StatsVerdict v);

/*
 * Neither insufficient nor beyond the threshold: no change, or a
 * direction whose size is within or across the threshold.  What a count
 * of verdicts that do not decide (an A/A's false positives) counts as
 * not deciding.
 */
extern bool stats_verdict_within_noise(StatsVerdict v);

/*
 * The unit of a comparison's test and CI: what one independent sample is.
 * The caller decides it from the design: the highest level that varies
 * between the two sides.
 */
typedef enum StatsUnit
{
	STATS_UNIT_RUN,				/* unpaired: all runs of A against all runs of B */
	STATS_UNIT_ROUND,			/* paired rounds on one pair of servers */
	STATS_UNIT_INSTANCE_PAIR,	/* the rounds between two restarts of both sides' servers */
	STATS_UNIT_SEED_PAIR,		/* the builds of both sides with one build seed */
	STATS_UNIT_BUILD_PAIR,		/* one build of each side */
	STATS_UNIT_MACHINE_PAIR		/* both sides on one machine (the farm's top level) */
} StatsUnit;

/*
 * "run", "round", "instance pair", "build seed pair", "build pair",
 * "machine pair", with an "s" when count != 1.
 */
extern const char *stats_unit_name(StatsUnit unit, int count);

/*
 * The unit above the round that a name (singular, as stats_unit_name
 * gives it) means, or -1 for any other name.
 */
extern int	stats_unit_from_name(const char *name);

typedef struct StatsComparison
{
	int			n_a;
	int			n_b;

	/*
	 * What the test's unit was and how many the test used: for
	 * STATS_UNIT_RUN 0 (two samples of n_a and n_b runs), for
	 * STATS_UNIT_ROUND the pairs (= n_pairs), for the units above the
	 * round the unit summaries (stats_compare_units).
	 */
	StatsUnit	unit;
	int			n_units;

	/*
	 * Paired rounds behind the figures (a round with one counted run of
	 * each side), or 0 when the runs were compared unpaired (or across
	 * units without rounds).  Round by round (STATS_UNIT_ROUND): the
	 * estimate and CI are those of the per-round log ratios (Walsh
	 * averages), the test is the Wilcoxon signed-rank test and u holds W+.
	 * Across units: the rounds inside the units.
	 */
	int			n_pairs;

	/*
	 * Observations the test ranked: n_a + n_b unpaired, the pairs with a
	 * non-zero difference round by round (zeros carry no sign and are
	 * dropped), n_units across units.
	 */
	int			n_used;

	/*
	 * The estimate of the ratio b/a and its CI.  Unpaired: the Hodges–
	 * Lehmann estimate exp(median of all log(b_j / a_i)) with its
	 * distribution-free CI [D(k), D(mn+1-k)] of the sorted log ratios;
	 * round by round: the same over Walsh averages; across units:
	 * exp(mean of the unit summaries) with the t interval (ci_rank 0).
	 * With ties the ranks k are those of continuous data (see
	 * stats_hodges_lehmann).
	 */
	bool		has_estimate;	/* both sides have runs (units: at least one) */
	double		estimate;
	double		change_pct;		/* 100 * (estimate - 1) */
	bool		has_ci;			/* false when too few runs or units for 1-alpha */
	double		ci_low;			/* ratio */
	double		ci_high;
	double		ci_confidence;	/* achieved, >= 1 - alpha (exactly that for t) */
	int			ci_rank;		/* k: CI = [D(k), D(N+1-k)] of sorted log ratios; 0 for t */
	bool		ci_exact;		/* k from the exact rank distribution */

	/*
	 * The two-sided test: Mann–Whitney unpaired (u = U of b, ties as
	 * halves), Wilcoxon signed-rank round by round (u = W+), Student's t
	 * across units (u = t, df = n_units - 1).
	 */
	bool		has_p;			/* the test could be computed */
	double		u;
	double		df;				/* degrees of freedom of t; 0 for rank tests */
	double		p_value;
	bool		p_exact;		/* exact rank distribution (given the ties); false for t */

	/*
	 * The smallest p these data could give whatever the outcome: 2/C(m+n,m)
	 * unpaired without ties, twice the likeliest extreme arrangement given
	 * the ties (1 when all runs are equal); 2/2^n_used round by round; 0
	 * across 2 or more units that differ, 1 otherwise.  min_p >= alpha is
	 * "insufficient".
	 */
	double		min_p;

	/*
	 * The smallest change that the verdict (not only the test) reports as
	 * faster or slower with probability opt->power, at the noise observed
	 * here and these numbers of runs, pairs or units (stats_mde.c); an
	 * increase, in percent.
	 */
	bool		has_mde;
	double		mde_pct;

	StatsVerdict verdict;
	double		noise;			/* the threshold the verdict was judged at (opt->noise) */
	char		reason[STATS_REASON_LEN];
} StatsComparison;

/*
 * The verdict, for every kind of comparison: "faster"/"slower" only when
 * p < alpha and the whole CI of b/a lies beyond the noise threshold (above
 * 1 + noise or below 1 - noise; which is faster depends on
 * higher_is_better); "insufficient" when a side has no runs or min_p >=
 * alpha; otherwise, when the CI excludes 1, its direction "by less than
 * the threshold" (the CI wholly inside it) or "beyond the threshold not
 * settled" (the CI across its edge); "no change" only when the CI
 * includes 1, with the MDE in the reason.
 */

/* Unpaired: Mann–Whitney and Hodges–Lehmann on all runs. */
extern int	stats_compare(const double *a, int n_a, const double *b, int n_b,
						  const StatsOptions *opt, StatsComparison *out);

/* The same on n paired rounds: a[i] and b[i] are the two sides' runs in round i. */
extern int	stats_compare_paired(const double *a, const double *b, int n,
								 const StatsOptions *opt, StatsComparison *out);

/*
 * The comparison an interleaved experiment on one pair of servers uses:
 * runs of A and B carry their round numbers (> 0; <= 0 means in no
 * round); rounds with exactly one run of each side are pairs.  When there
 * are enough pairs for the signed-rank test to reject at alpha at all
 * (2 / 2^n < alpha: 6 at 0.05), the paired comparison of those rounds,
 * which cancels the machine's drift between rounds (and says insufficient
 * if rounds without any difference leave too few that count); otherwise
 * stats_compare() of all runs.  round_a and round_b may be NULL
 * (unpaired).  Every value is validated, in a pair or not.
 */
extern int	stats_compare_rounds(const double *a, const int *round_a, int n_a,
								 const double *b, const int *round_b, int n_b,
								 const StatsOptions *opt, StatsComparison *out);

/*
 * The same with the unit chosen at unit_alpha and the test and CI made at
 * opt->alpha: a look of rounds = auto on one pair of servers tests at its
 * own level, often far below the experiment's alpha and set by the
 * budget's clock, and a unit chosen at that level would judge its rounds
 * unpaired or not by how fast the blocks ran (stats_sequential_look passes
 * the experiment's alpha: round by round from 6 rounds at 0.05, as the
 * fixed verdict of those rounds).  Too few pairs for the look's level:
 * "insufficient", with the rounds it needs.
 */
extern int	stats_compare_rounds_at(const double *a, const int *round_a, int n_a,
									const double *b, const int *round_b, int n_b,
									double unit_alpha, const StatsOptions *opt,
									StatsComparison *out);

/*
 * The nested verdict (stats_nested.c), for sides on different servers or
 * builds: each run also carries a unit id, the same for both sides' runs
 * of one unit (e.g. the number of the instance pair: rounds between two
 * restarts share one pair of server starts; or the build seed).  Per
 * unit one summary: the mean of its paired rounds' log ratios, a pair
 * being a round of that unit with exactly one run of each side; without
 * rounds (round_a or round_b NULL) the unit's mean log b minus mean log
 * a.  Units with no pair (or no run of one side) are left out.  Then
 * Student's t test of the summaries against 0 and the t interval, on
 * n_units - 1 degrees of freedom; "insufficient" with fewer than 2 units
 * or when all summaries are equal.  unit names the kind (one of
 * STATS_UNIT_INSTANCE_PAIR, _SEED_PAIR, _BUILD_PAIR) for the reason and
 * out->unit.  With unit_a and unit_b both NULL it is
 * stats_compare_rounds(); one of them NULL, or another kind, is
 * STATS_ERR_UNIT.  Unit ids are any ints.  O(n log n).
 */
extern int	stats_compare_units(const double *a, const int *round_a,
								const int *unit_a, int n_a,
								const double *b, const int *round_b,
								const int *unit_b, int n_b,
								StatsUnit unit, const StatsOptions *opt,
								StatsComparison *out);

/* ---- Minimum detectable effects (stats_mde.c) ---- */

/*
 * The test's MDE in percent: the smallest change a rank test at alpha
 * detects (p < alpha) with the given power, for m and n runs whose log
 * values have robust sd "sd_log" (1.4826 * MAD, pooled); false if it
 * cannot be computed (a side without runs).  Not the verdict's, which
 * also needs the CI beyond the noise threshold: for an effect of this size
 * the verdict says faster only 10-30% of the time.  Kept for sizing
 * experiments by the test alone.
 */
extern bool stats_mde_pct(double sd_log, int m, int n, double alpha,
						  double power, double *mde_pct);

/* The same for n paired rounds whose log ratios have robust sd "sd_log_ratio". */
extern bool stats_mde_paired_pct(double sd_log_ratio, int n, double alpha,
								 double power, double *mde_pct);

/*
 * The verdict's MDE in percent (what StatsComparison.mde_pct holds): the
 * smallest increase that the verdict reports as faster (or, for latency,
 * slower) with probability opt->power at opt->alpha and opt->noise, the
 * sd being an estimate from these very runs, rounds or units (it enters
 * at its upper 70% confidence bound, so that the promise holds on average
 * over the estimate's error), for
 * m and n runs with pooled robust log sd "sd_log" (unpaired), for n paired
 * rounds with robust sd "sd_log_ratio" of their log ratios, or for k unit
 * summaries with sample sd "sd_units".  False if no verdict is possible at
 * all (no CI at 1 - alpha for these sizes, k < 2) or the options are out
 * of range.  The method is in stats_mde.c.
 */
extern bool stats_verdict_mde_pct(double sd_log, int m, int n,
								  const StatsOptions *opt, double *mde_pct);
extern bool stats_verdict_mde_paired_pct(double sd_log_ratio, int n,
										 const StatsOptions *opt,
										 double *mde_pct);
extern bool stats_verdict_mde_units_pct(double sd_units, int k,
										const StatsOptions *opt,
										double *mde_pct);

/*
 * The factor by which the verdict's MDE multiplies an estimated sd: its
 * upper 70% confidence bound over the estimate (stats_mde.c).  For a
 * sample sd on df degrees of freedom, sqrt(df / chi2(0.3, df)); for the
 * robust sd (1.4826 MAD) of n_a values, pooled with n_b more (0: one
 * sample), from the MAD's simulated sampling distribution.  NaN without
 * degrees of freedom.
 */
extern double stats_sd_bound_factor(double df);
extern double stats_robust_sd_bound_factor(int n_a, int n_b);

/*
 * Its mirror, stricter: the lower 90% confidence bound of a sample sd on df
 * degrees of freedom over the estimate, sqrt(df / chi2(0.9, df)); what a
 * claim that the noise is too large for a budget ("cannot") rests on (the
 * pre-flight and pilot, preflight.c; the line after the second block).
 */
extern double stats_sd_lower_bound_factor(double df);

/*
 * Robust sd of y: 1.4826 times its median absolute deviation, or the sample
 * sd when that is 0.
 */
extern int	stats_robust_sd(const double *y, int n, double *sd);

/*
 * Robust sd of log values pooled over both sides (used by stats_compare);
 * with n_b = 0, that of a alone.
 */
extern int	stats_pooled_log_sd(const double *a, int n_a, const double *b,
								int n_b, double *sd);

/* ---- Where the noise lives (stats_components.c) ---- */

/*
 * The levels of the design, from the top.  On the comparison's scale
 * (stats_ratio_components) they are pairs: build pairs, instance pairs,
 * and paired rounds; there is no second level.
 */
typedef enum StatsLevel
{
	STATS_LEVEL_BUILD,			/* between builds (build seeds) */
	STATS_LEVEL_INSTANCE,		/* between server starts of one build */
	STATS_LEVEL_ROUND,			/* between runs (rounds) on one server */
	STATS_LEVEL_SECOND,			/* between seconds of one run */
	STATS_N_LEVELS
} StatsLevel;

/* "build", "instance", "round", "second" */
extern const char *stats_level_name(StatsLevel level);

/*
 * Variance components of log values by level, by the method of moments
 * for a nested design (hierarchical ANOVA; Searle, Casella and McCulloch,
 * "Variance Components", ch. 4, the estimator Kalibera and Jones use):
 * sums of squares of each level's means about their parent's, set equal
 * to their expectations, solved from the lowest level up.  Unbalanced
 * designs are fine.  A level that does not vary in the data (one build;
 * one instance per build) has no estimate (has false, df 0), and its
 * variance is then counted in the level above it.  A moment estimate can
 * come out below 0 when the level's true variance is small against the
 * noise below it: it is reported as 0 (truncated true, raw keeps it).
 */
typedef struct StatsComponents
{
	int			n_obs;			/* observations at the lowest level used */
	double		mean;			/* their mean (log) */
	int			n_groups[STATS_N_LEVELS];	/* distinct builds, instances, rounds, observations */
	int			df[STATS_N_LEVELS];
	bool		has[STATS_N_LEVELS];
	double		variance[STATS_N_LEVELS];	/* of log values, >= 0; 0 when !has */
	double		raw[STATS_N_LEVELS];	/* the moment estimate before truncation */
	bool		truncated[STATS_N_LEVELS];
} StatsComponents;

/*
 * Run scale, one variant in one cell: n runs with their tps, build ids
 * (NULL: one build) and instance ids (unique within a build; NULL: one
 * instance per build), and optionally each run's per-second tps (pgbench
 * -P 1): seconds[i] holds n_seconds[i] values.  The second level is used
 * when seconds is not NULL and every run has at least 2 seconds, all
 * finite and > 0; its observations are then the log per-second tps, and
 * the round level is the spread of runs beyond what their seconds explain.
 * Otherwise the observations are the runs' log tps and has[SECOND] is
 * false.  O(n log n + seconds).
 */
extern int	stats_run_components(const double *tps, int n, const int *build,
								 const int *instance,
								 const double *const *seconds,
								 const int *n_seconds, StatsComponents *out);

/*
 * Comparison scale, B against A: the observations are the log ratios of
 * paired rounds (stats_pairs.c: same build id, instance id and round, one
 * run of each side; NULL id arrays mean all 0), and the levels are build
 * pairs, instance pairs and rounds.  This is the noise a verdict sees.
 */
extern int	stats_ratio_components(const double *a, const int *build_a,
								   const int *instance_a, const int *round_a,
								   int n_a,
								   const double *b, const int *build_b,
								   const int *instance_b, const int *round_b,
								   int n_b, StatsComponents *out);

/* ---- The cheapest design that would decide (stats_design.c) ---- */

/*
 * Measured costs in seconds of wall time, for the whole experiment (all
 * variants, all cells): building every variant once (0 when nothing is
 * built), restarting every server once with its warm-up run, and one
 * round (one run of every variant in every cell).
 */
typedef struct StatsDesignCost
{
	double		build_s;
	double		restart_s;
	double		round_s;
} StatsDesignCost;

typedef struct StatsDesign
{
	bool		found;
	StatsUnit	unit;			/* instance pairs, or seed pairs when builds vary */
	int			builds;			/* builds (build seeds) per side; 1 when builds do not vary */
	int			instances;		/* instance pairs per build */
	int			rounds;			/* rounds per instance pair */
	int			n_units;		/* units of the verdict: builds or instances */
	double		unit_sd;		/* predicted sd of one unit summary (log) */
	double		power;			/* predicted chance that the verdict sees the effect, at the bounds */
	double		seconds;		/* expected wall time */
	char		reason[STATS_REASON_LEN];	/* the design in words, or why none was found */
} StatsDesign;

/* Designs searched: at most this many builds, instance pairs per build, rounds. */
#define STATS_DESIGN_MAX_BUILDS 40
#define STATS_DESIGN_MAX_INSTANCES 200
#define STATS_DESIGN_MAX_ROUNDS 1000

/*
 * The cheapest design (builds x instance pairs per build x rounds per
 * instance pair) whose nested verdict (stats_compare_units) would report
 * a change of "effect" (a ratio change, e.g. 0.02; an increase) as
 * faster/slower with probability opt->power at opt->alpha and
 * opt->noise, and its expected time
 *	 builds * build_s + builds * instances * (restart_s + rounds * round_s).
 *
 * The noise comes from the comparison's scale ("ratio", from
 * stats_ratio_components); a level it lacks is taken from the two sides'
 * run scale (run_a plus run_b: the offsets of two servers add up; may be
 * NULL) when they have it.  Each level the comparison measured enters
 * at an upper confidence bound on its degrees of freedom (df 0: taken as
 * known): the rounds' at 70%, as the verdict's MDE does, a level above
 * them at 80%, so that a plan from a short pilot keeps its power
 * (stats_design.c).  The variance of one
 * unit summary is then
 *	 var(build) + var(instance) / I + var(round) / (I R)	 (builds vary)
 *	 var(instance) + var(round) / R							 (they do not)
 * and its power that of the t verdict on that many units (stats_mde.c).
 * When vary_builds is true the unit is a seed pair and at least 2 builds
 * are made; otherwise one build, and the unit an instance pair, at least 2
 * of them: one pair of servers can never tell its offset from the effect.
 * found is false, with the reason, when a level the design needs was not
 * measured, when the effect does not exceed the noise threshold, or when
 * no design within the limits above reaches the power at the lower 90%
 * bounds of what the comparison measured.  Where it does there but not at
 * the upper bounds, the design at the upper bounds is searched up to 20
 * times the limits and returned however large (so that whether a design
 * is printed does not select the pilots that underestimated the noise);
 * where even that finds none, found is false and the reason says that no
 * design can be promised.
 */
/*
 * The rounds per instance pair that make a unit of a nested design
 * cheapest for its variance: a unit of R rounds costs restart_s + R
 * round_s and has the variance var_instance + var_round / R; their product
 * is least at R = sqrt(var_round restart_s / (var_instance round_s)), the
 * optimal allocation of a two-stage design (Cochran, "Sampling
 * Techniques", 1977, 10.6).  Rounded to the better neighbour, within 1 and
 * max_rounds; max_rounds when var_instance is 0.  -1 when an input is not
 * finite or negative, or a cost not > 0.
 */
extern int	stats_rounds_per_unit(double var_instance, double var_round, double restart_s,
								  double round_s, int max_rounds);

/*
 * ratio's components at their lower 90% confidence bounds
 * (stats_sd_lower_bound_factor(); stricter than the upper bounds
 * stats_plan_design() plans with, since "cannot" rests on them), given
 * without degrees of freedom so that a design planned from them takes them
 * as known: the cheapest design the noise measured so far could still
 * allow.
 */
extern void stats_components_at_lower_bound(const StatsComponents *ratio,
											StatsComponents *out);

/*
 * ratio's components at their upper confidence bounds (70% for the
 * lowest level measured, 80% above it), as stats_plan_design() plans with
 * them, given without degrees of freedom:
 * for a design whose units are not the comparison's (a fixed spacing of
 * restarts), planned from components already bounded.
 */
extern void stats_components_at_upper_bound(const StatsComponents *ratio,
											StatsComponents *out);

extern int	stats_plan_design(const StatsComponents *ratio,
							  const StatsComponents *run_a,
							  const StatsComponents *run_b,
							  const StatsDesignCost *cost, bool vary_builds,
							  double effect, const StatsOptions *opt,
							  StatsDesign *out);

/*
 * The power of a design of one build, "units" instance pairs of "rounds"
 * rounds each, to see "effect" (as stats_plan_design() sizes it: the t
 * verdict on the units, its CI beyond the noise threshold), at the
 * components "known" taken as the truth (their instance and round
 * variances; a bound of stats_components_at_*_bound(), say).  On one
 * server, rounds as units: instance variance 0, rounds 1.  0 with fewer
 * than 2 units or no room beyond the threshold; NAN for a variance not
 * finite.  What a given budget buys, where stats_plan_design() gives
 * what a given power costs.
 */
extern double stats_design_power(const StatsComponents *known, int units, int rounds,
								 double effect, const StatsOptions *opt);

/* ---- Sequential decisions (stats_sequential.c) ---- */

/*
 * How the error rate alpha is spent over the looks of a growing
 * experiment, as a function alpha*(t) of the information fraction t (the
 * share of the planned maximum of rounds or units seen so far), Lan and
 * DeMets (1983):
 *	O'Brien–Fleming type  alpha*(t) = 2 - 2 Phi(z(1 - alpha/2) / sqrt(t))
 *						  (spends almost nothing early, nearly all of alpha
 *						  at the last look: the final CI is hardly wider
 *						  than a fixed design's)
 *	Pocock type			  alpha*(t) = alpha ln(1 + (e - 1) t)
 *						  (spends evenly: large effects stop early, the
 *						  last look's CI is wider)
 */
typedef enum StatsSpending
{
	STATS_SPEND_OBRIEN_FLEMING,
	STATS_SPEND_POCOCK
} StatsSpending;

/* alpha*(t), t clamped to [0, 1]: 0 at t = 0, alpha at t = 1 (stats_seqbounds.c). */
extern double stats_alpha_spent(StatsSpending spending, double alpha, double t);

typedef struct StatsSequentialPlan
{
	int			look;			/* this look, 1-based */
	int			max_looks;		/* looks planned in all (the budget) */

	/*
	 * Information fraction at looks 1 .. look, strictly increasing, > 0;
	 * values past 1 count as 1 (more data than planned: nothing is left
	 * to spend).  NULL: look k is at k / max_looks.
	 */
	const double *info;
	StatsSpending spending;

	/*
	 * The boundaries of looks 1 .. look as stats_sequential_bounds gives
	 * them for this plan (spending, alpha, info), when the caller has
	 * computed them once for all its looks; NULL: computed at each look
	 * (a few milliseconds).  Used round by round.
	 */
	const double *z;

	/*
	 * Across units: the t boundaries of looks 1 .. look as
	 * stats_sequential_t_bounds gives them for this plan and the units
	 * the looks have; NULL: simulated at each look (15–90 ms) for the
	 * units seen now, the earlier looks having had the share of them that
	 * their information fractions say.
	 */
	const double *t_crit;
} StatsSequentialPlan;

typedef enum StatsDecision
{
	STATS_UNDECIDED,
	STATS_DECIDED_FASTER,
	STATS_DECIDED_SLOWER,
	STATS_DECIDED_SAME			/* the whole CI lies within +-noise */
} StatsDecision;

/* "undecided", "faster", "slower", "same" */
extern const char *stats_decision_name(StatsDecision d);

/*
 * What a comparison made at noise threshold "noise" decides: faster or
 * slower when its verdict is, same when its verdict is within the noise
 * (stats_verdict_within_noise: no change, or a direction by less than the
 * threshold) and its whole CI lies inside (1 - noise, 1 + noise),
 * otherwise undecided (an
 * "insufficient" comparison, whose test could never reject, too).  The one rule of every decision:
 * each look's (stats_sequential_look) and the client's for a comparison of
 * fixed rounds and for its counted metrics.
 */
extern StatsDecision stats_comparison_decision(const StatsComparison *c, double noise);

typedef struct StatsLook
{
	int			look;
	double		info;			/* information fraction of this look */
	double		z_bound;		/* the look's boundary, standard normal scale */
	double		alpha_look;		/* nominal level of its test and CI: 2 (1 - Phi(z_bound)) */
	double		alpha_spent;	/* alpha*(info): spent by looks 1 .. look */
	StatsDecision decision;
	StatsComparison cmp;		/* the comparison at alpha_look */
	char		reason[STATS_REASON_LEN];
} StatsLook;

/*
 * Two-sided group-sequential boundaries for looks at information
 * fractions info[0 .. looks-1] (strictly increasing, > 0; past 1 counts
 * as 1): z[k] on the standard normal scale such that, for statistics
 * Z_1 .. Z_looks with the joint null distribution of a Brownian motion in
 * t (Corr(Z_j, Z_k) = sqrt(t_j / t_k)), P(|Z_j| >= z_j for some j <= k) =
 * alpha*(t_k) for every k.  A look with nothing to spend (t past 1) gets
 * +HUGE_VAL.  Computed by recursive numerical integration (Armitage,
 * McPherson and Rowe; stats_seqbounds.c), deterministic, boundaries within
 * 5e-5 of a finer grid's, 4 milliseconds for 20 looks.
 */
extern int	stats_sequential_bounds(StatsSpending spending, double alpha,
									const double *info, int looks, double *z);

/*
 * The same for Student's t across units, with units[k] (non-decreasing)
 * units at look k: crit[k] on the t scale (units[k] - 1 df) such that,
 * for normal unit summaries with no change, P(|t_j| >= crit_j for some j
 * <= k) = alpha*(t_k).  A look with fewer than 2 units cannot cross
 * (+HUGE_VAL) and its share of alpha passes to the next.  The joint
 * distribution is simulated (65,536 paths drawn look by look from a seed
 * of spending and alpha, so a look's boundary is always the same and does
 * not depend on the looks after it); only the overlap with earlier
 * crossings is simulated, each look's own tail being exact
 * (stats_seqbounds.c).  15–90 ms for 8 to 20 looks.
 */
extern int	stats_sequential_t_bounds(StatsSpending spending, double alpha,
									  const double *info, const int *units,
									  int looks, double *crit);

/*
 * One look at a growing experiment, after a block of rounds: the data so
 * far (as stats_compare_units takes them: unit ids NULL for rounds on one
 * pair of servers), and where this look stands in the plan.  The looks'
 * boundaries come from stats_sequential_bounds for the plan's information
 * fractions, and this look makes the comparison of the fixed design
 * (stats_compare_units) at its nominal level alpha_look = 2 (1 -
 * Phi(z_look)): its CI has confidence 1 - alpha_look.  Rounds on one pair
 * of servers take the unit the fixed verdict of those rounds takes at
 * opt->alpha (stats_compare_rounds_at), never the one the look's own level
 * would choose.  Decision:
 * faster/slower when that comparison's verdict is (p < alpha_look and the
 * CI wholly beyond +-noise), same when the CI lies wholly inside (1 -
 * noise, 1 + noise), otherwise undecided.
 *
 * Why it is valid however the runner stops: the looks' CIs are repeated
 * confidence intervals, which all cover the true ratio together with
 * probability 1 - alpha (under the joint distribution the boundaries
 * assume: asymptotically for the signed-rank statistic, for t across
 * units the significance level approach of Jennison and Turnbull); every
 * wrong decision needs one of them to miss, and the CI of the look that
 * stops covers whatever the stopping rule.  The unit tests check the
 * error rates by simulating small samples.  The plan must be fixed in
 * advance (max_looks and the information fractions from the budget), not
 * from the data.
 */
extern int	stats_sequential_look(const double *a, const int *round_a,
								  const int *unit_a, int n_a,
								  const double *b, const int *round_b,
								  const int *unit_b, int n_b,
								  StatsUnit unit,
								  const StatsSequentialPlan *plan,
								  const StatsOptions *opt, StatsLook *out);

/* ---- A budget's looks and a cell's decision (stats_seqbudget.c) ---- */

/*
 * The plan of rounds = auto as experiment.json records it ("sequential"):
 * a look after each block of block_rounds rounds from block first_look on,
 * at most max_blocks blocks (max_looks = max_blocks - first_look + 1).
 * time_information: a look's information fraction is the share of the
 * budget spent by the end of its block (else blocks done of max_blocks,
 * the plans recorded before).  The client's runner and report and the
 * extension's SQL read the same plan into it.
 */
typedef struct StatsBudgetPlan
{
	int			budget_s;
	int			block_rounds;
	int			first_look;
	int			max_blocks;
	int			max_looks;
	StatsSpending spending;
	bool		time_information;
} StatsBudgetPlan;

/*
 * Whether the budget has no room for another block after "blocks" blocks
 * took spent_s seconds: its blocks are done, or another as long as the
 * mean so far would overrun it.
 */
extern bool stats_budget_spent(const StatsBudgetPlan *b, int blocks, double spent_s);

/*
 * The information fractions of looks 1 .. looks into info: by the
 * budget's clock the share spent by the end of each look's block
 * (block_spent_s[block - 1]; NAN or NULL: unknown), 1 for a look after
 * which the budget has no room for another block; else (or unknown) the
 * share of the plan's most blocks seen.  Strictly increasing.
 */
extern void stats_budget_info(const StatsBudgetPlan *b, int looks,
							  const double *block_spent_s, double *info);

/*
 * A cell's decision under the plan after blocks_done blocks: its looks
 * after blocks first_look .. blocks_done, each on the runs of the rounds
 * seen by then (the data as stats_compare_units takes them, all rounds),
 * at the boundaries z of the plan's looks (stats_sequential_bounds for
 * info) and, across units, the t boundaries of the units each look has
 * (stats_sequential_t_bounds, once for the cell).  The first look that
 * decides is the cell's verdict; else the last look made.  *block: that
 * look's block, 0 when no look could be made (out is then zeroed).
 */
extern int	stats_sequential_decide(const double *a, const int *round_a,
									const int *unit_a, int n_a,
									const double *b, const int *round_b,
									const int *unit_b, int n_b,
									StatsUnit unit, const StatsBudgetPlan *plan,
									int blocks_done, const double *info,
									const double *z, const StatsOptions *opt,
									StatsLook *out, int *block);

/*
 * stats_sequential_decide() of the question "which side of reference does
 * B/A lie on?" (reference > 0 and finite; 0, no reference, is
 * stats_sequential_decide() itself; else STATS_ERR_OPTION): the
 * looks test the null log(B/A) = log(reference), which is the test of 0
 * on the shifted data B / reference, so the boundaries and their error
 * control are the same.  There is no noise band (opt->noise is not used):
 * a look decides faster (above the reference, for higher_is_better) or
 * slower (below) when its CI lies wholly on one side, else it is
 * undecided; each wrong side needs a repeated CI to miss, at most alpha/2
 * a side.  out's estimate and CI are of B/A itself (not shifted back to
 * 1), and its reason says where the CI lies against the reference.
 */
extern int	stats_sequential_decide_against(const double *a, const int *round_a,
											const int *unit_a, int n_a,
											const double *b, const int *round_b,
											const int *unit_b, int n_b,
											StatsUnit unit, const StatsBudgetPlan *plan,
											int blocks_done, const double *info,
											const double *z, double reference,
											const StatsOptions *opt,
											StatsLook *out, int *block);

/* ---- Many comparisons at once (stats_fdr.c) ---- */

/*
 * Benjamini–Hochberg adjusted p-values (q-values) of m p-values, in their
 * order: q_(i) = min over j >= i of min(1, m p_(j) / j) for the sorted
 * p_(1) <= ... <= p_(m), as R's p.adjust(p, "BH").  Rejecting every
 * hypothesis with q <= Q controls the false discovery rate at Q for
 * independent (or positively dependent) tests.  q may be p.  Every p must
 * be in [0, 1] (STATS_ERR_PROB otherwise).  O(m log m).
 */
extern int	stats_bh_adjust(const double *p, int m, double *q);

/*
 * Changed, among many comparisons: q < alpha and the whole CI of c beyond
 * the noise threshold (the verdict's rule with q for p).
 */
extern bool stats_fdr_discovery(const StatsComparison *c, double q,
								const StatsOptions *opt);

/* ---- Change points in a history (stats_changepoint.c) ---- */

typedef struct StatsChangeOptions
{
	double		alpha;			/* each permutation test's level, (0,1) */
	int			permutations;	/* shuffles per test, 1 .. 10^6 */
	int			min_segment;	/* fewest points on either side of a change, >= 1 */
	unsigned long long seed;	/* of the shuffles: same series, same answer */
} StatsChangeOptions;

/* alpha 0.05, 999 permutations, segments of at least 3 points, seed 1 */
extern void stats_default_change_options(StatsChangeOptions *opt);
extern int	stats_check_change_options(const StatsChangeOptions *opt);

typedef struct StatsChangePoint
{
	int			index;			/* 0-based: the first point after the change */
	double		p_value;		/* of the permutation test that found it */
	int			n_before;		/* points of the segment before (since the last change) */
	int			n_after;		/* and after (until the next) */
	double		shift;			/* ratio: geomean after / geomean before */
	double		shift_pct;		/* 100 * (shift - 1) */
	bool		has_ci;			/* false when a segment has one point or no spread */
	double		ci_low;			/* Welch's t interval of the shift at 1 - alpha */
	double		ci_high;
} StatsChangePoint;

/*
 * Change points of the series x[0 .. n-1] (values > 0, one per point in
 * history order) by circular binary segmentation with a permutation test
 * of the largest shift in mean log value: a flat series raises an alarm
 * with probability at most opt->alpha.  At most max_out into out, in
 * series order; returns their number, or an error.  Each test costs
 * O(B m^2) for a segment of m points.
 */
extern int	stats_changepoints(const double *x, int n,
							   const StatsChangeOptions *opt,
							   StatsChangePoint *out, int max_out);

/* ---- Rank tests and estimates (stats_rank.c) ---- */

typedef struct StatsRankTest
{
	double		statistic;		/* U of b (ties as halves), or W+ (midranks) */
	double		p_value;		/* two-sided */
	bool		exact;			/* exact distribution, given the ties */
	int			n_used;			/* signed rank: pairs with a non-zero difference */
	double		min_p;			/* the smallest p any outcome could give here */
} StatsRankTest;

/*
 * Mann–Whitney U of b against a (on any values; order is all that counts).
 * Two-sided p = min(1, 2 min(P(U <= u), P(U >= u))).  Without ties, the
 * exact distribution (stats_u_cdf); with ties, the exact distribution of
 * U given the tie pattern of the pooled values (stats_u_tied_counts): all
 * C(m+n, m) ways of labelling the values equally likely.  Past either's
 * range, the normal approximation with tie and continuity corrections.
 */
extern int	stats_mann_whitney(const double *a, int m, const double *b, int n,
							   StatsRankTest *out);

/*
 * Hodges–Lehmann shift of log(b) against log(a): estimate and the
 * two-sided CI at confidence 1 - alpha.  Values must be > 0.
 *
 * The CI's rank k comes from the distribution of U without ties, also
 * when the data have ties: ties within a side remain at every shift, but
 * where they fall among the other side's values, and so the conditional
 * distribution, changes with the shift, so no one tie pattern belongs to
 * the CI.  The closed interval [D(k), D(mn+1-k)] is the CI of continuous
 * data with the ties broken at random; its rank is exact in the same
 * range as the test and normal past it.
 */
typedef struct StatsShift
{
	double		log_estimate;
	bool		has_ci;
	double		log_ci_low;
	double		log_ci_high;
	double		confidence;
	int			rank;
	bool		exact;
} StatsShift;

extern int	stats_hodges_lehmann(const double *a, int m, const double *b, int n,
								 double alpha, StatsShift *out);

/*
 * The rank k for the HL CI: the largest k with P(U <= k-1) <= alpha/2; 0 if
 * none (too few runs).  *confidence gets the achieved 1 - 2 P(U <= k-1),
 * or the best these sizes allow when k is 0.
 */
extern int	stats_hl_rank(int m, int n, double alpha, double *confidence,
						  bool *exact);

/*
 * Wilcoxon signed-rank test of differences d: zeros are dropped (Wilcoxon's
 * method), ties get midranks, and p = min(1, 2 min(P(W+ <= w), P(W+ >= w)))
 * from the exact distribution of W+ given that tie pattern
 * (stats_signed_rank_tied_counts) up to 52 non-zero differences, the
 * normal approximation with tie and continuity corrections past that.
 * min_p = 2 / 2^n_used exactly.
 */
extern int	stats_signed_rank(const double *d, int n, StatsRankTest *out);

/*
 * Paired rounds: the Hodges–Lehmann estimate of the per-round log ratios
 * log(b[i] / a[i]) (the median of their n(n+1)/2 Walsh averages) and its
 * CI [W(k), W(N+1-k)], k from the signed-rank distribution of all n
 * pairs without ties (zero and tied differences are such only at one
 * shift each; as for stats_hodges_lehmann).
 */
extern int	stats_hodges_lehmann_paired(const double *a, const double *b, int n,
										double alpha, StatsShift *out);

/* The rank k for that CI: the largest k with P(W+ <= k-1) <= alpha/2. */
extern int	stats_walsh_rank(int n, double alpha, double *confidence,
							 bool *exact);

/* Mann–Kendall trend test of values in run order: drift across a session. */
typedef struct StatsTrend
{
	int			n;
	double		s;				/* concordant minus discordant pairs */
	double		tau;			/* s / (n(n-1)/2) */
	double		p_value;		/* two-sided */
	bool		exact;
} StatsTrend;

extern int	stats_mann_kendall(const double *x, int n, StatsTrend *out);

/*
 * Outliers by modified z-score on log values, 0.6745 (y - median) / MAD
 * (Iglewicz and Hoaglin); |z| > STATS_OUTLIER_Z is an outlier.  mod_z and
 * is_outlier may be NULL.  Returns the number of outliers, or an error.
 */
#define STATS_OUTLIER_Z 3.5
extern int	stats_outliers(const double *x, int n, double *mod_z,
						   bool *is_outlier);

/*
 * The warnings that judge data (stats_warn.c), each a test at its share of
 * STATS_WARN_RATE, so that on steady noise an experiment shows a warning
 * of one kind at most that often.
 */
#define STATS_WARN_RATE 0.01

/*
 * The |modified z| beyond which one of n values is an outlier, so that a
 * sample of n normal values shows one with probability at most rate:
 * Bonferroni over the n (t quantile at 1 - rate / 2n), its degrees of
 * freedom those of a MAD-based scale, (0.35 + 1/n)(n - 1).  INFINITY for
 * n < 2 or rate outside (0, 1).
 */
extern double stats_outlier_threshold(int n, double rate);

/* stats_outliers() beyond stats_outlier_threshold(n, rate): the count. */
extern int	stats_outliers_at(const double *x, int n, double rate, double *mod_z,
							  bool *is_outlier);

/*
 * Drift across a session: Mann–Kendall on one value per unit (the median
 * log value of each stretch of consecutive runs of one unit, a server
 * start; each run its own when unit is NULL), since runs of one start
 * share its offset and are not independent; and the move that Sen's
 * slope fits across the session, change = exp(slope (units - 1)) - 1.
 */
typedef struct StatsDrift
{
	int			units;			/* values the test ran on */
	StatsTrend	trend;
	double		change;			/* fitted move first unit to last, a ratio - 1 */
} StatsDrift;

extern int	stats_drift(const double *x, const int *unit, int n, StatsDrift *out);

/* p < rate / ntests and |change| >= noise (at least 3 units). */
extern bool stats_drift_warns(const StatsDrift *d, int ntests, double rate,
							  double noise);

/*
 * Build seeds disagree beyond chance: some change > 0 and some < 0, each
 * with p < level (the experiment's rate over its rows of seeds).
 */
extern bool stats_signs_disagree(const double *change, const double *p, int n,
								 double level);

/* exp(mean(log r)): the geomean row of ratios over cells; 0 when n is 0. */
extern int	stats_geomean(const double *r, int n, double *out);

/* ---- Distributions (stats_dist.c, stats_tdist.c) ---- */

extern double stats_norm_cdf(double z);
extern double stats_norm_quantile(double p);
extern double stats_choose(int n, int k);

/*
 * Null distributions of the rank statistics without ties: P(stat <= x).
 * Exact while the number of arrangements stays an exact integer in a
 * double (*exact = true), otherwise the normal approximation with a
 * continuity correction.
 */
extern int	stats_u_cdf(int m, int n, double u, double *p, bool *exact);
/* cdf[u] = P(U <= u) for u = 0 .. mn; cdf holds mn + 1 entries */
extern int	stats_u_cdf_table(int m, int n, double *cdf, bool *exact);
extern int	stats_signed_rank_cdf(int n, double w, double *p, bool *exact);
/* cdf[w] = P(W+ <= w) for w = 0 .. n(n+1)/2; cdf holds n(n+1)/2 + 1 entries */
extern int	stats_signed_rank_cdf_table(int n, double *cdf, bool *exact);
extern int	stats_kendall_cdf(int n, double s, double *p, bool *exact);

/* P(Binomial(n, 1/2) <= k) */
extern double stats_binom_half_cdf(int n, int k);

/*
 * The first k below n/2 with P(Bin(n, 1/2) <= k) > half (n/2 if none),
 * and P(Bin(n, 1/2) <= max(k - 1, 0)) in *cdf_below; O(n).
 */
extern int	stats_binom_half_rank(int n, double half, double *cdf_below);

/*
 * Null distributions given ties, as exact counts (integers in doubles).
 * group[0 .. n_groups-1] are the sizes (>= 1) of the tie groups of the
 * pooled values in increasing order of value (1 for an untied value).
 *
 * Mann–Whitney: n_b of the N = sum(group) values are B's; count[s] (2 m n
 * + 1 entries, m = N - n_b) = the number of the *total = C(N, n_b)
 * labellings giving 2U = s.  Exact when C(N, min(n_b, m)) <= 
 * STATS_EXACT_MAX_COUNT and the count costs at most 5e7 additions
 * (N (k+1) (2kN+1), k the smaller side: e.g. 28 and 28 runs); otherwise
 * *exact is false and count untouched.
 *
 * Signed rank: the groups are those of the non-zero |d|; count[s] (n(n+1)
 * + 1 entries, n = sum(group)) = the number of the *total = 2^n sign
 * patterns giving 2 W+ = s; exact for n <= 52.
 */
extern int	stats_u_tied_counts(const int *group, int n_groups, int n_b,
								double *count, double *total, bool *exact);
extern int	stats_signed_rank_tied_counts(const int *group, int n_groups,
										  double *count, double *total,
										  bool *exact);

/*
 * Student's t (stats_tdist.c): the regularized incomplete beta function
 * I_x(a, b) (continued fraction, relative error about 1e-14), the t cdf
 * P(T <= t) on df > 0 degrees of freedom and its quantile (NaN for
 * arguments out of range; +-HUGE_VAL at p = 0, 1).
 */
extern double stats_beta_inc(double a, double b, double x);
extern double stats_t_cdf(double t, double df);
extern double stats_t_quantile(double p, double df);

/*
 * Power of a one-sided t criterion: P(T' > crit) for T' = (Z + ncp) /
 * sqrt(V / df), Z standard normal, V chi-square on df >= 1 (the noncentral
 * t distribution), by quadrature over the chi distribution (absolute
 * error below 1e-7; past 10^6 degrees of freedom its normal limit); and
 * the ncp at which that probability equals power.  NaN for df < 1.
 */
extern double stats_t_power(double ncp, double df, double crit);

/*
 * The regularized lower incomplete gamma function P(a, x) (relative error
 * about 1e-14) and the chi-square quantile on df > 0 degrees of freedom
 * (stats_tdist.c): for upper confidence bounds on an sd.
 */
extern double stats_gamma_inc(double a, double x);
extern double stats_chisq_quantile(double p, double df);
extern double stats_t_ncp_for_power(double df, double crit, double power);

#endif							/* PGBENCH_EXT_STATS_H */
