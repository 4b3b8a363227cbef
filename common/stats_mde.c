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
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>

/* asymptotic relative efficiency of rank methods to the mean, normal data */
#define RANK_ARE (3.0 / 3.14159265358979323846)

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
	return verdict_mde(sd_log * sqrt((1.0 / m + 1.0 / n) / RANK_ARE), m + n - 2,
					   confidence, opt, mde_pct);
}

bool
stats_verdict_mde_paired_pct(double sd_log_ratio, int n, const StatsOptions *opt,
							 double *mde_pct)
{
	double		confidence;
	bool		exact;

	*mde_pct = 0.0;
	if (n < 2 || stats_walsh_rank(n, opt->alpha, &confidence, &exact) < 1)
		return false;
	return verdict_mde(sd_log_ratio * sqrt(1.0 / n / RANK_ARE), n - 1,
					   confidence, opt, mde_pct);
}

bool
stats_verdict_mde_units_pct(double sd_units, int k, const StatsOptions *opt,
							double *mde_pct)
{
	*mde_pct = 0.0;
	if (k < 2)
		return false;
	return verdict_mde(sd_units / sqrt((double) k), k - 1, 1.0 - opt->alpha,
					   opt, mde_pct);
}
