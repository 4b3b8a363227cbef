/*-------------------------------------------------------------------------
 *
 * bisect_search.c
 *		The search of "pgbench_ext bisect": binary search for the first
 *		state of a series that differs from its good end.
 *
 * State good is the reference every step compares against; the bad end is
 * measured first, since without a difference there no state can be the
 * first to differ.  Then each step measures the middle state between the
 * last one known the same and the first known to differ, so that N states
 * past the good end take at most ceil(log2 N) steps besides the bad end's.
 * The search assumes one change: a state after a differing one is not
 * measured.  An undecided step stops the search where it is, with the
 * states between last_same and first_differs still open.  By tps a middle
 * step is answered by the side of the halfway point between the ends its
 * CI lies on (bisect_side_answer()).
 *
 *-------------------------------------------------------------------------
 */
#include "bisect_search.h"

#include <math.h>
#include <string.h>

static const char *const answer_names[] = {
	[BISECT_SAME] = "same",
	[BISECT_DIFFERS] = "differs",
	[BISECT_UNDECIDED] = "undecided",
};

const char *
bisect_answer_name(BisectAnswer a)
{
	return answer_names[a];
}

bool
bisect_answer_parse(const char *name, BisectAnswer *a)
{
	for (int i = 0; i < (int) (sizeof(answer_names) / sizeof(answer_names[0])); i++)
		if (name != NULL && strcmp(name, answer_names[i]) == 0)
		{
			*a = (BisectAnswer) i;
			return true;
		}
	return false;
}

void
bisect_init(BisectSearch *s, int good, int bad)
{
	s->good = good;
	s->bad = bad;
	s->last_same = good;
	s->first_differs = -1;
	s->undecided = -1;
	s->steps = 0;
	s->status = BISECT_SEARCHING;
}

/* The state to measure next, or -1 when the search has ended. */
int
bisect_next(const BisectSearch *s)
{
	if (s->status != BISECT_SEARCHING)
		return -1;
	if (s->first_differs < 0)
		return s->bad;
	return s->last_same + (s->first_differs - s->last_same) / 2;
}

/*
 * Record the answer of the state bisect_next() named; false (nothing
 * recorded) for any other state.
 */
bool
bisect_record(BisectSearch *s, int state, BisectAnswer a)
{
	if (state != bisect_next(s) || state < 0)
		return false;
	s->steps++;
	if (a == BISECT_UNDECIDED)
	{
		s->undecided = state;
		s->status = BISECT_STOPPED;
		return true;
	}
	if (s->first_differs < 0)
	{
		/* the bad end */
		if (a == BISECT_SAME)
		{
			s->last_same = state;
			s->status = BISECT_NO_DIFFERENCE;
			return true;
		}
		s->first_differs = state;
	}
	else if (a == BISECT_SAME)
		s->last_same = state;
	else
		s->first_differs = state;
	if (s->first_differs - s->last_same <= 1)
		s->status = BISECT_FOUND;
	return true;
}

/* ceil(log2(bad - good)): the most middle steps the search takes */
int
bisect_max_middle_steps(int good, int bad)
{
	int			n = 0;

	while ((1 << n) < bad - good)
		n++;
	return n;
}

double
bisect_halfway(double bad_ratio)
{
	return sqrt(bad_ratio);
}

BisectAnswer
bisect_side_answer(bool decided, double estimate, double halfway, double bad_ratio)
{
	if (!decided || isnan(estimate) || isnan(halfway) || isnan(bad_ratio) || bad_ratio == 1)
		return BISECT_UNDECIDED;
	/* a CI wholly on one side has its estimate on that side too */
	return (estimate < halfway) == (bad_ratio < 1) ? BISECT_DIFFERS : BISECT_SAME;
}

BisectAnswer
bisect_counted_side_answer(double estimate, double ci_low, double ci_high, double bad_ratio)
{
	double		halfway = bisect_halfway(bad_ratio);
	bool		decided;

	if (isnan(ci_low) || isnan(ci_high) || isnan(halfway))
		return BISECT_UNDECIDED;
	/* a fixed design: its 95% CI is the test, each side at most alpha/2 */
	decided = ci_low > halfway || ci_high < halfway;
	return bisect_side_answer(decided, estimate, halfway, bad_ratio);
}
