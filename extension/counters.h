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
 * 2. The owner adds each top-level statement's figures to its slot when the
 *    statement ends, and the transaction's when it ends (hooks.c).  Every
 *    write is bracketed by two increments of the slot's changecount, with
 *    write barriers, as PgBackendStatus does: the count is odd while the
 *    slot is being written.  Only stores happen inside: the system calls
 *    that read CPU time and perf_event counters are made before.  (A batch
 *    in backend-local memory, published once per transaction, cost more
 *    instructions to gather and move than the few stores into the slot it
 *    saved: the slot is written by no one else, so its cache lines stay in
 *    the owner's cache.)
 *
 * 3. Readers (counters(), report()) copy a slot, retrying until they saw the
 *    same even changecount before and after the copy, so every copied slot is
 *    consistent.  Each field only grows between resets, so a sum of
 *    consistent copies never goes backwards.
 *
 * 4. reset() only advances the shared generation; it writes no slot.  A slot
 *    whose generation is older than the shared one counts as zero for
 *    readers, and its owner zeroes it (then stamps the new generation) at
 *    its next write.  Exited backends' slots thus read as zero after a
 *    reset without anyone touching them.
 *
 * The counters take no lock at all; the wait profile has its own
 * (wait_sampler.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_COUNTERS_H
#define PGBENCH_EXT_COUNTERS_H

#include "pgbench_ext.h"

#include "port/atomics.h"

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
 * Everything a backend adds up; the same struct serves as a slot's figures
 * and as the figures summed over slots.
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
	int			nslots;
	CounterSlot slots[FLEXIBLE_ARRAY_MEMBER];
} CountersShared;

/* counters.c */
extern CountersShared *counters_shared;
extern void counters_shmem_request(void);
extern void counters_shmem_startup(void);
extern void counters_reset(void);
extern CounterSlot *counters_own_slot(void);
extern void counters_slot_renew(CounterSlot *slot, uint64 generation);
extern void counters_add_usage(CounterValues *dst, const CounterValues *src);
extern void counters_sum(CounterValues *sum, uint64 (*hist)[LH_BUCKETS]);
extern const char *cmd_kind_name(CmdKind kind);

/*
 * The owner's write of its own slot (rule 2), bracketed by the changecount.
 * The first write after a reset zeroes the slot (rule 4).  Neither throws:
 * they run in transaction callbacks and at backend exit.
 */
static inline void
counters_write_begin(CounterSlot *slot)
{
	uint64		generation;

	pg_atomic_write_u32(&slot->changecount,
						pg_atomic_read_u32(&slot->changecount) + 1);
	pg_write_barrier();
	generation = pg_atomic_read_u64(&counters_shared->generation);
	if (unlikely(slot->generation != generation))
		counters_slot_renew(slot, generation);
}

static inline void
counters_write_end(CounterSlot *slot)
{
	pg_write_barrier();
	pg_atomic_write_u32(&slot->changecount,
						pg_atomic_read_u32(&slot->changecount) + 1);
}

/* One more timed call: a statement of one command type, or a transaction. */
static inline void
counters_add_timing(TimingCounters *t, uint64 *hist, uint64 ns, uint64 rows)
{
	t->calls++;
	t->rows += rows;
	t->total_ns += ns;
	if (ns > t->max_ns)
		t->max_ns = ns;
	hist[lh_bucket(ns)]++;
}

#endif							/* PGBENCH_EXT_COUNTERS_H */
