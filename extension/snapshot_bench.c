/*-------------------------------------------------------------------------
 *
 * snapshot_bench.c
 *		pgbench_ext.snapshot_bench(): time GetSnapshotData() in the calling
 *		backend, for patches that change the snapshot path or the layout of
 *		the structures it reads.
 *
 * Timing.  A clock read costs about as much as a cached snapshot, so the
 * calls are timed in batches: one clock pair per batch.  The cost of one
 * clock pair is measured first and subtracted once from every batch before
 * dividing by the calls in it; it is also reported, so a reader can judge
 * how much of a figure it was.  The figures are min / median / p90 / max
 * over batches of the ns per call.
 *
 * Modes.  'full' clears the snapshot's snapXactCompletionCount before each
 * call, so GetSnapshotData() cannot reuse its previous result and scans
 * the proc array every time (before PG 14 there is no reuse: every call
 * is full).  'reuse' leaves it alone and so measures the cached path while
 * no transaction completes; a concurrent writer turns some of those calls
 * back into full scans, which is the point of measuring under load.
 *
 * Safety.  The snapshot is a static SnapshotData of this file: the first
 * call mallocs its xip/subxip arrays (GetSnapshotData does that when they
 * are NULL) and every later call reuses them, so nothing leaks per call.
 * It is never registered or pushed, and nothing ever reads tuples with it.
 *
 * GetSnapshotData() also sets MyProc->xmin (and TransactionXmin) when the
 * backend advertises none yet; the snapshot manager would then not know
 * about that xmin.  Inside a query the portal's active snapshot already
 * holds MyProc->xmin, and snapmgr.c never moves it while an active
 * snapshot exists, so the calls here change only RecentXmin and the
 * GlobalVis bounds, exactly as any new statement snapshot does.  The
 * function therefore refuses to run without an active snapshot, and
 * checks afterwards that MyProc->xmin and TransactionXmin are unchanged.
 *
 * Hardware counters (cycles, instructions, L1D read misses) come from
 * perf_events.c and cover all the batches, so per-call figures include the
 * one clock pair per batch; where the kernel gives none (virtual machines:
 * ENOENT) the columns are NULL and hw_reason says why.
 *
 * Arguments are capped (SNAPSHOT_BENCH_MAX_*), and interrupts are checked
 * between batches and every CALLS_PER_CHECK calls inside one (one batch of
 * 10^8 full scans takes about 10 s), so a mistyped call can be cancelled
 * within milliseconds and cannot pin a CPU for hours.  The SQL script makes
 * the function superuser-only by default (it hammers ProcArrayLock) and
 * PARALLEL UNSAFE.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include <math.h>
#include <time.h>

#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/builtins.h"
#include "utils/snapmgr.h"
#include "utils/snapshot.h"

#include "perf_events.h"
#include "stats.h"

PG_FUNCTION_INFO_V1(pgbench_ext_snapshot_bench);

/* Caps, documented in the README and in the error messages. */
#define SNAPSHOT_BENCH_MAX_CALLS	100000000	/* 10^8: ~10 s of full scans */
#define SNAPSHOT_BENCH_MAX_BATCHES	10000

/*
 * Calls between two interrupt checks inside a batch: a check (a load and a
 * branch) every 1,024 calls is nothing beside their cost, and 1,024 full
 * scans take a few milliseconds even with a thousand backends.
 */
#define CALLS_PER_CHECK				1024

/* Clock pairs read to estimate the timer's own cost. */
#define TIMER_CALIBRATION_READS		1000

#define SNAPSHOT_BENCH_COLUMNS		16

static const char *const argument_names[] = {"calls", "mode", "batches"};

/* Hardware counters reported per call, in column order. */
static const PerfEventKind hw_columns[] = {
	PERF_EV_CYCLES, PERF_EV_INSTRUCTIONS, PERF_EV_L1D_READ_MISSES
};

typedef enum BenchMode
{
	BENCH_FULL,
	BENCH_REUSE
} BenchMode;

/*
 * The benchmark's own snapshot.  Static so that GetSnapshotData() mallocs
 * its arrays once per backend and reuses them afterwards.
 */
static SnapshotData bench_snapshot = {SNAPSHOT_MVCC};

/*
 * Cost in ns of one clock pair around an empty batch: the median of many,
 * so a preemption during calibration does not inflate it.
 */
static double
timer_overhead_ns(void)
{
	double		samples[TIMER_CALIBRATION_READS];

	for (int i = 0; i < TIMER_CALIBRATION_READS; i++)
	{
		uint64		t0 = pgbench_ext_now_ns();
		uint64		t1 = pgbench_ext_now_ns();

		samples[i] = (double) (t1 - t0);
	}
	stats_sort(samples, TIMER_CALIBRATION_READS);
	return samples[TIMER_CALIBRATION_READS / 2];
}

static BenchMode
parse_mode(const char *mode)
{
	if (strcmp(mode, "full") == 0)
		return BENCH_FULL;
	if (strcmp(mode, "reuse") == 0)
	{
#ifndef HAVE_SNAPSHOT_REUSE
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("mode \"reuse\" needs PostgreSQL 14 or later"),
				 errdetail("Before PostgreSQL 14 GetSnapshotData() has no reuse path: every call is a full scan."),
				 errhint("Use mode => 'full'.")));
#endif
		return BENCH_REUSE;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unknown mode \"%s\"", mode),
			 errdetail("mode must be 'full' (proc-array scan on every call) or 'reuse' (cached snapshot path).")));
	pg_unreachable();
}

static void
check_arguments(int32 calls, int32 batches)
{
	if (calls < 1 || calls > SNAPSHOT_BENCH_MAX_CALLS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("calls must be between 1 and %d, got %d",
						SNAPSHOT_BENCH_MAX_CALLS, calls),
				 errhint("For more calls, run the function again and combine the figures.")));
	if (batches < 1 || batches > SNAPSHOT_BENCH_MAX_BATCHES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("batches must be between 1 and %d, got %d",
						SNAPSHOT_BENCH_MAX_BATCHES, batches),
				 errhint("Batches only spread the calls for the quantiles; a few dozen are plenty.")));
	if (calls < batches)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("calls (%d) must be at least batches (%d)",
						calls, batches),
				 errdetail("Each batch times at least one call.")));
}

/*
 * Time one batch of n calls; returns ns per call with the timer's cost
 * taken out (never below zero).
 */
static double
time_batch(BenchMode mode, int32 n, double overhead_ns)
{
	uint64		t0;
	uint64		t1;
	double		ns;

	if (mode == BENCH_FULL)
	{
		t0 = pgbench_ext_now_ns();
		for (int32 i = 0; i < n; i++)
		{
			if (i % CALLS_PER_CHECK == 0)
				CHECK_FOR_INTERRUPTS();
			snapshot_forget_reuse(&bench_snapshot);
			GetSnapshotData(&bench_snapshot);
		}
		t1 = pgbench_ext_now_ns();
	}
	else
	{
		t0 = pgbench_ext_now_ns();
		for (int32 i = 0; i < n; i++)
		{
			if (i % CALLS_PER_CHECK == 0)
				CHECK_FOR_INTERRUPTS();
			GetSnapshotData(&bench_snapshot);
		}
		t1 = pgbench_ext_now_ns();
	}
	ns = (double) (t1 - t0) - overhead_ns;
	return Max(ns, 0.0) / (double) n;
}

/* Quantile q of sorted values, linearly interpolated between ranks. */
static double
sorted_quantile(const double *sorted, int n, double q)
{
	double		pos = q * (n - 1);
	int			lo = (int) floor(pos);
	int			hi = Min(lo + 1, n - 1);

	return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/*
 * Why the hardware columns are NULL, in words, or NULL when all count.
 * Events that fail for one reason (the usual case) share one sentence.
 */
static char *
hardware_reasons(const PerfEventSet *set)
{
	StringInfoData buf;
	bool		done[lengthof(hw_columns)] = {0};

	initStringInfo(&buf);
	for (int i = 0; i < lengthof(hw_columns); i++)
	{
		const char *reason = perf_event_reason(set, hw_columns[i]);

		if (reason == NULL || done[i])
			continue;
		if (buf.len > 0)
			appendStringInfoString(&buf, "; ");
		appendStringInfoString(&buf, perf_event_name(hw_columns[i]));
		for (int j = i + 1; j < lengthof(hw_columns); j++)
		{
			const char *other = perf_event_reason(set, hw_columns[j]);

			if (other != NULL && strcmp(other, reason) == 0)
			{
				appendStringInfo(&buf, ", %s", perf_event_name(hw_columns[j]));
				done[j] = true;
			}
		}
		appendStringInfo(&buf, ": %s", reason);
	}
	return buf.len > 0 ? buf.data : NULL;
}

/*
 * pgbench_ext.snapshot_bench(calls int4, mode text, batches int4)
 *	 RETURNS one row; see the SQL script for the columns.
 */
Datum
pgbench_ext_snapshot_bench(PG_FUNCTION_ARGS)
{
	int32		calls;
	char	   *mode_name;
	int32		batches;
	BenchMode	mode;
	TransactionId xmin_before;
	TransactionId txmin_before;
	double		overhead;
	double	   *per_call;
	PerfEventSet counters;
	uint64		hw_before[PERF_EV_COUNT];
	uint64		hw_after[PERF_EV_COUNT];
	bool		hw_valid_before[PERF_EV_COUNT];
	bool		hw_valid_after[PERF_EV_COUNT];
	char	   *hw_reason;
	TupleDesc	tupdesc;
	Datum		values[SNAPSHOT_BENCH_COLUMNS];
	bool		nulls[SNAPSHOT_BENCH_COLUMNS] = {0};

	for (int i = 0; i < lengthof(argument_names); i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not be NULL", argument_names[i])));
	calls = PG_GETARG_INT32(0);
	mode_name = text_to_cstring(PG_GETARG_TEXT_PP(1));
	batches = PG_GETARG_INT32(2);

	check_arguments(calls, batches);
	mode = parse_mode(mode_name);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	/* See the file header: our snapshots must not be the backend's xmin. */
	if (!ActiveSnapshotSet() || !TransactionIdIsValid(COMPAT_MY_XMIN))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("snapshot_bench must run inside a query that holds a snapshot")));
	xmin_before = COMPAT_MY_XMIN;
	txmin_before = TransactionXmin;

	overhead = timer_overhead_ns();
	per_call = palloc(sizeof(double) * batches);

	/* Allocates the snapshot's arrays on first use and warms the caches. */
	GetSnapshotData(&bench_snapshot);

	perf_events_open(&counters, true);
	hw_reason = hardware_reasons(&counters);
	PG_TRY();
	{
		perf_events_read(&counters, hw_before, hw_valid_before);
		for (int b = 0; b < batches; b++)
		{
			/* Spread the remainder over the first batches. */
			int32		n = calls / batches + (b < calls % batches ? 1 : 0);

			CHECK_FOR_INTERRUPTS();
			per_call[b] = time_batch(mode, n, overhead);
		}
		perf_events_read(&counters, hw_after, hw_valid_after);
	}
	PG_FINALLY();
	{
		/* a cancel between batches must not leak the counters' descriptors */
		perf_events_close(&counters);
	}
	PG_END_TRY();

	if (COMPAT_MY_XMIN != xmin_before || TransactionXmin != txmin_before)
		elog(ERROR, "snapshot_bench changed the backend's xmin (%u -> %u)",
			 xmin_before, COMPAT_MY_XMIN);

	stats_sort(per_call, batches);

	values[0] = CStringGetTextDatum(mode_name);
	values[1] = Int32GetDatum(calls);
	values[2] = Int32GetDatum(batches);
	values[3] = Float8GetDatum(per_call[0]);
	values[4] = Float8GetDatum(sorted_quantile(per_call, batches, 0.5));
	values[5] = Float8GetDatum(sorted_quantile(per_call, batches, 0.9));
	values[6] = Float8GetDatum(per_call[batches - 1]);
	values[7] = Float8GetDatum(overhead);
	values[8] = Int32GetDatum((int32) bench_snapshot.xcnt);
	values[9] = Int32GetDatum(bench_snapshot.subxcnt);
	values[10] = BoolGetDatum(bench_snapshot.suboverflowed);
	values[11] = Int32GetDatum(CountDBBackends(InvalidOid));
	for (int i = 0; i < lengthof(hw_columns); i++)
	{
		PerfEventKind k = hw_columns[i];

		if (hw_valid_before[k] && hw_valid_after[k])
			values[12 + i] = Float8GetDatum((double) (hw_after[k] - hw_before[k]) / calls);
		else
		{
			nulls[12 + i] = true;
			if (hw_reason == NULL)
				hw_reason = psprintf("%s: could not be read", perf_event_name(k));
		}
	}
	values[15] = hw_reason ? CStringGetTextDatum(hw_reason) : (Datum) 0;
	nulls[15] = (hw_reason == NULL);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}
