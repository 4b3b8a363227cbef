/*-------------------------------------------------------------------------
 *
 * cache_info.c
 *		pgbench_ext.cache_info(): the cache geometry a layout report is
 *		read against.
 *
 * struct_layout() counts lines of 64 bytes and of PG_CACHE_LINE_SIZE; this
 * says which of those the CPU really has, and how large its caches are,
 * next to the constants this server was compiled with.  Host facts come
 * from machine.c (sysfs); where sysfs has no cache directory (some
 * containers) glibc's sysconf() values are used and the source says so.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include <unistd.h>

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "machine.h"

PG_FUNCTION_INFO_V1(pgbench_ext_cache_info);

static void
add_row(ReturnSetInfo *rsinfo, const char *name, const char *value,
		int64 bytes, const char *source)
{
	Datum		values[4];
	bool		nulls[4] = {false, value == NULL, bytes < 0, false};

	values[0] = CStringGetTextDatum(name);
	values[1] = value ? CStringGetTextDatum(value) : (Datum) 0;
	values[2] = Int64GetDatum(bytes);
	values[3] = CStringGetTextDatum(source);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

static void
add_bytes(ReturnSetInfo *rsinfo, const char *name, int64 bytes, const char *source)
{
	add_row(rsinfo, name, bytes > 0 ? machine_format_bytes(bytes) : NULL,
			bytes > 0 ? bytes : -1, source);
}

/* Caches as glibc reports them, when sysfs has none. */
static void
report_sysconf_caches(ReturnSetInfo *rsinfo)
{
#if defined(_SC_LEVEL1_DCACHE_SIZE)
	add_bytes(rsinfo, "L1d_line", sysconf(_SC_LEVEL1_DCACHE_LINESIZE), "sysconf");
	add_bytes(rsinfo, "L1d_size", sysconf(_SC_LEVEL1_DCACHE_SIZE), "sysconf");
	add_bytes(rsinfo, "L2_size", sysconf(_SC_LEVEL2_CACHE_SIZE), "sysconf");
	add_bytes(rsinfo, "L3_size", sysconf(_SC_LEVEL3_CACHE_SIZE), "sysconf");
#else
	add_row(rsinfo, "caches", NULL, -1, "neither sysfs nor sysconf describes the caches");
#endif
}

/*
 * pgbench_ext.cache_info() RETURNS TABLE (name, value, bytes, source)
 *
 * bytes is the numeric value for sizes (NULL for text facts); value is
 * the same in words.
 */
Datum
pgbench_ext_cache_info(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MachineCache caches[MACHINE_MAX_CACHES];
	int			ncaches;
	char		model[256];

	InitMaterializedSRF(fcinfo, 0);

	add_row(rsinfo, "cpu_model",
			machine_cpu_model(model, sizeof(model)) ? model : NULL, -1, "/proc/cpuinfo");

	ncaches = machine_caches(caches, MACHINE_MAX_CACHES);
	for (int i = 0; i < ncaches; i++)
	{
		char	   *label = machine_cache_label(&caches[i]);

		add_bytes(rsinfo, psprintf("%s_line", label), caches[i].line_bytes, "sysfs");
		add_bytes(rsinfo, psprintf("%s_size", label), caches[i].size_bytes, "sysfs");
	}
	if (ncaches == 0)
		report_sysconf_caches(rsinfo);

	add_bytes(rsinfo, "PG_CACHE_LINE_SIZE", PG_CACHE_LINE_SIZE, "compiled in (pg_config_manual.h)");
	add_bytes(rsinfo, "ALIGNOF_BUFFER", ALIGNOF_BUFFER, "compiled in (pg_config_manual.h)");
	return (Datum) 0;
}
