/*-------------------------------------------------------------------------
 *
 * counters.c
 *		Shared memory of the statement and transaction counters: per-backend
 *		slots, their owners' writes, summing them, counters(), and the
 *		counters' part of reset().
 *
 * The locking rules are in counters.h.  In short: each backend writes only
 * its own slot, under a changecount; readers copy slots and retry on a
 * concurrent write; reset() advances a generation and touches no slot.
 *
 *-------------------------------------------------------------------------
 */
#include "counters.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(pgbench_ext_counters);

CountersShared *counters_shared = NULL;

static const char *const cmd_kind_names[CMD_KIND_COUNT] = {
	"select", "insert", "update", "delete", "utility", "other"
};

const char *
cmd_kind_name(CmdKind kind)
{
	return cmd_kind_names[kind];
}

static int
counters_nslots(void)
{
	return compat_max_procs();
}

static Size
counters_shmem_size(void)
{
	return add_size(offsetof(CountersShared, slots),
					mul_size(counters_nslots(), sizeof(CounterSlot)));
}

/* While the postmaster loads preload libraries (see pgbench_ext.c). */
void
counters_shmem_request(void)
{
	RequestAddinShmemSpace(counters_shmem_size());
}

/* Called with AddinShmemInitLock held, from the shmem_startup_hook. */
void
counters_shmem_startup(void)
{
	bool		found;

	counters_shared = ShmemInitStruct("pgbench_ext counters",
									  counters_shmem_size(), &found);
	if (!found)
	{
		memset(counters_shared, 0, counters_shmem_size());
		/* slots start at generation 0, older than any live one: they read as zero */
		pg_atomic_init_u64(&counters_shared->generation, 1);
		pg_atomic_init_u64(&counters_shared->reset_at, (uint64) GetCurrentTimestamp());
		counters_shared->nslots = counters_nslots();
		for (int i = 0; i < counters_shared->nslots; i++)
			pg_atomic_init_u32(&counters_shared->slots[i].changecount, 0);
	}
}

static inline void
timing_add(TimingCounters *dst, const TimingCounters *src)
{
	dst->calls += src->calls;
	dst->rows += src->rows;
	dst->total_ns += src->total_ns;
	dst->max_ns = Max(dst->max_ns, src->max_ns);
}

/*
 * Add the figures read by system calls (CPU time, context switches,
 * perf_event counters): an owner adds them to its slot, a reader to its sum.
 */
void
counters_add_usage(CounterValues *dst, const CounterValues *src)
{
	dst->cpu_user_us += src->cpu_user_us;
	dst->cpu_sys_us += src->cpu_sys_us;
	dst->voluntary_switches += src->voluntary_switches;
	dst->involuntary_switches += src->involuntary_switches;
	for (int k = 0; k < PERF_EV_COUNT; k++)
	{
		dst->hw[k] += src->hw[k];
		dst->hw_xacts[k] += src->hw_xacts[k];
	}
}

/* A reader adds its consistent copy of a slot to the sum. */
static void
values_add(CounterValues *dst, const CounterValues *src)
{
	for (int k = 0; k < CMD_KIND_COUNT; k++)
		timing_add(&dst->stmt[k], &src->stmt[k]);
	timing_add(&dst->xact, &src->xact);
	dst->commits += src->commits;
	dst->aborts += src->aborts;
	counters_add_usage(dst, src);
}

/*
 * The calling backend's slot (rule 1), or NULL where there is none: not
 * preloaded, or not a process with a PGPROC of its own.
 */
CounterSlot *
counters_own_slot(void)
{
	if (counters_shared == NULL || MyProc == NULL ||
		compat_my_proc_number() >= counters_shared->nslots)
		return NULL;
	return &counters_shared->slots[compat_my_proc_number()];
}

/*
 * Zero a slot whose figures belong to a generation before the last reset
 * and stamp it with the current one (rule 4); called by its owner inside
 * a write.
 */
void
counters_slot_renew(CounterSlot *slot, uint64 generation)
{
	memset(&slot->v, 0, sizeof(slot->v));
	memset(slot->hist, 0, sizeof(slot->hist));
	slot->generation = generation;
}

/*
 * Sum of all slots of the current generation (rule 3).  hist, if not NULL,
 * receives the summed histograms, HIST_COUNT rows.
 */
void
counters_sum(CounterValues *sum, uint64 (*hist)[LH_BUCKETS])
{
	CounterSlot *copy = palloc(sizeof(CounterSlot));
	uint64		gen = pg_atomic_read_u64(&counters_shared->generation);

	memset(sum, 0, sizeof(*sum));
	if (hist)
		memset(hist, 0, sizeof(uint64) * HIST_COUNT * LH_BUCKETS);

	for (int i = 0; i < counters_shared->nslots; i++)
	{
		CounterSlot *slot = &counters_shared->slots[i];

		/* never used, or not written since the last reset: reads as zero */
		if (slot->generation != gen)
			continue;
		for (;;)
		{
			uint32		before = pg_atomic_read_u32(&slot->changecount);
			uint32		after;

			pg_read_barrier();
			memcpy(copy, slot, sizeof(CounterSlot));
			pg_read_barrier();
			after = pg_atomic_read_u32(&slot->changecount);
			if (before == after && (before & 1) == 0)
				break;
			CHECK_FOR_INTERRUPTS();
		}
		if (copy->generation != gen)
			continue;
		values_add(sum, &copy->v);
		if (hist)
			for (int r = 0; r < HIST_COUNT; r++)
				for (int b = 0; b < LH_BUCKETS; b++)
					hist[r][b] += copy->hist[r][b];
	}
	pfree(copy);
}

static void
put_row(ReturnSetInfo *rsinfo, const char *scope, const char *metric, double value)
{
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	values[0] = CStringGetTextDatum(scope);
	values[1] = CStringGetTextDatum(metric);
	values[2] = Float8GetDatum(value);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

static void
put_timing(ReturnSetInfo *rsinfo, const char *scope, const TimingCounters *t,
		   const uint64 *hist, bool with_rows)
{
	double		max_ns = (double) t->max_ns;

	put_row(rsinfo, scope, "calls", (double) t->calls);
	if (with_rows)
		put_row(rsinfo, scope, "rows", (double) t->rows);
	put_row(rsinfo, scope, "total_ms", t->total_ns / 1e6);
	put_row(rsinfo, scope, "mean_ms", t->calls ? t->total_ns / 1e6 / t->calls : 0);
	put_row(rsinfo, scope, "p50_ms", lh_quantile(hist, 0.50, max_ns) / 1e6);
	put_row(rsinfo, scope, "p90_ms", lh_quantile(hist, 0.90, max_ns) / 1e6);
	put_row(rsinfo, scope, "p99_ms", lh_quantile(hist, 0.99, max_ns) / 1e6);
	put_row(rsinfo, scope, "max_ms", max_ns / 1e6);
}

/*
 * pgbench_ext.counters() — every figure as (scope, metric, value), for
 * machines: the client pulls it around each run and takes differences.
 */
Datum
pgbench_ext_counters(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	CounterValues sum;
	uint64		(*hist)[LH_BUCKETS];

	pgbench_ext_require_preload(counters_shared != NULL, "pgbench_ext.counters()");
	InitMaterializedSRF(fcinfo, 0);

	hist = palloc(sizeof(uint64) * HIST_COUNT * LH_BUCKETS);
	counters_sum(&sum, hist);

	for (int k = 0; k < CMD_KIND_COUNT; k++)
		put_timing(rsinfo, cmd_kind_name(k), &sum.stmt[k], hist[k], true);

	put_row(rsinfo, "xact", "commits", (double) sum.commits);
	put_row(rsinfo, "xact", "aborts", (double) sum.aborts);
	put_timing(rsinfo, "xact", &sum.xact, hist[HIST_XACT], false);
	put_row(rsinfo, "xact", "cpu_user_us", (double) sum.cpu_user_us);
	put_row(rsinfo, "xact", "cpu_sys_us", (double) sum.cpu_sys_us);
	put_row(rsinfo, "xact", "voluntary_switches", (double) sum.voluntary_switches);
	put_row(rsinfo, "xact", "involuntary_switches", (double) sum.involuntary_switches);

	/* only counters that were read at least once, i.e. available somewhere */
	for (int k = 0; k < PERF_EV_COUNT; k++)
		if (sum.hw_xacts[k] > 0)
		{
			put_row(rsinfo, "hw", perf_event_name(k), (double) sum.hw[k]);
			put_row(rsinfo, "hw_xacts", perf_event_name(k), (double) sum.hw_xacts[k]);
		}

	put_row(rsinfo, "meta", "reset_at_epoch",
			(double) (TimestampTz) pg_atomic_read_u64(&counters_shared->reset_at) / USECS_PER_SEC +
			((POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY));

	return (Datum) 0;
}

/*
 * Zero every counter at once (rule 4): the slots are zeroed by their owners
 * at their next write, or read as zero until then.
 */
void
counters_reset(void)
{
	pg_atomic_fetch_add_u64(&counters_shared->generation, 1);
	pg_atomic_write_u64(&counters_shared->reset_at, (uint64) GetCurrentTimestamp());
}
