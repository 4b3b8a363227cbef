/*-------------------------------------------------------------------------
 *
 * pgbench_ext.c
 *		Module entry point: module magic, _PG_init, shared memory set-up,
 *		the version handshake and reset().
 *
 * The library can be used two ways.  Loaded by CREATE EXTENSION alone, the
 * functions that need no shared memory (version, environment, layout) work.
 * Loaded through shared_preload_libraries, _PG_init also lets each module
 * define its settings, request its shared memory and install its hooks or
 * worker; functions that need those refuse to run otherwise, with a hint
 * naming the setting.
 *
 * Each module owns its settings, shared state and lock; this file only
 * calls each one's entry points in order, and is called by none of them.
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
#include "hooks.h"
#include "inject_delay.h"
#include "wait_sampler.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(pgbench_ext_version);
PG_FUNCTION_INFO_V1(pgbench_ext_reset);

#ifdef HAVE_SHMEM_REQUEST_HOOK
static shmem_request_hook_type prev_shmem_request_hook = NULL;
#endif
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void shmem_request(void);
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

	hooks_init();
	inject_delay_define_settings();
	wait_sampler_init();
	MarkGUCPrefixReserved("pgbench_ext");

#ifdef HAVE_SHMEM_REQUEST_HOOK
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = shmem_request;
#else
	shmem_request();
#endif
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = shmem_startup;
}

static void
shmem_request(void)
{
#ifdef HAVE_SHMEM_REQUEST_HOOK
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
#endif
	counters_shmem_request();
	wait_sampler_shmem_request();
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

/*
 * pgbench_ext.reset() — zero every counter and the wait profile.  EXECUTE
 * is revoked from PUBLIC in the install script.
 */
Datum
pgbench_ext_reset(PG_FUNCTION_ARGS)
{
	pgbench_ext_require_preload(counters_shared != NULL, "pgbench_ext.reset()");

	counters_reset();
	wait_sampler_reset();

	PG_RETURN_VOID();
}
