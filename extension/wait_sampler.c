/*-------------------------------------------------------------------------
 *
 * wait_sampler.c
 *		Background worker sampling every process's wait event, its settings
 *		and shared table, and pgbench_ext.wait_profile().
 *
 * Every pgbench_ext.sample_interval_ms the worker reads pid and
 * wait_event_info of each PGPROC and counts (backend type, wait event).
 * It takes no ProcArrayLock and no other lock the sampled processes use:
 * both fields are 4-byte words their owners store with plain writes (as
 * pg_stat_activity reads them), and a sample that races with a change just
 * sees the old or the new value.  Snapshot and lock-manager patches are
 * precisely what the profile is used to judge, so the sampler must not
 * perturb them.  The counts live in a small table guarded by this
 * module's own LWLock (wait_sampler.h), which no backend running
 * statements ever takes.  A (backend type, wait event) pair that finds the
 * table full is counted as lost, and the profile says how many were.
 *
 * The backend type comes from where the PGPROC sits in ProcGlobal's array,
 * which InitProcGlobal lays out in fixed ranges (regular backends,
 * autovacuum, background workers, WAL senders, auxiliary processes), so
 * no per-sample look-up in the backend status array is needed.
 *
 *-------------------------------------------------------------------------
 */
#include "wait_sampler.h"

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
#include "utils/guc.h"

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
#define WAIT_TABLE_DEFAULT_SIZE 1024

#define WAIT_LOCK_TRANCHE "pgbench_ext_wait_profile"

/* How wait_profile() names the samples lost to a full table. */
#define WAIT_LOST_BACKEND_TYPE	"(all)"
#define WAIT_LOST_EVENT_TYPE	"Overflow"
#define WAIT_LOST_EVENT			"wait table full (pgbench_ext.wait_table_size)"

static int	sample_interval_ms = 10;
static int	wait_table_size = WAIT_TABLE_DEFAULT_SIZE;

typedef struct WaitEntry
{
	uint32		event;			/* wait_event_info, 0 = on CPU */
	int16		type;			/* SampledType, -1 = free */
	uint64		samples;
} WaitEntry;

typedef struct WaitShared
{
	LWLock	   *lock;			/* see wait_sampler.h */
	pg_atomic_uint32 sampler_pid;	/* 0 when the worker is not running */
	uint64		lost;			/* samples of pairs the full table had no entry for */
	uint64		total[SAMPLED_TYPE_COUNT];
	int			nentries;		/* wait_table_size at start-up */
	WaitEntry	entries[FLEXIBLE_ARRAY_MEMBER];
} WaitShared;

static WaitShared *wait_shared = NULL;

static Size
wait_shmem_size(void)
{
	return add_size(offsetof(WaitShared, entries),
					mul_size(wait_table_size, sizeof(WaitEntry)));
}

/* While the postmaster loads preload libraries (see pgbench_ext.c). */
void
wait_sampler_shmem_request(void)
{
	RequestAddinShmemSpace(wait_shmem_size());
	RequestNamedLWLockTranche(WAIT_LOCK_TRANCHE, 1);
}

static void
wait_table_clear(void)
{
	wait_shared->lost = 0;
	memset(wait_shared->total, 0, sizeof(wait_shared->total));
	for (int i = 0; i < wait_shared->nentries; i++)
	{
		wait_shared->entries[i].type = -1;
		wait_shared->entries[i].samples = 0;
	}
}

/* Called with AddinShmemInitLock held, from the shmem_startup_hook. */
void
wait_sampler_shmem_startup(void)
{
	bool		found;

	wait_shared = ShmemInitStruct("pgbench_ext waits", wait_shmem_size(), &found);
	if (!found)
	{
		wait_shared->lock = &(GetNamedLWLockTranche(WAIT_LOCK_TRANCHE))->lock;
		pg_atomic_init_u32(&wait_shared->sampler_pid, 0);
		wait_shared->nentries = wait_table_size;
		wait_table_clear();
	}
}

bool
wait_sampler_attached(void)
{
	return wait_shared != NULL;
}

/* The profile's part of pgbench_ext.reset(). */
void
wait_sampler_reset(void)
{
	LWLockAcquire(wait_shared->lock, LW_EXCLUSIVE);
	wait_table_clear();
	LWLockRelease(wait_shared->lock);
}

static bool
sampler_running(void)
{
	return wait_shared != NULL && pg_atomic_read_u32(&wait_shared->sampler_pid) != 0;
}

static void
define_settings(void)
{
	DefineCustomIntVariable("pgbench_ext.sample_interval_ms",
							"Interval between wait-event samples; 0 turns the sampler off.",
							NULL,
							&sample_interval_ms,
							10,
							0, 60000,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	DefineCustomIntVariable("pgbench_ext.wait_table_size",
							"Distinct (backend type, wait event) pairs the wait profile can hold.",
							"Samples of further pairs are counted as lost; wait_profile() and report() say how many.",
							&wait_table_size,
							WAIT_TABLE_DEFAULT_SIZE,
							4, 65536,
							PGC_POSTMASTER,
							0,
							NULL, NULL, NULL);
}

void
wait_sampler_init(void)
{
	BackgroundWorker worker;

	define_settings();

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
	limit += COMPAT_AUTOVACUUM_PROCS;
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
	for (int probe = 0; probe < wait_shared->nentries; probe++)
	{
		WaitEntry  *e = &wait_shared->entries[(h + probe) % wait_shared->nentries];

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
	wait_shared->lost++;
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

	LWLockAcquire(wait_shared->lock, LW_EXCLUSIVE);
	for (int i = 0; i < n; i++)
		fold_sample(types[i], events[i]);
	LWLockRelease(wait_shared->lock);

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
		int			interval = sample_interval_ms;
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
	if (sample_interval_ms == 0)
		ereport(NOTICE,
				(errmsg("wait-event sampling is off"),
				 errhint("Set pgbench_ext.sample_interval_ms above 0 and reload the configuration.")));
	else if (!sampler_running())
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
 * The profile since the last reset, most sampled first, in palloc'd rows.
 * Warns (does not fail) when sampling is off or the sampler is not running.
 */
void
wait_sampler_profile(WaitProfile *profile)
{
	int			nentries = wait_shared->nentries;
	WaitEntry  *copy = palloc(sizeof(WaitEntry) * nentries);
	WaitRow    *rows = palloc(sizeof(WaitRow) * nentries);
	uint64		total[SAMPLED_TYPE_COUNT];
	int			n = 0;

	warn_if_not_sampling();

	LWLockAcquire(wait_shared->lock, LW_SHARED);
	memcpy(copy, wait_shared->entries, sizeof(WaitEntry) * nentries);
	memcpy(total, wait_shared->total, sizeof(total));
	profile->lost = wait_shared->lost;
	LWLockRelease(wait_shared->lock);

	profile->samples = 0;
	for (int t = 0; t < SAMPLED_TYPE_COUNT; t++)
		profile->samples += total[t];

	for (int i = 0; i < nentries; i++)
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
	profile->rows = rows;
	profile->nrows = n;
}

static void
put_wait_row(ReturnSetInfo *rsinfo, const char *backend_type, const char *event_type,
			 const char *event, uint64 samples, double pct)
{
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};

	values[0] = CStringGetTextDatum(backend_type);
	values[1] = CStringGetTextDatum(event_type);
	values[2] = CStringGetTextDatum(event);
	values[3] = Int64GetDatum((int64) samples);
	values[4] = Float8GetDatum(pct);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * pgbench_ext.wait_profile() — samples per (backend type, wait event type,
 * wait event) since the last reset.  Samples lost to a full table come
 * last, as one row of backend type '(all)' and wait event type 'Overflow'
 * whose pct is their share of all samples.
 */
Datum
pgbench_ext_wait_profile(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	WaitProfile profile;

	pgbench_ext_require_preload(wait_sampler_attached(), "pgbench_ext.wait_profile()");
	InitMaterializedSRF(fcinfo, 0);

	wait_sampler_profile(&profile);
	for (int i = 0; i < profile.nrows; i++)
		put_wait_row(rsinfo, profile.rows[i].backend_type, profile.rows[i].event_type,
					 profile.rows[i].event, profile.rows[i].samples, profile.rows[i].pct);
	if (profile.lost > 0)
		put_wait_row(rsinfo, WAIT_LOST_BACKEND_TYPE, WAIT_LOST_EVENT_TYPE, WAIT_LOST_EVENT,
					 profile.lost, 100.0 * profile.lost / profile.samples);
	return (Datum) 0;
}
