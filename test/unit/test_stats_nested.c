/*-------------------------------------------------------------------------
 *
 * test_stats_nested.c
 *		Unit tests of the nested verdict across instance and seed pairs
 *		(common/stats_nested.c), printing TAP: its figures on data worked
 *		by hand, its errors, and its error rates proven by simulation.
 *
 * The simulated experiment: k units (instance pairs), r rounds in each;
 * every unit draws one offset per side (the server start's layout:
 * normal, sd 0%, 2% or 5% of log tps), every round a drift shared by both
 * sides and a noise of 4.3% sd on the log ratio (paired 3-second rounds of
 * two servers of one binary on these machines).  Under no effect the
 * nested test's false-positive rate must stay at alpha, its verdict's
 * below, and its CI must cover the true ratio 95% of the time; the
 * round-by-round and all-seeds-pooled comparisons on the same data must
 * not, which is why the nested one exists.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <string.h>

#define ROUND_NOISE 0.043		/* sd of one round's log ratio */
#define DRIFT 0.03				/* sd of the machine's speed between rounds */
#define MAX_RUNS 400

typedef struct Experiment
{
	int			units;
	int			rounds;			/* per unit */
	double		instance_sd;	/* of each side's offset per unit */
	double		effect;			/* true log ratio */
	double		drift;
	double		ratio_noise;	/* sd of one round's log ratio */
	/* the runs: one of each side per round */
	int			n;
	double		a[MAX_RUNS];
	double		b[MAX_RUNS];
	int			round[MAX_RUNS];
	int			unit[MAX_RUNS];
} Experiment;

static void
simulate(Experiment *e)
{
	e->n = 0;
	for (int u = 0; u < e->units; u++)
	{
		double		offset_a = e->instance_sd * rng_normal(),
					offset_b = e->instance_sd * rng_normal();

		for (int r = 0; r < e->rounds; r++)
		{
			double		drift = e->drift * rng_normal();
			int			i = e->n++;

			e->a[i] = 1000.0 * exp(offset_a + drift + e->ratio_noise / sqrt(2.0) * rng_normal());
			e->b[i] = 1000.0 * exp(e->effect + offset_b + drift +
								   e->ratio_noise / sqrt(2.0) * rng_normal());
			e->round[i] = i + 1;
			e->unit[i] = u + 1;
		}
	}
}

static bool
claims_change(const StatsComparison *c)
{
	return c->verdict == STATS_FASTER || c->verdict == STATS_SLOWER;
}

static void
test_worked_example(void)
{
	/* per-round log ratios: unit 1 {0.02, 0.04}, 2 {0.01, 0.03}, 3 {0.05, 0.03} */
	static const double ratio[6] = {0.02, 0.04, 0.01, 0.03, 0.05, 0.03};
	double		a[6],
				b[6];
	int			round[6],
				unit[6] = {1, 1, 2, 2, 3, 3};
	StatsOptions opt;
	StatsComparison c,
				c2;
	/* summaries 0.03, 0.02, 0.04: mean 0.03, sd 0.01, t = 0.03 / (0.01 / sqrt 3) */
	double		t = 0.03 / (0.01 / sqrt(3.0)),
				p = 2.0 * (0.5 - t / (2.0 * sqrt(2.0 + t * t))),	/* t on 2 df, closed form */
				half = 4.302652729911275 * 0.01 / sqrt(3.0);

	stats_default_options(&opt);
	for (int i = 0; i < 6; i++)
	{
		a[i] = 1000.0;
		b[i] = 1000.0 * exp(ratio[i]);
		round[i] = i + 1;
	}
	ok(stats_compare_units(a, round, unit, 6, b, round, unit, 6, STATS_UNIT_INSTANCE_PAIR,
						   &opt, &c) == STATS_OK, "3 instance pairs of 2 rounds compared");
	ok(c.unit == STATS_UNIT_INSTANCE_PAIR && c.n_units == 3 && c.n_pairs == 6 && c.df == 2 &&
	   c.n_a == 6 && c.n_b == 6, "unit instance pair: 3 units, 6 rounds, 2 df");
	is_close(c.estimate, exp(0.03), 1e-14, "estimate exp(mean of the unit summaries)");
	is_close(c.u, t, 1e-12, "t = mean / (sd / sqrt(k))");
	is_close(c.p_value, p, 1e-12, "p from t on 2 df (closed form)");
	is_close(c.ci_low, exp(0.03 - half), 1e-9, "CI low: mean - t(0.975, 2) sd / sqrt 3");
	is_close(c.ci_high, exp(0.03 + half), 1e-9, "CI high");
	ok(c.ci_confidence == 0.95 && !c.p_exact && c.ci_rank == 0 && c.has_mde,
	   "confidence 95%% exactly, t rather than ranks, an MDE");
	ok(c.verdict == STATS_FASTER_UNSETTLED && strstr(c.reason, "noise threshold") != NULL,
	   "p = %.4f but the CI starts at +%.2f%%: faster, beyond the threshold not settled (%s)", c.p_value,
	   100 * (c.ci_low - 1), c.reason);

	/* without rounds: the units' mean log b minus mean log a, the same here */
	stats_compare_units(a, NULL, unit, 6, b, NULL, unit, 6, STATS_UNIT_INSTANCE_PAIR, &opt, &c2);
	ok(c2.n_pairs == 0 && c2.n_units == 3 && fabs(c2.u - c.u) < 1e-9,
	   "without rounds: unit means, the same t");

	/* unit ids are any ints, in any order; a unit with runs of one side only is left out */
	{
		int			scrambled[6] = {-7, -7, 42, 42, 5, 5};
		int			only_a[7] = {-7, -7, 42, 42, 5, 5, 9};
		double		a7[7],
					b6[6];
		int			r7[7];

		memcpy(a7, a, sizeof(a));
		a7[6] = 1234.0;
		memcpy(b6, b, sizeof(b));
		memcpy(r7, round, sizeof(round));
		r7[6] = 7;
		stats_compare_units(a7, r7, only_a, 7, b6, round, scrambled, 6,
							STATS_UNIT_INSTANCE_PAIR, &opt, &c2);
		ok(c2.n_units == 3 && fabs(c2.u - c.u) < 1e-9 && c2.n_a == 7,
		   "unit ids -7, 42, 5 and an extra unit of A alone: the same 3 units");
	}

	/* build seeds: the same round numbers in every seed pair */
	{
		int			seed_round[6] = {1, 2, 1, 2, 1, 2};

		stats_compare_units(a, seed_round, unit, 6, b, seed_round, unit, 6,
							STATS_UNIT_SEED_PAIR, &opt, &c2);
		ok(c2.n_units == 3 && c2.n_pairs == 6 && fabs(c2.u - c.u) < 1e-9 &&
		   c2.unit == STATS_UNIT_SEED_PAIR,
		   "seed pairs: rounds pair within their seed, the same t");
		stats_compare_units(a, seed_round, unit, 6, b, seed_round, unit, 6,
							STATS_UNIT_MACHINE_PAIR, &opt, &c2);
		ok(c2.n_units == 3 && c2.n_pairs == 6 && fabs(c2.u - c.u) < 1e-9 &&
		   c2.unit == STATS_UNIT_MACHINE_PAIR,
		   "machine pairs: the same test, the machine its unit");
	}
}

static void
test_insufficient_and_errors(void)
{
	double		a[6] = {100, 100, 100, 100, 100, 100},
				b[6] = {103, 104, 103, 104, 103, 104};
	int			round[6] = {1, 2, 3, 4, 5, 6},
				one_unit[6] = {1, 1, 1, 1, 1, 1},
				units[6] = {1, 1, 2, 2, 3, 3};
	StatsOptions opt;
	StatsComparison c,
				r;

	stats_default_options(&opt);
	stats_compare_units(a, round, one_unit, 6, b, round, one_unit, 6,
						STATS_UNIT_INSTANCE_PAIR, &opt, &c);
	ok(c.verdict == STATS_INSUFFICIENT && c.n_units == 1 && c.has_estimate && !c.has_ci &&
	   strstr(c.reason, "with 1 instance pair") != NULL,
	   "1 instance pair: insufficient (%s)", c.reason);
	stats_compare_units(a, round, units, 6, b, round, units, 6,
						STATS_UNIT_INSTANCE_PAIR, &opt, &c);
	/* counted instructions can repeat exactly: the mean is then known exactly */
	ok(c.n_units == 3 && c.has_p && c.p_value == 0.0 && c.has_ci && c.ci_low == c.ci_high &&
	   c.ci_low == c.estimate && c.verdict != STATS_INSUFFICIENT,
	   "3 instance pairs with identical summaries: the interval is the point (%s)", c.reason);
	stats_compare_units(a, round, units, 0, b, round, units, 6,
						STATS_UNIT_INSTANCE_PAIR, &opt, &c);
	ok(c.verdict == STATS_INSUFFICIENT && strcmp(c.reason, "A has no runs") == 0,
	   "A without runs: insufficient");

	ok(stats_compare_units(a, round, units, 6, b, round, NULL, 6,
						   STATS_UNIT_INSTANCE_PAIR, &opt, &c) == STATS_ERR_UNIT,
	   "unit ids for one side only: STATS_ERR_UNIT");
	ok(stats_compare_units(a, round, units, 6, b, round, units, 6,
						   STATS_UNIT_ROUND, &opt, &c) == STATS_ERR_UNIT,
	   "unit ids with the unit \"round\": STATS_ERR_UNIT");
	b[5] = -1.0;
	ok(stats_compare_units(a, round, units, 6, b, round, units, 6,
						   STATS_UNIT_INSTANCE_PAIR, &opt, &c) == STATS_ERR_VALUE,
	   "a negative value: STATS_ERR_VALUE");
	b[5] = 104.0;
	stats_compare_units(a, round, NULL, 6, b, round, NULL, 6,
						STATS_UNIT_INSTANCE_PAIR, &opt, &c);
	stats_compare_rounds(a, round, 6, b, round, 6, &opt, &r);
	ok(c.unit == STATS_UNIT_ROUND && c.p_value == r.p_value && c.n_pairs == 6,
	   "no unit ids: the round-by-round comparison");

	ok(strcmp(stats_unit_name(STATS_UNIT_INSTANCE_PAIR, 6), "instance pairs") == 0 &&
	   strcmp(stats_unit_name(STATS_UNIT_SEED_PAIR, 1), "build seed pair") == 0 &&
	   stats_unit_from_name("build seed pair") == STATS_UNIT_SEED_PAIR &&
	   stats_unit_from_name("layout seed pair") == -1 &&
	   stats_unit_from_name("build pair") == STATS_UNIT_BUILD_PAIR &&
	   stats_unit_from_name("machine pair") == STATS_UNIT_MACHINE_PAIR &&
	   strcmp(stats_unit_name(STATS_UNIT_MACHINE_PAIR, 2), "machine pairs") == 0 &&
	   stats_unit_from_name("round") == -1 && stats_unit_from_name("instance") == -1,
	   "unit names, and the names above the round read back (no other name)");
	ok(strcmp(stats_strerror(STATS_ERR_UNIT), "unknown statistics error") != 0,
	   "STATS_ERR_UNIT has a message: %s", stats_strerror(STATS_ERR_UNIT));
}

/*
 * Error rates of the nested verdict: for 3, 8 and 20 units of 2 and 6
 * rounds, instance sd 0%, 2%, 5%, no effect.  Tolerances (N simulations
 * each): a rate that should be at most alpha passes below alpha +
 * 3.09 sqrt(alpha (1 - alpha) / N), 3.09 Monte Carlo standard errors
 * (mc_tolerance: a fail by chance once in 1,000); coverage within 2
 * points of 95%, which is four of them at N = 2000.
 */
static void
test_error_rates(void)
{
	static const int units[] = {3, 8, 20};
	static const int rounds[] = {2, 6};
	static const double instance_sd[] = {0.0, 0.02, 0.05};
	const int	sims = 2000;
	StatsOptions opt;
	Experiment e = {.drift = DRIFT, .ratio_noise = ROUND_NOISE};

	stats_default_options(&opt);
	rng_seed(2013);
	for (size_t iu = 0; iu < 3; iu++)
		for (size_t ir = 0; ir < 2; ir++)
			for (size_t is = 0; is < 3; is++)
			{
				int			rejected = 0,
							claimed = 0,
							covered = 0;
				double		tol = mc_tolerance(opt.alpha, sims);

				e.units = units[iu];
				e.rounds = rounds[ir];
				e.instance_sd = instance_sd[is];
				for (int s = 0; s < sims; s++)
				{
					StatsComparison c;

					simulate(&e);
					stats_compare_units(e.a, e.round, e.unit, e.n, e.b, e.round, e.unit, e.n,
										STATS_UNIT_INSTANCE_PAIR, &opt, &c);
					rejected += c.has_p && c.p_value < opt.alpha;
					claimed += claims_change(&c);
					covered += c.has_ci && c.ci_low <= 1.0 && c.ci_high >= 1.0;
				}
				ok((double) rejected / sims <= opt.alpha + tol &&
				   (double) claimed / sims <= opt.alpha + tol &&
				   fabs((double) covered / sims - 0.95) <= 0.02,
				   "%2d instance pairs x %d rounds, instance sd %.0f%%: p < alpha %.3f, "
				   "false verdicts %.3f (both <= %.3f), CI coverage %.3f (95%% +- 2 points)",
				   e.units, e.rounds, 100 * e.instance_sd, (double) rejected / sims,
				   (double) claimed / sims, opt.alpha + tol, (double) covered / sims);
			}
}

/*
 * Why: the same kind of data judged round by round.  Today's scheme, one
 * start per experiment (1 instance pair of 60 rounds, instance sd 2%): the
 * verdict claims a change for identical software far more often than
 * alpha, while the nested one says insufficient.  With restarts (8 pairs
 * x 6 rounds) the rounds still reject far too often when judged alone.
 */
static void
test_rounds_fooled(void)
{
	const int	sims = 1000;
	StatsOptions opt;
	Experiment e = {.instance_sd = 0.02, .drift = DRIFT, .ratio_noise = ROUND_NOISE};
	int			rounds_claimed = 0,
				nested_insufficient = 0,
				rounds_rejected = 0,
				nested_rejected = 0;

	stats_default_options(&opt);
	rng_seed(2009);
	e.units = 1;
	e.rounds = 60;
	for (int s = 0; s < sims; s++)
	{
		StatsComparison c;

		simulate(&e);
		stats_compare_rounds(e.a, e.round, e.n, e.b, e.round, e.n, &opt, &c);
		rounds_claimed += claims_change(&c);
		stats_compare_units(e.a, e.round, e.unit, e.n, e.b, e.round, e.unit, e.n,
							STATS_UNIT_INSTANCE_PAIR, &opt, &c);
		nested_insufficient += c.verdict == STATS_INSUFFICIENT;
	}
	ok((double) rounds_claimed / sims > 5 * opt.alpha && nested_insufficient == sims,
	   "A/A, one start, 60 rounds, instance sd 2%%: round by round %.1f%% false "
	   "faster/slower; nested: insufficient every time",
	   100.0 * rounds_claimed / sims);

	e.units = 8;
	e.rounds = 6;
	for (int s = 0; s < sims; s++)
	{
		StatsComparison c;

		simulate(&e);
		stats_compare_rounds(e.a, e.round, e.n, e.b, e.round, e.n, &opt, &c);
		rounds_rejected += c.p_value < opt.alpha;
		stats_compare_units(e.a, e.round, e.unit, e.n, e.b, e.round, e.unit, e.n,
							STATS_UNIT_INSTANCE_PAIR, &opt, &c);
		nested_rejected += c.has_p && c.p_value < opt.alpha;
	}
	ok((double) rounds_rejected / sims > 3 * opt.alpha &&
	   (double) nested_rejected / sims <= opt.alpha + mc_tolerance(opt.alpha, sims),
	   "A/A, 8 instance pairs x 6 rounds, instance sd 2%%: p < alpha round by round "
	   "%.1f%%, nested %.1f%%", 100.0 * rounds_rejected / sims,
	   100.0 * nested_rejected / sims);
}

/*
 * Build seeds: 3 seeds x 10 rounds, each build of each side with its own
 * layout offset (sd 2%), runs with 2% noise.  All runs of all seeds pooled
 * (what the seed report did) against the nested verdict with the seed pair
 * as the unit.
 */
static void
test_seeds_pooled(void)
{
	const int	sims = 2000;
	StatsOptions opt;
	Experiment e = {.units = 3, .rounds = 10, .instance_sd = 0.02, .drift = 0.0,
	.ratio_noise = 0.02 * 1.41421356237309505};
	int			pooled = 0,
				nested = 0;

	stats_default_options(&opt);
	rng_seed(2024);
	for (int s = 0; s < sims; s++)
	{
		StatsComparison c;
		int			seed_round[MAX_RUNS];

		simulate(&e);
		for (int i = 0; i < e.n; i++)
			seed_round[i] = i % e.rounds + 1;
		stats_compare(e.a, e.n, e.b, e.n, &opt, &c);
		pooled += claims_change(&c);
		stats_compare_units(e.a, seed_round, e.unit, e.n, e.b, seed_round, e.unit, e.n,
							STATS_UNIT_SEED_PAIR, &opt, &c);
		nested += claims_change(&c);
	}
	ok((double) pooled / sims > 2 * opt.alpha &&
	   (double) nested / sims <= opt.alpha + mc_tolerance(opt.alpha, sims),
	   "A/A, 3 build seeds x 10 runs, build effect sd 2%%: all seeds pooled %.1f%% "
	   "false faster/slower, nested by seed pair %.1f%%",
	   100.0 * pooled / sims, 100.0 * nested / sims);
}

int
main(void)
{
	test_worked_example();
	test_insufficient_and_errors();
	test_error_rates();
	test_rounds_fooled();
	test_seeds_pooled();
	return done_testing();
}
