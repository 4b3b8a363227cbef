/*-------------------------------------------------------------------------
 *
 * compare.c
 *		pgbench_ext.compare(a, b, ...): is B faster than A, by how much,
 *		how sure — from psql, on any two arrays of per-run measurements,
 *		round by round when their rounds are given.
 *
 * The figures come from common/stats_compare.c, the code the client uses
 * for its tables, so psql and the terminal agree to the last digit.  This
 * file only checks the arguments and turns the result into a row.  It
 * needs no shared memory and works without shared_preload_libraries.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "stats.h"
#include "stats_sql.h"

PG_FUNCTION_INFO_V1(pgbench_ext_compare);

#define COMPARE_COLUMNS 11

/* Argument argno as a non-NULL value, or an error naming it. */
static void
require_arg(FunctionCallInfo fcinfo, int argno, const char *name)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"%s\" of compare() must not be NULL", name)));
}

/*
 * The elements of a one-dimensional float8 array, each finite and > 0
 * (comparisons work on ratios); palloc'd.  func names the SQL function in
 * the hint.  Also used by summarize.c.
 */
double *
stats_measurements(ArrayType *arr, const char *func, const char *name, int *n)
{
	Datum	   *elems;
	bool	   *nulls;
	double	   *values;
	int			i;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("array \"%s\" must be one-dimensional", name)));
	deconstruct_array(arr, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL,
					  TYPALIGN_DOUBLE, &elems, &nulls, n);
	values = palloc(sizeof(double) * (*n > 0 ? *n : 1));
	for (i = 0; i < *n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("array \"%s\" must not contain NULL elements", name),
					 errdetail("Element %d is NULL.", i + 1)));
		values[i] = DatumGetFloat8(elems[i]);
		if (!(values[i] > 0.0 && isfinite(values[i])))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("array \"%s\" must contain only finite values greater than zero",
							name),
					 errdetail("Element %d is %g.", i + 1, values[i]),
					 errhint("%s takes one measurement per run, such as tps or latency.", func)));
	}
	return values;
}

static void
read_options(FunctionCallInfo fcinfo, StatsOptions *opt)
{
	stats_default_options(opt);
	require_arg(fcinfo, 2, "higher_is_better");
	require_arg(fcinfo, 3, "alpha");
	require_arg(fcinfo, 4, "noise");
	opt->higher_is_better = PG_GETARG_BOOL(2);
	opt->alpha = PG_GETARG_FLOAT8(3);
	opt->noise = PG_GETARG_FLOAT8(4);
	if (!(opt->alpha > 0.0 && opt->alpha < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"alpha\" must be greater than 0 and less than 1, not %g",
						opt->alpha),
				 errhint("alpha is the significance level, e.g. 0.05.")));
	if (!(opt->noise >= 0.0 && isfinite(opt->noise)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"noise\" must be a finite fraction of at least 0, not %g",
						opt->noise),
				 errhint("noise is the smallest change that counts, e.g. 0.01 for 1%%.")));
}

/*
 * The round numbers of argument argno (NULL: none) for n runs: palloc'd,
 * each > 0, one per element of the measurements it goes with.
 */
static int *
round_numbers(FunctionCallInfo fcinfo, int argno, const char *name,
			  const char *values_name, int n)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	int		   *rounds;
	int			count;

	if (PG_ARGISNULL(argno))
		return NULL;
	arr = PG_GETARG_ARRAYTYPE_P(argno);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("array \"%s\" must be one-dimensional", name)));
	deconstruct_array(arr, INT4OID, sizeof(int32), true, TYPALIGN_INT,
					  &elems, &nulls, &count);
	if (count != n)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("array \"%s\" has %d elements, but \"%s\" has %d",
						name, count, values_name, n),
				 errhint("Element i of \"%s\" is the round in which run i of \"%s\" was made.",
						 name, values_name)));
	rounds = palloc(sizeof(int) * (n > 0 ? n : 1));
	for (int i = 0; i < n; i++)
	{
		rounds[i] = nulls[i] ? 0 : DatumGetInt32(elems[i]);
		if (rounds[i] <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("array \"%s\" must contain round numbers greater than zero", name),
					 errdetail("Element %d is %s.", i + 1,
							   nulls[i] ? "NULL" : psprintf("%d", rounds[i]))));
	}
	return rounds;
}

static void
report_stats_error(int rc)
{
	ereport(ERROR,
			(errcode(rc == STATS_ERR_NOMEM ? ERRCODE_OUT_OF_MEMORY :
					 rc == STATS_ERR_SIZE ? ERRCODE_PROGRAM_LIMIT_EXCEEDED :
					 ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("compare() failed: %s", stats_strerror(rc))));
}

/* A figure, or NULL where the comparison has none. */
static void
set_column(Datum *values, bool *nulls, int col, bool present, double v)
{
	values[col] = present ? Float8GetDatum(v) : (Datum) 0;
	nulls[col] = !present;
}

Datum
pgbench_ext_compare(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	StatsOptions opt;
	StatsComparison c;
	double	   *a,
			   *b;
	int		   *round_a,
			   *round_b;
	int			n_a,
				n_b,
				rc;
	Datum		values[COMPARE_COLUMNS];
	bool		nulls[COMPARE_COLUMNS] = {0};

	require_arg(fcinfo, 0, "a");
	require_arg(fcinfo, 1, "b");
	read_options(fcinfo, &opt);
	a = stats_measurements(PG_GETARG_ARRAYTYPE_P(0), "compare()", "a", &n_a);
	b = stats_measurements(PG_GETARG_ARRAYTYPE_P(1), "compare()", "b", &n_b);
	round_a = round_numbers(fcinfo, 5, "round_a", "a", n_a);
	round_b = round_numbers(fcinfo, 6, "round_b", "b", n_b);
	if ((round_a == NULL) != (round_b == NULL))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("\"round_a\" and \"round_b\" must be given together"),
				 errhint("Give both to compare runs round by round, or neither to compare them unpaired.")));

	rc = stats_compare_rounds(a, round_a, n_a, b, round_b, n_b, &opt, &c);
	if (rc != STATS_OK)
		report_stats_error(rc);

	InitMaterializedSRF(fcinfo, 0);
	set_column(values, nulls, 0, c.has_estimate, c.estimate);
	set_column(values, nulls, 1, c.has_ci, c.ci_low);
	set_column(values, nulls, 2, c.has_ci, c.ci_high);
	set_column(values, nulls, 3, c.has_estimate, c.change_pct);
	set_column(values, nulls, 4, c.has_p, c.p_value);
	values[5] = Int32GetDatum(c.n_a);
	values[6] = Int32GetDatum(c.n_b);
	set_column(values, nulls, 7, c.has_mde, c.mde_pct);
	values[8] = CStringGetTextDatum(stats_verdict_name(c.verdict));
	values[9] = CStringGetTextDatum(c.reason);
	values[10] = Int32GetDatum(c.n_pairs);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	return (Datum) 0;
}
