/*-------------------------------------------------------------------------
 *
 * bisect_search.h
 *		The search of "pgbench_ext bisect" (bisect_search.c): which state
 *		of an ordered series to measure next, given the answers so far.
 *		Plain C, no PostgreSQL headers, so that test/unit/test_bisect.c
 *		proves it with answers fed in.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_BISECT_SEARCH_H
#define PGBENCH_EXT_BISECT_SEARCH_H

#include <stdbool.h>

/* What one step found of a state against the good end */
typedef enum BisectAnswer
{
	BISECT_SAME,				/* the same as the good end, within the threshold */
	BISECT_DIFFERS,				/* differs from the good end */
	BISECT_UNDECIDED			/* neither, with the units the step had */
} BisectAnswer;

typedef enum BisectStatus
{
	BISECT_SEARCHING,			/* a state is to be measured: bisect_next() */
	BISECT_FOUND,				/* first_differs follows last_same */
	BISECT_NO_DIFFERENCE,		/* the bad end is the same as the good end */
	BISECT_STOPPED				/* a step was undecided: states remain */
} BisectStatus;

/*
 * The search over states good..bad: the bad end first (it must differ
 * from the good end for there to be an answer), then the middle of the
 * states not yet placed, until two neighbours remain.
 */
typedef struct BisectSearch
{
	int			good;			/* the good end's state number */
	int			bad;			/* the bad end's */
	int			last_same;		/* the last state known the same (at first good) */
	int			first_differs;	/* the first known to differ, or -1 before the bad end */
	int			undecided;		/* the state whose step was undecided, or -1 */
	int			steps;			/* answers recorded */
	BisectStatus status;
} BisectSearch;

extern const char *bisect_answer_name(BisectAnswer a);
extern bool bisect_answer_parse(const char *name, BisectAnswer *a);
extern void bisect_init(BisectSearch *s, int good, int bad);
extern int	bisect_next(const BisectSearch *s);
extern bool bisect_record(BisectSearch *s, int state, BisectAnswer a);
extern int	bisect_max_middle_steps(int good, int bad);

/*
 * By tps, the halfway point between the ends, in log: the square root of
 * the bad end's ratio to the good end, the reference a middle step's
 * looks test against.
 */
extern double bisect_halfway(double bad_ratio);

/*
 * A middle step's answer by tps from its decision against the halfway
 * point: undecided unless its CI lay wholly on one side (decided), then
 * same on the good end's side and differs on the bad end's.  estimate is
 * the state's ratio to the good end, bad_ratio the bad end's.
 */
extern BisectAnswer bisect_side_answer(bool decided, double estimate, double halfway,
									   double bad_ratio);

/*
 * A middle step's answer by counted instructions per transaction, a fixed
 * number of rounds: decided when its CI [ci_low, ci_high] of the state's
 * ratio to the good end lies wholly on one side of the halfway point
 * between the ends, then answered as bisect_side_answer() does.  A layout
 * change between builds moves the count by a few hundredths of a per
 * cent, which a threshold around the good end would call a difference;
 * the change looked for is the one between the ends.
 */
extern BisectAnswer bisect_counted_side_answer(double estimate, double ci_low, double ci_high,
											   double bad_ratio);

#endif							/* PGBENCH_EXT_BISECT_SEARCH_H */
