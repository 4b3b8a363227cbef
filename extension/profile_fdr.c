/*-------------------------------------------------------------------------
 *
 * profile_fdr.c
 *		pgbench_ext.fdr(p, ci_low, ci_high, alpha, noise): the
 *		Benjamini–Hochberg q-value of each of many comparisons, and whether
 *		it is a discovery, from psql.
 *
 * profile_compare() (extension/sql/45_profiles.sql) compares every
 * function of two variants' profiles with compare(), then calls this over
 * them: the q-values and the rule (q < alpha and the whole CI beyond the
 * noise threshold) come from common/stats_fdr.c, the code the client's
 * report uses, so that psql and the client agree to the last digit.  It
 * needs no shared memory.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "stats.h"
#include "stats_sql.h"

PG_FUNCTION_INFO_V1(pgbench_ext_fdr);

#define FDR_COLUMNS 3

/* The elements of a float8 array argument; NULL elements are NaN. */
static double *
float8_elements(FunctionCallInfo fcinfo, int argno, const char *name, int *n)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	double	   *values;

	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"%s\" of fdr() must not be NULL", name)));
	arr = PG_GETARG_ARRAYTYPE_P(argno);
	stats_array_limit(arr, "fdr()", name, STATS_SQL_MAX_ELEMENTS,
					  "fdr() takes one p-value per comparison: compare fewer items, e.g. only the functions above profile_compare()'s min_share.");
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("array \"%s\" must be one-dimensional", name)));
	deconstruct_array(arr, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL,
					  TYPALIGN_DOUBLE, &elems, &nulls, n);
	values = palloc(sizeof(double) * (*n > 0 ? *n : 1));
	for (int i = 0; i < *n; i++)
		values[i] = nulls[i] ? NAN : DatumGetFloat8(elems[i]);
	return values;
}

Datum
pgbench_ext_fdr(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	StatsOptions opt;
	double	   *p,
			   *low,
			   *high,
			   *q;
	int			n,
				n_low,
				n_high,
				rc;

	p = float8_elements(fcinfo, 0, "p", &n);
	low = float8_elements(fcinfo, 1, "ci_low", &n_low);
	high = float8_elements(fcinfo, 2, "ci_high", &n_high);
	if (n_low != n || n_high != n)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("arrays \"p\", \"ci_low\" and \"ci_high\" must have as many elements, not %d, %d and %d",
						n, n_low, n_high),
				 errhint("Element i of each is the p-value and CI of comparison i.")));
	stats_default_options(&opt);
	if (PG_ARGISNULL(3) || PG_ARGISNULL(4))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("\"alpha\" and \"noise\" of fdr() must not be NULL")));
	opt.alpha = PG_GETARG_FLOAT8(3);
	opt.noise = PG_GETARG_FLOAT8(4);
	if (stats_check_options(&opt) != STATS_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"alpha\" must be in (0, 1) and \"noise\" at least 0, not %g and %g",
						opt.alpha, opt.noise)));
	q = palloc(sizeof(double) * (n > 0 ? n : 1));
	rc = stats_bh_adjust(p, n, q);
	if (rc != STATS_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("every p-value given to fdr() must be in [0, 1]: %s", stats_strerror(rc))));

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < n; i++)
	{
		StatsComparison c = {0};
		Datum		values[FDR_COLUMNS];
		bool		nulls[FDR_COLUMNS] = {0};

		CHECK_FOR_INTERRUPTS();
		c.has_ci = !isnan(low[i]) && !isnan(high[i]);
		c.ci_low = low[i];
		c.ci_high = high[i];
		values[0] = Int32GetDatum(i + 1);
		values[1] = Float8GetDatum(q[i]);
		values[2] = BoolGetDatum(stats_fdr_discovery(&c, q[i], &opt));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
