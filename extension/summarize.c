/*-------------------------------------------------------------------------
 *
 * summarize.c
 *		pgbench_ext.summarize(x, level): the median of per-run measurements
 *		with its distribution-free CI, and the spread; geomean(x).
 *
 * With compare() it gives pgbench_ext.experiment_report() (40_experiments.sql) every
 * figure of the client's verdict table, from common/stats.c, the code the
 * client runs: the same runs give the same digits in psql and in the
 * terminal.  Needs no shared memory.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include <math.h>

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "stats.h"
#include "stats_sql.h"

PG_FUNCTION_INFO_V1(pgbench_ext_summarize);
PG_FUNCTION_INFO_V1(pgbench_ext_geomean);

#define SUMMARIZE_COLUMNS 11

Datum
pgbench_ext_summarize(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	StatsSummary s;
	double	   *x;
	double		level;
	int			n,
				rc;
	Datum		values[SUMMARIZE_COLUMNS];
	bool		nulls[SUMMARIZE_COLUMNS] = {0};

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"%s\" of summarize() must not be NULL",
						PG_ARGISNULL(0) ? "x" : "level")));
	level = PG_GETARG_FLOAT8(1);
	if (!(level > 0.0 && level < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"level\" must be greater than 0 and less than 1, not %g", level),
				 errhint("level is the confidence of the median's CI, e.g. 0.95.")));
	x = stats_measurements(PG_GETARG_ARRAYTYPE_P(0), "summarize()", "x", &n);

	InitMaterializedSRF(fcinfo, 0);
	values[0] = Int32GetDatum(n);
	if (n == 0)
	{
		/* no runs: a row of NULL figures, as the client prints "-" */
		for (int i = 1; i < SUMMARIZE_COLUMNS; i++)
			nulls[i] = true;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		return (Datum) 0;
	}
	rc = stats_summarize(x, n, level, &s);
	if (rc != STATS_OK)
		ereport(ERROR,
				(errcode(rc == STATS_ERR_NOMEM ? ERRCODE_OUT_OF_MEMORY : ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("summarize() failed: %s", stats_strerror(rc))));
	values[1] = Float8GetDatum(s.median);
	values[2] = Float8GetDatum(s.median_ci_low);
	nulls[2] = !s.has_median_ci;
	values[3] = Float8GetDatum(s.median_ci_high);
	nulls[3] = !s.has_median_ci;
	values[4] = Float8GetDatum(s.median_ci_confidence);
	values[5] = Float8GetDatum(s.mean);
	values[6] = Float8GetDatum(s.stddev);
	values[7] = Float8GetDatum(s.cv);
	values[8] = Float8GetDatum(s.mad);
	values[9] = Float8GetDatum(s.min);
	values[10] = Float8GetDatum(s.max);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	return (Datum) 0;
}

/*
 * geomean(x float8[]): exp(mean(log x)), the geomean row of the verdict
 * table, with the client's stats_geomean() so the two agree to the bit.
 * NULL for an empty array.
 */
Datum
pgbench_ext_geomean(PG_FUNCTION_ARGS)
{
	double	   *x;
	double		g;
	int			n,
				rc;

	x = stats_measurements(PG_GETARG_ARRAYTYPE_P(0), "geomean()", "x", &n);
	if (n == 0)
		PG_RETURN_NULL();
	rc = stats_geomean(x, n, &g);
	if (rc != STATS_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("geomean() failed: %s", stats_strerror(rc))));
	PG_RETURN_FLOAT8(g);
}
