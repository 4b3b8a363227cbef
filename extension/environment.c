/*-------------------------------------------------------------------------
 *
 * environment.c
 *		pgbench_ext.environment(): everything about a server and its host
 *		that can change a benchmark result.
 *
 * The client stores these rows with every experiment and compares them
 * across variants, so that a difference nobody declared (an assert-enabled
 * build, fsync off on one side) is reported next to the verdict.
 *
 * Privileges are respected, never escalated: a role that may not read the
 * pg_config view or superuser-only settings gets a row whose note says
 * what it lacks, never an error.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include <sys/utsname.h>

#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_authid.h"
#include "common/config_info.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"

#include "machine.h"

PG_FUNCTION_INFO_V1(pgbench_ext_environment);

/* Settings reported always, whatever their source, in this order. */
static const char *const key_settings[] = {
	"fsync",
	"synchronous_commit",
	"full_page_writes",
	"shared_buffers",
	"max_connections",
	"old_snapshot_threshold",
	"data_checksums",
	"huge_pages",
	"wal_level",
	"max_wal_size",
	"jit",
	"shared_preload_libraries",
};

/* pg_config entries that describe how the server binary was built. */
static const char *const build_keys[] = {"CONFIGURE", "CC", "CFLAGS"};

typedef struct EnvOutput
{
	Tuplestorestate *store;
	TupleDesc	desc;
} EnvOutput;

static void
add_row(EnvOutput *out, const char *category, const char *name,
		const char *value, const char *note)
{
	Datum		values[4];
	bool		nulls[4] = {false, false, value == NULL, note == NULL};

	values[0] = CStringGetTextDatum(category);
	values[1] = CStringGetTextDatum(name);
	values[2] = value ? CStringGetTextDatum(value) : (Datum) 0;
	values[3] = note ? CStringGetTextDatum(note) : (Datum) 0;
	tuplestore_putvalues(out->store, out->desc, values, nulls);
}

static void
report_server(EnvOutput *out)
{
	add_row(out, "server", "version", PG_VERSION_STR, NULL);
	add_row(out, "server", "server_version_num",
			GetConfigOption("server_version_num", false, false), NULL);
}

static void
report_build(EnvOutput *out)
{
	Oid			viewoid = get_relname_relid("pg_config", PG_CATALOG_NAMESPACE);
	bool		may_read;
	const char *assertions;

	may_read = OidIsValid(viewoid) &&
		pg_class_aclcheck(viewoid, GetUserId(), ACL_SELECT) == ACLCHECK_OK;

	if (may_read)
	{
		size_t		n;
		ConfigData *config = get_configdata(my_exec_path, &n);

		for (int k = 0; k < lengthof(build_keys); k++)
			for (size_t i = 0; i < n; i++)
				if (strcmp(config[i].name, build_keys[k]) == 0)
					add_row(out, "build", config[i].name, config[i].setting, NULL);
	}
	else
	{
		for (int k = 0; k < lengthof(build_keys); k++)
			add_row(out, "build", build_keys[k], NULL,
					"not readable by this role: needs SELECT on pg_catalog.pg_config (superuser by default)");
	}

	assertions = GetConfigOption("debug_assertions", true, false);
	add_row(out, "build", "debug_assertions", assertions,
			(assertions && strcmp(assertions, "on") == 0)
			? "assert-enabled build: timings are not representative of a production build"
			: NULL);
}

static void
report_settings(EnvOutput *out)
{
	bool		all_visible = has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS);
	int			ret;

	for (int i = 0; i < lengthof(key_settings); i++)
	{
		int			flags = GetConfigOptionFlags(key_settings[i], true);
		const char *value;

		if (flags & GUC_SUPERUSER_ONLY && !all_visible)
		{
			add_row(out, "setting", key_settings[i], NULL,
					"not readable by this role: needs pg_read_all_settings");
			continue;
		}
		value = GetConfigOptionByName(key_settings[i], NULL, true);
		add_row(out, "setting", key_settings[i], value,
				value ? NULL : "not present in this server version");
	}

	/*
	 * pg_settings already hides what this role may not see, so reading it
	 * through SPI gives exactly "what it may read".
	 */
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	ret = SPI_execute("SELECT name, pg_catalog.current_setting(name), source "
					  "FROM pg_catalog.pg_settings "
					  "WHERE source <> 'default' ORDER BY name",
					  true, 0);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_settings: SPI error %d", ret);

	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	tup = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		char	   *source = SPI_getvalue(tup, desc, 3);
		char	   *note = psprintf("source: %s", source);

		add_row(out, "changed", SPI_getvalue(tup, desc, 1),
				SPI_getvalue(tup, desc, 2), note);
	}
	SPI_finish();

	if (!all_visible)
		add_row(out, "changed", "(superuser-only settings)", NULL,
				"omitted: this role lacks pg_read_all_settings");
}

static void
report_machine(EnvOutput *out)
{
	char		buf[256];
	struct utsname uts;
	MachineCache caches[MACHINE_MAX_CACHES];
	int			ncaches;

	if (machine_cpu_model(buf, sizeof(buf)))
		add_row(out, "machine", "cpu_model", buf, NULL);
	else
		add_row(out, "machine", "cpu_model", NULL, "/proc/cpuinfo has no model name");

	add_row(out, "machine", "cpu_count", psprintf("%d", machine_cpu_count()),
			"online processors");

	ncaches = machine_caches(caches, MACHINE_MAX_CACHES);
	for (int i = 0; i < ncaches; i++)
	{
		add_row(out, "machine", psprintf("%s_cache", machine_cache_label(&caches[i])),
				machine_format_bytes(caches[i].size_bytes),
				caches[i].line_bytes > 0
				? psprintf("line size %d bytes", caches[i].line_bytes) : NULL);
	}
	if (ncaches == 0)
		add_row(out, "machine", "caches", NULL, "sysfs has no cache information");

	if (uname(&uts) == 0)
		add_row(out, "machine", "kernel", psprintf("%s %s %s", uts.sysname, uts.release, uts.machine), NULL);

	if (machine_read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof(buf)))
		add_row(out, "machine", "cpu_governor", buf,
				strcmp(buf, "performance") != 0
				? "frequency scaling adds noise; \"performance\" is steadier" : NULL);
	else
		add_row(out, "machine", "cpu_governor", NULL,
				"not exposed by this kernel (usual on virtual machines)");

	if (machine_read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", buf, sizeof(buf)))
		add_row(out, "machine", "turbo", strcmp(buf, "1") == 0 ? "off" : "on",
				strcmp(buf, "1") == 0 ? NULL : "turbo boost adds noise between runs");
}

/*
 * pgbench_ext.environment() RETURNS TABLE (category, name, value, note)
 */
Datum
pgbench_ext_environment(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	EnvOutput	out;

	InitMaterializedSRF(fcinfo, 0);
	out.store = rsinfo->setResult;
	out.desc = rsinfo->setDesc;

	report_server(&out);
	report_build(&out);
	report_settings(&out);
	report_machine(&out);

	return (Datum) 0;
}
