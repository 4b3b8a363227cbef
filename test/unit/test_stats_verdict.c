/*-------------------------------------------------------------------------
 *
 * test_stats_verdict.c
 *		Unit tests of the verdict's words (common/stats_compare.c,
 *		stats_decide): what a CI says against 0 and against the noise
 *		threshold, printing TAP.
 *
 * Each case is built so that its CI is known by hand: k unit summaries
 * m + s and m - s in turn across instance pairs have mean m and sd
 * s sqrt(k / (k - 1)), so the t interval is m +- t(0.975, k - 1) sd /
 * sqrt(k).  Four places of that CI against 0 and the +-1% threshold (it
 * includes 0; it excludes 0 inside the threshold; it excludes 0 across
 * the threshold's edge; it lies beyond the threshold), each on both sides
 * of 0 and for a figure where lower is better (latency) too.  A verdict
 * must never say "no change" of a CI that excludes 0, and what decides
 * (stats_comparison_decision) must be what it was before the words were
 * split: only the whole CI beyond the threshold differs, and the whole CI
 * inside it is the same.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <string.h>

#define MAX_UNITS 40

/* k instance pairs of 2 rounds each, the unit summaries m +- s in turn. */
static StatsComparison
compare_units(int k, double m, double s, bool higher_is_better)
{
	double		a[2 * MAX_UNITS],
				b[2 * MAX_UNITS];
	int			round[2 * MAX_UNITS],
				unit[2 * MAX_UNITS];
	StatsOptions opt;
	StatsComparison c;

	stats_default_options(&opt);
	opt.higher_is_better = higher_is_better;
	for (int i = 0; i < 2 * k; i++)
	{
		a[i] = 1000.0;
		b[i] = 1000.0 * exp(m + ((i / 2) % 2 == 0 ? s : -s));
		round[i] = i + 1;
		unit[i] = i / 2 + 1;
	}
	if (stats_compare_units(a, round, unit, 2 * k, b, round, unit, 2 * k,
							STATS_UNIT_INSTANCE_PAIR, &opt, &c) != STATS_OK)
		memset(&c, 0, sizeof(c));
	return c;
}

/* The CI of compare_units() worked by hand, as ratios. */
static void
ci_by_hand(int k, double m, double s, double t_crit, double *low, double *high)
{
	double		half = t_crit * s * sqrt((double) k / (k - 1)) / sqrt((double) k);

	*low = exp(m - half);
	*high = exp(m + half);
}

typedef struct Case
{
	const char *what;
	double		change;			/* the true ratio - 1 */
	double		s;				/* half the spread of the unit summaries */
	StatsVerdict tps;			/* the verdict when higher is better */
	StatsVerdict latency;		/* when lower is */
	StatsDecision decision;		/* as tps */
} Case;

static void
test_places(void)
{
	static const Case cases[] = {
		{"CI includes 0", -0.001, 0.004, STATS_NO_CHANGE, STATS_NO_CHANGE, STATS_DECIDED_SAME},
		{"CI includes 0, across the threshold", -0.004, 0.012, STATS_NO_CHANGE, STATS_NO_CHANGE,
		STATS_UNDECIDED},
		{"CI below 0, inside the threshold", -0.005, 0.002, STATS_SLOWER_WITHIN,
		STATS_FASTER_WITHIN, STATS_DECIDED_SAME},
		{"CI below 0, across -1%", -0.010, 0.004, STATS_SLOWER_UNSETTLED,
		STATS_FASTER_UNSETTLED, STATS_UNDECIDED},
		{"CI below -1%", -0.030, 0.004, STATS_SLOWER, STATS_FASTER, STATS_DECIDED_SLOWER},
		{"CI above 0, inside the threshold", 0.005, 0.002, STATS_FASTER_WITHIN,
		STATS_SLOWER_WITHIN, STATS_DECIDED_SAME},
		{"CI above 0, across +1%", 0.010, 0.004, STATS_FASTER_UNSETTLED,
		STATS_SLOWER_UNSETTLED, STATS_UNDECIDED},
		{"CI above +1%", 0.030, 0.004, STATS_FASTER, STATS_SLOWER, STATS_DECIDED_FASTER},
	};
	const double t9 = 2.2621571627409915;	/* t(0.975, 9) */

	for (int i = 0; i < (int) (sizeof(cases) / sizeof(cases[0])); i++)
	{
		const Case *x = &cases[i];
		double		m = log(1.0 + x->change),
					low,
					high;
		StatsComparison c = compare_units(10, m, x->s, true),
					lat = compare_units(10, m, x->s, false);
		bool		excludes;

		ci_by_hand(10, m, x->s, t9, &low, &high);
		excludes = low > 1.0 || high < 1.0;
		ok(c.has_ci && fabs(c.ci_low - low) < 1e-9 && fabs(c.ci_high - high) < 1e-9,
		   "%s: the CI [%+.2f%%, %+.2f%%] is the one worked by hand", x->what,
		   100 * (c.ci_low - 1), 100 * (c.ci_high - 1));
		ok(c.verdict == x->tps && c.noise == 0.01,
		   "%s, tps: \"%s\" (%s)", x->what, stats_verdict_name(c.verdict), c.reason);
		ok(lat.verdict == x->latency,
		   "%s, latency: \"%s\"", x->what, stats_verdict_name(lat.verdict));
		ok((c.verdict == STATS_NO_CHANGE) == !excludes && (lat.verdict == STATS_NO_CHANGE) == !excludes,
		   "%s: no change exactly when the CI includes 0", x->what);
		ok(stats_comparison_decision(&c, 0.01) == x->decision &&
		   stats_comparison_decision(&lat, 0.01) ==
		   (x->decision == STATS_DECIDED_FASTER ? STATS_DECIDED_SLOWER :
			x->decision == STATS_DECIDED_SLOWER ? STATS_DECIDED_FASTER : x->decision),
		   "%s: decides \"%s\", as before the words were split", x->what,
		   stats_decision_name(stats_comparison_decision(&c, 0.01)));
		ok(stats_verdict_direction(c.verdict) == (excludes ? (high < 1.0 ? -1 : 1) : 0) &&
		   stats_verdict_direction(lat.verdict) == -stats_verdict_direction(c.verdict),
		   "%s: its direction %+d, the latency's the opposite", x->what,
		   stats_verdict_direction(c.verdict));
	}
}

/*
 * The case that was seen: two builds, 30 instance pairs, -1.17% [-1.56%,
 * -0.77%], p 1.4e-06, was printed as no change.
 */
static void
test_two_builds(void)
{
	/* s such that the t interval's half width on 29 df is 0.39% of log */
	const double t29 = 2.0452296421327034;
	double		m = log(1.0 - 0.0117),
				s = 0.0039 / t29 * sqrt(30.0) / sqrt(30.0 / 29.0);
	StatsComparison c = compare_units(30, m, s, true);

	ok(c.n_units == 30 && fabs(c.ci_low - exp(m - 0.0039)) < 1e-9 && c.p_value < 1e-5,
	   "30 instance pairs: %+.2f%% [%+.2f%%, %+.2f%%], p %.2g", c.change_pct,
	   100 * (c.ci_low - 1), 100 * (c.ci_high - 1), c.p_value);
	ok(c.verdict == STATS_SLOWER_UNSETTLED &&
	   strcmp(stats_verdict_name(c.verdict), "slower; beyond the threshold not settled") == 0,
	   "says slower, beyond the threshold not settled: %s", stats_verdict_name(c.verdict));
	ok(strstr(c.reason, "excludes 0") != NULL && strstr(c.reason, "reaches across the 1% noise threshold") != NULL,
	   "its reason says why: %s", c.reason);
	ok(stats_comparison_decision(&c, 0.01) == STATS_UNDECIDED && stats_verdict_within_noise(c.verdict),
	   "and it decides nothing: undecided, within the noise as a count of decisions takes it");
}

/* Round by round (signed ranks, Walsh averages): the same words. */
static void
test_rounds(void)
{
	double		a[12],
				b[12];
	StatsOptions opt;
	StatsComparison c;

	stats_default_options(&opt);
	for (int i = 0; i < 12; i++)
	{
		a[i] = 1000.0;
		b[i] = 1000.0 * (0.996 + 0.0002 * (i % 4));
	}
	stats_compare_paired(a, b, 12, &opt, &c);
	ok(c.unit == STATS_UNIT_ROUND && c.ci_high < 1.0 && c.ci_low > 0.99 &&
	   c.verdict == STATS_SLOWER_WITHIN,
	   "12 rounds at -0.37%%: [%+.2f%%, %+.2f%%], \"%s\"", 100 * (c.ci_low - 1),
	   100 * (c.ci_high - 1), stats_verdict_name(c.verdict));
	for (int i = 0; i < 12; i++)
		b[i] = 1000.0 * (1.0 + 0.002 * (i % 2 == 0 ? 1 : -1) + 0.0001 * i);
	stats_compare_paired(a, b, 12, &opt, &c);
	ok(c.ci_low < 1.0 && c.ci_high > 1.0 && c.verdict == STATS_NO_CHANGE && c.has_mde &&
	   strstr(c.reason, "not below alpha") != NULL,
	   "12 rounds about 0: [%+.2f%%, %+.2f%%], no change with its MDE (%s)",
	   100 * (c.ci_low - 1), 100 * (c.ci_high - 1), c.reason);
}

/* Every value has a name, and only faster and slower are beyond the noise. */
static void
test_names(void)
{
	static const StatsVerdict all[] = {
		STATS_INSUFFICIENT, STATS_NO_CHANGE, STATS_FASTER, STATS_SLOWER, STATS_FASTER_WITHIN,
		STATS_SLOWER_WITHIN, STATS_FASTER_UNSETTLED, STATS_SLOWER_UNSETTLED
	};
	int			within = 0,
				named = 0;

	for (int i = 0; i < 8; i++)
	{
		within += stats_verdict_within_noise(all[i]);
		named += strcmp(stats_verdict_name(all[i]), "unknown") != 0;
		for (int j = 0; j < i; j++)
			named -= strcmp(stats_verdict_name(all[i]), stats_verdict_name(all[j])) == 0;
	}
	ok(named == 8, "8 verdicts, 8 distinct names");
	ok(within == 5 && !stats_verdict_within_noise(STATS_FASTER) &&
	   !stats_verdict_within_noise(STATS_SLOWER) && !stats_verdict_within_noise(STATS_INSUFFICIENT),
	   "within the noise: no change and the four directions short of the threshold");
}

int
main(void)
{
	test_places();
	test_two_builds();
	test_rounds();
	test_names();
	return done_testing();
}
