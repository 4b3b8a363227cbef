/*-------------------------------------------------------------------------
 *
 * counters.h
 *		Statement and transaction counters in shared memory, one slot per
 *		backend, and the rules for reading and writing them.
 *
 * Locking rules
 * -------------
 * The hot path takes no lock, and no backend ever writes another's memory:
 *
 * 1. Each process that runs statements owns exactly one CounterSlot, the one
 *    indexed by its PGPROC number.  Only that process writes the slot.  A
 *    process that later reuses the PGPROC adds to the same slot, so the
 *    figures of exited backends are not lost.
 *
 * 2. The owner accumulates in backend-local memory while a transaction runs
 *    and publishes into its slot at transaction end (hooks.c).  A publish is
 *    bracketed by two increments of the slot's changecount, with write
 *    barriers, as PgBackendStatus does: the count is odd while the slot is
 *    being written.
 *
 * 3. Readers (counters(), report()) copy a slot, retrying until they saw the
 *    same even changecount before and after the copy, so every copied slot is
 *    consistent.  Each field only grows between resets, so a sum of
 *    consistent copies never goes backwards.
 *
 * 4. reset() only advances the shared generation; it writes no slot.  A slot
 *    whose generation is older than the shared one counts as zero for
 *    readers, and its owner zeroes it (then stamps the new generation) at
 *    its next publish.  Exited backends' slots thus read as zero after a
 *    reset without anyone touching them.
 *
 * 5. The wait-event table has one writer, the sampler, and is guarded by the
 *    extension's own LWLock (never ProcArrayLock): the sampler holds it
 *    exclusively for the few microseconds of folding one sample in, readers
 *    and reset() take it shared/exclusive.  No backend running statements
 *    ever takes it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_COUNTERS_H
#define PGBENCH_EXT_COUNTERS_H

#include "pgbench_ext.h"

#include "port/atomics.h"
#include "storage/lwlock.h"

#include "latency_hist.h"
#include "perf_events.h"

/* Command types counted separately (counters() scopes). */
typedef enum CmdKind
{
	CMD_KIND_SELECT,
	CMD_KIND_INSERT,
	CMD_KIND_UPDATE,
	CMD_KIND_DELETE,
	CMD_KIND_UTILITY,
	CMD_KIND_OTHER,
	CMD_KIND_COUNT
} CmdKind;

/* Histogram rows of a slot: one per command type, then transactions. */
#define HIST_XACT		CMD_KIND_COUNT
#define HIST_COUNT		(CMD_KIND_COUNT + 1)

typedef struct TimingCounters
{
	uint64		calls;
	uint64		rows;			/* statements only */
	uint64		total_ns;
	uint64		max_ns;
} TimingCounters;

/*
 * Everything a backend adds up; the same struct serves as the backend-local
 * pending batch (without histogram, see PendingCounters) and as the figures
 * summed over slots.
 */
typedef struct CounterValues
{
	TimingCounters stmt[CMD_KIND_COUNT];
	TimingCounters xact;		/* calls = commits + aborts */
	uint64		commits;
	uint64		aborts;
	uint64		cpu_user_us;
	uint64		cpu_sys_us;
	uint64		voluntary_switches;
	uint64		involuntary_switches;
	uint64		hw[PERF_EV_COUNT];	/* counts, summed over transactions */
	uint64		hw_xacts[PERF_EV_COUNT];	/* transactions each was read for */
} CounterValues;

typedef struct CounterSlot
{
	pg_atomic_uint32 changecount;	/* odd while the owner writes */
	uint64		generation;		/* reset generation these figures belong to */
	CounterValues v;
	uint64		hist[HIST_COUNT][LH_BUCKETS];
} CounterSlot;

typedef struct CountersShared
{
	pg_atomic_uint64 generation;	/* advanced by reset() */
	pg_atomic_uint64 reset_at;	/* TimestampTz of the last reset */
	LWLock	   *wait_lock;		/* rule 5 */
	int			nslots;
	CounterSlot slots[FLEXIBLE_ARRAY_MEMBER];
} CountersShared;

/* Pending histogram increments before a publish; a batch flushes when full. */
#define PENDING_HIST_MAX 64

/*
 * Parts of a batch that may be non-zero.  A publish adds and clears only
 * those, so a transaction of one SELECT writes the slot's select and xact
 * counters and leaves the cache lines of the other command types, CPU time
 * (read every 100 ms) and hardware counters alone.
 */
#define PENDING_ROW(hist_row)	(1U << (hist_row))	/* stmt[kind] or xact */
#define PENDING_USAGE			(1U << HIST_COUNT)	/* CPU time, switches */
#define PENDING_HW				(1U << (HIST_COUNT + 1))
#define PENDING_ALL				(~0U)

typedef struct PendingCounters
{
	CounterValues v;
	uint32		touched;		/* PENDING_* bits */
	int			nhist;
	uint16		hist_row[PENDING_HIST_MAX];
	uint16		hist_bucket[PENDING_HIST_MAX];
} PendingCounters;

/* counters.c */
extern CountersShared *counters_shared;
extern Size counters_shmem_size(void);
extern void counters_shmem_startup(void);
extern void counters_require_preload(const char *function);
extern void counters_publish(PendingCounters *pending);
extern void counters_sum(CounterValues *sum, uint64 (*hist)[LH_BUCKETS]);
extern const char *cmd_kind_name(CmdKind kind);

/* hooks.c */
extern void hooks_install(void);
extern const PerfEventSet *hooks_perf_events(void);

/* cpu_usage.c */
extern void cpu_usage_add_since_last(CounterValues *v);

/* wait_sampler.c */
extern Size wait_sampler_shmem_size(void);
extern void wait_sampler_shmem_startup(void);
extern void wait_sampler_register(void);
extern void wait_sampler_reset(void);
extern bool wait_sampler_running(void);

typedef struct WaitRow
{
	const char *backend_type;
	const char *event_type;
	const char *event;
	uint64		samples;
	double		pct;
} WaitRow;

extern int	wait_sampler_rows(WaitRow **rows);

#endif							/* PGBENCH_EXT_COUNTERS_H */
