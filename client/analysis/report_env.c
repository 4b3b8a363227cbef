/*-------------------------------------------------------------------------
 *
 * report_env.c
 *		Warn about every difference between a variant's environment() rows
 *		and the baseline's that the experiment did not declare.
 *
 * An A/B is only about what it declares (the "set" lines, the bindir).
 * A build with assertions on one side only, or fsync off on one server,
 * makes the verdict meaningless, so such differences are warnings.  Which
 * rows are declared, and which are ignored because they differ between
 * any two clusters and say nothing about speed, is in docs/reports.md
 * ("Declared differences"); when server_version_num differs the release
 * is declared and the build's words and changed defaults are warned of
 * (docs/versions.md).  CFLAGS and CONFIGURE are compared word by word,
 * and the warning names the words only one side has, less those its
 * "cflags" or "configure" declares.
 *
 * Unlike the drift and outlier warnings these judge no sample: the rows
 * are read, so they have no false-alarm rate by chance, and the rows that
 * the client makes differ between its own servers are ignored, so that
 * two servers of one set-up never warn.
 *
 * In report.h's map: the analysis stage.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"
#include "settings.h"
#include "words.h"

#include "pqexpbuffer.h"

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

static const char *const release_rows[] = {
	"version", "server_version_num",
};

/*
 * configure options of the packaging and of the build process, which do
 * not change the server's code; so do the directories (--bindir, ...).
 */
static const char *const packaging_options[] = {
	"--prefix", "--exec-prefix", "--build", "--host", "--target",
	"--with-extra-version", "--with-system-tzdata", "--with-pgport",
	"--disable-option-checking", "--disable-silent-rules",
	"--disable-maintainer-mode", "--disable-dependency-tracking",
	"--enable-depend", "--disable-rpath", "--enable-tap-tests",
};

static bool
in_list(const char *name, const char *const *list, int n)
{
	for (int i = 0; i < n; i++)
		if (pg_strcasecmp(list[i], name) == 0)
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

	return settings_have(server->settings, server->nsettings, name) ||
		settings_have(v->session_settings, v->nsession_settings, name);
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

/* The row is there with a value (NULL: absent from that release, or unreadable). */
static bool
row_has_value(json_t *env, const char *category, const char *name)
{
	size_t		i;
	json_t	   *row;

	json_array_foreach(env, i, row)
	{
		if (strcmp(report_json_str(row, "category", ""), category) == 0 &&
			strcmp(report_json_str(row, "name", ""), name) == 0)
			return json_is_string(json_object_get(row, "value"));
	}
	return false;
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

/* "PostgreSQL 18.6" of "PostgreSQL 18.6 on x86_64-pc-linux-gnu, compiled by ..." */
static char *
release_name(json_t *env)
{
	const char *version = row_value(env, "server", "version");
	const char *on = version ? strstr(version, " on ") : NULL;

	if (version == NULL)
		return pg_strdup("PostgreSQL");
	return on ? pnstrdup(version, on - version) : pg_strdup(version);
}

static bool
configure_option_shapes_code(const char *word)
{
	size_t		name_len = strcspn(word, "=");
	char	   *name = pnstrdup(word, name_len);
	bool		shapes;

	/* VAR=value words: CFLAGS has a row of its own, the rest name tools */
	shapes = strncmp(word, "--", 2) == 0 &&
		!(name_len > 3 && strcmp(name + name_len - 3, "dir") == 0) &&
		!in_list(name, packaging_options, lengthof(packaging_options));
	pfree(name);
	return shapes;
}

/*
 * The words of text_a that text_b lacks, less those a variant's own key
 * declares (declared_a, declared_b) and, for CONFIGURE, the options that
 * do not shape the server's code.
 */
static char *
words_only_in(const char *text_a, const char *text_b, const char *declared_a,
			  const char *declared_b, bool configure)
{
	char	   *error = NULL;
	int			na = 0,
				nb = 0,
				nda = 0,
				ndb = 0;
	char	  **wa = split_words(text_a ? text_a : "", &na, &error);
	char	  **wb = split_words(text_b ? text_b : "", &nb, &error);
	char	  **da = split_words(declared_a ? declared_a : "", &nda, &error);
	char	  **db = split_words(declared_b ? declared_b : "", &ndb, &error);
	PQExpBufferData only;

	initPQExpBuffer(&only);
	for (int i = 0; wa && i < na; i++)
		if ((!configure || configure_option_shapes_code(wa[i])) &&
			!string_in(wa[i], wa, i) && !(wb && string_in(wa[i], wb, nb)) &&
			!(da && string_in(wa[i], da, nda)) && !(db && string_in(wa[i], db, ndb)))
			appendPQExpBuffer(&only, "%s%s", only.len ? ", " : "", wa[i]);
	return only.data;
}

/*
 * CFLAGS and CONFIGURE, compared word by word: hundreds of bytes that
 * differ in a few words, the ones the warning names.
 */
static void
warn_words(ReportData *r, const VariantSpec *a, const VariantSpec *b, const char *name,
		   const char *va, const char *vb, const char *what)
{
	bool		configure = strcmp(name, "CONFIGURE") == 0;
	const char *declared_a = configure ? a->configure : a->cflags;
	const char *declared_b = configure ? b->configure : b->cflags;
	char	   *only_a = words_only_in(va, vb, declared_a, declared_b, configure);
	char	   *only_b = words_only_in(vb, va, declared_b, declared_a, configure);

	if (only_a[0] == '\0' && only_b[0] == '\0')
		return;
	report_warn(r, "%s only %s has: %s; only %s has: %s", what,
				a->name, only_a[0] ? only_a : "none", b->name, only_b[0] ? only_b : "none");
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
	bool		other_release;
	PQExpBufferData one_release;

	if (env_a == NULL || env_b == NULL)
		return;
	other_release = row_has_value(env_a, "server", "server_version_num") &&
		row_has_value(env_b, "server", "server_version_num") &&
		strcmp(row_value(env_a, "server", "server_version_num"),
			   row_value(env_b, "server", "server_version_num")) != 0;
	initPQExpBuffer(&one_release);
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
				(other_release && in_list(name, release_rows, lengthof(release_rows))) ||
				(other_build && !other_release &&
				 in_list(name, build_identity_rows, lengthof(build_identity_rows))))
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
			if (other_release &&
				!(row_has_value(env_a, cat, name) && row_has_value(env_b, cat, name)))
				appendPQExpBuffer(&one_release, "%s%s (%s)", one_release.len ? ", " : "", name,
								  row_has_value(env_a, cat, name) ? a->name : b->name);
			else if (strcmp(name, "CONFIGURE") == 0)
				warn_words(r, a, b, name, va, vb,
						   "the builds differ beyond the release: configure options");
			else if (strcmp(name, "CFLAGS") == 0)
				warn_words(r, a, b, name, va, vb,
						   "environment differs beyond the declared settings: build CFLAGS");
			else
				report_warn(r, "environment differs beyond the declared settings: %s %s is %s in %s but %s in %s",
							cat, name, shorten(va), a->name, shorten(vb), b->name);
		}
	}
	if (other_release)
		report_declare(r, "the release: %s runs %s, server_version_num %s; %s runs %s, server_version_num %s%s%s",
					   a->name, release_name(env_a), row_value(env_a, "server", "server_version_num"),
					   b->name, release_name(env_b), row_value(env_b, "server", "server_version_num"),
					   one_release.len ? "; set or present in one release only, not compared: " : "",
					   one_release.data);
	termPQExpBuffer(&one_release);
}

/* Warnings and the declared release difference of every variant against the baseline. */
void
report_environment_warnings(ReportData *r)
{
	for (int v = 0; v < r->spec.nvariants; v++)
		if (v != r->baseline)
			compare_one(r, v);
}
