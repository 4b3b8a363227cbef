/*-------------------------------------------------------------------------
 *
 * test_stats_dist.c
 *		Unit tests of Student's t distribution and its power
 *		(common/stats_tdist.c), printing TAP.
 *
 * The t quantiles are checked against a published table (Fisher and
 * Yates; the same figures in every statistics textbook's appendix) to the
 * 4 decimals it prints, the cdf against the closed forms for 1 and 2
 * degrees of freedom, the incomplete beta function against its
 * polynomial form for whole parameters, and the noncentral t power
 * against a simulation of its definition.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

static void
test_beta(void)
{
	double		worst = 0.0;

	/* I_x(a, b) = sum_{j=a}^{a+b-1} C(a+b-1, j) x^j (1-x)^(a+b-1-j) */
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++)
			for (double x = 0.05; x < 1.0; x += 0.1)
			{
				double		sum = 0.0;
				int			n = a + b - 1;

				for (int j = a; j <= n; j++)
					sum += stats_choose(n, j) * pow(x, j) * pow(1.0 - x, n - j);
				worst = fmax(worst, fabs(stats_beta_inc(a, b, x) - sum));
			}
	ok(worst < 1e-13, "I_x(a, b) equals its binomial sum for a, b = 1..6 (worst %.2g)", worst);
	is_close(stats_beta_inc(7.5, 7.5, 0.5), 0.5, 1e-14, "I_0.5(a, a) = 1/2");
	is_close(stats_beta_inc(0.5, 0.5, 0.25), 2.0 / TEST_PI * asin(0.5), 1e-13,
			 "I_x(1/2, 1/2) = 2/pi asin(sqrt x)");
}

static void
test_t_table(void)
{
	/* p, df, quantile to 4 decimals */
	static const double table[][3] = {
		{0.975, 1, 12.7062}, {0.975, 2, 4.3027}, {0.975, 3, 3.1824},
		{0.975, 4, 2.7764}, {0.975, 5, 2.5706}, {0.975, 6, 2.4469},
		{0.975, 7, 2.3646}, {0.975, 8, 2.3060}, {0.975, 9, 2.2622},
		{0.975, 10, 2.2281}, {0.975, 15, 2.1314}, {0.975, 20, 2.0860},
		{0.975, 30, 2.0423}, {0.975, 60, 2.0003}, {0.975, 120, 1.9799},
		{0.995, 1, 63.6567}, {0.995, 2, 9.9248}, {0.995, 3, 5.8409},
		{0.995, 5, 4.0321}, {0.995, 10, 3.1693}, {0.995, 30, 2.7500},
		{0.95, 1, 6.3138}, {0.95, 2, 2.9200}, {0.95, 5, 2.0150},
		{0.95, 10, 1.8125}, {0.95, 30, 1.6973}, {0.90, 2, 1.8856},
		{0.90, 10, 1.3722}, {0.9995, 5, 6.8688}, {0.9995, 10, 4.5869},
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
	{
		double		q = stats_t_quantile(table[i][0], table[i][1]);

		ok(fabs(q - table[i][2]) < 0.00005 && fabs(stats_t_quantile(1 - table[i][0], table[i][1]) + q) < 1e-12,
		   "t(%.4g, %g df) = %.4f as the table prints (got %.6f; symmetric)",
		   table[i][0], table[i][1], table[i][2], q);
	}
	is_close(stats_t_quantile(0.975, 1e6), 1.959963984540054, 1e-5, "t(0.975) on 10^6 df is z(0.975)");
	ok(isnan(stats_t_quantile(0.5, 0)) && isnan(stats_t_cdf(1, -1)) && isnan(stats_t_quantile(1.5, 3)),
	   "out-of-range arguments give NaN");
}

static void
test_t_cdf(void)
{
	double		worst1 = 0.0,
				worst2 = 0.0,
				worst_roundtrip = 0.0;

	for (double t = -30.0; t <= 30.0; t += 0.37)
	{
		worst1 = fmax(worst1, fabs(stats_t_cdf(t, 1) - (0.5 + atan(t) / TEST_PI)));
		worst2 = fmax(worst2, fabs(stats_t_cdf(t, 2) - (0.5 + t / (2.0 * sqrt(2.0 + t * t)))));
	}
	ok(worst1 < 1e-14, "t cdf on 1 df is the Cauchy cdf (worst %.2g)", worst1);
	ok(worst2 < 1e-14, "t cdf on 2 df is 1/2 + t / (2 sqrt(2 + t^2)) (worst %.2g)", worst2);
	for (int df = 1; df <= 50; df += 7)
		for (double p = 1e-6; p < 1.0; p = p < 0.1 ? p * 10 : p + 0.1)
		{
			double		back = stats_t_cdf(stats_t_quantile(p, df), df);

			worst_roundtrip = fmax(worst_roundtrip, fabs(back - p) / fmin(p, 1 - p));
		}
	ok(worst_roundtrip < 1e-9, "cdf(quantile(p)) = p to a relative 1e-9, 1..50 df, p from 1e-6 (worst %.2g)",
	   worst_roundtrip);
}

/* P((Z + ncp) / sqrt(V / df) > crit) by drawing Z and V (V a sum of df squares). */
static double
simulated_power(double ncp, int df, double crit, int n)
{
	int			hits = 0;

	for (int i = 0; i < n; i++)
	{
		double		v = 0.0,
					z = rng_normal();

		for (int j = 0; j < df; j++)
		{
			double		e = rng_normal();

			v += e * e;
		}
		hits += (z + ncp) / sqrt(v / df) > crit;
	}
	return (double) hits / n;
}

static void
test_t_power(void)
{
	static const double cases[][3] = {{2, 4.0, 4.3027}, {4, 3.0, 2.7764},
	{9, 2.5, 2.2622}, {1, 8.0, 12.7062}};
	const int	n = 100000;

	rng_seed(21);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		int			df = (int) cases[i][0];
		double		power = stats_t_power(cases[i][1], df, cases[i][2]),
					sim = simulated_power(cases[i][1], df, cases[i][2], n);

		ok(fabs(power - sim) < 2.0 * mc_tolerance(power, n),
		   "noncentral t power, %d df, ncp %g, crit %g: %.4f, simulated %.4f", df,
		   cases[i][1], cases[i][2], power, sim);
	}
	{
		static const double dfs[] = {1, 2, 3, 5, 10, 50, 300, 5000};
		static const double crits[] = {-1.0, 0.5, 2.0, 5.0, 12.0, 40.0};
		double		worst = 0.0;

		for (size_t i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++)
			for (size_t j = 0; j < sizeof(crits) / sizeof(crits[0]); j++)
				worst = fmax(worst, fabs(stats_t_power(0.0, dfs[i], crits[j]) -
										 (1.0 - stats_t_cdf(crits[j], dfs[i]))));
		ok(worst < 1e-7, "ncp 0: the quadrature gives the central upper tail, 1 to 5000 df, "
		   "crit -1 to 40 (worst %.2g)", worst);
	}
	is_close(stats_t_power(3.0, 1e6, 2.0), stats_t_power(3.0, 1e6 + 1, 2.0), 1e-6,
			 "the normal limit past 10^6 df continues the quadrature");
	is_close(stats_t_power(3.0, 1e6, 2.0), stats_norm_cdf(1.0), 1e-5,
			 "on 10^6 df the power is Phi(ncp - crit)");
	for (int df = 1; df <= 60; df += 11)
	{
		double		crit = stats_t_quantile(0.975, df),
					ncp = stats_t_ncp_for_power(df, crit, 0.8);

		is_close(stats_t_power(ncp, df, crit), 0.8, 1e-7, "the ncp for power 0.8 gives 0.8");
	}
}

int
main(void)
{
	test_beta();
	test_t_table();
	test_t_cdf();
	test_t_power();
	return done_testing();
}
