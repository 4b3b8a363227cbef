/*-------------------------------------------------------------------------
 *
 * test_bisect.c
 *	  Unit tests (TAP) of the search of "pgbench_ext bisect"
 *	  (client/bisect_search.c), with answers fed in: for every series of
 *	  1 to 64 states past the good end and every place of the first
 *	  differing state, the search names that state and the one before it
 *	  as the last the same, in at most ceil(log2 N) steps besides the bad
 *	  end's; a bad end the same as the good end ends with no difference;
 *	  an undecided step stops the search with the states still open;
 *	  an answer for a state the search did not ask for is refused.
 *
 * test/unit/test_bisect.c
 *
 *-------------------------------------------------------------------------
 */
#include "bisect_search.h"

#include "test_stats_util.h"

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

int
main(void)
{
	test_every_place();
	test_patch_five();
	test_ends_and_stops();
	test_names();
	return done_testing();
}
