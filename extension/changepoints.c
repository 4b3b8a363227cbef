/*-------------------------------------------------------------------------
 *
 * changepoints.c
 *		pgbench_ext.changepoints(x, ...): where a history of results
 *		shifted, by how much and with what CI — from psql, on any array of
 *		one value per point in history order.
 *
 * The figures come from common/stats_changepoint.c, the code behind the
 * client's "history" command, so both give the same change points for the
 * same series and seed.  This file only checks the arguments and turns
 * the result into rows.  It needs no shared memory.
 *
 * The work grows with the permutations times the square of the points,
 * so both are capped (CHANGEPOINTS_MAX_POINTS, CHANGEPOINTS_MAX_PERMUTATIONS):
 * at the default 999 shuffles a history of 1,000 points took 1.5 to 2.7 s
 * on a loaded 2-core machine (bench/stats_speed.sh, docs/farm.md); at the
 * caps a call may run for hours, but every shuffle and every row of the
 * search checks for interrupts (common/stats_host.h), so statement_timeout
 * or a cancel stops it within milliseconds.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "stats.h"
#include "stats_sql.h"

PG_FUNCTION_INFO_V1(pgbench_ext_changepoints);

#define CHANGEPOINTS_COLUMNS 8
#define CHANGEPOINTS_MAX_POINTS 1000
#define CHANGEPOINTS_MAX_PERMUTATIONS 1000000

static void
read_change_options(FunctionCallInfo fcinfo, StatsChangeOptions *opt)
{
	static const char *const names[] = {"x", "alpha", "permutations", "min_segment", "seed"};

	for (int i = 0; i < lengthof(names); i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("argument \"%s\" of changepoints() must not be NULL", names[i])));
	stats_default_change_options(opt);
	opt->alpha = PG_GETARG_FLOAT8(1);
	opt->permutations = PG_GETARG_INT32(2);
	opt->min_segment = PG_GETARG_INT32(3);
	opt->seed = (unsigned long long) PG_GETARG_INT64(4);
	if (!(opt->alpha > 0.0 && opt->alpha < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"alpha\" must be greater than 0 and less than 1, not %g", opt->alpha),
				 errhint("alpha is each split's false-alarm rate on a flat history, e.g. 0.05.")));
	if (opt->permutations < 1 || opt->permutations > CHANGEPOINTS_MAX_PERMUTATIONS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"permutations\" must be between 1 and %d, not %d",
						CHANGEPOINTS_MAX_PERMUTATIONS, opt->permutations),
				 errhint("p is (1 + shuffles reaching the split) / (1 + permutations): 999 resolves p to 0.001.")));
	if (opt->min_segment < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"min_segment\" must be at least 1, not %d", opt->min_segment),
				 errhint("min_segment is the fewest points on either side of a change point.")));
	/* past the points' bound no segment can split (and 2 min_segment would overflow) */
	if (opt->min_segment > CHANGEPOINTS_MAX_POINTS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"min_segment\" must be at most %d, the most points changepoints() takes, not %d",
						CHANGEPOINTS_MAX_POINTS, opt->min_segment),
				 errhint("min_segment is the fewest points on either side of a change point.")));
}

Datum
pgbench_ext_changepoints(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	StatsChangeOptions opt;
	StatsChangePoint *cp;
	ArrayType  *arr;
	double	   *x;
	int			n,
				k;

	read_change_options(fcinfo, &opt);
	/* before any of it is copied */
	arr = PG_GETARG_ARRAYTYPE_P(0);
	n = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	if (n > CHANGEPOINTS_MAX_POINTS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("changepoints() takes at most %d points, not %d",
						CHANGEPOINTS_MAX_POINTS, n),
				 errdetail("The cost of its permutation tests grows with the square of the points."),
				 errhint("Look at a window of the history, or summarize several points into one.")));
	x = stats_measurements(arr, "changepoints()", "x", &n);
	cp = palloc(sizeof(StatsChangePoint) * (n + 1));
	k = stats_changepoints(x, n, &opt, cp, n);
	if (k < 0)
		ereport(ERROR,
				(errcode(k == STATS_ERR_NOMEM ? ERRCODE_OUT_OF_MEMORY :
						 ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("changepoints() failed: %s", stats_strerror(k))));

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < k; i++)
	{
		Datum		values[CHANGEPOINTS_COLUMNS];
		bool		nulls[CHANGEPOINTS_COLUMNS] = {0};

		/* SQL counts from 1: the position in x of the first point after the change */
		values[0] = Int32GetDatum(cp[i].index + 1);
		values[1] = Float8GetDatum(cp[i].p_value);
		values[2] = Int32GetDatum(cp[i].n_before);
		values[3] = Int32GetDatum(cp[i].n_after);
		values[4] = Float8GetDatum(cp[i].shift);
		values[5] = Float8GetDatum(cp[i].shift_pct);
		values[6] = Float8GetDatum(cp[i].ci_low);
		values[7] = Float8GetDatum(cp[i].ci_high);
		nulls[6] = nulls[7] = !cp[i].has_ci;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
