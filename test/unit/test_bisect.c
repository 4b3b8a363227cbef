/*-------------------------------------------------------------------------
 *
 * test_bisect.c
 *	  Unit tests (TAP) of the search of "pgbench_ext bisect"
 *	  (client/bisect/bisect_search.c), with answers fed in: for every series of
 *	  1 to 64 states past the good end and every place of the first
 *	  differing state, the search names that state and the one before it
 *	  as the last the same, in at most ceil(log2 N) steps besides the bad
 *	  end's; a bad end the same as the good end ends with no difference;
 *	  an undecided step stops the search with the states still open;
 *	  an answer for a state the search did not ask for is refused.
 *	  By tps, a middle step's looks test against the halfway point between
 *	  the ends (stats_sequential_decide_against() with it as the reference,
 *	  what bisect sets for a middle step): by simulation, a state on the
 *	  halfway point is decided at most alpha of the time and on each wrong
 *	  side at most alpha/2, a state like either end is decided for its side,
 *	  and every stop has its CI wholly on one side of the halfway point,
 *	  where the ordinary looks (against 1, with a noise band) stop with it
 *	  across; and bisect_side_answer() maps the side to same or differs.
 *	  By counted instructions (a fixed number of rounds), a middle step's
 *	  CI against the halfway point (bisect_counted_side_answer()): a state
 *	  that differs from its end only in layout (0.1%, beyond the ±0.05%
 *	  threshold around the good end) is placed on its end's side, and a
 *	  state on the halfway point on each side at most alpha/2.
 *
 *	  Tolerances (the project's rule: a check of simulated data fails by
 *	  chance at most once in 1,000 runs, whatever the seed): a rate's bound
 *	  is its nominal value plus mc_tolerance() (3.09 standard errors,
 *	  one-sided 0.001), printed with each check.
 *
 * test/unit/test_bisect.c
 *
 *-------------------------------------------------------------------------
 */
#include "bisect_search.h"
#include "stats.h"

#include "test_stats_util.h"

#define SIM_BLOCKS 10			/* the plan's blocks, a look after each */
#define SIM_BLOCK_ROUNDS 4
#define SIM_ROUNDS (SIM_BLOCKS * SIM_BLOCK_ROUNDS)
#define SIM_NOISE 0.10			/* sd of a round's log ratio */
#define SIM_BAD 0.88			/* the bad end's ratio to the good end */

/*
 * Search good..bad where the states from first on differ (first > bad: none
 * does).  Returns the steps taken; *s holds the end.
 */
static int
search(BisectSearch *s, int good, int bad, int first)
{
	int			state;
	int			guard = 0;

	bisect_init(s, good, bad);
	while ((state = bisect_next(s)) >= 0 && guard++ < 100)
		if (!bisect_record(s, state, state >= first ? BISECT_DIFFERS : BISECT_SAME))
			return -1;
	return s->steps;
}

/* Every place of the first differing state, for every length of series. */
static void
test_every_place(void)
{
	int			wrong = 0;
	int			too_many = 0;
	int			cases = 0;
	int			worst8 = 0;

	for (int n = 1; n <= 64; n++)
		for (int first = 1; first <= n; first++)
		{
			BisectSearch s;
			int			steps = search(&s, 0, n, first);

			cases++;
			if (s.status != BISECT_FOUND || s.first_differs != first || s.last_same != first - 1)
				wrong++;
			if (steps - 1 > bisect_max_middle_steps(0, n))
				too_many++;
			if (n == 8 && steps - 1 > worst8)
				worst8 = steps - 1;
		}
	ok(wrong == 0, "every first differing state of series of 1 to 64 is found, the one before it the last same (%d cases, %d wrong)",
	   cases, wrong);
	ok(too_many == 0, "never more than ceil(log2 N) steps besides the bad end's (%d over)", too_many);
	ok(worst8 == 3 && bisect_max_middle_steps(0, 8) == 3, "8 patches: at most 3 middle builds (worst %d)", worst8);
	ok(bisect_max_middle_steps(0, 1) == 0 && bisect_max_middle_steps(0, 2) == 1 &&
	   bisect_max_middle_steps(0, 9) == 4, "ceil(log2 N) for 1, 2, 9: 0, 1, 4");
}

/* The eight-patch series of test/t/090_bisect.pl: patch 5 differs. */
static void
test_patch_five(void)
{
	BisectSearch s;
	int			order[8];
	int			n = 0;
	int			state;

	bisect_init(&s, 0, 8);
	while ((state = bisect_next(&s)) >= 0 && n < 8)
	{
		order[n++] = state;
		bisect_record(&s, state, state >= 5 ? BISECT_DIFFERS : BISECT_SAME);
	}
	ok(n == 4 && order[0] == 8 && order[1] == 4 && order[2] == 6 && order[3] == 5,
	   "patch 5 of 8: states 8, 4, 6, 5 measured (%d steps)", n);
	ok(s.status == BISECT_FOUND && s.first_differs == 5 && s.last_same == 4, "state 5 found, 4 the last same");
}

static void
test_ends_and_stops(void)
{
	BisectSearch s;

	search(&s, 0, 8, 9);
	ok(s.status == BISECT_NO_DIFFERENCE && s.steps == 1 && bisect_next(&s) == -1,
	   "a bad end the same as the good end: no difference, after one step");

	search(&s, 3, 7, 6);
	ok(s.status == BISECT_FOUND && s.first_differs == 6 && s.last_same == 5,
	   "ends other than 0 and N: 3..7, state 6 found");

	search(&s, 0, 1, 1);
	ok(s.status == BISECT_FOUND && s.steps == 1, "two states: the bad end's step alone answers");

	bisect_init(&s, 0, 8);
	ok(!bisect_record(&s, 4, BISECT_SAME) && s.steps == 0, "an answer for a state not asked for is refused");
	bisect_record(&s, 8, BISECT_DIFFERS);
	bisect_record(&s, 4, BISECT_UNDECIDED);
	ok(s.status == BISECT_STOPPED && s.undecided == 4 && s.last_same == 0 && s.first_differs == 8 &&
	   bisect_next(&s) == -1, "an undecided step stops the search: states 1 to 8 remain open");

	bisect_init(&s, 0, 8);
	bisect_record(&s, 8, BISECT_UNDECIDED);
	ok(s.status == BISECT_STOPPED && s.first_differs == -1, "an undecided bad end: nothing is known to differ");
}

static void
test_names(void)
{
	BisectAnswer a;
	int			round_trip = 1;

	for (int i = BISECT_SAME; i <= BISECT_UNDECIDED; i++)
		round_trip &= bisect_answer_parse(bisect_answer_name((BisectAnswer) i), &a) && a == (BisectAnswer) i;
	ok(round_trip, "answer names read back: same, differs, undecided");
	ok(!bisect_answer_parse("faster", &a) && !bisect_answer_parse(NULL, &a), "other words are not answers");
}

/* One middle step's sequential experiment: its runs, its plan, its looks. */
typedef struct MiddleSim
{
	StatsBudgetPlan plan;
	double		info[SIM_BLOCKS];
	double		z[SIM_BLOCKS];
	StatsOptions opt;
} MiddleSim;

static void
middle_sim_init(MiddleSim *m)
{
	StatsBudgetPlan plan = {.budget_s = 600, .block_rounds = SIM_BLOCK_ROUNDS, .first_look = 1,
	.max_blocks = SIM_BLOCKS, .max_looks = SIM_BLOCKS, .spending = STATS_SPEND_OBRIEN_FLEMING,
	.time_information = false};

	m->plan = plan;
	stats_budget_info(&m->plan, SIM_BLOCKS, NULL, m->info);
	stats_sequential_bounds(m->plan.spending, 0.05, m->info, SIM_BLOCKS, m->z);
	stats_default_options(&m->opt);
}

/*
 * A state whose true ratio to the good end is "ratio", measured round by
 * round (a drift shared by both sides of a round) until its first look
 * that decides: against "reference" (> 0), or the ordinary look (0).
 */
static void
middle_step(const MiddleSim *m, double ratio, double reference, StatsLook *look)
{
	double		a[SIM_ROUNDS],
				b[SIM_ROUNDS];
	int			round[SIM_ROUNDS],
				block;

	for (int i = 0; i < SIM_ROUNDS; i++)
	{
		double		drift = 0.05 * rng_normal();

		a[i] = 1000.0 * exp(drift + SIM_NOISE / sqrt(2.0) * rng_normal());
		b[i] = 1000.0 * ratio * exp(drift + SIM_NOISE / sqrt(2.0) * rng_normal());
		round[i] = i + 1;
	}
	/* the first look that decides, as the runner stops after each block */
	if (reference > 0)
		stats_sequential_decide_against(a, round, NULL, SIM_ROUNDS, b, round, NULL, SIM_ROUNDS,
										STATS_UNIT_ROUND, &m->plan, SIM_BLOCKS, m->info, m->z,
										reference, &m->opt, look, &block);
	else
		stats_sequential_decide(a, round, NULL, SIM_ROUNDS, b, round, NULL, SIM_ROUNDS,
								STATS_UNIT_ROUND, &m->plan, SIM_BLOCKS, m->info, m->z, &m->opt,
								look, &block);
}

/* The bisect's answer of a middle step decided against the halfway point */
static BisectAnswer
middle_answer(const StatsLook *look, double half)
{
	return bisect_side_answer(look->decision != STATS_UNDECIDED, look->cmp.estimate, half, SIM_BAD);
}

/* A state on the halfway point: decided at most alpha, a side at most alpha/2. */
static void
test_middle_on_halfway(const MiddleSim *m, int n)
{
	double		half = bisect_halfway(SIM_BAD);
	int			decided = 0,
				same = 0,
				differs = 0;

	for (int i = 0; i < n; i++)
	{
		StatsLook	look;

		middle_step(m, half, half, &look);
		decided += look.decision != STATS_UNDECIDED;
		same += middle_answer(&look, half) == BISECT_SAME;
		differs += middle_answer(&look, half) == BISECT_DIFFERS;
	}
	ok((double) decided / n <= 0.05 + mc_tolerance(0.05, n),
	   "a state on the halfway point: decided in %.2f%% of %d steps (at most alpha 5%% + %.2f%%)",
	   100.0 * decided / n, n, 100 * mc_tolerance(0.05, n));
	ok((double) same / n <= 0.025 + mc_tolerance(0.025, n) &&
	   (double) differs / n <= 0.025 + mc_tolerance(0.025, n),
	   "  each side at most alpha/2: same %.2f%%, differs %.2f%% (bound %.2f%%)",
	   100.0 * same / n, 100.0 * differs / n, 100 * (0.025 + mc_tolerance(0.025, n)));
}

/*
 * States like the good end (ratio 1) and like the bad end (SIM_BAD): the
 * wrong answer at most alpha/2, and decided; every stop with its CI
 * wholly on its side of the halfway point.  Beside it the ordinary looks
 * (against 1, noise band 1%) on the same kind of data: how often they stop
 * with the CI across the halfway point, the undecided answer this
 * replaces.
 */
static void
test_middle_ends(const MiddleSim *m, int n)
{
	double		half = bisect_halfway(SIM_BAD);
	double		truth[2] = {1.0, SIM_BAD};
	const char *name[2] = {"like the good end (ratio 1)", "like the bad end (ratio 0.88)"};
	BisectAnswer right[2] = {BISECT_SAME, BISECT_DIFFERS};

	for (int t = 0; t < 2; t++)
	{
		int			wrong = 0,
					undecided = 0,
					across = 0,
					old_across = 0;

		for (int i = 0; i < n; i++)
		{
			StatsLook	look;
			BisectAnswer a;

			middle_step(m, truth[t], half, &look);
			a = middle_answer(&look, half);
			wrong += a != right[t] && a != BISECT_UNDECIDED;
			undecided += a == BISECT_UNDECIDED;
			across += look.decision != STATS_UNDECIDED &&
				!(look.cmp.ci_low > half || look.cmp.ci_high < half);
			middle_step(m, truth[t], 0, &look);
			old_across += look.decision != STATS_UNDECIDED &&
				!(look.cmp.ci_low > half || look.cmp.ci_high < half);
		}
		ok((double) wrong / n <= 0.025 + mc_tolerance(0.025, n),
		   "a state %s: the wrong answer in %.2f%% of %d steps (at most alpha/2 2.5%% + %.2f%%)",
		   name[t], 100.0 * wrong / n, n, 100 * mc_tolerance(0.025, n));

		/*
		 * The halfway point is 6.2% from each end, 0.6 sd of a round's log
		 * ratio: after the plan's 40 rounds a step stays undecided in 3.6%
		 * (both ends, 10,000 steps each under PGBENCH_EXT_TEST_LONG=1), so
		 * 5% + 3.09 sd bounds it with room (6 sd of 1,000 steps above it).
		 */
		ok((double) undecided / n <= 0.05 + mc_tolerance(0.05, n),
		   "  decided: undecided in %.2f%% (at most %.2f%%)", 100.0 * undecided / n,
		   100 * (0.05 + mc_tolerance(0.05, n)));
		ok(across == 0, "  every stop has its CI wholly on one side of the halfway point (%d across; "
		   "the ordinary looks stopped with it across in %d of %d)", across, old_across, n);
	}
}

static void
test_side_answer(void)
{
	is_close(bisect_halfway(0.81), 0.9, 1e-15, "the halfway point of a bad end at 0.81: 0.9");
	ok(bisect_side_answer(true, 0.85, 0.9, 0.81) == BISECT_DIFFERS &&
	   bisect_side_answer(true, 0.97, 0.9, 0.81) == BISECT_SAME &&
	   bisect_side_answer(true, 1.15, 1.1, 1.21) == BISECT_DIFFERS &&
	   bisect_side_answer(true, 1.02, 1.1, 1.21) == BISECT_SAME,
	   "a decided middle step: differs on the bad end's side, same on the good end's, either way");
	ok(bisect_side_answer(false, 0.85, 0.9, 0.81) == BISECT_UNDECIDED &&
	   bisect_side_answer(true, NAN, 0.9, 0.81) == BISECT_UNDECIDED &&
	   bisect_side_answer(true, 0.85, NAN, 0.81) == BISECT_UNDECIDED,
	   "undecided, or without figures: undecided");
}

/*
 * By counted instructions, a fixed design (COUNTED_ROUNDS paired rounds,
 * their log ratio's sd COUNTED_NOISE, as counted A/As read on one server):
 * a series whose bad end counts +0.5%, and middle states that differ from
 * their end only in where code and data lie (COUNTED_LAYOUT, the +0.1% a
 * state of comments and one string read).
 */
#define COUNTED_ROUNDS 8
#define COUNTED_NOISE 0.0002
#define COUNTED_BAD 1.005
#define COUNTED_LAYOUT 0.001

static void
counted_step(double ratio, StatsComparison *cmp)
{
	double		a[COUNTED_ROUNDS],
				b[COUNTED_ROUNDS];
	int			round[COUNTED_ROUNDS];
	StatsOptions opt;

	stats_default_options(&opt);
	opt.higher_is_better = false;
	opt.noise = 0.0005;
	for (int i = 0; i < COUNTED_ROUNDS; i++)
	{
		double		keys = 0.001 * rng_normal();	/* each round's keys, both sides */

		a[i] = 100000.0 * exp(keys + COUNTED_NOISE / sqrt(2.0) * rng_normal());
		b[i] = 100000.0 * ratio * exp(keys + COUNTED_NOISE / sqrt(2.0) * rng_normal());
		round[i] = i + 1;
	}
	stats_compare_units(a, round, NULL, COUNTED_ROUNDS, b, round, NULL, COUNTED_ROUNDS,
						STATS_UNIT_ROUND, &opt, cmp);
}

static void
test_counted_side_answer(int n)
{
	double		truth[3] = {COUNTED_LAYOUT + 1, COUNTED_BAD - COUNTED_LAYOUT, sqrt(COUNTED_BAD)};
	const char *name[3] = {"like the good end, its layout +0.1%", "like the bad end, its layout -0.1%",
	"on the halfway point"};
	BisectAnswer right[2] = {BISECT_SAME, BISECT_DIFFERS};

	ok(bisect_counted_side_answer(1.001, 1.0008, 1.0012, 1.005) == BISECT_SAME &&
	   bisect_counted_side_answer(1.004, 1.0035, 1.0045, 1.005) == BISECT_DIFFERS &&
	   bisect_counted_side_answer(0.996, 0.9955, 0.9965, 0.995) == BISECT_DIFFERS &&
	   bisect_counted_side_answer(0.999, 0.9985, 0.9995, 0.995) == BISECT_SAME,
	   "counted: a CI wholly on one side of the halfway point answers its side, either way");
	ok(bisect_counted_side_answer(1.0025, 1.002, 1.003, 1.005) == BISECT_UNDECIDED &&
	   bisect_counted_side_answer(1.001, NAN, 1.0012, 1.005) == BISECT_UNDECIDED &&
	   bisect_counted_side_answer(1.001, 1.0008, 1.0012, NAN) == BISECT_UNDECIDED &&
	   bisect_counted_side_answer(1.001, 1.0008, 1.0012, 1.0) == BISECT_UNDECIDED,
	   "counted: a CI across the halfway point, or without figures: undecided");
	for (int t = 0; t < 3; t++)
	{
		int			wrong = 0,
					undecided = 0,
					same = 0,
					differs = 0,
					threshold_same = 0;

		for (int i = 0; i < n; i++)
		{
			StatsComparison cmp;
			BisectAnswer a;

			counted_step(truth[t], &cmp);
			a = bisect_counted_side_answer(cmp.estimate, cmp.ci_low, cmp.ci_high, COUNTED_BAD);
			undecided += a == BISECT_UNDECIDED;
			same += a == BISECT_SAME;
			differs += a == BISECT_DIFFERS;
			wrong += t < 2 && a != right[t] && a != BISECT_UNDECIDED;
			/* the rule it replaces: same when the CI lies inside ±0.05% */
			threshold_same += cmp.ci_low > 1 / 1.0005 && cmp.ci_high < 1.0005;
		}
		if (t < 2)
		{
			ok((double) wrong / n <= 0.025 + mc_tolerance(0.025, n) &&
			   (double) undecided / n <= 0.05 + mc_tolerance(0.05, n),
			   "counted, a state %s: wrong %.2f%%, undecided %.2f%% of %d steps (at most %.2f%%, %.2f%%); "
			   "same within +-0.05%% of the good end in %.2f%%", name[t], 100.0 * wrong / n,
			   100.0 * undecided / n, n, 100 * (0.025 + mc_tolerance(0.025, n)),
			   100 * (0.05 + mc_tolerance(0.05, n)), 100.0 * threshold_same / n);
		}
		else
			ok((double) same / n <= 0.025 + mc_tolerance(0.025, n) &&
			   (double) differs / n <= 0.025 + mc_tolerance(0.025, n),
			   "counted, a state %s: same %.2f%%, differs %.2f%% of %d steps (each at most %.2f%%)",
			   name[t], 100.0 * same / n, 100.0 * differs / n, n, 100 * (0.025 + mc_tolerance(0.025, n)));
	}
}

int
main(void)
{
	test_every_place();
	test_patch_five();
	test_ends_and_stops();
	test_names();
	test_side_answer();
	{
		MiddleSim	m;
		int			n = sim_reps(1000, 10000);

		middle_sim_init(&m);
		rng_seed(2026);
		test_middle_on_halfway(&m, n);
		test_middle_ends(&m, n);
		test_counted_side_answer(n);
	}
	return done_testing();
}
