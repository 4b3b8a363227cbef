/*-------------------------------------------------------------------------
 *
 * compare.c
 *		pgbench_ext.compare(a, b, ...): is B faster than A, by how much,
 *		how sure — from psql, on any two arrays of per-run measurements,
 *		round by round when their rounds are given, across instance or
 *		seed pairs when each run's unit is given; and
 *		sequential_decide(), the same question under rounds = auto,
 *		answered by the look that decided.
 *
 * The figures come from common/stats_nested.c and, look by look,
 * common/stats_seqbudget.c, the code the client uses for its tables and
 * its runner's looks, so psql and the terminal agree to the last digit.
 * This file only checks the arguments and turns the result into a row.  It
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
#include "miscadmin.h"
#include "utils/lsyscache.h"

#include "stats.h"
#include "stats_sql.h"

PG_FUNCTION_INFO_V1(pgbench_ext_compare);
PG_FUNCTION_INFO_V1(pgbench_ext_sequential_decide);

#define COMPARE_COLUMNS 13
#define DECIDE_COLUMNS 19

/*
 * The largest plan of rounds = auto sequential_decide() replays, as the
 * client's budget_from_json() reads experiment.json (its runner plans at
 * most 200 blocks): each look's boundary integrates over the looks before
 * it, so 100,000 looks take hours, though every look can be cancelled.
 */
#define SEQUENTIAL_MAX_BLOCKS 100000
#define SEQUENTIAL_MAX_BLOCK_ROUNDS 100000

/* Argument argno as a non-NULL value, or an error naming it. */
static void
require_arg(FunctionCallInfo fcinfo, int argno, const char *name)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"%s\" of %s() must not be NULL", name,
						get_func_name(fcinfo->flinfo->fn_oid))));
}

/*
 * An error when array "name" of func (e.g. "compare()") holds more than
 * limit elements, before anything is copied out of it; hint says what to
 * do instead (NULL: the general advice).
 */
void
stats_array_limit(ArrayType *arr, const char *func, const char *name, int limit,
				  const char *hint)
{
	int			count = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));

	if (count > limit)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("array \"%s\" of %s has %d elements, more than the %d it may hold",
						name, func, count, limit),
				 errhint("%s", hint != NULL ? hint :
						 "Pass one value per run; for more, summarize the runs first (one value per round or unit).")));
}

/*
 * The elements of one-dimensional array arr of element type elmtype, none
 * of them NULL, or an error naming the array (and func, past the limit).
 */
static Datum *
array_elements(ArrayType *arr, Oid elmtype, const char *func, const char *name, int *n)
{
	Datum	   *elems;
	bool	   *nulls;
	int16		typlen;
	bool		typbyval;
	char		typalign;

	stats_array_limit(arr, func, name, STATS_SQL_MAX_ELEMENTS, NULL);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("array \"%s\" must be one-dimensional", name)));
	get_typlenbyvalalign(elmtype, &typlen, &typbyval, &typalign);
	deconstruct_array(arr, elmtype, typlen, typbyval, typalign, &elems, &nulls, n);
	for (int i = 0; i < *n; i++)
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("array \"%s\" must not contain NULL elements", name),
					 errdetail("Element %d is NULL.", i + 1)));
	return elems;
}

/*
 * The elements of a one-dimensional float8 array, each finite and > 0
 * (comparisons work on ratios); palloc'd.  func names the SQL function in
 * the hint.  Also used by summarize.c.
 */
double *
stats_measurements(ArrayType *arr, const char *func, const char *name, int *n)
{
	Datum	   *elems = array_elements(arr, FLOAT8OID, func, name, n);
	double	   *values;

	values = palloc(sizeof(double) * (*n > 0 ? *n : 1));
	for (int i = 0; i < *n; i++)
	{
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
	if (!(opt->noise >= 0.0 && opt->noise < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"noise\" must be a fraction of at least 0 and below 1, not %g",
						opt->noise),
				 errhint("noise is the smallest change that counts, e.g. 0.01 for 1%%.")));
}

/*
 * One int per run from argument argno (NULL: none), palloc'd: round
 * numbers (positive true: each > 0) or unit ids (any int), one per element
 * of the measurements they go with; "meaning" says what element i is, for
 * the hint.
 */
static int *
ints_per_run(FunctionCallInfo fcinfo, int argno, const char *name,
			 const char *values_name, int n, bool positive, const char *meaning)
{
	Datum	   *elems;
	int		   *ints;
	int			count;

	if (PG_ARGISNULL(argno))
		return NULL;
	elems = array_elements(PG_GETARG_ARRAYTYPE_P(argno), INT4OID,
						   psprintf("%s()", get_func_name(fcinfo->flinfo->fn_oid)),
						   name, &count);
	if (count != n)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("array \"%s\" has %d elements, but \"%s\" has %d",
						name, count, values_name, n),
				 errhint("Element i of \"%s\" is the %s of run i of \"%s\".",
						 name, meaning, values_name)));
	ints = palloc(sizeof(int) * (n > 0 ? n : 1));
	for (int i = 0; i < n; i++)
	{
		ints[i] = DatumGetInt32(elems[i]);
		if (positive && ints[i] <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("array \"%s\" must contain round numbers greater than zero", name),
					 errdetail("Element %d is %d.", i + 1, ints[i])));
	}
	return ints;
}

/* Both of a pair of per-run arguments, or neither. */
static void
require_both(const void *x, const void *y, const char *name_x, const char *name_y,
			 const char *hint)
{
	if ((x == NULL) != (y == NULL))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("\"%s\" and \"%s\" must be given together", name_x, name_y),
				 errhint("%s", hint)));
}

/* The unit named by argument argno: a name stats_unit_from_name() knows. */
static StatsUnit
unit_kind(FunctionCallInfo fcinfo, int argno)
{
	char	   *name;
	int			unit;

	require_arg(fcinfo, argno, "unit_kind");
	name = text_to_cstring(PG_GETARG_TEXT_PP(argno));
	unit = stats_unit_from_name(name);
	if (unit < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"unit_kind\" must be \"instance pair\", \"build seed pair\", \"build pair\" or \"machine pair\", not \"%s\"",
						name),
				 errhint("unit_kind names what unit_a and unit_b count: the rounds between two restarts of both servers, the builds with one build seed, or the machines both sides ran on.")));
	return (StatsUnit) unit;
}

static void
report_stats_error(const char *func, int rc)
{
	ereport(ERROR,
			(errcode(rc == STATS_ERR_NOMEM ? ERRCODE_OUT_OF_MEMORY :
					 rc == STATS_ERR_SIZE ? ERRCODE_PROGRAM_LIMIT_EXCEEDED :
					 ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s failed: %s", func, stats_strerror(rc)),
			 rc == STATS_ERR_SIZE ?
			 errhint("The rank statistics weigh every pair of runs, or of paired rounds (at most about 4,470 rounds): pass fewer runs, or unit ids (unit_a, unit_b) to compare the units' means.") : 0));
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
			   *round_b,
			   *unit_a,
			   *unit_b;
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
	round_a = ints_per_run(fcinfo, 5, "round_a", "a", n_a, true, "round");
	round_b = ints_per_run(fcinfo, 6, "round_b", "b", n_b, true, "round");
	require_both(round_a, round_b, "round_a", "round_b",
				 "Give both to compare runs round by round, or neither to compare them unpaired.");
	unit_a = ints_per_run(fcinfo, 7, "unit_a", "a", n_a, false, "unit (instance or seed pair)");
	unit_b = ints_per_run(fcinfo, 8, "unit_b", "b", n_b, false, "unit (instance or seed pair)");
	require_both(unit_a, unit_b, "unit_a", "unit_b",
				 "Give both to compare across units, or neither to compare round by round.");

	rc = stats_compare_units(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b,
							 unit_kind(fcinfo, 9), &opt, &c);
	if (rc != STATS_OK)
		report_stats_error("compare()", rc);

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
	values[11] = Int32GetDatum(c.n_units);
	values[12] = CStringGetTextDatum(stats_unit_name(c.unit, 1));
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	return (Datum) 0;
}

/*
 * The plan of rounds = auto from the arguments after compare()'s (10 ..
 * 16: experiment.json's "sequential"), checked as budget_from_json() does
 * in the client.
 */
static void
read_budget_plan(FunctionCallInfo fcinfo, StatsBudgetPlan *plan)
{
	static const char *const names[] = {"budget_s", "block_rounds", "first_look_block",
	"max_blocks", "max_looks", "spending", "information"};
	char	   *spending,
			   *information;

	for (int i = 0; i < lengthof(names); i++)
		require_arg(fcinfo, 10 + i, names[i]);
	plan->budget_s = PG_GETARG_INT32(10);
	plan->block_rounds = PG_GETARG_INT32(11);
	plan->first_look = PG_GETARG_INT32(12);
	plan->max_blocks = PG_GETARG_INT32(13);
	plan->max_looks = PG_GETARG_INT32(14);
	spending = text_to_cstring(PG_GETARG_TEXT_PP(15));
	information = text_to_cstring(PG_GETARG_TEXT_PP(16));
	if (plan->max_blocks > SEQUENTIAL_MAX_BLOCKS || plan->block_rounds > SEQUENTIAL_MAX_BLOCK_ROUNDS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a plan of rounds = auto has at most %d blocks of at most %d rounds, not %d blocks of %d",
						SEQUENTIAL_MAX_BLOCKS, SEQUENTIAL_MAX_BLOCK_ROUNDS,
						plan->max_blocks, plan->block_rounds),
				 errhint("Give the \"sequential\" plan experiment.json records: the client plans at most 200 blocks.")));
	if (plan->budget_s < 1 || plan->block_rounds < 1 ||
		plan->first_look < 1 || plan->max_blocks < plan->first_look ||
		plan->max_looks != plan->max_blocks - plan->first_look + 1 ||
		(strcmp(spending, "pocock") != 0 && strcmp(spending, "obrien-fleming") != 0) ||
		(strcmp(information, "budget spent") != 0 && strcmp(information, "blocks") != 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the plan of rounds = auto is not valid"),
				 errdetail("budget_s %d, block_rounds %d, first_look_block %d, max_blocks %d, max_looks %d, spending \"%s\", information \"%s\".",
						   plan->budget_s, plan->block_rounds, plan->first_look,
						   plan->max_blocks, plan->max_looks, spending, information),
				 errhint("Give the \"sequential\" plan experiment.json records: max_looks = max_blocks - first_look_block + 1, spending \"obrien-fleming\" or \"pocock\", information \"budget spent\" or \"blocks\".")));
	plan->spending = strcmp(spending, "pocock") == 0 ? STATS_SPEND_POCOCK : STATS_SPEND_OBRIEN_FLEMING;
	plan->time_information = strcmp(information, "budget spent") == 0;
}

/*
 * The seconds spent by the end of each block (argument 17: element b - 1
 * for block b, NaN for a block budget.csv lacks), as many as the plan's
 * blocks; palloc'd.
 */
static double *
read_block_spent(FunctionCallInfo fcinfo, const StatsBudgetPlan *plan)
{
	Datum	   *elems = NULL;
	double	   *spent = palloc(sizeof(double) * plan->max_blocks);
	int			n = 0;

	if (!PG_ARGISNULL(17))
		elems = array_elements(PG_GETARG_ARRAYTYPE_P(17), FLOAT8OID, "sequential_decide()",
							   "block_spent_s", &n);
	if (n > plan->max_blocks)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("array \"block_spent_s\" has %d elements, more than the plan's %d blocks",
						n, plan->max_blocks)));
	for (int i = 0; i < plan->max_blocks; i++)
		spent[i] = i < n ? DatumGetFloat8(elems[i]) : NAN;
	return spent;
}

/* The deciding (or last) look as a row; with no look, NULL figures. */
static void
put_look(ReturnSetInfo *rsinfo, const StatsBudgetPlan *plan, StatsUnit unit,
		 const StatsLook *look, int block)
{
	const StatsComparison *c = &look->cmp;
	bool		has = block > 0;
	Datum		values[DECIDE_COLUMNS];
	bool		nulls[DECIDE_COLUMNS] = {0};

	values[0] = Int32GetDatum(look->look);
	nulls[0] = !has;
	values[1] = Int32GetDatum(plan->max_looks);
	values[2] = Int32GetDatum(block);
	nulls[2] = !has;
	values[3] = Int32GetDatum(block * plan->block_rounds);
	nulls[3] = !has;
	values[4] = CStringGetTextDatum(stats_decision_name(has ? look->decision : STATS_UNDECIDED));
	set_column(values, nulls, 5, has && c->has_estimate, c->estimate);
	set_column(values, nulls, 6, has && c->has_ci, c->ci_low);
	set_column(values, nulls, 7, has && c->has_ci, c->ci_high);
	set_column(values, nulls, 8, has && c->has_estimate, c->change_pct);
	set_column(values, nulls, 9, has && c->has_p, c->p_value);
	values[10] = Int32GetDatum(has ? c->n_pairs : 0);
	set_column(values, nulls, 11, has && c->has_mde, c->mde_pct);
	values[12] = CStringGetTextDatum(has ? stats_verdict_name(c->verdict) : "insufficient");
	values[13] = CStringGetTextDatum(has ? look->reason
									 : psprintf("no look yet: the first look comes after %d rounds",
												plan->first_look * plan->block_rounds));
	values[14] = Int32GetDatum(has ? c->n_units : 0);
	values[15] = CStringGetTextDatum(stats_unit_name(has ? c->unit : unit, 1));
	set_column(values, nulls, 16, has, look->alpha_look);
	set_column(values, nulls, 17, has, look->alpha_spent);
	set_column(values, nulls, 18, has, look->info);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * sequential_decide(a, b, ..., the plan, block_spent_s, blocks_done): the
 * decision of rounds = auto on compare()'s arguments (the runs of all
 * rounds), replayed look by look as the client's runner and report make
 * it (stats_sequential_decide() of common/, with the information
 * fractions of stats_budget_info() and the boundaries of
 * stats_sequential_bounds()): the first look that decides, else the last.
 */
Datum
pgbench_ext_sequential_decide(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	StatsOptions opt;
	StatsBudgetPlan plan;
	StatsLook	look;
	StatsUnit	unit;
	double	   *a,
			   *b,
			   *spent,
			   *info,
			   *z;
	int		   *round_a,
			   *round_b,
			   *unit_a,
			   *unit_b;
	int			n_a,
				n_b,
				blocks_done,
				looks,
				block = 0,
				rc;
	double		reference = 0;

	/* no plan (a fixed design, or no look allowed): no row */
	if (PG_ARGISNULL(18))
	{
		InitMaterializedSRF(fcinfo, 0);
		return (Datum) 0;
	}
	require_arg(fcinfo, 0, "a");
	require_arg(fcinfo, 1, "b");
	require_arg(fcinfo, 5, "round_a");
	require_arg(fcinfo, 6, "round_b");
	read_options(fcinfo, &opt);
	read_budget_plan(fcinfo, &plan);
	a = stats_measurements(PG_GETARG_ARRAYTYPE_P(0), "sequential_decide()", "a", &n_a);
	b = stats_measurements(PG_GETARG_ARRAYTYPE_P(1), "sequential_decide()", "b", &n_b);
	round_a = ints_per_run(fcinfo, 5, "round_a", "a", n_a, true, "round");
	round_b = ints_per_run(fcinfo, 6, "round_b", "b", n_b, true, "round");
	unit_a = ints_per_run(fcinfo, 7, "unit_a", "a", n_a, false, "unit (instance or seed pair)");
	unit_b = ints_per_run(fcinfo, 8, "unit_b", "b", n_b, false, "unit (instance or seed pair)");
	require_both(unit_a, unit_b, "unit_a", "unit_b",
				 "Give both to compare across units, or neither to compare round by round.");
	unit = unit_kind(fcinfo, 9);
	spent = read_block_spent(fcinfo, &plan);
	blocks_done = PG_GETARG_INT32(18);
	if (blocks_done < 0 || blocks_done > plan.max_blocks)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"blocks_done\" must be from 0 to the plan's %d blocks, not %d",
						plan.max_blocks, blocks_done)));
	/* an experiment's reference key: which side of it B/A lies */
	if (PG_NARGS() > 19 && !PG_ARGISNULL(19))
	{
		reference = PG_GETARG_FLOAT8(19);
		if (!(reference >= 0.01 && reference <= 100))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("\"reference\" must be a ratio B/A from 0.01 to 100, not %g", reference),
					 errhint("Give the experiment's reference key as experiment.json records it, or NULL to test against no change.")));
	}

	/* the looks' information and boundaries, as the client's report_sequential_load() */
	looks = blocks_done >= plan.first_look ? blocks_done - plan.first_look + 1 : 0;
	info = palloc(sizeof(double) * (looks + 1));
	z = palloc(sizeof(double) * (looks + 1));
	stats_budget_info(&plan, looks, spent, info);
	CHECK_FOR_INTERRUPTS();
	if (looks > 0 && stats_sequential_bounds(plan.spending, opt.alpha, info, looks, z) != STATS_OK)
		looks = 0;
	rc = stats_sequential_decide_against(a, round_a, unit_a, n_a, b, round_b, unit_b, n_b, unit,
										 &plan, looks > 0 ? blocks_done : 0, info, z, reference,
										 &opt, &look, &block);
	if (rc != STATS_OK)
		report_stats_error("sequential_decide()", rc);

	InitMaterializedSRF(fcinfo, 0);
	/* no look: the unit the comparison would have had (rounds without unit ids) */
	put_look(rsinfo, &plan, unit_a == NULL ? STATS_UNIT_ROUND : unit, &look, block);
	return (Datum) 0;
}
