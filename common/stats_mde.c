/*-------------------------------------------------------------------------
 *
 * stats_mde.c
 *		Minimum detectable effects: the test's (the smallest change a test
 *		at alpha finds with the given power) and the verdict's (the
 *		smallest change reported as faster or slower with that power).
 *
 * The two differ because the verdict asks more than p < alpha: the whole
 * CI must lie beyond the noise threshold.  For an effect equal to the
 * test's MDE, the CI's lower end falls below 1 + noise about half the
 * time or more, so the verdict says "faster" far less often than the
 * power claimed.  The verdict's MDE is what is printed beside "no change".
 *
 * The verdict's MDE, for every kind of comparison: the CI's lower end is
 * L = estimate - crit * SE, with SE the standard error of the estimate as
 * estimated from the data; "faster" needs L > log(1 + noise).  With a
 * normal estimate and an SE estimated on df degrees of freedom,
 * (estimate - log(1 + noise)) / SE is noncentral t, so
 *
 *	 P(faster) = P(T'(df, ncp) > crit),  ncp = (delta - log(1 + noise)) / se
 *
 * and the MDE is delta = log(1 + noise) + ncp(power) * se, reported as the
 * change exp(delta) - 1 (an increase; a decrease of the same size needs
 * log(1 - noise), a few hundredths of a point more at noise 1%).
 *
 *	units (t across unit summaries): se = s / sqrt(k), df = k - 1 and crit
 *		the t quantile: exact for normal summaries;
 *	rank CIs (Hodges–Lehmann, unpaired or paired): the same form with the
 *		rank estimate's standard error, s sqrt(pi/3 (1/m + 1/n)) or
 *		s sqrt(pi/3 / n) (3/pi is its efficiency against the mean for
 *		normal noise), df = m + n - 2 or n - 1, and crit the t quantile of
 *		the confidence the CI's rank actually reaches (more than 1 - alpha,
 *		since ranks are whole numbers): the distribution-free interval
 *		behaves like a t interval of that confidence.  Checked by
 *		simulation in the unit tests (8, 20 and 35 rounds, 10 and 30 runs
 *		a side).
 *
 * The sd in se is the experiment's own estimate, and at a few rounds or
 * units it is often well below the truth (1.4826 MAD of 6 rounds has a
 * median of 0.79 sigma): an MDE computed from it as if it were sigma was
 * detected in only 54–74% of experiments at 6–20 rounds and 64–77% at
 * 3–20 units.  So the sd enters at its upper 70% confidence bound:
 *
 *	t across k units	 s sqrt(nu / chi2(0.3, nu)), nu = k - 1 (exact for
 *						 normal summaries);
 *	robust sd (MAD)		 the same with the effective degrees of freedom nu(n)
 *						 and median bias b(n) of 1.4826 MAD on n values,
 *						 s sqrt(nu / chi2(0.3, nu)) / b: the MAD's sampling
 *						 distribution as a scaled chi, its log's mean and
 *						 variance matched by simulation (2 to 32 values,
 *						 400,000 samples each; past 32 nu = 0.3675 (n - 1) +
 *						 0.76 and b = 1 - 0.13 / n, 0.3675 being the MAD's
 *						 asymptotic efficiency); two sides pooled by
 *						 Satterthwaite's degrees of freedom.
 *
 * Why 70%: averaged over the chi distribution of s, the verdict's power at
 * the MDE is then 81–84% for 2 to 100 units (computed by quadrature), where
 * the median-unbiased sd (50%) gave 69–80%; the unit tests check the claim
 * by simulating a pilot that prints the MDE and a replicate whose true
 * effect is that MDE.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>

/* asymptotic relative efficiency of rank methods to the mean, normal data */
#define RANK_ARE (3.0 / 3.14159265358979323846)

/* confidence of the upper bound on the sd that the verdict's MDE uses */
#define SD_BOUND_CONFIDENCE 0.7

/*
 * Confidence of the lower bound on the sd that "cannot decide" rests on.
 * Not 70% as the upper: a 70% lower bound of a variance from 1 degree of
 * freedom (the line after the second block: 2 instance pairs) is 0.93 of
 * the estimate, and "cannot" said on it was followed by a decision in 8 of
 * 18 comparisons (docs/calibration.md); at 90% it is 0.37 of it, and the
 * unit tests check that the design at these bounds is no dearer than the
 * true one in at least 85% of simulated pilots.
 */
#define SD_LOWER_BOUND_CONFIDENCE 0.9

/*
 * 1.4826 MAD of n normal values as b sigma sqrt(chi2(nu) / nu): nu and b
 * for n = 2 .. 32 (simulated, see above); formulas past that.
 */
#define MAD_TABLE_MAX 32
static const double mad_nu[MAD_TABLE_MAX - 1] = {
	1.003, 0.935, 1.803, 1.747, 2.565, 2.530, 3.308, 3.275, 4.033, 4.030, 4.778,
	4.768, 5.519, 5.520, 6.271, 6.255, 6.983, 7.044, 7.723, 7.733, 8.470, 8.487,
	9.249, 9.211, 9.926, 9.958, 10.610, 10.690, 11.427, 11.410, 12.142
};
static const double mad_b[MAD_TABLE_MAX - 1] = {
	1.0469, 0.8377, 0.8360, 0.9354, 0.9213, 0.9641, 0.9541, 0.9772, 0.9690, 0.9831,
	0.9773, 0.9866, 0.9829, 0.9900, 0.9849, 0.9907, 0.9883, 0.9927, 0.9912, 0.9938,
	0.9921, 0.9947, 0.9921, 0.9948, 0.9937, 0.9952, 0.9946, 0.9954, 0.9945, 0.9962,
	0.9952
};

static void
mad_chi(int n, double *nu, double *b)
{
	if (n <= MAD_TABLE_MAX)
	{
		*nu = mad_nu[n - 2];
		*b = mad_b[n - 2];
	}
	else
	{
		*nu = 0.3675 * (n - 1) + 0.76;
		*b = 1.0 - 0.13 / n;
	}
}

double
stats_sd_bound_factor(double df)
{
	if (!(df > 0.0))
		return NAN;
	return sqrt(df / stats_chisq_quantile(1.0 - SD_BOUND_CONFIDENCE, df));
}

double
stats_sd_lower_bound_factor(double df)
{
	if (!(df > 0.0))
		return NAN;
	return sqrt(df / stats_chisq_quantile(SD_LOWER_BOUND_CONFIDENCE, df));
}

double
stats_robust_sd_bound_factor(int n_a, int n_b)
{
	double		nu_a = 0.0,
				b_a = 1.0,
				nu_b = 0.0,
				b_b = 1.0,
				w_a = n_a > 1 ? n_a - 1 : 0,
				w_b = n_b > 1 ? n_b - 1 : 0,
				mean,
				spread,
				nu;

	if (w_a + w_b <= 0.0)
		return NAN;
	if (n_a > 1)
		mad_chi(n_a, &nu_a, &b_a);
	if (n_b > 1)
		mad_chi(n_b, &nu_b, &b_b);
	w_a /= w_a + w_b;
	w_b = 1.0 - w_a;
	/* the pooled variance as a sum of scaled chi-squares: Satterthwaite */
	mean = w_a * b_a * b_a + w_b * b_b * b_b;
	spread = (n_a > 1 ? w_a * w_a * pow(b_a, 4) / nu_a : 0.0) +
		(n_b > 1 ? w_b * w_b * pow(b_b, 4) / nu_b : 0.0);
	nu = mean * mean / spread;
	return sqrt(nu / (mean * stats_chisq_quantile(1.0 - SD_BOUND_CONFIDENCE, nu)));
}

/*
 * The test's MDE for a standard error "scale" of the normal-theory
 * estimate: delta = (z(1 - alpha/2) + z(power)) * scale / sqrt(ARE).
 */
static bool
test_mde(double scale, double alpha, double power, double *mde_pct)
{
	double		delta;

	*mde_pct = 0.0;
	if (!(scale >= 0.0) ||
		!(alpha > 0.0 && alpha < 1.0) || !(power > 0.0 && power < 1.0))
		return false;
	delta = (stats_norm_quantile(1.0 - alpha / 2.0) + stats_norm_quantile(power)) *
		scale * sqrt(1.0 / RANK_ARE);
	*mde_pct = 100.0 * (exp(delta) - 1.0);
	return true;
}

bool
stats_mde_pct(double sd_log, int m, int n, double alpha, double power,
			  double *mde_pct)
{
	*mde_pct = 0.0;
	if (m < 1 || n < 1)
		return false;
	return test_mde(sd_log * sqrt(1.0 / m + 1.0 / n), alpha, power, mde_pct);
}

bool
stats_mde_paired_pct(double sd_log_ratio, int n, double alpha, double power,
					 double *mde_pct)
{
	*mde_pct = 0.0;
	if (n < 1)
		return false;
	return test_mde(sd_log_ratio * sqrt(1.0 / n), alpha, power, mde_pct);
}

/*
 * The verdict's MDE for an estimate with standard error se, estimated on
 * df degrees of freedom, whose CI reaches the given confidence.
 */
static bool
verdict_mde(double se, double df, double confidence, const StatsOptions *opt,
			double *mde_pct)
{
	double		crit,
				ncp,
				delta;

	*mde_pct = 0.0;
	if (stats_check_options(opt) != STATS_OK || !(se >= 0.0 && isfinite(se)) ||
		!(df >= 1.0) || !(confidence > 0.0 && confidence < 1.0))
		return false;
	crit = stats_t_quantile((1.0 + confidence) / 2.0, df);
	ncp = stats_t_ncp_for_power(df, crit, opt->power);
	if (!isfinite(ncp))
		return false;
	delta = log1p(opt->noise) + ncp * se;
	*mde_pct = 100.0 * (exp(delta) - 1.0);
	return true;
}

bool
stats_verdict_mde_pct(double sd_log, int m, int n, const StatsOptions *opt,
					  double *mde_pct)
{
	double		confidence;
	bool		exact;

	*mde_pct = 0.0;
	if (m < 1 || n < 1 || m + n < 3 ||
		stats_hl_rank(m, n, opt->alpha, &confidence, &exact) < 1)
		return false;
	return verdict_mde(sd_log * stats_robust_sd_bound_factor(m, n) *
					   sqrt((1.0 / m + 1.0 / n) / RANK_ARE), m + n - 2,
					   confidence, opt, mde_pct);
}

bool
stats_verdict_mde_paired_pct(double sd_log_ratio, int n, const StatsOptions *opt,
							 double *mde_pct)
{
	double		confidence,
				sd;
	bool		exact;
	int			k;

	*mde_pct = 0.0;
	if (n < 2 || (k = stats_walsh_rank(n, opt->alpha, &confidence, &exact)) < 1 ||
		stats_check_options(opt) != STATS_OK || !(sd_log_ratio >= 0.0))
		return false;
	sd = sd_log_ratio * stats_robust_sd_bound_factor(n, 0);

	/*
	 * Rank 1 (6 rounds at alpha 0.05): the CI's lower end is the smallest
	 * round itself, so faster needs all n rounds beyond the threshold,
	 * with chance Phi((delta - log(1 + noise)) / sd)^n for normal noise;
	 * the t form above said 80% where this is 74%.
	 */
	if (k == 1)
	{
		*mde_pct = 100.0 * expm1(log1p(opt->noise) +
								 sd * stats_norm_quantile(pow(opt->power, 1.0 / n)));
		return isfinite(*mde_pct);
	}
	return verdict_mde(sd * sqrt(1.0 / n / RANK_ARE), n - 1, confidence, opt, mde_pct);
}

bool
stats_verdict_mde_units_pct(double sd_units, int k, const StatsOptions *opt,
							double *mde_pct)
{
	*mde_pct = 0.0;
	if (k < 2)
		return false;
	return verdict_mde(sd_units * stats_sd_bound_factor(k - 1) / sqrt((double) k), k - 1,
					   1.0 - opt->alpha, opt, mde_pct);
}
