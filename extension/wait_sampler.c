/*-------------------------------------------------------------------------
 *
 * wait_sampler.c
 *		Background worker sampling every process's wait event, and
 *		pgbench_ext.wait_profile().
 *
 * Every pgbench_ext.sample_interval_ms the worker reads pid and
 * wait_event_info of each PGPROC and counts (backend type, wait event).
 * It takes no ProcArrayLock and no other lock the sampled processes use:
 * both fields are 4-byte words their owners store with plain writes (as
 * pg_stat_activity reads them), and a sample that races with a change just
 * sees the old or the new value.  Snapshot and lock-manager patches are
 * precisely what the profile is used to judge, so the sampler must not
 * perturb them.  The counts live in a small table guarded by the
 * extension's own LWLock (counters.h, rule 5), which no backend running
 * statements ever takes.
 *
 * The backend type comes from where the PGPROC sits in ProcGlobal's array,
 * which InitProcGlobal lays out in fixed ranges (regular backends,
 * autovacuum, background workers, WAL senders, auxiliary processes), so
 * no per-sample look-up in the backend status array is needed.
 *
 *-------------------------------------------------------------------------
 */
#include "counters.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(pgbench_ext_wait_profile);
PGDLLEXPORT void pgbench_ext_sampler_main(Datum main_arg);

typedef enum SampledType
{
	SAMPLED_CLIENT,
	SAMPLED_AUTOVACUUM,
	SAMPLED_BGWORKER,
	SAMPLED_WALSENDER,
	SAMPLED_AUXILIARY,
	SAMPLED_TYPE_COUNT
} SampledType;

static const char *const sampled_type_names[SAMPLED_TYPE_COUNT] = {
	"client backend", "autovacuum", "background worker", "walsender", "auxiliary"
};

/* (backend type, wait event) pairs; a few dozen occur in practice */
#define WAIT_TABLE_SIZE 1024

typedef struct WaitEntry
{
	uint32		event;			/* wait_event_info, 0 = on CPU */
	int16		type;			/* SampledType, -1 = free */
	uint64		samples;
} WaitEntry;

typedef struct WaitShared
{
	pg_atomic_uint32 sampler_pid;	/* 0 when the worker is not running */
	uint64		dropped;		/* samples lost to a full table */
	uint64		total[SAMPLED_TYPE_COUNT];
	WaitEntry	entries[WAIT_TABLE_SIZE];
} WaitShared;

static WaitShared *wait_shared = NULL;

Size
wait_sampler_shmem_size(void)
{
	return sizeof(WaitShared);
}

static void
wait_table_clear(void)
{
	wait_shared->dropped = 0;
	memset(wait_shared->total, 0, sizeof(wait_shared->total));
	for (int i = 0; i < WAIT_TABLE_SIZE; i++)
	{
		wait_shared->entries[i].type = -1;
		wait_shared->entries[i].samples = 0;
	}
}

void
wait_sampler_shmem_startup(void)
{
	bool		found;

	wait_shared = ShmemInitStruct("pgbench_ext waits", sizeof(WaitShared), &found);
	if (!found)
	{
		pg_atomic_init_u32(&wait_shared->sampler_pid, 0);
		wait_table_clear();
	}
}

void
wait_sampler_reset(void)
{
	LWLockAcquire(counters_shared->wait_lock, LW_EXCLUSIVE);
	wait_table_clear();
	LWLockRelease(counters_shared->wait_lock);
}

bool
wait_sampler_running(void)
{
	return wait_shared != NULL && pg_atomic_read_u32(&wait_shared->sampler_pid) != 0;
}

void
wait_sampler_register(void)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS;
	worker.bgw_start_time = BgWorkerStart_PostmasterStart;
	worker.bgw_restart_time = 10;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "pgbench_ext");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "pgbench_ext_sampler_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "pgbench_ext wait sampler");
	snprintf(worker.bgw_type, BGW_MAXLEN, "pgbench_ext wait sampler");
	RegisterBackgroundWorker(&worker);
}

/* InitProcGlobal's layout of ProcGlobal->allProcs (see the file header) */
static SampledType
type_of_procno(int procno)
{
	int			limit = MaxConnections;

	if (procno < limit)
		return SAMPLED_CLIENT;
	limit += autovacuum_max_workers + 1;
	if (procno < limit)
		return SAMPLED_AUTOVACUUM;
	limit += max_worker_processes;
	if (procno < limit)
		return SAMPLED_BGWORKER;
	limit += max_wal_senders;
	if (procno < limit)
		return SAMPLED_WALSENDER;
	return SAMPLED_AUXILIARY;
}

static void
fold_sample(SampledType type, uint32 event)
{
	uint32		h = (event * 2654435761u) ^ ((uint32) type * 40503u);

	wait_shared->total[type]++;
	for (int probe = 0; probe < WAIT_TABLE_SIZE; probe++)
	{
		WaitEntry  *e = &wait_shared->entries[(h + probe) % WAIT_TABLE_SIZE];

		if (e->type == -1)
		{
			e->type = type;
			e->event = event;
		}
		if (e->type == type && e->event == event)
		{
			e->samples++;
			return;
		}
	}
	wait_shared->dropped++;
}

static void
take_sample(void)
{
	int			nprocs = ProcGlobal->allProcCount;
	uint32	   *events = palloc(sizeof(uint32) * nprocs);
	int16	   *types = palloc(sizeof(int16) * nprocs);
	int			n = 0;

	/* read without any lock, before taking our own */
	for (int i = 0; i < nprocs; i++)
	{
		volatile PGPROC *proc = &ProcGlobal->allProcs[i];

		/* free PGPROCs and prepared transactions' dummies have no latch owner */
		if (proc == MyProc || proc->pid == 0 || proc->procLatch.owner_pid == 0)
			continue;
		events[n] = proc->wait_event_info;
		types[n] = type_of_procno(i);
		n++;
	}

	LWLockAcquire(counters_shared->wait_lock, LW_EXCLUSIVE);
	for (int i = 0; i < n; i++)
		fold_sample(types[i], events[i]);
	LWLockRelease(counters_shared->wait_lock);

	pfree(events);
	pfree(types);
}

static void
sampler_exit(int code, Datum arg)
{
	pg_atomic_write_u32(&wait_shared->sampler_pid, 0);
}

void
pgbench_ext_sampler_main(Datum main_arg)
{
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	BackgroundWorkerUnblockSignals();

	pg_atomic_write_u32(&wait_shared->sampler_pid, MyProcPid);
	before_shmem_exit(sampler_exit, (Datum) 0);

	while (!ShutdownRequestPending)
	{
		int			interval = pgbench_ext_sample_interval_ms;
		int			rc;

		rc = WaitLatch(MyLatch,
					   WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | (interval > 0 ? WL_TIMEOUT : 0),
					   interval > 0 ? interval : -1L,
					   PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();

		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		if ((rc & WL_TIMEOUT) && interval > 0)
			take_sample();
	}
	proc_exit(0);
}

/*
 * Say why the profile may be empty or stale, without failing: the client
 * pulls it after every run and should get what there is.
 */
static void
warn_if_not_sampling(void)
{
	if (pgbench_ext_sample_interval_ms == 0)
		ereport(NOTICE,
				(errmsg("wait-event sampling is off"),
				 errhint("Set pgbench_ext.sample_interval_ms above 0 and reload the configuration.")));
	else if (!wait_sampler_running())
		ereport(WARNING,
				(errmsg("the pgbench_ext wait-event sampler is not running"),
				 errdetail("It could not be started or has exited, so the wait profile receives no samples."),
				 errhint("It needs a free background worker slot: raise max_worker_processes and restart; see the server log.")));
}

static int
wait_row_cmp(const void *a, const void *b)
{
	const WaitRow *x = a;
	const WaitRow *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->backend_type, y->backend_type);
}

/*
 * The profile since the last reset, most sampled first, in palloc'd rows;
 * pct is the share of the samples of the same backend type.  Warns (does
 * not fail) when sampling is off or the sampler is not running.
 */
int
wait_sampler_rows(WaitRow **rows_out)
{
	WaitEntry  *copy = palloc(sizeof(WaitEntry) * WAIT_TABLE_SIZE);
	WaitRow    *rows = palloc(sizeof(WaitRow) * WAIT_TABLE_SIZE);
	uint64		total[SAMPLED_TYPE_COUNT];
	int			n = 0;

	warn_if_not_sampling();

	LWLockAcquire(counters_shared->wait_lock, LW_SHARED);
	memcpy(copy, wait_shared->entries, sizeof(WaitEntry) * WAIT_TABLE_SIZE);
	memcpy(total, wait_shared->total, sizeof(total));
	LWLockRelease(counters_shared->wait_lock);

	for (int i = 0; i < WAIT_TABLE_SIZE; i++)
	{
		WaitEntry  *e = &copy[i];
		WaitRow    *r = &rows[n];

		if (e->type < 0 || e->samples == 0)
			continue;
		r->backend_type = sampled_type_names[e->type];
		if (e->event == 0)
		{
			r->event_type = "CPU";
			r->event = "on CPU";
		}
		else
		{
			r->event_type = pgstat_get_wait_event_type(e->event);
			r->event = pgstat_get_wait_event(e->event);
			if (r->event_type == NULL)
				r->event_type = "unknown";
			if (r->event == NULL)
				r->event = "unknown";
		}
		r->samples = e->samples;
		r->pct = 100.0 * e->samples / total[e->type];
		n++;
	}
	pfree(copy);
	qsort(rows, n, sizeof(WaitRow), wait_row_cmp);
	*rows_out = rows;
	return n;
}

/*
 * pgbench_ext.wait_profile() — samples per (backend type, wait event type,
 * wait event) since the last reset.
 */
Datum
pgbench_ext_wait_profile(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	WaitRow    *rows;
	int			n;

	counters_require_preload("pgbench_ext.wait_profile()");
	InitMaterializedSRF(fcinfo, 0);

	n = wait_sampler_rows(&rows);
	for (int i = 0; i < n; i++)
	{
		Datum		values[5];
		bool		nulls[5] = {false, false, false, false, false};

		values[0] = CStringGetTextDatum(rows[i].backend_type);
		values[1] = CStringGetTextDatum(rows[i].event_type);
		values[2] = CStringGetTextDatum(rows[i].event);
		values[3] = Int64GetDatum((int64) rows[i].samples);
		values[4] = Float8GetDatum(rows[i].pct);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
