/*-------------------------------------------------------------------------
 *
 * test_stats_sequential.c
 *		Unit tests of the sequential decisions (common/stats_sequential.c),
 *		printing TAP: the spending functions, and by simulation the error
 *		rates when the runner looks after every block of rounds and stops
 *		at the first decision, and how soon real effects stop.
 *
 * Tolerances: false positives at most alpha + 2 sqrt(alpha (1-alpha) / N)
 * and coverage at least 1 - alpha - 2 sqrt(alpha (1-alpha) / N) (two
 * Monte Carlo standard errors, mc_tolerance).  The stopping looks are
 * diagnostics, with sanity bounds only.
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"
#include "test_stats_util.h"

#include <string.h>

#define ROUND_NOISE 0.043
#define MAX_RUNS 200

typedef struct Sequence
{
	int			block_units;	/* instance pairs per block; 0: rounds on one pair of servers */
	int			block_rounds;	/* rounds per block (per instance pair) */
	int			max_looks;
	double		instance_sd;
	double		effect;			/* true ratio - 1 */
	StatsSpending spending;
} Sequence;

typedef struct Outcome
{
	StatsDecision decision;
	int			look;			/* where it stopped, or max_looks */
	bool		covered;		/* the stopping look's CI holds the true ratio */
} Outcome;

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
	StatsSequentialPlan plan = {.max_looks = q->max_looks, .spending = q->spending};
	StatsLook	look;

	stats_default_options(&opt);
	for (int k = 1; k <= q->max_looks; k++)
	{
		int			units = q->block_units > 0 ? q->block_units : 1;

		for (int u = 0; u < units; u++)
		{
			/* a new instance pair per unit; rounds on one pair assume no offset */
			double		oa = q->block_units > 0 ? q->instance_sd * rng_normal() : 0.0,
						ob = q->block_units > 0 ? q->instance_sd * rng_normal() : 0.0;

			for (int r = 0; r < q->block_rounds; r++, n++)
			{
				double		drift = 0.03 * rng_normal();

				a[n] = 1000.0 * exp(oa + drift + ROUND_NOISE / sqrt(2.0) * rng_normal());
				b[n] = 1000.0 * (1.0 + q->effect) *
					exp(ob + drift + ROUND_NOISE / sqrt(2.0) * rng_normal());
				round[n] = n + 1;
				unit[n] = (k - 1) * units + u;
			}
		}
		plan.look = k;
		stats_sequential_look(a, round, q->block_units > 0 ? unit : NULL, n,
							  b, round, q->block_units > 0 ? unit : NULL, n,
							  STATS_UNIT_INSTANCE_PAIR, &plan, &opt, &look);
		out->decision = look.decision;
		out->look = k;
		out->covered = look.cmp.has_ci && look.cmp.ci_low <= 1.0 + q->effect &&
			look.cmp.ci_high >= 1.0 + q->effect;
		if (look.decision != STATS_UNDECIDED)
			return;
	}
}

static void
test_spending(void)
{
	StatsSequentialPlan plan = {.look = 1, .max_looks = 4};
	StatsOptions opt;
	StatsLook	look;
	double		a[6] = {1, 2, 3, 4, 5, 6},
				sum = 0.0;
	int			round[6] = {1, 2, 3, 4, 5, 6};
	double		info[3] = {0.5, 0.4, 0.9};

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
	for (int k = 1; k <= 4; k++)
	{
		plan.look = k;
		stats_sequential_look(a, round, NULL, 6, a, round, NULL, 6, STATS_UNIT_INSTANCE_PAIR,
							  &plan, &opt, &look);
		sum += look.alpha_look;
	}
	is_close(sum, 0.05, 1e-15, "the four looks' levels add up to alpha");
	is_close(look.alpha_spent, 0.05, 0.0, "the last look has spent alpha");

	plan.look = 0;
	ok(stats_sequential_look(a, round, NULL, 6, a, round, NULL, 6, STATS_UNIT_INSTANCE_PAIR,
							 &plan, &opt, &look) == STATS_ERR_OPTION, "look 0 is refused");
	plan.look = 3;
	plan.info = info;
	ok(stats_sequential_look(a, round, NULL, 6, a, round, NULL, 6, STATS_UNIT_INSTANCE_PAIR,
							 &plan, &opt, &look) == STATS_ERR_OPTION,
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

/* Error rates of A/A experiments looked at after every block. */
static void
check_aa(const char *what, const Sequence *q, int sims)
{
	double		tol = mc_tolerance(0.05, sims);
	int			false_claims = 0,
				covered = 0,
				same = 0;
	Outcome		o;

	for (int s = 0; s < sims; s++)
	{
		run_sequence(q, &o);
		false_claims += o.decision == STATS_DECIDED_FASTER || o.decision == STATS_DECIDED_SLOWER;
		covered += o.covered;
		same += o.decision == STATS_DECIDED_SAME;
	}
	ok((double) false_claims / sims <= 0.05 + tol && (double) covered / sims >= 0.95 - tol,
	   "A/A, %s, a look after each of %d blocks: false faster/slower %.1f%% (<= %.1f%%), "
	   "final CI covers %.1f%% (>= %.1f%%), same within +-1%% %.1f%%",
	   what, q->max_looks, 100.0 * false_claims / sims, 100 * (0.05 + tol),
	   100.0 * covered / sims, 100 * (0.95 - tol), 100.0 * same / sims);
}

static void
test_aa(void)
{
	Sequence	rounds = {.block_rounds = 10, .max_looks = 10};
	Sequence	many = {.block_rounds = 4, .max_looks = 25};
	Sequence	pocock = {.block_rounds = 10, .max_looks = 10, .spending = STATS_SPEND_POCOCK};
	Sequence	units = {.block_units = 2, .block_rounds = 3, .max_looks = 8, .instance_sd = 0.02};
	Sequence	units_pocock = units;

	units_pocock.spending = STATS_SPEND_POCOCK;
	rng_seed(1983);
	check_aa("rounds on one server pair, blocks of 10 rounds", &rounds, 500);
	check_aa("blocks of 4 rounds", &many, 300);
	check_aa("Pocock type, blocks of 10 rounds", &pocock, 500);
	check_aa("instance sd 2%, blocks of 2 instance pairs x 3 rounds", &units, 2000);
	check_aa("the same, Pocock type", &units_pocock, 2000);
}

/*
 * The first look whose level can reject at all with its rounds: the
 * signed-rank test's smallest p on n rounds is 2 / 2^n.
 */
static int
first_possible_look(const Sequence *q)
{
	for (int k = 1; k <= q->max_looks; k++)
	{
		double		level = stats_alpha_spent(q->spending, 0.05, (double) k / q->max_looks) -
			stats_alpha_spent(q->spending, 0.05, (double) (k - 1) / q->max_looks);

		if (2.0 / ldexp(1.0, k * q->block_rounds) < level)
			return k;
	}
	return q->max_looks + 1;
}

/* How soon effects of 1, 2, 5 and 40% stop, rounds on one server pair. */
static void
test_stopping(StatsSpending spending, const char *name)
{
	static const double effects[] = {0.01, 0.02, 0.05, 0.40};
	const int	sims = 200;
	Sequence	q = {.block_rounds = 10, .max_looks = 10, .spending = spending};
	double		mean_look[4];
	int			faster[4];

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
			 "in %.0f%% of %d experiments, stopping on average at look %.1f of 10",
			 name, 100 * effects[e], 100.0 * faster[e] / sims, sims, mean_look[e]);
		if (e == 3)
			ok(at_first >= 0.95 * sims,
			   "%s: +40%% stops at look %d, the first whose level its rounds can reach, "
			   "in %.0f%% of experiments", name, first_possible_look(&q), 100.0 * at_first / sims);
	}
	ok(faster[0] <= 0.05 * sims, "%s: a true +1%% (the threshold itself) is rarely called "
	   "faster (%.1f%%)", name, 100.0 * faster[0] / sims);
	ok(faster[2] >= 0.5 * sims && mean_look[3] < mean_look[2] && mean_look[2] < mean_look[1],
	   "%s: +5%% is decided in most experiments; larger effects stop sooner", name);
}

int
main(void)
{
	test_spending();
	test_aa();
	rng_seed(1984);
	test_stopping(STATS_SPEND_OBRIEN_FLEMING, "O'Brien-Fleming type");
	test_stopping(STATS_SPEND_POCOCK, "Pocock type");
	return done_testing();
}
