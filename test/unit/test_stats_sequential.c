/*-------------------------------------------------------------------------
 *
 * test_stats_sequential.c
 *		Unit tests of the sequential decisions (common/stats_sequential.c,
 *		stats_seqbudget.c), printing TAP: the spending functions, a
 *		budget's looks and a cell's first decision, the group-sequential
 *		boundaries against a simulated Brownian motion, and by simulation
 *		of small samples the error rates when the runner looks after every
 *		block of rounds and stops at the first decision, the final CI's
 *		coverage, and how soon real effects stop; a cell decided against a
 *		reference ratio (the shifted looks), and the rule of a decision.
 *
 * Tolerances (the project's rule: a check of simulated data fails by
 * chance at most once in 1,000 runs, whatever the seed): a rate p
 * estimated from N simulations has sd sqrt(p (1-p) / N); a one-sided
 * bound gets 3.09 sd (P(Z > 3.09) = 0.001), a rate checked from both
 * sides 3.29 sd on each (0.0005 a side); mc_band() below computes them,
 * and each check prints the bounds it used.
 *
 * With PGBENCH_EXT_TEST_LONG=1 the simulations are ten times larger and
 * the method this replaced (Bonferroni over looks: each look at its
 * increment of alpha) is simulated beside it on the same designs: the
 * figures of docs/statistics.md.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ROUND_NOISE 0.043
#define MAX_LOOKS 25
#define MAX_RUNS 200

typedef struct Sequence
{
	int			block_units;	/* instance pairs per block; 0: rounds on one pair of servers */
	int			block_rounds;	/* rounds per block (per instance pair) */
	int			max_looks;
	double		instance_sd;
	double		effect;			/* true ratio - 1 */
	double		noise;			/* the verdict's noise threshold */
	StatsSpending spending;
	bool		bonferroni;		/* each look at its increment of alpha (the old method) */
	double		z[MAX_LOOKS];	/* the looks' boundaries, set by prepare(): rounds */
	double		t_crit[MAX_LOOKS];	/* units */
} Sequence;

typedef struct Outcome
{
	StatsDecision decision;
	int			look;			/* where it stopped, or max_looks */
	int			rounds;			/* rounds (of each side) run by then */
	bool		covered;		/* the stopping look's CI holds the true ratio */
} Outcome;

/*
 * The boundaries of q's plan, once per design (what stats_sequential_look
 * would compute at every look).  Bonferroni: each look at its increment
 * of alpha.
 */
static void
prepare(Sequence *q)
{
	double		info[MAX_LOOKS];
	int			units[MAX_LOOKS];

	for (int k = 0; k < q->max_looks; k++)
	{
		info[k] = (k + 1.0) / q->max_looks;
		units[k] = (k + 1) * q->block_units;
	}
	stats_sequential_bounds(q->spending, 0.05, info, q->max_looks, q->z);
	if (q->block_units > 0)
		stats_sequential_t_bounds(q->spending, 0.05, info, units, q->max_looks, q->t_crit);
	for (int k = 0; q->bonferroni && k < q->max_looks; k++)
	{
		double		increment = stats_alpha_spent(q->spending, 0.05, info[k]) -
			stats_alpha_spent(q->spending, 0.05, k > 0 ? info[k - 1] : 0.0);

		q->z[k] = -stats_norm_quantile(increment / 2.0);
		q->t_crit[k] = units[k] >= 2 ? stats_t_quantile(1.0 - increment / 2.0, units[k] - 1)
			: HUGE_VAL;
	}
}

/* One block of rounds (on new instance pairs when q has units) into a, b. */
static void
simulate_block(const Sequence *q, int k, double *a, double *b, int *round, int *unit,
			   int *n)
{
	int			units = q->block_units > 0 ? q->block_units : 1;

	for (int u = 0; u < units; u++)
	{
		/* a new instance pair per unit; rounds on one pair assume no offset */
		double		oa = q->block_units > 0 ? q->instance_sd * rng_normal() : 0.0,
					ob = q->block_units > 0 ? q->instance_sd * rng_normal() : 0.0;

		for (int r = 0; r < q->block_rounds; r++, (*n)++)
		{
			double		drift = 0.03 * rng_normal();

			a[*n] = 1000.0 * exp(oa + drift + ROUND_NOISE / sqrt(2.0) * rng_normal());
			b[*n] = 1000.0 * (1.0 + q->effect) *
				exp(ob + drift + ROUND_NOISE / sqrt(2.0) * rng_normal());
			round[*n] = *n + 1;
			unit[*n] = (k - 1) * units + u;
		}
	}
}

/* One experiment run to its first decision or its last look. */
static void
run_sequence(const Sequence *q, Outcome *out)
{
	double		a[MAX_RUNS],
				b[MAX_RUNS];
	int			round[MAX_RUNS],
				unit[MAX_RUNS],
				n = 0;
	StatsOptions opt;
	StatsSequentialPlan plan = {.max_looks = q->max_looks, .spending = q->spending,
	.z = q->z, .t_crit = q->t_crit};
	StatsLook	look;

	stats_default_options(&opt);
	opt.noise = q->noise;
	for (int k = 1; k <= q->max_looks; k++)
	{
		simulate_block(q, k, a, b, round, unit, &n);
		plan.look = k;
		stats_sequential_look(a, round, q->block_units > 0 ? unit : NULL, n,
							  b, round, q->block_units > 0 ? unit : NULL, n,
							  STATS_UNIT_INSTANCE_PAIR, &plan, &opt, &look);
		out->decision = look.decision;
		out->look = k;
		out->rounds = n;
		out->covered = look.cmp.has_ci && look.cmp.ci_low <= 1.0 + q->effect &&
			look.cmp.ci_high >= 1.0 + q->effect;
		if (look.decision != STATS_UNDECIDED)
			return;
	}
}

/* z sd of a rate p estimated from n simulations */
static double
mc_band(double p, int n, double z)
{
	return z * sqrt(p * (1.0 - p) / n);
}

static void
test_spending(void)
{
	StatsSequentialPlan plan = {.look = 1, .max_looks = 4};
	StatsOptions opt;
	StatsLook	look;
	double		a[6] = {1, 2, 3, 4, 5, 6},
				z[4],
				even[4] = {0.25, 0.5, 0.75, 1.0};
	int			round[6] = {1, 2, 3, 4, 5, 6};
	double		info[3] = {0.5, 0.4, 0.9};
	bool		above = true;

	stats_default_options(&opt);
	is_close(stats_alpha_spent(STATS_SPEND_OBRIEN_FLEMING, 0.05, 0.5),
			 2.0 - 2.0 * stats_norm_cdf(1.959963984540054 / sqrt(0.5)), 1e-15,
			 "O'Brien-Fleming type at t = 0.5: 2 - 2 Phi(z / sqrt t) = 0.0056");
	is_close(stats_alpha_spent(STATS_SPEND_POCOCK, 0.05, 0.5),
			 0.05 * log(1.0 + (exp(1.0) - 1.0) * 0.5), 1e-15,
			 "Pocock type at t = 0.5: alpha ln(1 + (e-1) t) = 0.031");
	ok(stats_alpha_spent(STATS_SPEND_OBRIEN_FLEMING, 0.05, 0.0) == 0.0 &&
	   stats_alpha_spent(STATS_SPEND_POCOCK, 0.05, 1.0) == 0.05 &&
	   stats_alpha_spent(STATS_SPEND_OBRIEN_FLEMING, 0.05, 1.7) == 0.05,
	   "nothing spent at 0, all of alpha at 1 and past it");

	stats_sequential_bounds(STATS_SPEND_POCOCK, 0.05, even + 3, 1, z);
	is_close(z[0], 1.959963984540054, 1e-9, "one look: the fixed design's z(0.975)");
	stats_sequential_bounds(STATS_SPEND_OBRIEN_FLEMING, 0.05, even, 4, z);
	for (int k = 1; k <= 4; k++)
	{
		plan.look = k;
		stats_sequential_look(a, round, NULL, 6, a, round, NULL, 6, STATS_UNIT_INSTANCE_PAIR,
							  &plan, &opt, &look);
		/* a look spends more than its increment: the looks are correlated */
		above = above && look.z_bound == z[k - 1] &&
			look.alpha_look > look.alpha_spent -
			stats_alpha_spent(STATS_SPEND_OBRIEN_FLEMING, 0.05, (k - 1) / 4.0);
	}
	ok(above, "each look tests at its boundary's nominal level, above its increment of "
	   "alpha (the last: %.4f, z %.4f)", look.alpha_look, look.z_bound);
	is_close(look.alpha_spent, 0.05, 0.0, "the last look has spent alpha");
	plan.z = z;
	stats_sequential_look(a, round, NULL, 6, a, round, NULL, 6, STATS_UNIT_INSTANCE_PAIR,
						  &plan, &opt, &look);
	ok(look.z_bound == z[3], "boundaries computed once and handed in are used");
	plan.z = NULL;

	plan.look = 0;
	ok(stats_sequential_look(a, round, NULL, 6, a, round, NULL, 6, STATS_UNIT_INSTANCE_PAIR,
							 &plan, &opt, &look) == STATS_ERR_OPTION, "look 0 is refused");
	plan.look = 3;
	plan.info = info;
	ok(stats_sequential_look(a, round, NULL, 6, a, round, NULL, 6, STATS_UNIT_INSTANCE_PAIR,
							 &plan, &opt, &look) == STATS_ERR_OPTION &&
	   stats_sequential_bounds(STATS_SPEND_POCOCK, 0.05, info, 3, z) == STATS_ERR_OPTION,
	   "information fractions that do not increase are refused");
	info[1] = 1.0;
	info[2] = 1.3;
	ok(stats_sequential_look(a, round, NULL, 6, a, round, NULL, 6, STATS_UNIT_INSTANCE_PAIR,
							 &plan, &opt, &look) == STATS_OK && look.alpha_look == 0.0 &&
	   look.decision == STATS_UNDECIDED && strstr(look.reason, "spent") != NULL,
	   "a look past the plan has nothing left: undecided (%s)", look.reason);
	ok(strcmp(stats_decision_name(STATS_DECIDED_SAME), "same") == 0 &&
	   strcmp(stats_decision_name(STATS_UNDECIDED), "undecided") == 0, "decision names");
}

/*
 * The boundaries against the process they assume: N Brownian paths
 * observed at the plan's looks, the share that has crossed a boundary by
 * each look against alpha*(t_k), within 3.29 Monte Carlo sd (both sides).
 */
static void
check_bounds(const char *what, StatsSpending spending, const double *info, int looks, int paths)
{
	double		z[MAX_LOOKS],
				worst = 0.0;
	int			crossed[MAX_LOOKS] = {0};
	bool		within = true;

	stats_sequential_bounds(spending, 0.05, info, looks, z);
	for (int p = 0; p < paths; p++)
	{
		double		s = 0.0,
					t = 0.0;

		for (int k = 0; k < looks; k++)
		{
			s += sqrt(info[k] - t) * rng_normal();
			t = info[k];
			if (fabs(s) / sqrt(t) >= z[k])
			{
				for (int j = k; j < looks; j++)
					crossed[j]++;
				break;
			}
		}
	}
	for (int k = 0; k < looks; k++)
	{
		double		want = stats_alpha_spent(spending, 0.05, info[k]),
					got = (double) crossed[k] / paths,
					band = mc_band(want, paths, 3.29) + 1e-5;

		within = within && fabs(got - want) <= band;
		worst = fmax(worst, fabs(got - want) / band);
	}
	ok(within, "%s: of %d Brownian paths, the share across a boundary by each look is "
	   "alpha*(t) within 3.29 Monte Carlo sd (last look %.4f; worst |diff| %.2f of the band)",
	   what, paths, (double) crossed[looks - 1] / paths, worst);
}

/*
 * The t boundaries of 8 looks of 2 more units each: the same for the
 * first 4 looks whether 4 or 8 are planned (drawn look by look), and their
 * realized alpha, by a direct simulation of N normal paths, 5% within
 * 0.3 points: 3.29 times the combined sd of the boundaries' own Monte Carlo
 * error (0.07 point, the spread over plans and seeds) and of this
 * simulation's (0.049 point at N = 200,000).
 */
static void
check_t_bounds(StatsSpending spending, const char *what, int paths)
{
	double		info[8],
				crit[8],
				crit4[4];
	int			units[8],
				crossed = 0;

	for (int k = 0; k < 8; k++)
	{
		info[k] = (k + 1) / 8.0;
		units[k] = 2 * (k + 1);
	}
	stats_sequential_t_bounds(spending, 0.05, info, units, 8, crit);
	stats_sequential_t_bounds(spending, 0.05, info, units, 4, crit4);
	ok(memcmp(crit, crit4, sizeof(crit4)) == 0,
	   "%s t boundaries: a look's boundary does not depend on the looks after it", what);
	for (int p = 0; p < paths; p++)
	{
		double		sum = 0.0,
					sum2 = 0.0;
		int			n = 0;

		for (int k = 0; k < 8; k++)
		{
			double		mean,
						var;

			for (; n < units[k]; n++)
			{
				double		x = rng_normal();

				sum += x;
				sum2 += x * x;
			}
			mean = sum / n;
			var = (sum2 - n * mean * mean) / (n - 1);
			if (fabs(mean) / sqrt(var / n) >= crit[k])
			{
				crossed++;
				break;
			}
		}
	}
	ok(fabs((double) crossed / paths - 0.05) <= 0.003,
	   "%s t boundaries, 8 looks of 2 more units each: %d normal paths cross in %.3f%% "
	   "(5%% +- 0.3)", what, paths, 100.0 * crossed / paths);
}

/*
 * Looks by the budget's clock (budget.c): each experiment's blocks take
 * their own, random time, so each path has its own information fractions
 * (the budget's share spent at the end of each block, the look after
 * which another block would not fit at 1) and its own boundaries.  As the
 * looks' times never depend on the data, the share of A/A paths that
 * cross a boundary is still alpha: checked within 3.29 Monte Carlo sd
 * (a fail by chance about once in 1,000 runs).  Each path's boundaries
 * cost a few milliseconds, hence the fewer paths.
 */
static void
check_clock_looks(int paths)
{
	int			crossed = 0,
				looks_total = 0;
	double		band = mc_band(0.05, paths, 3.29);

	for (int p = 0; p < paths; p++)
	{
		double		info[MAX_LOOKS],
					z[MAX_LOOKS],
					spent = 0.0,
					s = 0.0,
					t = 0.0;
		int			looks = 0,
					blocks = 0;

		/* blocks of 0.06 to 0.14 of the budget, until the next would overrun */
		while (looks < MAX_LOOKS)
		{
			spent += 0.06 + 0.08 * rng_uniform();
			blocks++;
			info[looks++] = spent + spent / blocks > 1.0 ? 1.0 : spent;
			if (info[looks - 1] == 1.0)
				break;
		}
		info[looks - 1] = 1.0;
		looks_total += looks;
		stats_sequential_bounds(STATS_SPEND_OBRIEN_FLEMING, 0.05, info, looks, z);
		for (int k = 0; k < looks; k++)
		{
			s += sqrt(info[k] - t) * rng_normal();
			t = info[k];
			if (fabs(s) / sqrt(t) >= z[k])
			{
				crossed++;
				break;
			}
		}
	}
	ok(fabs((double) crossed / paths - 0.05) <= band,
	   "looks by the budget's clock, blocks of random length (%.1f looks on average): %d A/A paths "
	   "cross a boundary in %.2f%% (5%% +- %.2f)",
	   (double) looks_total / paths, paths, 100.0 * crossed / paths, 100 * band);
}

static void
test_bounds(void)
{
	double		ten[10],
				uneven[4] = {0.1, 0.35, 0.7, 1.0},
				past[3] = {0.5, 1.0, 1.2},
				z[3];
	int			paths = test_long() ? 2000000 : 200000;

	for (int k = 0; k < 10; k++)
		ten[k] = (k + 1) / 10.0;
	rng_seed(1969);
	check_bounds("O'Brien-Fleming type, 10 even looks", STATS_SPEND_OBRIEN_FLEMING, ten, 10,
				 paths);
	check_bounds("Pocock type, 10 even looks", STATS_SPEND_POCOCK, ten, 10, paths);
	check_bounds("O'Brien-Fleming type, looks at 0.1, 0.35, 0.7, 1", STATS_SPEND_OBRIEN_FLEMING,
				 uneven, 4, paths);
	stats_sequential_bounds(STATS_SPEND_POCOCK, 0.05, past, 3, z);
	ok(isinf(z[2]) && isfinite(z[1]), "a look past t = 1 has no boundary to cross");
	check_t_bounds(STATS_SPEND_OBRIEN_FLEMING, "O'Brien-Fleming type", paths);
	check_t_bounds(STATS_SPEND_POCOCK, "Pocock type", paths);
	check_clock_looks(test_long() ? 40000 : 1000);
}

typedef struct Rates
{
	int			sims;
	int			wrong;			/* faster or slower, A/A */
	int			covered;
	int			same;
	int			decided;		/* faster, for a real effect */
	double		rounds;			/* mean rounds of each side run when it stopped */
} Rates;

static void
simulate(const Sequence *q, int sims, Rates *r)
{
	Outcome		o;

	memset(r, 0, sizeof(*r));
	r->sims = sims;
	for (int s = 0; s < sims; s++)
	{
		run_sequence(q, &o);
		r->wrong += o.decision == STATS_DECIDED_FASTER || o.decision == STATS_DECIDED_SLOWER;
		r->decided += o.decision == STATS_DECIDED_FASTER;
		r->covered += o.covered;
		r->same += o.decision == STATS_DECIDED_SAME;
		r->rounds += (double) o.rounds / sims;
	}
}

/*
 * A/A with no noise threshold, where faster/slower is exactly "the CI
 * excludes 1": the false-positive rate must be between 3% and 5% (the
 * whole alpha spent, less what the ranks' discreteness keeps) and the
 * stopping look's CI must cover 1 in at least 95%.
 */
static void
check_aa(const char *what, Sequence *q, int sims)
{
	Rates		r;
	double		lo = 0.03 - mc_band(0.03, sims, 3.29),
				hi = 0.05 + mc_band(0.05, sims, 3.29),
				cover = 0.95 - mc_band(0.05, sims, 3.09);

	prepare(q);
	simulate(q, sims, &r);
	ok((double) r.wrong / r.sims >= lo && (double) r.wrong / r.sims <= hi &&
	   (double) r.covered / r.sims >= cover,
	   "A/A, %s, %d looks, no noise threshold: false faster/slower %.2f%% of %d (within "
	   "[%.2f%%, %.2f%%]), final CI covers %.2f%% (>= %.2f%%)",
	   what, q->max_looks, 100.0 * r.wrong / r.sims, sims, 100 * lo, 100 * hi,
	   100.0 * r.covered / r.sims, 100 * cover);
}

/* The same design with the 1% noise threshold and a real effect: coverage. */
static void
check_cover(const char *what, Sequence *q, int sims)
{
	Rates		r;
	double		cover = 0.95 - mc_band(0.05, sims, 3.09);

	prepare(q);
	simulate(q, sims, &r);
	ok((double) r.covered / r.sims >= cover,
	   "%s, a true %+.0f%%, noise threshold 1%%: the stopping look's CI covers %.2f%% of %d "
	   "(>= %.2f%%); decided faster %.1f%%, same %.1f%%",
	   what, 100 * q->effect, 100.0 * r.covered / r.sims, sims, 100 * cover,
	   100.0 * r.decided / r.sims, 100.0 * r.same / r.sims);
}

static void
test_aa(void)
{
	/* 8 s of CPU in all by default (each look's comparison costs ~0.1 ms) */
	int			n = test_long() ? 20000 : 1000;
	Sequence	rounds = {.block_rounds = 6, .max_looks = 8};
	Sequence	units = {.block_units = 2, .block_rounds = 3, .max_looks = 8, .instance_sd = 0.02};
	Sequence	q;

	rng_seed(1983);
	check_aa("rounds on one server pair, blocks of 6 rounds", &rounds, n);
	q = rounds;
	q.spending = STATS_SPEND_POCOCK;
	check_aa("the same, Pocock type", &q, n);
	check_aa("instance sd 2%, blocks of 2 instance pairs x 3 rounds", &units, 2 * n);
	q = units;
	q.spending = STATS_SPEND_POCOCK;
	check_aa("the same, Pocock type", &q, 2 * n);
	q = units;
	q.noise = 0.01;
	q.effect = 0.03;
	check_cover("instance sd 2%, blocks of 2 instance pairs x 3 rounds", &q, n);
	q = rounds;
	q.noise = 0.01;
	q.effect = 0.03;
	check_cover("rounds, blocks of 6", &q, n);
}

/*
 * The first look whose level can reject at all with its rounds: the
 * signed-rank test's smallest p on n rounds is 2 / 2^n.
 */
static int
first_possible_look(const Sequence *q)
{
	for (int k = 1; k <= q->max_looks; k++)
		if (2.0 / ldexp(1.0, k * q->block_rounds) < 2.0 * (1.0 - stats_norm_cdf(q->z[k - 1])))
			return k;
	return q->max_looks + 1;
}

/*
 * How soon effects of 1, 2, 5 and 40% stop, rounds on one server pair.
 * The +1% check: its true chance is at most alpha (the CI must clear the
 * truth itself), so 0.05 + 3.09 sd.
 */
static void
test_stopping(StatsSpending spending, const char *name, int sims)
{
	static const double effects[] = {0.01, 0.02, 0.05, 0.40};
	Sequence	q = {.block_rounds = 10, .max_looks = 10, .spending = spending, .noise = 0.01};
	double		mean_look[4];
	int			faster[4];

	prepare(&q);
	for (int e = 0; e < 4; e++)
	{
		int			looks = 0,
					at_first = 0;
		Outcome		o;

		q.effect = effects[e];
		faster[e] = 0;
		for (int s = 0; s < sims; s++)
		{
			run_sequence(&q, &o);
			faster[e] += o.decision == STATS_DECIDED_FASTER;
			looks += o.look;
			at_first += o.look == first_possible_look(&q) && o.decision == STATS_DECIDED_FASTER;
		}
		mean_look[e] = (double) looks / sims;
		diag("%s, blocks of 10 rounds, round noise 4.3%%: a true +%.0f%% is decided faster "
			 "in %.1f%% of %d experiments, stopping on average at look %.2f of 10",
			 name, 100 * effects[e], 100.0 * faster[e] / sims, sims, mean_look[e]);
		if (e == 3)
			ok(at_first >= 0.95 * sims,
			   "%s: +40%% stops at look %d, the first whose level its rounds can reach, "
			   "in %.0f%% of experiments", name, first_possible_look(&q), 100.0 * at_first / sims);
	}
	ok(faster[0] <= (0.05 + mc_band(0.05, sims, 3.09)) * sims,
	   "%s: a true +1%% (the threshold itself) is rarely called faster (%.1f%%)",
	   name, 100.0 * faster[0] / sims);
	ok(faster[2] >= 0.5 * sims && mean_look[3] < mean_look[2] && mean_look[2] < mean_look[1],
	   "%s: +5%% is decided in most experiments; larger effects stop sooner", name);
}

/*
 * PGBENCH_EXT_TEST_LONG=1: the figures of docs/statistics.md, before
 * (Bonferroni over looks) and after (the joint boundaries), on one
 * stream of random numbers per design so that both see the same data.
 */
static void
figures(const char *what, const Sequence *design, int sims)
{
	static const double effects[] = {0.0, 0.02, 0.05};

	for (int m = 0; m < 2; m++)
		for (int e = 0; e < 3; e++)
			for (int thr = 0; thr < (e == 0 ? 2 : 1); thr++)
			{
				Sequence	q = *design;
				Rates		r;

				q.bonferroni = m == 0;
				q.effect = effects[e];
				q.noise = thr == 0 ? 0.01 : 0.0;
				prepare(&q);
				rng_seed(2026 + 10 * e + thr);
				simulate(&q, sims, &r);
				diag("%s, %s, %s, true %+.0f%%, threshold %g%%: faster/slower %.2f%%, "
					 "faster %.2f%%, same %.2f%%, CI covers %.2f%%, mean rounds at stop %.1f "
					 "(%d experiments)",
					 what, q.spending == STATS_SPEND_POCOCK ? "Pocock" : "O'Brien-Fleming",
					 m == 0 ? "before (Bonferroni)" : "after (joint bounds)",
					 100 * q.effect, 100 * q.noise, 100.0 * r.wrong / sims,
					 100.0 * r.decided / sims, 100.0 * r.same / sims,
					 100.0 * r.covered / sims, r.rounds, sims);
			}
}

static void
long_figures(void)
{
	Sequence	rounds = {.block_rounds = 10, .max_looks = 10};
	Sequence	units = {.block_units = 2, .block_rounds = 3, .max_looks = 8, .instance_sd = 0.02};

	figures("rounds, 10 blocks of 10", &rounds, 4000);
	rounds.spending = STATS_SPEND_POCOCK;
	figures("rounds, 10 blocks of 10", &rounds, 4000);
	figures("instance sd 2%, 8 blocks of 2 instance pairs x 3 rounds", &units, 20000);
	units.spending = STATS_SPEND_POCOCK;
	figures("instance sd 2%, 8 blocks of 2 instance pairs x 3 rounds", &units, 20000);
}

/*
 * A budget's looks and a cell's decision (stats_seqbudget.c), on fixed
 * inputs: the information fractions by the budget's clock, and the first
 * look that decides kept however many blocks follow.
 */
static void
test_budget_decide(void)
{
	StatsBudgetPlan plan = {.budget_s = 600, .block_rounds = 5, .first_look = 2,
	.max_blocks = 6, .max_looks = 5, .spending = STATS_SPEND_OBRIEN_FLEMING,
	.time_information = true};
	double		spent[6] = {100, 200, 290, NAN, 520, NAN};
	double		late[3] = {100, 200, 190};
	double		info[5],
				z[6],
				a[30],
				b[30];
	int			round[30],
				block;
	StatsOptions opt;
	StatsLook	look;

	stats_budget_info(&plan, 4, spent, info);
	is_close(info[0], 200.0 / 600, 1e-15, "look 1 (block 2): the share of the budget spent");
	is_close(info[1], 290.0 / 600, 1e-15, "look 2 (block 3)");
	is_close(info[2], 4.0 / 6, 1e-15, "look 3: a block budget.csv lacks counts by blocks");
	is_close(info[3], 1.0, 0, "look 4: no room for another block (520 s + 104 s a block > 600 s): all of it");
	ok(stats_budget_spent(&plan, 5, 520) && !stats_budget_spent(&plan, 5, 500) &&
	   !stats_budget_spent(&plan, 3, 290) &&
	   stats_budget_spent(&plan, 6, 10), "the budget is spent when no block fits, or the plan's blocks are done");
	stats_budget_info(&plan, 2, late, info);
	ok(info[1] > info[0] && info[1] - info[0] < 1e-8, "a block that spent less than the one before still comes later");

	/* B 40% slower, round by round, looks after blocks of 5 from block 1 */
	for (int i = 0; i < 30; i++)
	{
		round[i] = i + 1;
		a[i] = 1000 * (1 + 0.01 * ((i * 7) % 5 - 2));
		b[i] = 600 * (1 + 0.01 * ((i * 3) % 5 - 2));
	}
	plan.first_look = 1;
	plan.time_information = false;
	stats_default_options(&opt);
	stats_budget_info(&plan, 6, NULL, info);
	stats_sequential_bounds(plan.spending, opt.alpha, info, 6, z);
	ok(stats_sequential_decide(a, round, NULL, 30, b, round, NULL, 30, STATS_UNIT_INSTANCE_PAIR,
							   &plan, 0, info, z, &opt, &look, &block) == STATS_OK && block == 0,
	   "no block done: no look");
	stats_sequential_decide(a, round, NULL, 30, b, round, NULL, 30, STATS_UNIT_INSTANCE_PAIR,
							&plan, 1, info, z, &opt, &look, &block);
	ok(block == 1 && look.look == 1 && look.decision == STATS_UNDECIDED &&
	   look.cmp.unit == STATS_UNIT_RUN,
	   "one block: its look, undecided at O'Brien-Fleming's first level, on its runs (%s) as "
	   "the fixed verdict of 5 rounds, whose pairs cannot reach alpha",
	   stats_unit_name(look.cmp.unit, 1));

	/*
	 * Look 2's level is below 2 / 2^10, the least p of 10 rounds, which
	 * all 20 runs unpaired (2 / C(20, 10)) would reach: a look whose unit
	 * its own level chose would decide there, on the drift between rounds
	 * too, and only when its blocks ran slowly enough to give it that
	 * level; the fixed verdict of 10 rounds at alpha is round by round.
	 */
	stats_sequential_decide(a, round, NULL, 30, b, round, NULL, 30, STATS_UNIT_INSTANCE_PAIR,
							&plan, 2, info, z, &opt, &look, &block);
	ok(block == 2 && look.decision == STATS_UNDECIDED && look.cmp.unit == STATS_UNIT_ROUND &&
	   look.alpha_look < 2.0 / 1024 && look.alpha_look > 2.0 / 184756,
	   "two blocks: undecided round by round at look 2's level %.3g (%s)",
	   look.alpha_look, stats_unit_name(look.cmp.unit, 1));
	stats_sequential_decide(a, round, NULL, 30, b, round, NULL, 30, STATS_UNIT_INSTANCE_PAIR,
							&plan, 6, info, z, &opt, &look, &block);
	ok(block == 3 && look.look == 3 && look.decision == STATS_DECIDED_SLOWER &&
	   look.cmp.unit == STATS_UNIT_ROUND && look.cmp.n_pairs == 15 && look.cmp.ci_high < 0.99,
	   "six blocks: slower at look 3 on its 15 rounds, the first whose level they can reach, "
	   "whatever came after (block %d, look %d)", block, look.look);
}

/*
 * A cell decided against a reference ratio (stats_sequential_decide_against):
 * the looks of B / reference against 1 with no noise band, its figures
 * those of B/A; the reference checked.  And stats_comparison_decision(),
 * the one rule of a decision.
 */
static void
test_decide_against(void)
{
	StatsBudgetPlan plan = {.budget_s = 600, .block_rounds = 5, .first_look = 1,
	.max_blocks = 6, .max_looks = 6, .spending = STATS_SPEND_OBRIEN_FLEMING};
	double		info[6],
				z[6],
				a[30],
				b[30],
				shifted[30];
	int			round[30],
				block,
				block2;
	StatsOptions opt,
				flat;
	StatsLook	look,
				plain;
	StatsComparison c = {0};
	double		bad[] = {-0.9, NAN, INFINITY};
	bool		refused = true;

	/* B 40% slower, as test_budget_decide's, against a reference of 0.7 */
	for (int i = 0; i < 30; i++)
	{
		round[i] = i + 1;
		a[i] = 1000 * (1 + 0.01 * ((i * 7) % 5 - 2));
		b[i] = 600 * (1 + 0.01 * ((i * 3) % 5 - 2));
		shifted[i] = b[i] / 0.7;
	}
	stats_default_options(&opt);
	flat = opt;
	flat.noise = 0;
	stats_budget_info(&plan, 6, NULL, info);
	stats_sequential_bounds(plan.spending, opt.alpha, info, 6, z);
	stats_sequential_decide_against(a, round, NULL, 30, b, round, NULL, 30, STATS_UNIT_ROUND,
									&plan, 6, info, z, 0.7, &opt, &look, &block);
	stats_sequential_decide(a, round, NULL, 30, shifted, round, NULL, 30, STATS_UNIT_ROUND,
							&plan, 6, info, z, &flat, &plain, &block2);
	ok(block == block2 && look.decision == plain.decision && look.decision == STATS_DECIDED_SLOWER &&
	   fabs(look.cmp.ci_high - 0.7 * plain.cmp.ci_high) < 1e-12 &&
	   fabs(look.cmp.estimate - 0.7 * plain.cmp.estimate) < 1e-12 && look.cmp.ci_high < 0.7,
	   "against 0.7: the looks of B / 0.7 against 1 without a noise band, below it at block %d, "
	   "its CI that of B/A (%.4f, %.4f) (%s)", block, look.cmp.ci_low, look.cmp.ci_high, look.reason);
	stats_sequential_decide_against(a, round, NULL, 30, b, round, NULL, 30, STATS_UNIT_ROUND,
									&plan, 6, info, z, 0.6, &opt, &look, &block);
	ok(look.decision == STATS_UNDECIDED && look.cmp.ci_low < 0.6 && look.cmp.ci_high > 0.6 &&
	   strstr(look.reason, "across the reference") != NULL,
	   "against 0.6, inside the CI of B/A: undecided (%s)", look.reason);
	for (int i = 0; i < (int) (sizeof(bad) / sizeof(bad[0])); i++)
		refused &= stats_sequential_decide_against(a, round, NULL, 30, b, round, NULL, 30,
												   STATS_UNIT_ROUND, &plan, 6, info, z, bad[i],
												   &opt, &look, &block) == STATS_ERR_OPTION;
	ok(refused, "a reference of -0.9, NaN or infinity is refused");
	stats_sequential_decide(a, round, NULL, 30, b, round, NULL, 30, STATS_UNIT_ROUND,
							&plan, 6, info, z, &opt, &plain, &block2);
	stats_sequential_decide_against(a, round, NULL, 30, b, round, NULL, 30, STATS_UNIT_ROUND,
									&plan, 6, info, z, 0.0, &opt, &look, &block);
	ok(block == block2 && look.decision == plain.decision && look.cmp.estimate == plain.cmp.estimate &&
	   look.cmp.ci_low == plain.cmp.ci_low && strcmp(look.reason, plain.reason) == 0,
	   "a reference of 0 is none: the ordinary looks, noise band and all");

	c.verdict = STATS_NO_CHANGE;
	c.has_ci = true;
	c.ci_low = 0.995;
	c.ci_high = 1.004;
	ok(stats_comparison_decision(&c, 0.01) == STATS_DECIDED_SAME &&
	   stats_comparison_decision(&c, 0.004) == STATS_UNDECIDED &&
	   stats_comparison_decision(&c, 0) == STATS_UNDECIDED,
	   "a decision: same with the whole CI inside the noise band, else undecided");
	c.verdict = STATS_INSUFFICIENT;
	ok(stats_comparison_decision(&c, 0.01) == STATS_UNDECIDED,
	   "a decision: insufficient (a test that could never reject) is undecided, whatever its CI");
	c.verdict = STATS_SLOWER;
	ok(stats_comparison_decision(&c, 0.01) == STATS_DECIDED_SLOWER, "a decision: a verdict of slower is slower");
}

int
main(void)
{
	test_spending();
	test_bounds();
	test_aa();
	test_budget_decide();
	test_decide_against();
	rng_seed(1984);
	test_stopping(STATS_SPEND_OBRIEN_FLEMING, "O'Brien-Fleming type", test_long() ? 1000 : 100);
	test_stopping(STATS_SPEND_POCOCK, "Pocock type", test_long() ? 1000 : 100);
	if (test_long())
		long_figures();
	return done_testing();
}
