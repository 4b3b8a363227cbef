/*-------------------------------------------------------------------------
 *
 * pgbench_ext.c
 *		Module entry point: module magic, _PG_init and the version handshake.
 *
 * The library can be used two ways.  Loaded by CREATE EXTENSION alone, the
 * functions that need no shared memory (version, environment, layout) work.
 * Loaded through shared_preload_libraries, _PG_init also sets up the
 * counters' shared memory, hooks and background sampler; functions that
 * need those refuse to run otherwise, with a hint naming the setting.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "counters.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

PG_FUNCTION_INFO_V1(pgbench_ext_version);

bool		pgbench_ext_track = true;
bool		pgbench_ext_track_hw = false;
int			pgbench_ext_sample_interval_ms = 10;

static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void define_settings(void);
static void request_shmem(void);
static void shmem_startup(void);

void
_PG_init(void)
{
	/*
	 * Everything that follows needs shared memory, which can only be
	 * requested while the postmaster loads preload libraries.
	 */
	if (!process_shared_preload_libraries_in_progress)
		return;

	define_settings();
	inject_delay_init();
	MarkGUCPrefixReserved("pgbench_ext");

	compat_request_shmem(request_shmem);
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = shmem_startup;

	hooks_install();
	wait_sampler_register();
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

	DefineCustomIntVariable("pgbench_ext.sample_interval_ms",
							"Interval between wait-event samples; 0 turns the sampler off.",
							NULL,
							&pgbench_ext_sample_interval_ms,
							10,
							0, 60000,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
}

static void
request_shmem(void)
{
	RequestAddinShmemSpace(add_size(counters_shmem_size(), wait_sampler_shmem_size()));
	RequestNamedLWLockTranche("pgbench_ext", 1);
}

static void
shmem_startup(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	counters_shmem_startup();
	wait_sampler_shmem_startup();
	LWLockRelease(AddinShmemInitLock);
}

/*
 * pgbench_ext.version() — the version compiled into this shared library.
 *
 * The client compares it with its own version and with the version of the
 * SQL objects recorded in pg_extension, so any of the three that differs is
 * named precisely.
 */
Datum
pgbench_ext_version(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(PGBENCH_EXT_VERSION));
}
