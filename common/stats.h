/*-------------------------------------------------------------------------
 *
 * stats.h
 *		The statistics behind pgbench_ext's verdicts, shared by the client
 *		and the extension.
 *
 * One copy of this code is compiled into both the client program and the
 * server module, so that pgbench_ext.compare() in psql and the client's
 * terminal table print the same figures to the last digit.  It is plain
 * C99 with libm: no PostgreSQL headers, no global state, no output.
 *
 * Inputs are arrays of per-run measurements (tps, or latency), all of
 * which must be finite and > 0: comparisons work on their logarithms, so
 * that an effect is a ratio B/A and noise is relative.  Functions that can
 * fail return a negative StatsError (STATS_OK or a count otherwise), and no
 * figure is ever NaN: one that cannot be computed (too few runs) is marked
 * by a has_* flag set to false, and its value is then 0.
 *
 * Files: stats_dist.c (exact and normal distributions), stats_rank.c
 * (rank tests and estimates), stats.c (summaries, outliers, MDE),
 * stats_compare.c (B against A and the verdict), stats_fdr.c (the false
 * discovery rate over many comparisons).
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
	STATS_ERR_OPTION = -3,		/* alpha, noise or power out of range */
	STATS_ERR_SIZE = -4			/* negative count, or too many pairs */
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
	double		noise;			/* smallest ratio change that counts, >= 0 */
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
extern int	stats_summarize(const double *x, int n, double level,
							StatsSummary *out);

/* ---- B against A ---- */

typedef enum StatsVerdict
{
	STATS_INSUFFICIENT,			/* too few runs for the test ever to reject */
	STATS_NO_CHANGE,			/* not significant, or within the noise */
	STATS_FASTER,
	STATS_SLOWER
} StatsVerdict;

/* "insufficient", "no change", "faster", "slower" */
extern const char *stats_verdict_name(StatsVerdict v);

typedef struct StatsComparison
{
	int			n_a;
	int			n_b;

	/*
	 * Paired rounds behind the figures below (stats_compare_rounds), or 0
	 * when the runs were compared unpaired.  Paired: the estimate and CI
	 * are those of the per-round log ratios (Walsh averages), the test is
	 * the Wilcoxon signed-rank test and u holds W+.
	 */
	int			n_pairs;

	/* Hodges–Lehmann estimate of the ratio b/a and its distribution-free CI */
	bool		has_estimate;	/* both sides have runs */
	double		estimate;		/* exp(median of all log(b_j / a_i)) */
	double		change_pct;		/* 100 * (estimate - 1) */
	bool		has_ci;			/* false when n_a, n_b are too few for 1-alpha */
	double		ci_low;			/* ratio */
	double		ci_high;
	double		ci_confidence;	/* achieved, >= 1 - alpha */
	int			ci_rank;		/* k: CI = [D(k), D(mn+1-k)] of sorted log ratios */
	bool		ci_exact;		/* k from the exact U distribution */

	/* Mann–Whitney U test, two-sided */
	bool		has_p;			/* both sides have runs */
	double		u;				/* #(b > a) + #(b = a) / 2 over all pairs; W+ if paired */
	double		p_value;
	bool		p_exact;		/* exact distribution (no ties, small n) */
	double		min_p;			/* smallest p these n could give: 2/C(m+n,m), 2/2^n paired */

	/* minimum detectable effect at this noise, alpha and power (see stats.c) */
	bool		has_mde;
	double		mde_pct;

	StatsVerdict verdict;
	char		reason[STATS_REASON_LEN];
} StatsComparison;

extern int	stats_compare(const double *a, int n_a, const double *b, int n_b,
						  const StatsOptions *opt, StatsComparison *out);

/* The same on n paired rounds: a[i] and b[i] are the two sides' runs in round i. */
extern int	stats_compare_paired(const double *a, const double *b, int n,
								 const StatsOptions *opt, StatsComparison *out);

/*
 * The comparison an interleaved experiment's verdict uses: runs of A and B
 * carry their round numbers (> 0); rounds with exactly one run of each side
 * are pairs.  When there are enough pairs for the signed-rank test to reject
 * at alpha at all (2 / 2^n < alpha: 6 at 0.05), the paired comparison of
 * those rounds, which cancels the machine's drift between rounds; otherwise
 * stats_compare() of all runs.  round_a and round_b may be NULL (unpaired).
 */
extern int	stats_compare_rounds(const double *a, const int *round_a, int n_a,
								 const double *b, const int *round_b, int n_b,
								 const StatsOptions *opt, StatsComparison *out);

/*
 * Minimum detectable effect in percent for m and n runs whose log values
 * have robust sd "sd_log" (1.4826 * MAD, pooled); false if it cannot be
 * computed (a side without runs).
 */
extern bool stats_mde_pct(double sd_log, int m, int n, double alpha,
						  double power, double *mde_pct);

/* The same for n paired rounds whose log ratios have robust sd "sd_log_ratio". */
extern bool stats_mde_paired_pct(double sd_log_ratio, int n, double alpha,
								 double power, double *mde_pct);

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

/* ---- Rank tests and estimates (stats_rank.c) ---- */

typedef struct StatsRankTest
{
	double		statistic;		/* U of b, or W+ */
	double		p_value;		/* two-sided */
	bool		exact;
	int			n_used;			/* signed rank: pairs with a non-zero difference */
} StatsRankTest;

/* Mann–Whitney U of b against a (on any values; order is all that counts). */
extern int	stats_mann_whitney(const double *a, int m, const double *b, int n,
							   StatsRankTest *out);

/*
 * Hodges–Lehmann shift of log(b) against log(a): estimate and the
 * two-sided CI at confidence 1 - alpha.  Values must be > 0.
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

/* Wilcoxon signed-rank test of differences d (zeros are dropped). */
extern int	stats_signed_rank(const double *d, int n, StatsRankTest *out);

/*
 * Paired rounds: the Hodges–Lehmann estimate of the per-round log ratios
 * log(b[i] / a[i]) (the median of their n(n+1)/2 Walsh averages) and its
 * CI [W(k), W(N+1-k)], k from the signed-rank distribution.
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

/* exp(mean(log r)): the geomean row of ratios over cells; 0 when n is 0. */
extern int	stats_geomean(const double *r, int n, double *out);

/* ---- False discovery rate (stats_fdr.c) ---- */

/*
 * Benjamini–Hochberg q-values of n p-values (each in [0, 1]), in their
 * order: a test is a discovery at FDR level alpha when q < alpha.
 */
extern int	stats_bh_qvalues(const double *p, int n, double *q);

/* q < alpha and the whole CI of c beyond the noise threshold: changed. */
extern bool stats_fdr_discovery(const StatsComparison *c, double q,
								const StatsOptions *opt);

/* ---- Distributions (stats_dist.c) ---- */

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

#endif							/* PGBENCH_EXT_STATS_H */
