/*-------------------------------------------------------------------------
 *
 * test_stats_fdr.c
 *		Unit tests of the Benjamini–Hochberg adjustment
 *		(common/stats_fdr.c), printing TAP.
 *
 * The published example is Benjamini and Hochberg's (1995, section 4: 15
 * p-values from a study of myocardial infarction), with the adjusted
 * values R prints for p.adjust(p, "BH"); the simulation draws many
 * families of tests with known true and false hypotheses and measures the
 * false discovery rate directly.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

static void
test_published_example(void)
{
	static const double p[15] = {0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278,
		0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000};
	/* R: print(p.adjust(p, "BH"), digits = 7) */
	static const double r_bh[15] = {0.0015000, 0.0030000, 0.0095000, 0.0356250,
		0.0603000, 0.0638571, 0.0638571, 0.0645000, 0.0765000, 0.4860000,
	0.5811818, 0.7148750, 0.7532308, 0.8132143, 1.0000000};
	double		q[15],
				shuffled[15],
				qs[15],
				worst = 0.0;
	int			rejected = 0;

	ok(stats_bh_adjust(p, 15, q) == STATS_OK, "BH of the 15 published p-values");
	for (int i = 0; i < 15; i++)
	{
		worst = fmax(worst, fabs(q[i] - r_bh[i]));
		rejected += q[i] <= 0.05;
	}
	ok(worst < 5e-8, "equal to R's p.adjust(p, \"BH\") to its 7 digits (worst %.2g)", worst);
	ok(rejected == 4, "at FDR 0.05 the first four are rejected, as in the paper (%d)", rejected);

	/* order does not matter: each q stays with its p */
	for (int i = 0; i < 15; i++)
		shuffled[i] = p[(i * 7) % 15];
	stats_bh_adjust(shuffled, 15, qs);
	worst = 0.0;
	for (int i = 0; i < 15; i++)
		worst = fmax(worst, fabs(qs[i] - r_bh[(i * 7) % 15]));
	ok(worst < 5e-8, "shuffled input: the same q for each p");
}

static void
test_edges(void)
{
	double		p[5] = {0.04, 0.01, 0.04, 0.03, 0.5},
				q[5],
				bad = 1.5,
				nan_p = nan("");

	stats_bh_adjust(p, 5, q);
	ok(q[0] == 0.05 && q[1] == 0.05 && q[2] == 0.05 && q[3] == 0.05 && q[4] == 0.5,
	   "ties and the running minimum: 0.05 0.05 0.05 0.05 0.5");
	ok(stats_bh_adjust(p, 5, p) == STATS_OK && p[1] == 0.05, "q may be p (in place)");
	ok(stats_bh_adjust(&bad, 1, q) == STATS_ERR_PROB &&
	   stats_bh_adjust(&nan_p, 1, q) == STATS_ERR_PROB,
	   "p outside [0, 1] or NaN is refused");
	ok(stats_bh_adjust(p, 0, q) == STATS_OK, "no p-values: nothing to do");
}

/*
 * Families of m tests, m0 of them true nulls (p uniform) and the others
 * shifted by 2.5 sd (two-sided z tests); reject q <= Q.  The false
 * discovery proportion V / max(R, 1), averaged over families, must stay at
 * or below Q; BH's theorem gives m0 / m * Q for independent tests.
 */
static void
test_fdr_simulation(void)
{
	const int	families = 4000,
				m = 40,
				m0 = 30;
	const double Q = 0.10;
	double		sum_fdp = 0.0,
				sum_fdp2 = 0.0,
				sum_raw = 0.0;

	rng_seed(1995);
	for (int f = 0; f < families; f++)
	{
		double		p[40],
					q[40];
		int			v = 0,
					r = 0,
					v_raw = 0,
					r_raw = 0;
		double		fdp;

		for (int i = 0; i < m; i++)
		{
			double		z = rng_normal() + (i < m0 ? 0.0 : 2.5);

			p[i] = erfc(fabs(z) / sqrt(2.0));
		}
		stats_bh_adjust(p, m, q);
		for (int i = 0; i < m; i++)
		{
			r += q[i] <= Q;
			v += q[i] <= Q && i < m0;
			r_raw += p[i] <= Q;
			v_raw += p[i] <= Q && i < m0;
		}
		fdp = r > 0 ? (double) v / r : 0.0;
		sum_fdp += fdp;
		sum_fdp2 += fdp * fdp;
		sum_raw += r_raw > 0 ? (double) v_raw / r_raw : 0.0;
	}
	{
		double		fdr = sum_fdp / families,
					se = sqrt((sum_fdp2 / families - fdr * fdr) / families);

		ok(fdr <= Q + 2.0 * se,
		   "FDR of BH at Q = %g over %d families of %d tests (%d null): %.4f "
		   "(theory %.3f; tolerance two standard errors, %.4f)",
		   Q, families, m, m0, fdr, Q * m0 / m, 2.0 * se);
		ok(sum_raw / families > 2.0 * Q,
		   "without the adjustment (p <= Q) the FDR would be %.3f", sum_raw / families);
	}
}

int
main(void)
{
	test_published_example();
	test_edges();
	test_fdr_simulation();
	return done_testing();
}
