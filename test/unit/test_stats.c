/*-------------------------------------------------------------------------
 *
 * test_stats.c
 *		Unit tests of common/stats*.c, printing TAP.
 *
 * Expected values come from published tables (Mann–Whitney U and Wilcoxon
 * signed-rank critical values), from textbook examples with known results
 * (Hollander and Wolfe's depression data, as in R's wilcox.test example),
 * and from brute-force enumeration of every arrangement done here, which
 * shares no code with the distributions under test.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <stdlib.h>
#include <string.h>

/* ---- brute force, independent of the code under test ---- */

/* Counts of U over all C(m+n, m) ways to pick which positions are A. */
static void
brute_u_counts(int m, int n, double *counts)
{
	int			total = m + n;
	unsigned	mask;

	memset(counts, 0, sizeof(double) * (m * n + 1));
	for (mask = 0; mask < (1u << total); mask++)
	{
		int			u = 0,
					as_below = 0,
					pos;

		if (__builtin_popcount(mask) != m)
			continue;
		/* positions in increasing order; a B counts the A's below it */
		for (pos = 0; pos < total; pos++)
		{
			if (mask & (1u << pos))
				as_below++;
			else
				u += as_below;
		}
		counts[u] += 1.0;
	}
}

/* Counts of W+ over all 2^n sign assignments of ranks 1..n. */
static void
brute_w_counts(int n, double *counts)
{
	unsigned	mask;
	int			max = n * (n + 1) / 2;

	memset(counts, 0, sizeof(double) * (max + 1));
	for (mask = 0; mask < (1u << n); mask++)
	{
		int			w = 0,
					r;

		for (r = 1; r <= n; r++)
			if (mask & (1u << (r - 1)))
				w += r;
		counts[w] += 1.0;
	}
}

/* Kendall's S over all n! permutations (Heap's algorithm). */
static void
brute_kendall_counts(int n, double *counts, int offset)
{
	int			perm[12],
				c[12],
				i,
				j;

	for (i = 0; i < n; i++)
		perm[i] = i, c[i] = 0;
	for (;;)
	{
		int			s = 0;

		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				s += (perm[j] > perm[i]) - (perm[j] < perm[i]);
		counts[s + offset] += 1.0;
		/* next permutation */
		for (i = 1; i < n && c[i] >= i; i++)
			c[i] = 0;
		if (i >= n)
			break;
		j = (i % 2) ? c[i] : 0;
		{
			int			t = perm[j];

			perm[j] = perm[i];
			perm[i] = t;
		}
		c[i]++;
	}
}

/* U of b by counting pairs, ties as one half. */
static double
brute_u(const double *a, int m, const double *b, int n)
{
	double		u = 0.0;
	int			i,
				j;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++)
			u += (b[j] > a[i]) ? 1.0 : (b[j] == a[i]) ? 0.5 : 0.0;
	return u;
}

/* ---- tests ---- */

static void
test_normal(void)
{
	is_close(stats_norm_quantile(0.975), 1.959963984540054, 1e-12, "z(0.975)");
	is_close(stats_norm_quantile(0.8), 0.8416212335729143, 1e-12, "z(0.8)");
	is_close(stats_norm_quantile(0.001), -3.090232306167813, 1e-11, "z(0.001)");
	is_close(stats_norm_cdf(1.959963984540054), 0.975, 1e-14, "Phi(1.96)");
	is_close(stats_choose(10, 5), 252.0, 0.0, "C(10,5)");
	is_close(stats_choose(40, 20), 137846528820.0, 0.0, "C(40,20)");
}

static void
test_u_distribution(void)
{
	/* two-sided 0.05 critical values of U from published tables */
	static const int table[][3] = {
		{4, 4, 0}, {3, 5, 0}, {5, 5, 2}, {5, 10, 8}, {6, 6, 5}, {7, 9, 12},
		{8, 8, 13}, {10, 10, 23}, {12, 15, 49}, {20, 20, 127}
	};
	static const int brute[][2] = {{1, 1}, {2, 3}, {3, 4}, {5, 5}, {4, 7}, {6, 8}};
	double		p,
				p_next;
	bool		exact;
	size_t		t;

	stats_u_cdf(5, 5, 0, &p, &exact);
	ok(exact && p == 1.0 / 252.0, "P(U <= 0), m = n = 5, is 1/252 exactly (got %.17g)", p);

	for (t = 0; t < sizeof(table) / sizeof(table[0]); t++)
	{
		int			m = table[t][0],
					n = table[t][1],
					crit = table[t][2];

		stats_u_cdf(m, n, crit, &p, &exact);
		stats_u_cdf(m, n, crit + 1, &p_next, &exact);
		ok(exact && p <= 0.025 && p_next > 0.025,
		   "U table m=%d n=%d: critical value %d (P = %.5f, next %.5f)",
		   m, n, crit, p, p_next);
	}

	for (t = 0; t < sizeof(brute) / sizeof(brute[0]); t++)
	{
		int			m = brute[t][0],
					n = brute[t][1],
					u;
		double		counts[64],
					table_cdf[64],
					total = 0.0,
					below = 0.0,
					worst = 0.0;

		brute_u_counts(m, n, counts);
		stats_u_cdf_table(m, n, table_cdf, &exact);
		for (u = 0; u <= m * n; u++)
			total += counts[u];
		for (u = 0; u <= m * n; u++)
		{
			below += counts[u];
			worst = fmax(worst, fabs(below / total - table_cdf[u]));
		}
		ok(exact && worst < 1e-15,
		   "U distribution m=%d n=%d equals enumeration of all %.0f arrangements",
		   m, n, total);
	}
}

static void
test_mann_whitney(void)
{
	/* R: wilcox.test(x, y): W = 35, one-sided p 0.1272, two-sided 0.2544 */
	static const double x[] = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
	static const double y[] = {1.15, 0.88, 0.90, 0.74, 1.21};
	static const double a5[] = {10, 11, 12, 13, 14};
	static const double b5[] = {20, 21, 22, 23, 24};
	StatsRankTest r;
	double		counts[64],
				total = 0.0,
				extreme = 0.0;
	int			u;

	stats_mann_whitney(y, 5, x, 10, &r);
	ok(r.statistic == 35.0 && r.exact, "U of the R example is 35, exact");
	is_close(r.p_value, 0.2544, 5e-5, "two-sided p of the R example");

	/* the same p by enumeration: arrangements at least as extreme as U=35 */
	brute_u_counts(5, 10, counts);
	for (u = 0; u <= 50; u++)
	{
		total += counts[u];
		if (u >= 35)
			extreme += counts[u];
	}
	is_close(r.p_value, 2.0 * extreme / total, 1e-15, "p equals 2 P(U >= 35) by enumeration");

	stats_mann_whitney(a5, 5, b5, 5, &r);
	ok(r.statistic == 25.0 && r.p_value == 2.0 / 252.0,
	   "complete separation, 5 and 5: U = 25, p = 2/252 (got %.17g)", r.p_value);
	stats_mann_whitney(b5, 5, a5, 5, &r);
	ok(r.statistic == 0.0 && r.p_value == 2.0 / 252.0, "reverse: U = 0, p = 2/252");

	/*
	 * Ties past the exact range: the normal approximation with tie
	 * correction, from its textbook formula (tie groups of 2, 3 and 4).
	 */
	{
		double		ta[30],
					tb[30];
		double		mn = 900.0,
					N = 60.0,
					T = 0.0;

		for (u = 0; u < 30; u++)
		{
			ta[u] = 1 + u % 10;		/* 1..10, three times each */
			tb[u] = 3 + u % 15;		/* 3..17, twice each */
		}
		stats_mann_whitney(ta, 30, tb, 30, &r);
		/* groups: 1,2 three times; 3..10 five times; 11..17 twice */
		T = 2 * (27 - 3) + 8 * (125 - 5) + 7 * (8 - 2);
		{
			double		var = mn / 12.0 * ((N + 1) - T / (N * (N - 1))),
						z = (fabs(brute_u(ta, 30, tb, 30) - mn / 2) - 0.5) / sqrt(var);

			ok(r.statistic == brute_u(ta, 30, tb, 30) && !r.exact,
			   "ties, 30 and 30 runs: U = %.1f counts ties as halves, normal approximation",
			   r.statistic);
			is_close(r.p_value, erfc(z / sqrt(2.0)), 1e-14, "ties past the exact range: tie-corrected p");
		}
	}
}

static void
test_hl_rank(void)
{
	static const int sizes[] = {5, 6, 8, 10, 20};
	static const int want[] = {3, 6, 14, 24, 128};
	double		conf;
	bool		exact;
	int			i,
				k;

	for (i = 0; i < 5; i++)
	{
		k = stats_hl_rank(sizes[i], sizes[i], 0.05, &conf, &exact);
		ok(k == want[i] && exact && conf >= 0.95,
		   "HL 95%% CI rank for n = %d per side is %d (got %d, confidence %.4f)",
		   sizes[i], want[i], k, conf);
	}
	k = stats_hl_rank(3, 3, 0.05, &conf, &exact);
	ok(k == 0 && fabs(conf - 0.9) < 1e-12,
	   "3 and 3 runs: no 95%% CI, best confidence 90%% (got k %d, %.4f)", k, conf);
	k = stats_hl_rank(40, 40, 0.05, &conf, &exact);
	ok(k > 0 && conf >= 0.95, "40 per side: rank %d, confidence %.4f", k, conf);
}

static void
test_hodges_lehmann(void)
{
	static const double a[] = {100, 102, 98, 101, 99};
	static const double b[] = {105, 107, 103, 106, 104};
	StatsShift	s;
	double		d[25];
	int			i,
				j;

	stats_hodges_lehmann(a, 5, b, 5, 0.05, &s);
	for (i = 0; i < 5; i++)
		for (j = 0; j < 5; j++)
			d[i * 5 + j] = log(b[j]) - log(a[i]);
	/* sort by hand: insertion sort, independent of the module's qsort */
	for (i = 1; i < 25; i++)
		for (j = i; j > 0 && d[j - 1] > d[j]; j--)
		{
			double		t = d[j];

			d[j] = d[j - 1];
			d[j - 1] = t;
		}
	is_close(s.log_estimate, d[12], 0.0, "HL estimate is the median of the 25 log ratios");
	ok(s.has_ci && s.rank == 3 && s.log_ci_low == d[2] && s.log_ci_high == d[22],
	   "HL CI is [D(3), D(23)] for 5 and 5");
	is_close(s.confidence, 1.0 - 2.0 * 4.0 / 252.0, 1e-15,
			 "achieved confidence 1 - 2 P(U <= 2) = 1 - 8/252");
}

static void
test_signed_rank(void)
{
	/* Hollander and Wolfe: depression scores before/after (R: V = 40, p = 0.03906) */
	static const double x[] = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
	static const double y[] = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
	static const int crit[][2] = {{6, 0}, {7, 2}, {8, 3}, {9, 5}, {10, 8}, {15, 25}, {20, 52}};
	double		d[9],
				counts[256],
				p,
				p_next,
				below = 0.0,
				worst = 0.0;
	bool		exact;
	StatsRankTest r;
	size_t		t;
	int			i;

	for (i = 0; i < 9; i++)
		d[i] = x[i] - y[i];
	stats_signed_rank(d, 9, &r);
	ok(r.statistic == 40.0 && r.exact, "signed rank: V = 40, exact");
	is_close(r.p_value, 20.0 / 512.0, 1e-15, "signed rank: p = 20/512 = 0.0390625");

	for (t = 0; t < sizeof(crit) / sizeof(crit[0]); t++)
	{
		stats_signed_rank_cdf(crit[t][0], crit[t][1], &p, &exact);
		stats_signed_rank_cdf(crit[t][0], crit[t][1] + 1, &p_next, &exact);
		ok(exact && p <= 0.025 && p_next > 0.025,
		   "signed-rank table n=%d: critical value %d (P = %.5f)", crit[t][0], crit[t][1], p);
	}

	brute_w_counts(8, counts);
	for (i = 0; i <= 36; i++)
	{
		below += counts[i];
		stats_signed_rank_cdf(8, i, &p, &exact);
		worst = fmax(worst, fabs(p - below / 256.0));
	}
	ok(worst < 1e-15, "W+ distribution, n = 8, equals enumeration of 256 sign patterns");

	/* zeros dropped, ties averaged, past the exact range: normal approximation */
	{
		double		dz[60],
					w = 0.0,
					T = 0.0;
		int			used = 0;

		/* 0 twice; then |d| = 1..29 twice each, with signs + then - for odd */
		for (i = 0; i < 60; i++)
			dz[i] = i < 2 ? 0.0 : ((i / 2) % 2 == 1 && i % 2 == 1 ? -1.0 : 1.0) * (i / 2);
		for (i = 0; i < 60; i++)
			if (dz[i] != 0.0)
				used++;
		/* |d| = k (k = 1..29) holds midrank 2k - 0.5 */
		for (i = 0; i < 60; i++)
			if (dz[i] > 0.0)
				w += 2.0 * dz[i] - 0.5;
		T = 29 * (8 - 2);
		stats_signed_rank(dz, 60, &r);
		ok(r.n_used == 58 && used == 58 && r.statistic == w && !r.exact,
		   "58 non-zero differences in ties of two: W+ = %.1f, normal approximation", r.statistic);
		{
			double		n = 58,
						var = n * (n + 1) * (2 * n + 1) / 24.0 - T / 48.0;

			is_close(r.p_value, erfc((fabs(w - n * (n + 1) / 4) - 0.5) / sqrt(var) / sqrt(2.0)),
					 1e-14, "tie-corrected normal p");
		}
	}
}

static void
test_paired(void)
{
	/* two-sided 5% critical values of W+ (Wilcoxon's tables): k = T + 1 */
	static const int crit[][2] = {{6, 0}, {7, 2}, {8, 3}, {10, 8}, {15, 25}, {20, 52}};
	double		a[8],
				b[8],
				x[9] = {1.1, 0.97, 1.04, 1.2, 0.99, 1.07, 1.02, 1.15, 1.0},
				ones[9],
				walsh[45];
	StatsOptions opt;
	StatsComparison pc,
				uc;
	StatsShift	shift;
	double		conf;
	bool		exact;
	int			i,
				j,
				k = 0;

	for (i = 0; i < (int) (sizeof(crit) / sizeof(crit[0])); i++)
		ok(stats_walsh_rank(crit[i][0], 0.05, &conf, &exact) == crit[i][1] + 1 && exact,
		   "Walsh CI rank for %d pairs is %d", crit[i][0], crit[i][1] + 1);

	/* the estimate is the median of the Walsh averages, counted by hand */
	for (i = 0; i < 9; i++)
		ones[i] = 1.0;
	for (i = 0; i < 9; i++)
		for (j = i; j < 9; j++)
			walsh[k++] = (log(x[i]) + log(x[j])) / 2;
	stats_sort(walsh, 45);
	stats_hodges_lehmann_paired(ones, x, 9, 0.05, &shift);
	is_close(shift.log_estimate, walsh[22], 1e-15, "paired HL: median of 45 Walsh averages");
	ok(shift.has_ci && shift.rank == 6 && shift.log_ci_low == walsh[5] &&
	   shift.log_ci_high == walsh[39], "paired HL: CI [W(6), W(40)] for 9 pairs");

	/* B 3% faster in every round while the machine speeds up by 35% */
	for (i = 0; i < 8; i++)
	{
		a[i] = 1000.0 + 50.0 * i;
		b[i] = a[i] * (1.03 + 0.001 * i);
	}
	stats_default_options(&opt);
	stats_compare_paired(a, b, 8, &opt, &pc);
	ok(pc.n_pairs == 8 && pc.u == 36.0 && pc.p_exact && pc.p_value == 2.0 / 256.0,
	   "paired: all 8 rounds favour B, p = 2/256 (got %g)", pc.p_value);
	ok(pc.estimate > 1.033 && pc.estimate < 1.035 && pc.verdict == STATS_FASTER,
	   "paired: ratio %.4f, faster", pc.estimate);
	stats_compare(a, 8, b, 8, &opt, &uc);
	ok(uc.n_pairs == 0 && uc.verdict == STATS_NO_CHANGE,
	   "unpaired, the drift hides the same 3%%: %s", stats_verdict_name(uc.verdict));
}

static void
test_compare_rounds(void)
{
	double		a[10],
				b[10];
	int			ra[10],
				rb[10];
	StatsOptions opt;
	StatsComparison c;
	int			i;

	stats_default_options(&opt);
	for (i = 0; i < 10; i++)
	{
		a[i] = 1000.0 + 50.0 * i;
		b[i] = a[i] * 1.03 * (1.0 + 0.001 * i);
		ra[i] = rb[i] = i + 1;
	}
	stats_compare_rounds(a, ra, 10, b, rb, 10, &opt, &c);
	ok(c.n_pairs == 10 && c.n_a == 10 && c.n_b == 10 && c.verdict == STATS_FASTER,
	   "rounds: 10 pairs, faster");

	/*
	 * B's run of round 3 failed (B has one in round 11 instead), and round 5
	 * holds two runs of A (none in 6): rounds 3, 5 and 6 are not pairs.
	 */
	rb[2] = 11;
	ra[5] = 5;
	stats_compare_rounds(a, ra, 10, b, rb, 10, &opt, &c);
	ok(c.n_pairs == 7 && c.n_a == 10, "rounds: unmatched and doubled rounds are not pairs (%d)",
	   c.n_pairs);

	/* 5 pairs can never reach p < 0.05 (2/32): all runs, unpaired */
	stats_compare_rounds(a, ra, 5, b, rb, 5, &opt, &c);
	ok(c.n_pairs == 0 && c.min_p == 2.0 / 252.0,
	   "rounds: too few pairs for the signed-rank test, Mann-Whitney instead");
	stats_compare_rounds(a, NULL, 10, b, NULL, 10, &opt, &c);
	ok(c.n_pairs == 0 && c.n_a == 10, "rounds: none given, unpaired");
}

static void
test_mann_kendall(void)
{
	double		up[10],
				flat[10],
				counts[64] = {0},
				below = 0.0,
				worst = 0.0,
				p;
	bool		exact;
	StatsTrend	t;
	int			i;

	for (i = 0; i < 10; i++)
	{
		up[i] = 100.0 + i;
		flat[i] = 100.0 + ((i * 7) % 10);	/* a shuffle of 0..9 */
	}
	stats_mann_kendall(up, 10, &t);
	ok(t.s == 45.0 && t.tau == 1.0 && t.exact,
	   "monotone series: S = 45, tau = 1");
	is_close(t.p_value, 2.0 / 3628800.0, 1e-16, "monotone series: p = 2/10!");
	stats_mann_kendall(flat, 10, &t);
	ok(t.p_value > 0.2, "shuffled series: no trend (S = %.0f, p = %.3f)", t.s, t.p_value);
	for (i = 0; i < 10; i++)
		flat[i] = 100.0;
	stats_mann_kendall(flat, 10, &t);
	ok(t.s == 0.0 && t.p_value == 1.0, "constant series: S = 0, p = 1");

	brute_kendall_counts(6, counts, 15);
	for (i = -15; i <= 15; i++)
	{
		below += counts[i + 15];
		stats_kendall_cdf(6, i, &p, &exact);
		worst = fmax(worst, fabs(p - below / 720.0));
	}
	ok(worst < 1e-14, "Kendall S distribution, n = 6, equals enumeration of 720 orders");
}

static void
test_outliers(void)
{
	static const double x[] = {100, 101, 99, 100.5, 99.5, 100.2, 150};
	static const double same[] = {100, 100, 100, 100, 140};
	double		z[7];
	bool		flag[7];
	int			n;

	n = stats_outliers(x, 7, z, flag);
	ok(n == 1 && flag[6] && !flag[0], "one outlier, the 150 (z = %.1f)", z[6]);
	/* by hand: median log 100.2, MAD of logs */
	{
		double		med = log(100.2),
					mad = log(100.2) - log(99.5);	/* deviations sorted: .. */
		double		devs[7];
		int			i,
					j;

		for (i = 0; i < 7; i++)
			devs[i] = fabs(log(x[i]) - med);
		for (i = 1; i < 7; i++)
			for (j = i; j > 0 && devs[j - 1] > devs[j]; j--)
			{
				double		t = devs[j];

				devs[j] = devs[j - 1];
				devs[j - 1] = t;
			}
		mad = devs[3];
		is_close(z[6], 0.6745 * (log(150) - med) / mad, 1e-12, "modified z of the 150");
	}
	n = stats_outliers(same, 5, z, flag);
	ok(n == 1 && flag[4], "MAD = 0: the mean absolute deviation scales z (z = %.2f)", z[4]);
	ok(stats_outliers(same, 4, NULL, NULL) == 0, "identical values: no outliers");
}

static void
test_summary(void)
{
	static const double x[] = {1, 2, 3, 4, 100};
	double		ten[10];
	StatsSummary s;
	int			i;

	stats_summarize(x, 5, 0.95, &s);
	ok(s.median == 3 && s.mad == 1 && s.mean == 22 && s.min == 1 && s.max == 100,
	   "median 3, MAD 1, mean 22");
	is_close(s.stddev, sqrt((21 * 21 + 20 * 20 + 19 * 19 + 18 * 18 + 78 * 78) / 4.0), 1e-12, "sd");
	ok(!s.has_median_ci && fabs(s.median_ci_confidence - 0.9375) < 1e-12,
	   "n = 5: no 95%% median CI, 93.75%% is the most it allows");
	for (i = 0; i < 10; i++)
		ten[i] = 10 - i;
	stats_summarize(ten, 6, 0.95, &s);
	ok(s.has_median_ci && s.median_ci_rank == 1 && fabs(s.median_ci_confidence - 62.0 / 64.0) < 1e-12,
	   "n = 6: median CI [min, max] at 96.875%%");
	stats_summarize(ten, 10, 0.95, &s);
	ok(s.has_median_ci && s.median_ci_rank == 2 && s.median_ci_low == 2 && s.median_ci_high == 9 &&
	   fabs(s.median_ci_confidence - (1.0 - 22.0 / 1024.0)) < 1e-12,
	   "n = 10: median CI [x(2), x(9)] at 97.85%%");
	stats_summarize(x, 0, 0.95, &s);
	ok(s.n == 0 && s.median == 0 && !s.has_median_ci, "n = 0: empty summary");
	stats_summarize(x, 1, 0.95, &s);
	ok(s.median == 1 && s.stddev == 0 && s.cv == 0, "n = 1: sd and CV are 0, not NaN");
}

/*
 * The median CI's rank in one pass (stats_binom_half_rank) is the rank
 * the definition gives, k asked of stats_binom_half_cdf() one by one (the
 * O(n^2) search summarize() made before), with the same confidence to the
 * bit, for every n up to 300 and some larger ones at four levels.
 */
static void
test_median_ci_rank(void)
{
	static const double levels[] = {0.5, 0.95, 0.99, 0.999999};
	static const int larger[] = {999, 1000, 2047, 3000};
	int			wrong = 0,
				checked = 0;

	for (int l = 0; l < 4; l++)
		for (int i = 0; i <= 300 + 4; i++)
		{
			int			n = i <= 300 ? i : larger[i - 301];
			double		half = (1.0 - levels[l]) / 2.0 * (1.0 + 1e-12),
						below;
			int			k = 0;
			int			fast = stats_binom_half_rank(n, half, &below);

			while (k < n / 2 && stats_binom_half_cdf(n, k) <= half)
				k++;
			checked++;
			if (fast != k || below != stats_binom_half_cdf(n, k >= 1 ? k - 1 : 0))
			{
				if (wrong++ < 3)
					diag("n %d level %g: rank %d, want %d", n, levels[l], fast, k);
			}
		}
	ok(wrong == 0, "median CI rank in one pass = the per-k search, to the bit (%d of %d differ)",
	   wrong, checked);
}

static bool
all_finite(const StatsComparison *c)
{
	return isfinite(c->estimate) && isfinite(c->ci_low) && isfinite(c->ci_high) &&
		isfinite(c->p_value) && isfinite(c->mde_pct) && isfinite(c->change_pct) &&
		isfinite(c->u) && isfinite(c->min_p) && c->reason[0] != '\0';
}

static void
test_insufficient(void)
{
	static const double a[] = {100, 101, 102, 99, 98, 103, 104, 97, 96, 105};
	static const double b[] = {200, 201, 202, 199, 198, 203, 204, 197, 196, 205};
	static const int sizes[][2] = {{0, 0}, {0, 10}, {10, 0}, {1, 1}, {2, 2}, {3, 3}, {1, 10}, {3, 4}};
	StatsOptions opt;
	StatsComparison c;
	size_t		t;

	stats_default_options(&opt);
	for (t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++)
	{
		int			rc = stats_compare(a, sizes[t][0], b, sizes[t][1], &opt, &c);

		ok(rc == STATS_OK && c.verdict == STATS_INSUFFICIENT && all_finite(&c),
		   "%d and %d runs: insufficient (%s)", sizes[t][0], sizes[t][1], c.reason);
	}
	stats_compare(a, 4, b, 4, &opt, &c);
	ok(c.verdict == STATS_FASTER && fabs(c.p_value - 2.0 / 70.0) < 1e-15,
	   "4 and 4 runs can already reject: p = 2/70, %s", stats_verdict_name(c.verdict));
}

static void
test_synthetic(void)
{
	double		a[10],
				b[10];
	StatsOptions opt;
	StatsComparison c;
	int			seed;

	stats_default_options(&opt);
	for (seed = 1; seed <= 8; seed++)
	{
		rng_state = 0x9E3779B97F4A7C15ULL * seed;
		noisy_sample(a, 10, 1000.0, 0.02);
		noisy_sample(b, 10, 1050.0, 0.02);
		stats_compare(a, 10, b, 10, &opt, &c);
		ok(c.verdict == STATS_FASTER && c.ci_low < 1.05 && c.ci_high > 1.05,
		   "seed %d: +5%% with 2%% noise is faster, CI covers 1.05: %s", seed, c.reason);
		stats_compare(b, 10, a, 10, &opt, &c);
		ok(c.verdict == STATS_SLOWER, "seed %d: the reverse is slower", seed);
		opt.higher_is_better = false;
		stats_compare(a, 10, b, 10, &opt, &c);
		ok(c.verdict == STATS_SLOWER, "seed %d: +5%% latency is slower", seed);
		opt.higher_is_better = true;
		stats_compare(a, 10, a, 10, &opt, &c);
		ok(c.verdict == STATS_NO_CHANGE && c.estimate == 1.0 && c.p_value == 1.0 &&
		   c.has_mde && c.mde_pct > 0.5 && c.mde_pct < 5.0,
		   "seed %d: identical samples: no change, MDE %.2f%%", seed, c.mde_pct);
	}
}

static void
test_noise_threshold(void)
{
	double		a[20],
				b[20];
	StatsOptions opt;
	StatsComparison c;

	/* a real but tiny change: significant, yet its CI reaches inside 1% */
	stats_default_options(&opt);
	rng_state = 12345;
	noisy_sample(a, 20, 1000.0, 0.001);
	noisy_sample(b, 20, 1005.0, 0.001);
	stats_compare(a, 20, b, 20, &opt, &c);
	ok(c.p_value < 0.05 && c.verdict == STATS_FASTER_WITHIN,
	   "+0.5%% with 0.1%% noise: p = %.2g, faster by less than the threshold, not faster (%s)",
	   c.p_value, c.reason);
	opt.noise = 0.0;
	stats_compare(a, 20, b, 20, &opt, &c);
	ok(c.verdict == STATS_FASTER, "the same with noise threshold 0: faster");
}

static void
test_mde(void)
{
	double		mde;

	ok(stats_mde_pct(0.02, 10, 10, 0.05, 0.8, &mde), "MDE computed");
	/* (1.959964 + 0.841621) * 0.02 * sqrt(0.2 * pi / 3) = 0.0256425 */
	is_close(mde, 100.0 * (exp(0.0256425) - 1.0), 1e-4, "MDE for sd 0.02, 10 + 10 runs");
	ok(!stats_mde_pct(0.02, 0, 10, 0.05, 0.8, &mde) && mde == 0.0, "no MDE without runs");
}

static void
test_robust_sd(void)
{
	/* median 3, absolute deviations 2 1 0 1 96: MAD 1 */
	static const double y[] = {1, 2, 3, 4, 99};
	static const double flat[] = {5, 5, 5, 7};
	double		e[5],
				sd,
				sd2;

	ok(stats_robust_sd(y, 5, &sd) == STATS_OK, "robust sd computed");
	is_close(sd, 1.4826, 1e-4, "robust sd is 1.4826 MAD, the outlier ignored");
	/* MAD 0 (three of four equal): the sample sd, sqrt(3 / 3) around 5.5 */
	ok(stats_robust_sd(flat, 4, &sd) == STATS_OK, "robust sd with MAD 0 computed");
	is_close(sd, 1.0, 1e-12, "robust sd falls back to the sample sd when the MAD is 0");
	for (int i = 0; i < 5; i++)
		e[i] = exp(y[i] / 100);
	ok(stats_pooled_log_sd(e, 5, NULL, 0, &sd) == STATS_OK &&
	   stats_pooled_log_sd(e, 5, e, 5, &sd2) == STATS_OK, "pooled log sd computed");
	is_close(sd, 1.4826 / 100, 1e-6, "pooled log sd with n_b = 0: that of a alone");
	is_close(sd2, sd, 1e-12, "a pooled with itself: the same");
}

static void
test_errors_and_geomean(void)
{
	static const double good[] = {1, 2, 3};
	static const double bad[] = {1, -2, 3};
	static const double r[] = {2, 8};
	StatsOptions opt;
	StatsComparison c;
	double		g,
				nan_value = nan("");

	stats_default_options(&opt);
	ok(stats_compare(good, 3, bad, 3, &opt, &c) == STATS_ERR_VALUE, "negative value rejected");
	ok(stats_compare(good, 3, &nan_value, 1, &opt, &c) == STATS_ERR_VALUE, "NaN rejected");
	opt.alpha = 1.0;
	ok(stats_compare(good, 3, good, 3, &opt, &c) == STATS_ERR_OPTION, "alpha 1 rejected");
	ok(stats_geomean(r, 2, &g) == STATS_OK && fabs(g - 4.0) < 1e-14, "geomean(2, 8) = 4");
	ok(stats_geomean(bad, 3, &g) == STATS_ERR_VALUE, "geomean rejects a negative ratio");
}

/* ---- ties inside the exact range: the conditional distributions ---- */

/*
 * The two-sided p of Mann–Whitney by enumerating every choice of which
 * pooled values are B's (U counted pair by pair, ties as halves), and the
 * smallest p any choice gives.
 */
static void
brute_tied_mw(const double *a, int m, const double *b, int n, double *p,
			  double *min_p)
{
	double		pool[20],
				u_obs = brute_u(a, m, b, n),
				u_all[1 << 16];
	double		lower = 0.0,
				upper = 0.0,
				total = 0.0;
	int			N = m + n,
				count = 0;

	memcpy(pool, a, sizeof(double) * m);
	memcpy(pool + m, b, sizeof(double) * n);
	for (unsigned mask = 0; mask < (1u << N); mask++)
	{
		double		xa[20],
					xb[20];
		int			ia = 0,
					ib = 0;

		if (__builtin_popcount(mask) != n)
			continue;
		for (int i = 0; i < N; i++)
		{
			if (mask & (1u << i))
				xb[ib++] = pool[i];
			else
				xa[ia++] = pool[i];
		}
		u_all[count++] = brute_u(xa, m, xb, n);
	}
	for (int i = 0; i < count; i++)
	{
		total += 1.0;
		lower += u_all[i] <= u_obs;
		upper += u_all[i] >= u_obs;
	}
	*p = fmin(1.0, 2.0 * fmin(lower, upper) / total);
	*min_p = 1.0;
	for (int i = 0; i < count; i++)
	{
		double		lo = 0.0,
					hi = 0.0;

		for (int j = 0; j < count; j++)
		{
			lo += u_all[j] <= u_all[i];
			hi += u_all[j] >= u_all[i];
		}
		*min_p = fmin(*min_p, fmin(1.0, 2.0 * fmin(lo, hi) / total));
	}
}

/* The same for the signed-rank test: every sign pattern of the non-zero |d|. */
static void
brute_tied_signed_rank(const double *d, int n, double *p)
{
	double		abs_d[20],
				rank[20],
				w_obs = 0.0,
				lower = 0.0,
				upper = 0.0;
	int			used = 0;

	for (int i = 0; i < n; i++)
		if (d[i] != 0.0)
			abs_d[used++] = fabs(d[i]);
	/* midranks by counting: rank = #smaller + (#equal + 1) / 2 */
	for (int i = 0; i < used; i++)
	{
		int			smaller = 0,
					equal = 0;

		for (int j = 0; j < used; j++)
		{
			smaller += abs_d[j] < abs_d[i];
			equal += abs_d[j] == abs_d[i];
		}
		rank[i] = smaller + (equal + 1) / 2.0;
	}
	for (int i = 0, k = 0; i < n; i++)
		if (d[i] != 0.0)
		{
			if (d[i] > 0.0)
				w_obs += rank[k];
			k++;
		}
	for (unsigned mask = 0; mask < (1u << used); mask++)
	{
		double		w = 0.0;

		for (int i = 0; i < used; i++)
			if (mask & (1u << i))
				w += rank[i];
		lower += w <= w_obs;
		upper += w >= w_obs;
	}
	*p = fmin(1.0, 2.0 * fmin(lower, upper) / ldexp(1.0, used));
}

static void
test_ties_exact(void)
{
	static const double a4[] = {100, 100, 100, 100};
	static const double b4[] = {105, 105, 105, 105};
	static const struct
	{
		int			m,
					n;
		double		a[10],
					b[10];
	}			mw[] = {
		{6, 7, {1, 2, 3, 3, 4, 5}, {3, 3, 5, 6, 7, 8, 8}},
		{4, 3, {1, 1, 1, 2}, {2, 3, 3}},
		{5, 5, {1, 2, 3, 4, 5}, {5, 6, 7, 8, 9}},
		{5, 6, {7, 7, 7, 7, 1}, {7, 7, 8, 9, 9, 9}},
		{4, 4, {100, 100, 100, 100}, {105, 105, 105, 105}},
		{3, 8, {2, 2, 2}, {1, 1, 2, 2, 2, 3, 3, 3}},
		{4, 4, {5, 5, 5, 5}, {5, 5, 5, 5}},
	};
	static const struct
	{
		int			n;
		double		d[12];
	}			sr[] = {
		{8, {0.0, 0.1, -0.1, 0.2, 0.2, 0.3, 0.4, 0.5}},
		{7, {1, 1, 1, -1, 2, 2, -3}},
		{9, {0, 0, 2, 2, 2, -2, 4, 5, 5}},
		{10, {1, 2, 3, 4, 5, 6, 7, 8, 9, -10}},
		{6, {3, 3, 3, 3, 3, 3}},
		{12, {1, -1, 1, -1, 2, 2, 2, -3, 4, 4, 0, 6}},
	};
	StatsRankTest r;
	StatsOptions opt;
	StatsComparison c;
	double		p,
				min_p;

	stats_default_options(&opt);
	stats_mann_whitney(a4, 4, b4, 4, &r);
	ok(r.exact && r.p_value == 2.0 / 70.0 && r.min_p == 2.0 / 70.0,
	   "A = {100 x4}, B = {105 x4}: exact p = 2/70 = 0.0286, not 0.0131 (got %.17g)", r.p_value);
	stats_compare(a4, 4, b4, 4, &opt, &c);
	ok(c.p_exact && c.p_value == 2.0 / 70.0 && c.verdict == STATS_FASTER && c.ci_rank == 1,
	   "the same compared: p = 2/70, faster, the CI's rank that of 4 and 4 untied runs (%d)",
	   c.ci_rank);

	for (size_t t = 0; t < sizeof(mw) / sizeof(mw[0]); t++)
	{
		stats_mann_whitney(mw[t].a, mw[t].m, mw[t].b, mw[t].n, &r);
		brute_tied_mw(mw[t].a, mw[t].m, mw[t].b, mw[t].n, &p, &min_p);
		ok(r.exact && fabs(r.p_value - p) < 1e-15 && fabs(r.min_p - min_p) < 1e-15,
		   "Mann-Whitney with ties, %d and %d runs (pattern %zu): p %.6f and smallest p %.6f "
		   "equal enumeration of every labelling (%.6f, %.6f)",
		   mw[t].m, mw[t].n, t, r.p_value, r.min_p, p, min_p);
	}
	for (size_t t = 0; t < sizeof(sr) / sizeof(sr[0]); t++)
	{
		stats_signed_rank(sr[t].d, sr[t].n, &r);
		brute_tied_signed_rank(sr[t].d, sr[t].n, &p);
		ok(r.exact && fabs(r.p_value - p) < 1e-15 && r.min_p == 2.0 / ldexp(1.0, r.n_used),
		   "signed rank with ties and zeros (pattern %zu, %d used): p %.6f equals enumeration "
		   "of every sign pattern (%.6f), smallest p 2/2^%d",
		   t, r.n_used, r.p_value, p, r.n_used);
	}

	/*
	 * all runs equal: no labelling can differ, so no p; but every shift
	 * but 0 would separate them, so the CI is [0, 0], inside the threshold:
	 * what it says decides (test_stats_ties.c)
	 */
	stats_compare(mw[6].a, 4, mw[6].b, 4, &opt, &c);
	ok(c.min_p == 1.0 && c.verdict == STATS_NO_CHANGE && c.ci_low == 1.0 && c.ci_high == 1.0 &&
	   stats_comparison_decision(&c, opt.noise) == STATS_DECIDED_SAME,
	   "8 equal runs: smallest p 1, CI [0, 0], same (%s)", c.reason);

	/* the tied counts with every group of one value are the untied distribution */
	{
		int			ones[11] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
		double		count[2 * 30 + 1],
					cdf[31],
					total,
					below = 0.0,
					worst = 0.0;
		bool		exact,
					exact2;

		stats_u_tied_counts(ones, 11, 5, count, &total, &exact);
		stats_u_cdf_table(6, 5, cdf, &exact2);
		for (int u = 0; u <= 30; u++)
		{
			below += count[2 * u];
			worst = fmax(worst, fabs(below / total - cdf[u]));
			/* without ties U is whole: no count at an odd 2U */
			if (u < 30)
				worst = fmax(worst, count[2 * u + 1]);
		}
		ok(exact && exact2 && worst < 1e-15 && total == 462.0,
		   "tied counts without ties equal the U distribution (6 and 5: 462 labellings, no half values)");
	}
}

static void
test_paired_zeros_and_options(void)
{
	/* six rounds, B ahead in five, one round exactly equal */
	double		a[6] = {100, 100, 100, 100, 100, 100},
				b[6] = {110, 111, 112, 113, 114, 100};
	double		ra_vals[8] = {100, 101, 102, 103, 104, 105, 106, -1.0};
	int			ra[8] = {1, 2, 3, 4, 5, 6, 7, 99},
				rb[7] = {1, 2, 3, 4, 5, 6, 7};
	double		rb_vals[7];
	StatsOptions opt;
	StatsComparison c;

	stats_default_options(&opt);
	stats_compare_paired(a, b, 6, &opt, &c);
	ok(c.verdict == STATS_INSUFFICIENT && c.n_used == 5 && c.min_p == 2.0 / 32.0 &&
	   strstr(c.reason, "without any difference") != NULL,
	   "6 pairs, one without a difference: 5 count, smallest p 2/32, insufficient (%s)", c.reason);
	b[5] = 115;
	stats_compare_paired(a, b, 6, &opt, &c);
	ok(c.verdict == STATS_FASTER && c.p_value == 2.0 / 64.0,
	   "6 pairs that all differ: p = 2/64, faster");

	opt.noise = 1.0;
	ok(stats_check_options(&opt) == STATS_ERR_OPTION &&
	   stats_compare_paired(a, b, 6, &opt, &c) == STATS_ERR_OPTION,
	   "noise 1 (a 100%% threshold) is out of range");
	opt.noise = 0.999;
	ok(stats_check_options(&opt) == STATS_OK, "noise 0.999 is in [0, 1)");
	opt.noise = -0.0001;
	ok(stats_check_options(&opt) == STATS_ERR_OPTION, "noise below 0 is out of range");
	stats_default_options(&opt);

	/* an unpaired run (round 99) with a bad value is still refused */
	for (int i = 0; i < 7; i++)
		rb_vals[i] = ra_vals[i] * 1.03;
	ok(stats_compare_rounds(ra_vals, ra, 8, rb_vals, rb, 7, &opt, &c) == STATS_ERR_VALUE,
	   "compare_rounds: a negative value in a round with no pair is refused");
	ra_vals[7] = nan("");
	ok(stats_compare_rounds(rb_vals, rb, 7, ra_vals, ra, 8, &opt, &c) == STATS_ERR_VALUE,
	   "compare_rounds: NaN in B's run outside any pair is refused");
	ra_vals[7] = 107;
	ok(stats_compare_rounds(ra_vals, ra, 8, rb_vals, rb, 7, &opt, &c) == STATS_OK &&
	   c.n_pairs == 7 && c.unit == STATS_UNIT_ROUND && c.n_units == 7,
	   "compare_rounds: with the value fixed, 7 pairs, unit round");
}

int
main(void)
{
	test_normal();
	test_u_distribution();
	test_mann_whitney();
	test_hl_rank();
	test_hodges_lehmann();
	test_signed_rank();
	test_paired();
	test_compare_rounds();
	test_mann_kendall();
	test_outliers();
	test_summary();
	test_median_ci_rank();
	test_insufficient();
	test_synthetic();
	test_noise_threshold();
	test_mde();
	test_robust_sd();
	test_errors_and_geomean();
	test_ties_exact();
	test_paired_zeros_and_options();
	return done_testing();
}
