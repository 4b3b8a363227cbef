/*-------------------------------------------------------------------------
 *
 * hooks.c
 *		Executor, utility and transaction hooks: time each top-level
 *		statement and transaction and add them to the backend's own slot;
 *		the settings pgbench_ext.track and pgbench_ext.track_hw.
 *
 * The per-statement cost is two clock_gettime() calls (vDSO), a histogram
 * index and a few additions to this backend's own slot in shared memory,
 * bracketed by its changecount (locking rules in counters.h); the end of a
 * transaction adds its duration the same way.  CPU time is read at most
 * every 100 ms (cpu_usage.c).  With track_hw the perf_event counters are
 * read at a transaction end: every one where user-space rdpmc works, else
 * at most every 10 ms, since a read() system call per transaction would
 * cost more than everything else here together.  Sums over the
 * transactions between reads give the same per-transaction means.
 *
 * Only top-level statements are counted (as pg_stat_statements.track = top):
 * a statement's time includes any it runs inside, so counting both would
 * count time twice.  EXECUTE is not counted itself; the statement it runs
 * is, under its own command type.  A statement is timed from ExecutorStart
 * to ExecutorEnd (parse and plan excluded), a utility statement around
 * ProcessUtility.
 *
 * The nesting level is raised around ExecutorRun and ExecutorFinish without
 * a PG_TRY: with it the two wrappers cost 90 instructions of their own per
 * pgbench -S transaction, and two sigsetjmp() calls, against 23 without
 * (bench/hook_instructions.sh).  An error that leaves the level raised is one that some
 * frame further out catches, and each such frame puts it back:
 * ProcessUtility (which keeps its PG_TRY: utility statements are not the
 * hot path) restores the level it found, a subtransaction's abort the level
 * at the subtransaction's start (a PL/pgSQL EXCEPTION block, a savepoint),
 * and the end of the transaction the level of the utility statements still
 * running (none, unless a procedure ends its transaction with COMMIT or
 * ROLLBACK, which it can only do with no executor of its own running).
 *
 *-------------------------------------------------------------------------
 */
#include "hooks.h"

#include <time.h>

#include "access/parallel.h"
#include "access/xact.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "tcop/utility.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "counters.h"
#include "cpu_usage.h"
#include "inject_delay.h"

#define CPU_READ_INTERVAL_NS	(100 * 1000 * 1000)
#define HW_READ_INTERVAL_NS		(10 * 1000 * 1000)

/*
 * The arrays of top-level statements open at once (each portal of the
 * extended protocol that an Execute with a row limit left suspended) and of
 * the states saved at each subtransaction level: room for this many at
 * first, doubled whenever one finds it full.
 */
#define TOP_ARRAY_MIN_SIZE	8

static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static ExecutorRun_hook_type prev_ExecutorRun = NULL;
static ExecutorFinish_hook_type prev_ExecutorFinish = NULL;
static ExecutorEnd_hook_type prev_ExecutorEnd = NULL;
static ProcessUtility_hook_type prev_ProcessUtility = NULL;

static int	nesting_level = 0;		/* executor and utility frames running */
static int	utility_depth = 0;		/* of which ProcessUtility frames */

bool		pgbench_ext_track_hw = false;
static bool pgbench_ext_track = true;

typedef struct OpenStatement
{
	QueryDesc  *query;
	uint64		start_ns;
#ifndef HAVE_ES_TOTAL_PROCESSED
	uint64		rows;			/* of the portal's steps so far */
#endif
} OpenStatement;

static OpenStatement *open_statements = NULL;	/* in TopMemoryContext */
static int	open_statements_size = 0;
static int	n_open_statements = 0;

/*
 * What a subtransaction's abort puts back, saved at its start, indexed by
 * its nesting level: the statements that failed inside it never reach
 * ExecutorEnd, and the levels their frames raised are not lowered.
 */
typedef struct SubxactSaved
{
	int			nesting_level;
	int			n_open_statements;
} SubxactSaved;

static SubxactSaved *subxact_saved = NULL;
static int	subxact_saved_size = 0;

static CounterSlot *own_slot = NULL;	/* looked up at first use */
static bool xact_tracked = false;	/* a statement of this xact was counted */
static bool in_top_utility = false; /* a counted utility statement runs */
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

static inline CounterSlot *
slot(void)
{
	if (unlikely(own_slot == NULL))
		own_slot = counters_own_slot();
	return own_slot;
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

/*
 * Not inlined, nor xact_end: counted profiles leave both out of the count
 * by name (client/server/valgrind_server.c), their branches being time.
 */
static pg_noinline void
statement_ended(CmdKind kind, uint64 ns, uint64 rows)
{
	CounterSlot *s = slot();

	if (s == NULL)
		return;
	counters_write_begin(s);
	counters_add_timing(&s->v.stmt[kind], s->hist[kind], ns, rows);
	counters_write_end(s);
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

/*
 * An array of the backend's life (in TopMemoryContext) with room for at
 * least need elements of elem_size bytes, at least doubled when it grows;
 * *size is its capacity.  Running out of memory fails the statement that
 * needed the room rather than losing its figures.
 */
static void *
top_array_reserve(void *array, int *size, int need, Size elem_size)
{
	int			new_size;

	if (likely(need <= *size))
		return array;
	new_size = Max(Max(need, 2 * *size), TOP_ARRAY_MIN_SIZE);
	array = array == NULL
		? MemoryContextAlloc(TopMemoryContext, new_size * elem_size)
		: repalloc(array, new_size * elem_size);
	*size = new_size;
	return array;
}

/* Make room for one more open statement; every tracked statement asks. */
static inline void
open_statements_reserve(void)
{
	if (likely(n_open_statements < open_statements_size))
		return;
	open_statements = top_array_reserve(open_statements, &open_statements_size,
										n_open_statements + 1, sizeof(OpenStatement));
}

static void
pe_ExecutorStart(QueryDesc *queryDesc, int eflags)
{
	bool		track = tracking();
	uint64		start = track ? pgbench_ext_now_ns() : 0;

	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);

	if (track && !(eflags & EXEC_FLAG_EXPLAIN_ONLY))
	{
		xact_begins(start);
		open_statements_reserve();
		open_statements[n_open_statements].query = queryDesc;
		open_statements[n_open_statements].start_ns = start;
#ifndef HAVE_ES_TOTAL_PROCESSED
		open_statements[n_open_statements].rows = 0;
#endif
		n_open_statements++;
	}
}

/* The open statement of a query, most recently opened first; or NULL. */
static inline OpenStatement *
open_statement_of(QueryDesc *queryDesc)
{
	for (int i = n_open_statements - 1; i >= 0; i--)
		if (open_statements[i].query == queryDesc)
			return &open_statements[i];
	return NULL;
}

/* No PG_TRY: see the header comment for who lowers the level on an error. */
static void
pe_ExecutorRun(COMPAT_EXECUTOR_RUN_PARAMS)
{
	nesting_level++;
	if (prev_ExecutorRun)
		prev_ExecutorRun(COMPAT_EXECUTOR_RUN_ARGS);
	else
		standard_ExecutorRun(COMPAT_EXECUTOR_RUN_ARGS);
	nesting_level--;
#ifndef HAVE_ES_TOTAL_PROCESSED
	{
		OpenStatement *open = nesting_level == 0 ? open_statement_of(queryDesc) : NULL;

		if (open)
			open->rows += queryDesc->estate->es_processed;
	}
#endif
}

static void
pe_ExecutorFinish(QueryDesc *queryDesc)
{
	nesting_level++;
	if (prev_ExecutorFinish)
		prev_ExecutorFinish(queryDesc);
	else
		standard_ExecutorFinish(queryDesc);
	nesting_level--;
}

static void
pe_ExecutorEnd(QueryDesc *queryDesc)
{
	OpenStatement *open = open_statement_of(queryDesc);

	if (open)
	{
		int			i = open - open_statements;
#ifdef HAVE_ES_TOTAL_PROCESSED
		uint64		rows = queryDesc->estate->es_total_processed;
#else
		uint64		rows = open->rows;
#endif

		statement_ended(cmd_kind(queryDesc->operation),
						pgbench_ext_now_ns() - open->start_ns, rows);
		/* keep the order: a subtransaction's abort cuts off its tail */
		n_open_statements--;
		if (i < n_open_statements)
			memmove(&open_statements[i], &open_statements[i + 1],
					(n_open_statements - i) * sizeof(open_statements[0]));
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
	int			outer_nesting_level = nesting_level;

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
	utility_depth++;
	if (track)
		in_top_utility = true;
	PG_TRY();
	{
		if (prev_ProcessUtility)
			prev_ProcessUtility(COMPAT_UTILITY_ARGS);
		else
			standard_ProcessUtility(COMPAT_UTILITY_ARGS);
	}
	PG_FINALLY();
	{
		/* also undoes what executors failing inside left raised */
		nesting_level = outer_nesting_level;
		utility_depth--;
		if (track)
			in_top_utility = false;
	}
	PG_END_TRY();

	if (track)
		statement_ended(CMD_KIND_UTILITY, pgbench_ext_now_ns() - start,
						qc ? qc->nprocessed : 0);
}

/*
 * Add the perf_event counters' growth since the previous read, and the
 * transactions it covers, to *v.  The set is opened at the first
 * transaction end with track_hw on and closed at the first one with it off.
 */
static void
hw_read_delta(uint64 now, CounterValues *v)
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
			v->hw[k] += cur[k] - perf_last[k];
			v->hw_xacts[k] += perf_xacts_since_read;
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
	CounterSlot *s = slot();
	CounterValues usage = {0};

	if (s == NULL)
		return;
	cpu_usage_add_since_last(&usage);
	counters_write_begin(s);
	counters_add_usage(&s->v, &usage);
	counters_write_end(s);
}

static pg_noinline void
xact_end(XactEvent event)
{
	CounterSlot *s;
	uint64		now;
	uint64		duration_ns;
	bool		read_cpu;
	bool		read_hw;
	CounterValues usage;

	if (!xact_tracked)
		return;
	now = pgbench_ext_now_ns();
	duration_ns = now - xact_start_ns;

	/*
	 * A counted utility statement that ends transactions inside (VACUUM,
	 * CREATE INDEX CONCURRENTLY, a procedure's COMMIT) runs on in the next.
	 */
	xact_tracked = in_top_utility;
	xact_start_ns = now;

	s = slot();
	if (s == NULL)
		return;
	read_cpu = now - last_cpu_read_ns >= CPU_READ_INTERVAL_NS;
	read_hw = pgbench_ext_track_hw || perf_open;

	/* system calls before the write, so that readers never wait on one */
	if (read_cpu || read_hw)
	{
		memset(&usage, 0, sizeof(usage));
		if (read_cpu)
			cpu_usage_add_since_last(&usage);
		if (read_hw)
			hw_read_delta(now, &usage);
	}

	counters_write_begin(s);
	counters_add_timing(&s->v.xact, s->hist[HIST_XACT], duration_ns, 0);
	if (event == XACT_EVENT_ABORT)
		s->v.aborts++;
	else if (event == XACT_EVENT_COMMIT)
		s->v.commits++;
	if (read_cpu || read_hw)
		counters_add_usage(&s->v, &usage);
	counters_write_end(s);

	if (read_cpu)
	{
		last_cpu_read_ns = now;
		if (!exit_callback_registered)
		{
			before_shmem_exit(backend_exit, (Datum) 0);
			exit_callback_registered = true;
		}
	}
}

static void
pe_xact_callback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
			if (unlikely(inject_delay_wanted))
				inject_delay_before_commit();
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PREPARE:
			/* statements that failed never reached ExecutorEnd */
			n_open_statements = 0;
			nesting_level = utility_depth;
			xact_end(event);
			break;
		default:
			break;
	}
}

static void
pe_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
					SubTransactionId parentSubid, void *arg)
{
	int			level = GetCurrentTransactionNestLevel();

	switch (event)
	{
		case SUBXACT_EVENT_START_SUB:
			subxact_saved = top_array_reserve(subxact_saved, &subxact_saved_size,
											  level + 1, sizeof(SubxactSaved));
			subxact_saved[level].nesting_level = nesting_level;
			subxact_saved[level].n_open_statements = n_open_statements;
			break;
		case SUBXACT_EVENT_ABORT_SUB:
			if (level < subxact_saved_size)
			{
				nesting_level = subxact_saved[level].nesting_level;
				n_open_statements = Min(n_open_statements,
										subxact_saved[level].n_open_statements);
			}
			break;
		default:
			break;
	}
}

static void
define_settings(void)
{
	DefineCustomBoolVariable("pgbench_ext.track",
							 "Counts statements and transactions per command type.",
							 NULL,
							 &pgbench_ext_track,
							 true,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("pgbench_ext.track_hw",
							 "Reads perf_event counters (cycles, instructions, caches) at transaction ends.",
							 "Where the kernel refuses hardware counters, software ones are read; see pgbench_ext.hw_status().",
							 &pgbench_ext_track_hw,
							 false,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);
}

void
hooks_init(void)
{
	define_settings();

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
	RegisterSubXactCallback(pe_subxact_callback, NULL);
}
