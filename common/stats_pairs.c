/*-------------------------------------------------------------------------
 *
 * stats_pairs.c
 *		Which runs of A and B form a pair: the same place in the design
 *		(ids of up to two levels above the round, such as build and
 *		instance) and the same round, with exactly one run of each side.
 *
 * Every comparison that pairs rounds (round by round, across units, the
 * variance components of the ratio, the sequential looks) pairs them
 * here, so that they all agree on which rounds count.  A round holding two
 * runs of one side (a rerun) or none of the other (a failed run) is no
 * pair; a round number <= 0 means "in no round".  Sorting makes it
 * O(n log n).
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <stdlib.h>

typedef struct RunKey
{
	int			outer;
	int			inner;
	int			round;
	int			index;
} RunKey;

static int
cmp_key(const RunKey *x, const RunKey *y)
{
	if (x->outer != y->outer)
		return x->outer < y->outer ? -1 : 1;
	if (x->inner != y->inner)
		return x->inner < y->inner ? -1 : 1;
	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	return 0;
}

static int
cmp_key_qsort(const void *x, const void *y)
{
	int			c = cmp_key(x, y);

	return c != 0 ? c : ((const RunKey *) x)->index - ((const RunKey *) y)->index;
}

/* The sorted keys of one side's runs; NULL id arrays count as all 0. */
static RunKey *
sorted_keys(const int *outer, const int *inner, const int *round, int n)
{
	RunKey	   *k = stats_malloc(sizeof(RunKey) * (n > 0 ? n : 1));

	if (k == NULL)
		return NULL;
	for (int i = 0; i < n; i++)
	{
		k[i].outer = outer ? outer[i] : 0;
		k[i].inner = inner ? inner[i] : 0;
		k[i].round = round[i];
		k[i].index = i;
	}
	qsort(k, n, sizeof(RunKey), cmp_key_qsort);
	return k;
}

/* Length of the run of equal keys starting at k[i]. */
static int
same_key_count(const RunKey *k, int n, int i)
{
	int			j = i + 1;

	while (j < n && cmp_key(&k[j], &k[i]) == 0)
		j++;
	return j - i;
}

void
stats_pairs_free(StatsPairs *p)
{
	stats_free(p->a);
	p->a = p->b = NULL;
	p->outer = p->inner = p->round = NULL;
	p->n = 0;
}

int
stats_pair_runs(const double *a, const int *outer_a, const int *inner_a,
				const int *round_a, int n_a,
				const double *b, const int *outer_b, const int *inner_b,
				const int *round_b, int n_b, StatsPairs *out)
{
	RunKey	   *ka,
			   *kb;
	int			most = n_a < n_b ? n_a : n_b,
				i = 0,
				j = 0;

	out->n = 0;
	out->a = out->b = NULL;
	out->outer = out->inner = out->round = NULL;
	if (n_a < 0 || n_b < 0)
		return STATS_ERR_SIZE;
	if (round_a == NULL || round_b == NULL || most == 0)
		return STATS_OK;

	/* one block: two arrays of doubles, then three of ints */
	out->a = stats_malloc((sizeof(double) * 2 + sizeof(int) * 3) * most);
	ka = sorted_keys(outer_a, inner_a, round_a, n_a);
	kb = sorted_keys(outer_b, inner_b, round_b, n_b);
	if (out->a == NULL || ka == NULL || kb == NULL)
	{
		stats_free(ka);
		stats_free(kb);
		stats_pairs_free(out);
		return STATS_ERR_NOMEM;
	}
	out->b = out->a + most;
	out->outer = (int *) (out->b + most);
	out->inner = out->outer + most;
	out->round = out->inner + most;

	while (i < n_a && j < n_b)
	{
		int			c = cmp_key(&ka[i], &kb[j]),
					count_a,
					count_b;

		if (c < 0)
		{
			i += same_key_count(ka, n_a, i);
			continue;
		}
		if (c > 0)
		{
			j += same_key_count(kb, n_b, j);
			continue;
		}
		count_a = same_key_count(ka, n_a, i);
		count_b = same_key_count(kb, n_b, j);
		if (count_a == 1 && count_b == 1 && ka[i].round > 0)
		{
			out->a[out->n] = a[ka[i].index];
			out->b[out->n] = b[kb[j].index];
			out->outer[out->n] = ka[i].outer;
			out->inner[out->n] = ka[i].inner;
			out->round[out->n] = ka[i].round;
			out->n++;
		}
		i += count_a;
		j += count_b;
	}
	stats_free(ka);
	stats_free(kb);
	return STATS_OK;
}
