/*-------------------------------------------------------------------------
 *
 * settings.c
 *		The "set" and "session_set" settings of a variant: checked when
 *		they are given (from an experiment file, flags, or the
 *		experiment.json of --rerun and --resume), and written into a
 *		managed cluster's configuration the way ALTER SYSTEM writes
 *		postgresql.auto.conf.
 *
 * A managed cluster is private: trust authentication on a socket in a
 * directory only the server account can enter, nothing on TCP.  Settings
 * that would open it, move it, or make it run commands are refused with
 * the reason (docs/security.md, "Managed clusters"); so are values the
 * configuration file cannot hold (control characters such as a newline,
 * which would add lines of its own).
 *
 * shared_preload_libraries is merged with pgbench_ext's, never replaces
 * it: its value must read as a plain list of library names, and the
 * other ways of setting it a second time (include directives, a session
 * setting) are refused.
 *
 * The settings that name libraries for the server to load —
 * shared_preload_libraries, local_preload_libraries,
 * session_preload_libraries, jit_provider — take bare names only, each
 * found in the variant's pkglibdir before its server starts: a path would
 * load code from outside the installation, the reason
 * dynamic_library_path is refused.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "settings.h"
#include "subprocess.h"

#include <sys/stat.h>

#include "common/logging.h"
#include "pqexpbuffer.h"

typedef struct RefusedSetting
{
	const char *name;
	bool		prefix;			/* every setting whose name starts so */
	const char *why;
} RefusedSetting;

static const RefusedSetting refused[] = {
	{"listen_addresses", false, "it would open the server to the network"},
	{"port", false, "each managed server gets its own port from pgbench_ext"},
	{"unix_socket_directories", false, "the server's socket lives in a private directory"},
	{"unix_socket_group", false, "it would open the server's socket to others"},
	{"unix_socket_permissions", false, "it would open the server's socket to others"},
	{"hba_file", false, "a managed server authenticates only on its private socket"},
	{"ident_file", false, "a managed server authenticates only on its private socket"},
	{"config_file", false, "it would move the server's configuration"},
	{"data_directory", false, "it would move the server's data"},
	{"external_pid_file", false, "it would make the server write a file outside its directory"},
	{"ssl", true, "a managed server takes no network connections (and ssl_passphrase_command runs a command)"},
	{"krb_", true, "a managed server takes no network connections"},
	{"bonjour", true, "it would advertise the server on the network"},
	{"archive_command", false, "it runs a shell command as the server account"},
	{"archive_cleanup_command", false, "it runs a shell command as the server account"},
	{"restore_command", false, "it runs a shell command as the server account"},
	{"recovery_end_command", false, "it runs a shell command as the server account"},
	{"archive_library", false, "it loads code into the server to archive WAL"},
	{"dynamic_library_path", false, "it would load server code from outside the variant's installation"},
	{"extension_control_path", false, "it would load extensions from outside the variant's installation"},
	{"include", false, "it reads settings from another file, past these checks"},
	{"include_if_exists", false, "it reads settings from another file, past these checks"},
	{"include_dir", false, "it reads settings from other files, past these checks"},
};

static char *
trim_copy(const char *s, size_t len)
{
	while (len > 0 && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	return pnstrdup(s, len);
}

/* A name as the configuration file's lexer reads one: ID or ID.ID */
static bool
valid_setting_name(const char *name)
{
	bool		start = true;
	int			dots = 0;

	for (const char *p = name; *p; p++)
	{
		if (*p == '.' && !start && dots++ == 0)
			start = true;
		else if (isalpha((unsigned char) *p) || *p == '_' || (!start && isdigit((unsigned char) *p)))
			start = false;
		else
			return false;
	}
	return !start;
}

static const char *
refusal_reason(const char *name)
{
	for (int i = 0; i < lengthof(refused); i++)
		if (refused[i].prefix
			? pg_strncasecmp(name, refused[i].name, strlen(refused[i].name)) == 0
			: pg_strcasecmp(name, refused[i].name) == 0)
			return refused[i].why;
	return NULL;
}

/* settings whose value names libraries the server loads */
static const char *const library_settings[] = {
	"shared_preload_libraries", "local_preload_libraries", "session_preload_libraries", "jit_provider"
};

static bool
is_library_setting(const char *name)
{
	for (int i = 0; i < lengthof(library_settings); i++)
		if (pg_strcasecmp(name, library_settings[i]) == 0)
			return true;
	return false;
}

/*
 * A library's bare name: what the server looks up in pkglibdir ("NAME" or
 * "NAME.so"); no directory, no "$libdir", nothing hidden.
 */
static bool
bare_library_name(const char *name)
{
	if (*name == '\0' || *name == '.')
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char) *p) && strchr("_-.+", *p) == NULL)
			return false;
	return true;
}

/*
 * The items of a shared_preload_libraries value into list (comma-separated,
 * pgbench_ext's order kept, duplicates dropped).  A value wholly in single
 * quotes, as in postgresql.conf, is accepted too.  False for anything that
 * is not a plain list of library names.
 */
static bool
preload_items(const char *value, PQExpBuffer list)
{
	size_t		len = strlen(value);
	char	   *copy;
	char	   *save = NULL;

	if (len >= 2 && value[0] == '\'' && value[len - 1] == '\'')
		copy = pnstrdup(value + 1, len - 2);
	else
		copy = pg_strdup(value);
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save))
	{
		char	   *name = trim_copy(item, strlen(item));
		char	   *padded = psprintf(",%s,", list->data);

		if (*name == '\0')
			return false;
		if (!bare_library_name(name))
			return false;
		if (strstr(padded, psprintf(",%s,", name)) == NULL)
			appendPQExpBuffer(list, "%s%s", list->len ? "," : "", name);
	}
	return true;
}

/*
 * Check one "name=value" (text has the "=") of key, "set" or "session_set".
 * On success *normalized is the same with the blanks around name and value
 * removed; on failure *error says what is wrong and why (not the variant).
 */
bool
setting_check(const char *key, const char *text, char **normalized, char **error)
{
	const char *eq = strchr(text, '=');
	char	   *name = trim_copy(text, eq - text);
	char	   *value = trim_copy(eq + 1, strlen(eq + 1));
	const char *why;

	if (!valid_setting_name(name))
		return fail_with(error, "%s: \"%s\" is not a setting name (letters, digits and \"_\", optionally PREFIX.NAME)",
						 key, name);
	for (const char *p = value; *p; p++)
		if ((unsigned char) *p < 0x20 || *p == 0x7f)
			return fail_with(error, "%s %s: the value contains %s, which a configuration file cannot hold",
							 key, name, *p == '\n' || *p == '\r' ? "a line break" : "a control character");
	if ((why = refusal_reason(name)) != NULL)
		return fail_with(error, "%s %s is refused: %s (docs/security.md, \"Managed clusters\")", key, name, why);
	/* shared_preload_libraries: below, with the merge's own rule */
	if (is_library_setting(name) && pg_strcasecmp(name, "shared_preload_libraries") != 0)
	{
		PQExpBufferData list;
		bool		ok;

		initPQExpBuffer(&list);
		ok = preload_items(value, &list) && list.len > 0 &&
			(pg_strcasecmp(name, "jit_provider") != 0 || strchr(list.data, ',') == NULL);
		termPQExpBuffer(&list);
		if (!ok)
			return fail_with(error, "%s %s = \"%s\" is refused: a library is named by its bare name (letters, digits, \"_ - . +\"), which the server finds in the variant's installation (pkglibdir); a path or \"$libdir\" would load code from elsewhere (docs/security.md, \"Managed clusters\")",
							 key, name, value);
	}
	if (pg_strcasecmp(name, "shared_preload_libraries") == 0)
	{
		PQExpBufferData list;
		bool		ok;

		if (strcmp(key, "set") != 0)
			return fail_with(error, "%s shared_preload_libraries is refused: libraries are loaded at server start; give them with set", key);
		initPQExpBuffer(&list);
		ok = preload_items(value, &list);
		termPQExpBuffer(&list);
		if (!ok)
			return fail_with(error, "%s shared_preload_libraries = \"%s\" is refused: it must be a comma-separated list of library names, which is merged with pgbench_ext's; each a bare name (letters, digits, \"_ - . +\"), which the server finds in the variant's installation (pkglibdir): a path or \"$libdir\" would load code from elsewhere",
							 key, value);
	}
	*normalized = psprintf("%s=%s", name, value);
	return true;
}

/*
 * Every library the variant's settings name (set and session_set) is in
 * the pkglibdir of the installation in bindir, as NAME or NAME.so: checked
 * before its server starts, so that a name cannot reach past it either.
 */
bool
settings_check_libraries(const VariantSpec *v, const char *bindir, char **error)
{
	char	   *pkglibdir = NULL;

	for (int s = 0; s < v->nsettings + v->nsession_settings; s++)
	{
		const char *setting = s < v->nsettings ? v->settings[s] : v->session_settings[s - v->nsettings];
		char	   *name = pg_strdup(setting);
		char	   *value = strchr(name, '=');
		PQExpBufferData list;
		char	   *save = NULL;

		if (value == NULL)
			continue;
		*value++ = '\0';
		if (!is_library_setting(name))
			continue;
		if (pkglibdir == NULL && (pkglibdir = pg_config_dir(bindir, "--pkglibdir")) == NULL)
			return fail_with(error, "variant \"%s\" sets %s, but the pkglibdir of its installation could not be had from \"%s/pg_config\"",
							 v->name, name, bindir);
		initPQExpBuffer(&list);
		(void) preload_items(value, &list);
		for (char *lib = strtok_r(list.data, ",", &save); lib; lib = strtok_r(NULL, ",", &save))
		{
			struct stat st;

			if (stat(psprintf("%s/%s", pkglibdir, lib), &st) != 0 &&
				stat(psprintf("%s/%s.so", pkglibdir, lib), &st) != 0)
				return fail_with(error, "variant \"%s\": %s names library \"%s\", which is not in its installation's pkglibdir \"%s\"\n"
								 "hint: Install the library into that installation, or name one that is there.",
								 v->name, name, lib, pkglibdir);
		}
		termPQExpBuffer(&list);
	}
	return true;
}

/* Whether one of settings ("name=value", as setting_check() normalized them) sets name. */
bool
settings_have(char *const *settings, int n, const char *name)
{
	size_t		len = strlen(name);

	for (int i = 0; i < n; i++)
		if (pg_strncasecmp(settings[i], name, len) == 0 && settings[i][len] == '=')
			return true;
	return false;
}

/* A value as a quoted string of a configuration file, as ALTER SYSTEM writes it. */
char *
setting_quote(const char *value)
{
	char	   *escaped = escape_single_quotes_ascii(value);
	char	   *quoted;

	if (escaped == NULL)
		pg_fatal("out of memory");
	quoted = psprintf("'%s'", escaped);
	free(escaped);
	return quoted;
}

/*
 * The variant's "set" settings as configuration lines, checked by
 * setting_check() when they were given; every shared_preload_libraries
 * merged into one, after pgbench_ext unless the variant turns it off.
 */
char *
settings_conf_lines(const VariantSpec *v)
{
	PQExpBufferData lines;
	PQExpBufferData preload;

	initPQExpBuffer(&lines);
	initPQExpBuffer(&preload);
	if (v->extension)
		appendPQExpBufferStr(&preload, "pgbench_ext");
	for (int i = 0; i < v->nsettings; i++)
	{
		char	   *name = pg_strdup(v->settings[i]);
		char	   *value = strchr(name, '=');

		*value++ = '\0';
		if (pg_strcasecmp(name, "shared_preload_libraries") == 0)
			(void) preload_items(value, &preload);
		else
			appendPQExpBuffer(&lines, "%s = %s\n", name, setting_quote(value));
	}
	appendPQExpBuffer(&lines, "shared_preload_libraries = %s\n", setting_quote(preload.data));
	termPQExpBuffer(&preload);
	return lines.data;
}
