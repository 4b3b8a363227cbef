/*-------------------------------------------------------------------------
 *
 * stats_components.c
 *		Where the noise lives: variance components of log tps between
 *		builds, between server starts, between rounds and within a run,
 *		by the method of moments for a nested design, on the scale of one
 *		variant's runs and on the comparison's (paired log ratios).
 *
 * Kalibera and Jones ("Rigorous benchmarking in reasonable time", ISMM
 * 2013) size an experiment from exactly these: the variance a level adds
 * is worth repeating that level for, and repeating a level is paid in
 * builds, restarts or runs (stats_design.c).
 *
 * The estimator, for levels 1 .. L below the grand mean (L the single
 * observations) and the model y = mu + e_1 + ... + e_L, each e_l drawn
 * once per node of level l with variance s_l:
 *
 *	 SS_l = sum over nodes v of level l of n_v (mean_v - mean_parent(v))^2
 *	 E[SS_l] = sum over j >= l of c_lj s_j,
 *	 c_lj = sum_{v at l} S_j(v) / n_v - sum_{p at l-1} S_j(p) / n_p,
 *
 * where n_v counts the observations under v and S_j(v) sums n_w^2 over the
 * nodes w of level j under v (components above l cancel within a parent).
 * c_ll is the level's degrees of freedom (nodes at l minus nodes at l-1)
 * only for balanced data; the formula holds for any design.  The system
 * is triangular: s_L = SS_L / c_LL, then upwards.  Raw estimates enter the
 * levels above untruncated (so that those stay unbiased) and are reported
 * truncated at 0.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Levels of grouping above the observations, at most: build, instance,
 * round.  Paths are sorted whole; the last id is unique per run, so the
 * order also serves when the run is the observation.
 */
#define MAX_GROUPING 3

typedef struct Observation
{
	int			path[MAX_GROUPING];
	double		y;
} Observation;

/* Nodes of one level: observation counts, sums and parent node indexes. */
typedef struct LevelNodes
{
	int			n;
	int		   *count;
	double	   *sum;
	int		   *parent;
} LevelNodes;

static int
cmp_path(const void *x, const void *y)
{
	const Observation *a = x;
	const Observation *b = y;

	for (int l = 0; l < MAX_GROUPING; l++)
		if (a->path[l] != b->path[l])
			return a->path[l] < b->path[l] ? -1 : 1;
	return 0;
}

const char *
stats_level_name(StatsLevel level)
{
	static const char *const names[] = {"build", "instance", "round", "second"};

	return (int) level >= 0 && level < STATS_N_LEVELS ? names[level] : "unknown";
}

/*
 * Nodes of every level for observations sorted by path: level l < depth
 * groups by path[0 .. l], level depth is the observations themselves.
 */
static int
build_levels(const Observation *obs, int n, int depth, LevelNodes *lev)
{
	int			current[MAX_GROUPING + 1];

	for (int l = 0; l <= depth; l++)
	{
		lev[l].n = 0;
		lev[l].count = stats_malloc(sizeof(int) * n);
		lev[l].sum = stats_malloc(sizeof(double) * n);
		lev[l].parent = stats_malloc(sizeof(int) * n);
		if (lev[l].count == NULL || lev[l].sum == NULL || lev[l].parent == NULL)
			return STATS_ERR_NOMEM;
	}
	for (int i = 0; i < n; i++)
	{
		/* the first level whose id differs from the previous observation's */
		int			first_new = 0;

		if (i > 0)
			while (first_new < depth &&
				   obs[i].path[first_new] == obs[i - 1].path[first_new])
				first_new++;
		for (int l = 0; l <= depth; l++)
		{
			if (i == 0 || l >= first_new)
			{
				current[l] = lev[l].n++;
				lev[l].count[current[l]] = 0;
				lev[l].sum[current[l]] = 0.0;
				lev[l].parent[current[l]] = l > 0 ? current[l - 1] : 0;
			}
			lev[l].count[current[l]]++;
			lev[l].sum[current[l]] += obs[i].y;
		}
	}
	return STATS_OK;
}

static void
free_levels(LevelNodes *lev, int depth)
{
	for (int l = 0; l <= depth; l++)
	{
		stats_free(lev[l].count);
		stats_free(lev[l].sum);
		stats_free(lev[l].parent);
	}
}

/* The ancestor at level "up" of node v of level l. */
static int
ancestor(const LevelNodes *lev, int l, int v, int up)
{
	while (l > up)
		v = lev[l--].parent[v];
	return v;
}

/*
 * c_lj of the header for l <= j: sum over level-l nodes of S_j(v) / n_v,
 * minus the same over level l-1 (the grand mean for l = 0).
 */
static double
ems_coefficient(const LevelNodes *lev, int l, int j, double *scratch,
				double grand_n)
{
	double		c = 0.0,
				above = 0.0;

	for (int v = 0; v < lev[l].n; v++)
		scratch[v] = 0.0;
	for (int w = 0; w < lev[j].n; w++)
	{
		double		nw2 = (double) lev[j].count[w] * lev[j].count[w];

		scratch[ancestor(lev, j, w, l)] += nw2;
		above += nw2;
	}
	for (int v = 0; v < lev[l].n; v++)
		c += scratch[v] / lev[l].count[v];
	if (l == 0)
		return c - above / grand_n;
	for (int v = 0; v < lev[l - 1].n; v++)
		scratch[v] = 0.0;
	for (int w = 0; w < lev[j].n; w++)
		scratch[ancestor(lev, j, w, l - 1)] += (double) lev[j].count[w] * lev[j].count[w];
	above = 0.0;
	for (int v = 0; v < lev[l - 1].n; v++)
		above += scratch[v] / lev[l - 1].count[v];
	return c - above;
}

/*
 * The moment estimates for observations whose path has "depth" grouping
 * levels; level l of the result is out slot "slot[l]" (l = 0 .. depth).
 */
static int
nested_moments(Observation *obs, int n, int depth, const StatsLevel *slot,
			   StatsComponents *out)
{
	LevelNodes	lev[MAX_GROUPING + 1];
	double		ss[MAX_GROUPING + 1],
				raw[MAX_GROUPING + 1],
				grand = 0.0,
			   *scratch;
	int			rc;

	memset(out, 0, sizeof(*out));
	memset(lev, 0, sizeof(lev));
	out->n_obs = n;
	if (n == 0)
		return STATS_OK;
	qsort(obs, n, sizeof(Observation), cmp_path);
	scratch = stats_malloc(sizeof(double) * n);
	rc = scratch == NULL ? STATS_ERR_NOMEM : build_levels(obs, n, depth, lev);
	if (rc != STATS_OK)
	{
		stats_free(scratch);
		free_levels(lev, depth);
		return rc;
	}
	for (int i = 0; i < n; i++)
		grand += obs[i].y;
	grand /= n;
	out->mean = grand;

	for (int l = 0; l <= depth; l++)
	{
		ss[l] = 0.0;
		for (int v = 0; v < lev[l].n; v++)
		{
			double		parent_mean = l == 0 ? grand :
				lev[l - 1].sum[lev[l].parent[v]] / lev[l - 1].count[lev[l].parent[v]];
			double		d = lev[l].sum[v] / lev[l].count[v] - parent_mean;

			ss[l] += lev[l].count[v] * d * d;
		}
	}
	/* from the observations up */
	for (int l = depth; l >= 0; l--)
	{
		StatsLevel	s = slot[l];
		double		rest = ss[l],
					c_ll;

		out->n_groups[s] = lev[l].n;
		out->df[s] = lev[l].n - (l == 0 ? 1 : lev[l - 1].n);
		raw[l] = 0.0;
		if (out->df[s] <= 0)
			continue;
		for (int j = l + 1; j <= depth; j++)
			rest -= ems_coefficient(lev, l, j, scratch, n) * raw[j];
		c_ll = ems_coefficient(lev, l, l, scratch, n);
		raw[l] = c_ll > 0.0 ? rest / c_ll : 0.0;
		out->has[s] = true;
		out->raw[s] = raw[l];
		out->truncated[s] = raw[l] < 0.0;
		out->variance[s] = raw[l] > 0.0 ? raw[l] : 0.0;
	}
	stats_free(scratch);
	free_levels(lev, depth);
	return STATS_OK;
}

/* Whether every run has >= 2 per-second values, all finite and > 0. */
static int
seconds_usable(const double *const *seconds, const int *n_seconds, int n,
			   bool *usable, long *total)
{
	*usable = seconds != NULL && n_seconds != NULL && n > 0;
	*total = 0;
	for (int i = 0; *usable && i < n; i++)
	{
		int			rc;

		if (n_seconds[i] < 2 || seconds[i] == NULL)
			*usable = false;
		else if ((rc = stats_check_values(seconds[i], n_seconds[i])) != STATS_OK)
			return rc;
		else
			*total += n_seconds[i];
	}
	return STATS_OK;
}

int
stats_run_components(const double *tps, int n, const int *build,
					 const int *instance, const double *const *seconds,
					 const int *n_seconds, StatsComponents *out)
{
	static const StatsLevel with_seconds[] = {STATS_LEVEL_BUILD, STATS_LEVEL_INSTANCE,
	STATS_LEVEL_ROUND, STATS_LEVEL_SECOND};
	Observation *obs;
	bool		per_second;
	long		total;
	int			k = 0,
				rc;

	memset(out, 0, sizeof(*out));
	if ((rc = stats_check_values(tps, n)) != STATS_OK ||
		(rc = seconds_usable(seconds, n_seconds, n, &per_second, &total)) != STATS_OK)
		return rc;
	if (!per_second)
		total = n;
	if (total > 0x7fffffffL / 2)
		return STATS_ERR_SIZE;
	obs = stats_malloc(sizeof(Observation) * (total > 0 ? total : 1));
	if (obs == NULL)
		return STATS_ERR_NOMEM;
	for (int i = 0; i < n; i++)
	{
		int			count = per_second ? n_seconds[i] : 1;

		for (int s = 0; s < count; s++, k++)
		{
			obs[k].path[0] = build ? build[i] : 0;
			obs[k].path[1] = instance ? instance[i] : 0;
			obs[k].path[2] = i;
			obs[k].y = log(per_second ? seconds[i][s] : tps[i]);
		}
	}
	/* without seconds the run is the observation: two grouping levels */
	rc = nested_moments(obs, k, per_second ? 3 : 2, with_seconds, out);
	stats_free(obs);
	return rc;
}

int
stats_ratio_components(const double *a, const int *build_a,
					   const int *instance_a, const int *round_a, int n_a,
					   const double *b, const int *build_b,
					   const int *instance_b, const int *round_b, int n_b,
					   StatsComponents *out)
{
	static const StatsLevel slots[] = {STATS_LEVEL_BUILD, STATS_LEVEL_INSTANCE,
	STATS_LEVEL_ROUND};
	StatsPairs	pairs;
	Observation *obs;
	int			rc;

	memset(out, 0, sizeof(*out));
	if ((rc = stats_check_values(a, n_a)) != STATS_OK ||
		(rc = stats_check_values(b, n_b)) != STATS_OK ||
		(rc = stats_pair_runs(a, build_a, instance_a, round_a, n_a,
							  b, build_b, instance_b, round_b, n_b, &pairs)) != STATS_OK)
		return rc;
	obs = stats_malloc(sizeof(Observation) * (pairs.n > 0 ? pairs.n : 1));
	if (obs == NULL)
	{
		stats_pairs_free(&pairs);
		return STATS_ERR_NOMEM;
	}
	for (int i = 0; i < pairs.n; i++)
	{
		obs[i].path[0] = pairs.outer[i];
		obs[i].path[1] = pairs.inner[i];
		obs[i].path[2] = i;
		obs[i].y = log(pairs.b[i] / pairs.a[i]);
	}
	rc = nested_moments(obs, pairs.n, 2, slots, out);
	stats_free(obs);
	stats_pairs_free(&pairs);
	return rc;
}
