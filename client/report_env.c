/*-------------------------------------------------------------------------
 *
 * report_env.c
 *		Warn about every difference between a variant's environment() rows
 *		and the baseline's that the experiment did not declare.
 *
 * An A/B is only about what it declares (the "set" lines, the bindir).
 * A build with assertions on one side only, or fsync off on one server,
 * makes the verdict meaningless, so such differences are warnings.  Some
 * rows differ between any two clusters and say nothing about speed, and
 * are ignored:
 *   - paths and addresses: port, data_directory, config_file, hba_file,
 *     ident_file, unix_socket_directories, listen_addresses,
 *     external_pid_file;
 *   - settings the client sets for its own session (application_name,
 *     client_min_messages, DateStyle, TimeZone, transaction_*...), which
 *     pgbench sets again for its own connections anyway;
 *   - any setting named in a variant's "set" or "session_set" list, or
 *     in the "set" list of the variant whose server it shares (declared);
 *   - shared_preload_libraries when one variant runs without the extension
 *     ("extension = off" is declared, and changes exactly that);
 *   - the server version string and CONFIGURE when the variants declare
 *     different bindirs (a different build is what is compared), while
 *     debug_assertions, CFLAGS and CC are still reported, since those are
 *     the differences that bias a comparison of builds unnoticed.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"

static const char *const ignored_rows[] = {
	"port", "data_directory", "config_file", "hba_file", "ident_file",
	"unix_socket_directories", "listen_addresses", "external_pid_file",
	"application_name", "client_min_messages", "DateStyle", "TimeZone",
	"IntervalStyle", "client_encoding", "search_path", "extra_float_digits",
	"transaction_isolation", "transaction_read_only", "transaction_deferrable",
	"default_transaction_isolation", "cluster_name",
};

static const char *const build_identity_rows[] = {
	"version", "server_version_num", "CONFIGURE",
};

static bool
in_list(const char *name, const char *const *list, int n)
{
	for (int i = 0; i < n; i++)
		if (pg_strcasecmp(list[i], name) == 0)
			return true;
	return false;
}

static bool
in_settings(char *const *settings, int n, const char *name)
{
	size_t		len = strlen(name);

	for (int i = 0; i < n; i++)
		if (pg_strncasecmp(settings[i], name, len) == 0 && settings[i][len] == '=')
			return true;
	return false;
}

/* The variant whose server v runs on: itself, or its "cluster = OTHER". */
static const VariantSpec *
server_of(const ReportData *r, const VariantSpec *v)
{
	int			host = v->cluster ? experiment_variant_index(&r->spec, v->cluster) : -1;

	return host >= 0 ? &r->spec.variants[host] : v;
}

/*
 * Declared for v: in its sessions' settings, or in the "set" of its server
 * (its own, or that of the variant whose server it shares: a variant on
 * another's server has no "set" of its own).
 */
static bool
declared_setting(const ReportData *r, const VariantSpec *v, const char *name)
{
	const VariantSpec *server = server_of(r, v);

	return in_settings(server->settings, server->nsettings, name) ||
		in_settings(v->session_settings, v->nsession_settings, name);
}

static json_t *
environment_of(const ReportData *r, int v)
{
	json_t	   *variants = json_object_get(r->experiment, "variants");
	json_t	   *one = json_object_get(variants, report_variant_name(r, v));

	return json_object_get(one, "environment");
}

static const char *
row_value(json_t *env, const char *category, const char *name)
{
	size_t		i;
	json_t	   *row;

	json_array_foreach(env, i, row)
	{
		json_t	   *value = json_object_get(row, "value");

		if (strcmp(report_json_str(row, "category", ""), category) == 0 &&
			strcmp(report_json_str(row, "name", ""), name) == 0)
			return json_is_string(value) ? json_string_value(value) : "(null)";
	}
	return NULL;
}

static bool
same_string(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* Values are shown in full only when short: CONFIGURE is hundreds of bytes. */
static char *
shorten(const char *s)
{
	if (s == NULL)
		return pg_strdup("(absent)");
	if (strlen(s) <= 40)
		return psprintf("\"%s\"", s);
	return psprintf("\"%.37s...\"", s);
}

static void
compare_one(ReportData *r, int v)
{
	const VariantSpec *a = &r->spec.variants[r->baseline];
	const VariantSpec *b = &r->spec.variants[v];
	json_t	   *env_a = environment_of(r, r->baseline);
	json_t	   *env_b = environment_of(r, v);
	const VariantSpec *server_a = server_of(r, a);
	const VariantSpec *server_b = server_of(r, b);
	bool		other_build = !same_string(server_a->bindir, server_b->bindir) ||
		!same_string(server_a->conninfo, server_b->conninfo);
	json_t	   *envs[2] = {env_a, env_b};
	const char *warned[64];
	int			nwarned = 0;

	if (env_a == NULL || env_b == NULL)
		return;
	/* rows of either side; a row present on one side only also differs */
	for (int side = 0; side < 2; side++)
	{
		size_t		i;
		json_t	   *row;

		json_array_foreach(envs[side], i, row)
		{
			const char *cat = json_string_value(json_object_get(row, "category"));
			const char *name = json_string_value(json_object_get(row, "name"));
			const char *va,
					   *vb;

			if (cat == NULL || name == NULL ||
				in_list(name, ignored_rows, lengthof(ignored_rows)) ||
				(server_a->extension != server_b->extension &&
				 strcmp(name, "shared_preload_libraries") == 0) ||
				declared_setting(r, a, name) || declared_setting(r, b, name) ||
				(other_build && in_list(name, build_identity_rows, lengthof(build_identity_rows))))
				continue;
			va = row_value(env_a, cat, name);
			vb = row_value(env_b, cat, name);
			if (same_string(va, vb) || (side == 1 && va != NULL))
				continue;		/* equal, or already reported from side 0 */
			/* a setting can be both a "setting" and a "changed" row: warn once */
			if (in_list(name, warned, nwarned))
				continue;
			if (nwarned < lengthof(warned))
				warned[nwarned++] = name;
			report_warn(r, "environment differs beyond the declared settings: %s %s is %s in %s but %s in %s",
						cat, name, shorten(va), a->name, shorten(vb), b->name);
		}
	}
}

void
report_environment_warnings(ReportData *r)
{
	for (int v = 0; v < r->spec.nvariants; v++)
		if (v != r->baseline)
			compare_one(r, v);
}
