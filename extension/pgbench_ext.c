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
#include "utils/builtins.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

PG_FUNCTION_INFO_V1(pgbench_ext_version);

void
_PG_init(void)
{
	/*
	 * Everything that follows needs shared memory, which can only be
	 * requested while the postmaster loads preload libraries.
	 */
	if (!process_shared_preload_libraries_in_progress)
		return;

	inject_delay_init();
	MarkGUCPrefixReserved("pgbench_ext");
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
