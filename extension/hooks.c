/*-------------------------------------------------------------------------
 *
 * hooks.c
 *		Executor, utility and transaction hooks: time each top-level
 *		statement and transaction, accumulate locally, publish at
 *		transaction end.
 *
 * The per-statement cost is two clock_gettime() calls (vDSO), a histogram
 * index and a few additions in backend-local memory; nothing is shared
 * until the transaction ends, when counters_publish() adds the parts of the
 * batch the transaction touched to this backend's own slot (locking rules
 * in counters.h).  CPU time is read at most every 100 ms (cpu_usage.c).
 * With track_hw the perf_event counters are read at a transaction end:
 * every one where user-space rdpmc works, else at most every 10 ms, since a
 * read() system call per transaction would cost more than everything else
 * here together.  Sums over the transactions between reads give the same
 * per-transaction means.
 *
 * Only top-level statements are counted (as pg_stat_statements.track = top):
 * a statement's time includes any it runs inside, so counting both would
 * count time twice.  EXECUTE is not counted itself; the statement it runs
 * is, under its own command type.  A statement is timed from ExecutorStart
 * to ExecutorEnd (parse and plan excluded), a utility statement around
 * ProcessUtility.
 *
 *-------------------------------------------------------------------------
 */
#include "counters.h"

#include <time.h>

#include "access/parallel.h"
#include "access/xact.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "tcop/utility.h"

#define CPU_READ_INTERVAL_NS	(100 * 1000 * 1000)
#define HW_READ_INTERVAL_NS		(10 * 1000 * 1000)

/* portals open at once at top level (extended protocol, cursors) */
#define MAX_OPEN_STATEMENTS		8

static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static ExecutorRun_hook_type prev_ExecutorRun = NULL;
static ExecutorFinish_hook_type prev_ExecutorFinish = NULL;
static ExecutorEnd_hook_type prev_ExecutorEnd = NULL;
static ProcessUtility_hook_type prev_ProcessUtility = NULL;

static int	nesting_level = 0;
static PendingCounters pending;

static struct
{
	QueryDesc  *query;
	uint64		start_ns;
}			open_statements[MAX_OPEN_STATEMENTS];
static int	n_open_statements = 0;

static bool xact_tracked = false;	/* a statement of this xact was counted */
static uint64 xact_start_ns;
static uint64 last_cpu_read_ns = 0;
static bool exit_callback_registered = false;

static PerfEventSet perf_set;
static bool perf_open = false;
static uint64 perf_xacts_since_read = 0;
static uint64 last_hw_read_ns = 0;
static uint64 perf_last[PERF_EV_COUNT];
static bool perf_last_valid[PERF_EV_COUNT];

static inline bool
tracking(void)
{
	return pgbench_ext_track && nesting_level == 0 && !IsParallelWorker();
}

static inline void
xact_begins(uint64 start)
{
	if (!xact_tracked)
	{
		xact_tracked = true;
		xact_start_ns = start;
	}
}

static void
record_timing(int hist_row, TimingCounters *t, uint64 ns, uint64 rows)
{
	t->calls++;
	t->rows += rows;
	t->total_ns += ns;
	if (ns > t->max_ns)
		t->max_ns = ns;
	pending.touched |= PENDING_ROW(hist_row);
	if (pending.nhist == PENDING_HIST_MAX)
		counters_publish(&pending);
	pending.hist_row[pending.nhist] = hist_row;
	pending.hist_bucket[pending.nhist] = lh_bucket(ns);
	pending.nhist++;
}

static CmdKind
cmd_kind(CmdType operation)
{
	switch (operation)
	{
		case CMD_SELECT:
			return CMD_KIND_SELECT;
		case CMD_INSERT:
			return CMD_KIND_INSERT;
		case CMD_UPDATE:
			return CMD_KIND_UPDATE;
		case CMD_DELETE:
			return CMD_KIND_DELETE;
		default:
			return CMD_KIND_OTHER;
	}
}

static void
pe_ExecutorStart(QueryDesc *queryDesc, int eflags)
{
	bool		track = tracking() && n_open_statements < MAX_OPEN_STATEMENTS;
	uint64		start = track ? pgbench_ext_now_ns() : 0;

	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);

	if (track && !(eflags & EXEC_FLAG_EXPLAIN_ONLY))
	{
		xact_begins(start);
		open_statements[n_open_statements].query = queryDesc;
		open_statements[n_open_statements].start_ns = start;
		n_open_statements++;
	}
}

static void
pe_ExecutorRun(QueryDesc *queryDesc, ScanDirection direction, uint64 count,
			   bool execute_once)
{
	nesting_level++;
	PG_TRY();
	{
		if (prev_ExecutorRun)
			prev_ExecutorRun(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
	}
	PG_FINALLY();
	{
		nesting_level--;
	}
	PG_END_TRY();
}

static void
pe_ExecutorFinish(QueryDesc *queryDesc)
{
	nesting_level++;
	PG_TRY();
	{
		if (prev_ExecutorFinish)
			prev_ExecutorFinish(queryDesc);
		else
			standard_ExecutorFinish(queryDesc);
	}
	PG_FINALLY();
	{
		nesting_level--;
	}
	PG_END_TRY();
}

static void
pe_ExecutorEnd(QueryDesc *queryDesc)
{
	for (int i = n_open_statements - 1; i >= 0; i--)
	{
		if (open_statements[i].query == queryDesc)
		{
			CmdKind		kind = cmd_kind(queryDesc->operation);

			record_timing(kind, &pending.v.stmt[kind],
						  pgbench_ext_now_ns() - open_statements[i].start_ns,
						  queryDesc->estate->es_processed);
			open_statements[i] = open_statements[--n_open_statements];
			break;
		}
	}

	if (prev_ExecutorEnd)
		prev_ExecutorEnd(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
}

static void
pe_ProcessUtility(COMPAT_UTILITY_PARAMS)
{
	bool		track;
	uint64		start = 0;

	/* EXECUTE's statement is counted by the executor hooks, at this level */
	if (IsA(pstmt->utilityStmt, ExecuteStmt))
	{
		if (prev_ProcessUtility)
			prev_ProcessUtility(COMPAT_UTILITY_ARGS);
		else
			standard_ProcessUtility(COMPAT_UTILITY_ARGS);
		return;
	}

	track = tracking();
	if (track)
	{
		start = pgbench_ext_now_ns();

		/*
		 * The ROLLBACK ending a failed transaction block comes after the
		 * abort was counted; it is only a statement, not a new transaction.
		 */
		if (!IsAbortedTransactionBlockState())
			xact_begins(start);
	}

	nesting_level++;
	PG_TRY();
	{
		if (prev_ProcessUtility)
			prev_ProcessUtility(COMPAT_UTILITY_ARGS);
		else
			standard_ProcessUtility(COMPAT_UTILITY_ARGS);
	}
	PG_FINALLY();
	{
		nesting_level--;
	}
	PG_END_TRY();

	if (track)
	{
		/* a COMMIT inside (VACUUM, CREATE INDEX CONCURRENTLY) ended the xact */
		if (IsTransactionState())
			xact_begins(start);
		record_timing(CMD_KIND_UTILITY, &pending.v.stmt[CMD_KIND_UTILITY],
					  pgbench_ext_now_ns() - start, qc ? qc->nprocessed : 0);
	}
}

/*
 * Add the perf_event counters' growth since the previous read, and the
 * transactions it covers.  The set is opened at the first transaction end
 * with track_hw on and closed at the first one with it off.
 */
static void
hw_read_delta(uint64 now)
{
	uint64		cur[PERF_EV_COUNT];
	bool		valid[PERF_EV_COUNT];

	if (!pgbench_ext_track_hw)
	{
		if (perf_open)
		{
			perf_events_close(&perf_set);
			perf_open = false;
		}
		return;
	}
	if (!perf_open)
	{
		perf_events_open(&perf_set, true);
		perf_open = true;
		perf_events_read(&perf_set, perf_last, perf_last_valid);
		perf_xacts_since_read = 0;
		last_hw_read_ns = now;
		return;
	}

	perf_xacts_since_read++;
	if (!perf_set.use_rdpmc && now - last_hw_read_ns < HW_READ_INTERVAL_NS)
		return;

	perf_events_read(&perf_set, cur, valid);
	for (int k = 0; k < PERF_EV_COUNT; k++)
	{
		if (valid[k] && perf_last_valid[k] && cur[k] >= perf_last[k])
		{
			pending.v.hw[k] += cur[k] - perf_last[k];
			pending.v.hw_xacts[k] += perf_xacts_since_read;
			pending.touched |= PENDING_HW;
		}
		perf_last[k] = cur[k];
		perf_last_valid[k] = valid[k];
	}
	perf_xacts_since_read = 0;
	last_hw_read_ns = now;
}

const PerfEventSet *
hooks_perf_events(void)
{
	return perf_open ? &perf_set : NULL;
}

static void
backend_exit(int code, Datum arg)
{
	cpu_usage_add_since_last(&pending.v);
	pending.touched |= PENDING_USAGE;
	counters_publish(&pending);
}

static void
xact_end(XactEvent event)
{
	uint64		now;

	if (!xact_tracked)
		return;

	now = pgbench_ext_now_ns();
	record_timing(HIST_XACT, &pending.v.xact, now - xact_start_ns, 0);
	if (event == XACT_EVENT_ABORT)
		pending.v.aborts++;
	else if (event == XACT_EVENT_COMMIT)
		pending.v.commits++;

	if (now - last_cpu_read_ns >= CPU_READ_INTERVAL_NS)
	{
		cpu_usage_add_since_last(&pending.v);
		pending.touched |= PENDING_USAGE;
		last_cpu_read_ns = now;
		if (!exit_callback_registered)
		{
			before_shmem_exit(backend_exit, (Datum) 0);
			exit_callback_registered = true;
		}
	}
	if (pgbench_ext_track_hw || perf_open)
		hw_read_delta(now);

	counters_publish(&pending);
	xact_tracked = false;
}

static void
pe_xact_callback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
			inject_delay_before_commit();
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PREPARE:
			/* statements that failed never reached ExecutorEnd */
			n_open_statements = 0;
			xact_end(event);
			break;
		default:
			break;
	}
}

void
hooks_install(void)
{
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = pe_ExecutorStart;
	prev_ExecutorRun = ExecutorRun_hook;
	ExecutorRun_hook = pe_ExecutorRun;
	prev_ExecutorFinish = ExecutorFinish_hook;
	ExecutorFinish_hook = pe_ExecutorFinish;
	prev_ExecutorEnd = ExecutorEnd_hook;
	ExecutorEnd_hook = pe_ExecutorEnd;
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = pe_ProcessUtility;
	RegisterXactCallback(pe_xact_callback, NULL);
}
