/*-------------------------------------------------------------------------
 *
 * experiment.c
 *		Parsing and checking an experiment specification: the INI file of
 *		docs/experiments.md (read with inih), and every key of it.
 *
 * Every key is also a flag of "pgbench_ext ab"; both land in
 * experiment_set(), which owns the meaning and the error messages.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "experiment.h"
#include "initdb_args.h"
#include "settings.h"
#include "pqexpbuffer.h"

#include <ini.h>
#include <limits.h>
#include <unistd.h>

static const char *const builtin_scripts[] = {"tpcb-like", "simple-update", "select-only"};

void
experiment_init(ExperimentSpec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->scale = 10;
	spec->clients[0] = 1;
	spec->nclients = 1;
	spec->jobs = pg_strdup("auto");
	spec->duration_s = 30;
	spec->rounds = 6;
	spec->warmup = 0;
	spec->protocol = pg_strdup("simple");
	spec->scripts[0] = pg_strdup("tpcb-like");
	spec->nscripts = 1;
	spec->reset = RESET_EVERY_RUN;
	spec->snapshot_probe_interval_ms = 100;
	spec->restart_auto = true;
	spec->pilot_auto = true;
	spec->pilot_rounds = PILOT_DEFAULT_ROUNDS;
	quiet_init(&spec->quiet);
}

bool
experiment_is_builtin_script(const char *script)
{
	for (int i = 0; i < lengthof(builtin_scripts); i++)
		if (strcmp(script, builtin_scripts[i]) == 0)
			return true;
	return false;
}

static char *
trim(char *s)
{
	char	   *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

/*
 * A duration: groups of a whole number and a unit (s, m, h, d), as in
 * 900s, 30m, 2h or 1h30m; a bare number is seconds.  From 1 s to 7 days.
 */
bool
experiment_parse_duration(const char *value, int *seconds)
{
	const char *p = value;
	long		total = 0;

	if (*p == '\0')
		return false;
	while (*p)
	{
		char	   *end;
		long		n;

		if (*p < '0' || *p > '9')
			return false;
		errno = 0;
		n = strtol(p, &end, 10);
		if (errno != 0 || n > 7 * 86400)
			return false;
		switch (*end)
		{
			case '\0':
				if (p != value)
					return false;	/* "1h30" : the unit of 30 is missing */
				break;
			case 's':
				break;
			case 'm':
				n *= 60;
				break;
			case 'h':
				n *= 3600;
				break;
			case 'd':
				n *= 86400;
				break;
			default:
				return false;
		}
		total += n;
		if (total > 7 * 86400)
			return false;
		p = *end ? end + 1 : end;
	}
	if (total < 1)
		return false;
	*seconds = (int) total;
	return true;
}

/* Split "a, b,c" into at most MAX_LIST trimmed, non-empty items. */
static int
split_list(const char *value, char **items)
{
	char	   *copy = pg_strdup(value);
	char	   *save = NULL;
	int			n = 0;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *item = trim(tok);

		if (*item == '\0')
			continue;
		if (n == MAX_LIST)
			return -1;
		items[n++] = pg_strdup(item);
	}
	return n;
}

/* The index of the variant called name, or -1. */
int
experiment_variant_index(const ExperimentSpec *spec, const char *name)
{
	for (int i = 0; i < spec->nvariants; i++)
		if (strcmp(spec->variants[i].name, name) == 0)
			return i;
	return -1;
}

/* The variants' names for a message: "A", "B". */
char *
experiment_variant_names(const ExperimentSpec *spec)
{
	char	   *names = pg_strdup("");

	for (int i = 0; i < spec->nvariants; i++)
		names = psprintf("%s%s\"%s\"", names, i ? ", " : "", spec->variants[i].name);
	return names;
}

static VariantSpec *
find_or_add_variant(ExperimentSpec *spec, const char *name, char **error)
{
	VariantSpec *v;
	int			i = experiment_variant_index(spec, name);

	if (i >= 0)
		return &spec->variants[i];
	if (spec->nvariants == MAX_VARIANTS)
	{
		*error = psprintf("too many variants (at most %d)", MAX_VARIANTS);
		return NULL;
	}
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char) *p) && *p != '_' && *p != '-' && *p != '.' && *p != '@')
		{
			*error = psprintf("variant name \"%s\" may contain only letters, digits, \"_\", \"-\", \".\" and \"@\"", name);
			return NULL;
		}
	v = &spec->variants[spec->nvariants++];
	memset(v, 0, sizeof(*v));
	v->name = pg_strdup(name);
	v->extension = true;
	return v;
}

/*
 * The [experiment] keys of this module, each with its parser: a parser
 * sets its key from value, or says why not in *error.  quiet.c and
 * profile_spec.c have keys of their own (experiment_key_names()).
 */
typedef bool (*KeyParser) (ExperimentSpec *spec, const char *key, const char *value,
						   char **error);

static bool
bad_int(const char *key, const char *value, char **error)
{
	return fail_with(error, "%s must be a whole number in range, got \"%s\"", key, value);
}

static bool
set_clients(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	char	   *items[MAX_LIST];
	int			n = split_list(value, items);

	if (n <= 0)
		return fail_with(error, "clients must be a comma-separated list of 1 to %d client counts, got \"%s\"", MAX_LIST, value);
	for (int i = 0; i < n; i++)
		if (!parse_int(items[i], 1, 10000, &spec->clients[i]))
			return fail_with(error, "clients must be whole numbers from 1 to 10000, got \"%s\"", items[i]);
	spec->nclients = n;
	return true;
}

static bool
set_jobs(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	int			dummy;

	if (strcmp(value, "auto") != 0 && strcmp(value, "clients") != 0 &&
		strcmp(value, "cpus") != 0 && !parse_int(value, 1, 10000, &dummy))
		return fail_with(error, "jobs must be a number, \"clients\", \"cpus\" or \"auto\", got \"%s\"", value);
	spec->jobs = pg_strdup(value);
	return true;
}

static bool
set_duration(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	if (!parse_int(value, 1, 86400, &spec->duration_s))
		return bad_int(key, value, error);
	spec->transactions = 0;
	return true;
}

static bool
set_transactions(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	if (!parse_int(value, 1, INT_MAX, &spec->transactions))
		return bad_int(key, value, error);
	spec->duration_s = 0;
	return true;
}

static bool
set_rounds(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	spec->rounds_auto = strcmp(value, "auto") == 0;
	if (!spec->rounds_auto && !parse_int(value, 1, 100000, &spec->rounds))
		return fail_with(error, "rounds must be a whole number from 1 to 100000 or \"auto\" (with a budget), got \"%s\"", value);
	return true;
}

static bool
set_budget(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	if (!experiment_parse_duration(value, &spec->budget_s))
		return fail_with(error, "budget must be a duration such as 900s, 30m, 2h or 1h30m (a bare number is seconds; from 1 s to 7 days), got \"%s\"", value);
	return true;
}

static bool
set_reference(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(value, &end);
	if (errno != 0 || end == value || *end != '\0' || !(v >= 0.01 && v <= 100))
		return fail_with(error, "reference must be a ratio B/A from 0.01 to 100 (0.94: B 6%% below A), got \"%s\"", value);
	spec->reference = v;
	return true;
}

static bool
set_script(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	int			n = split_list(value, spec->scripts);

	if (n <= 0)
		return fail_with(error, "script must list 1 to %d scripts, got \"%s\"", MAX_LIST, value);
	/* runs.csv, the reports and the plots hold script names on one line */
	for (int i = 0; i < n; i++)
		for (const char *p = spec->scripts[i]; *p; p++)
			if ((unsigned char) *p < 0x20 || *p == 0x7f)
				return fail_with(error, "script \"%s\" has a control character (such as a line break) in its name; rename the file",
								 spec->scripts[i]);
	spec->nscripts = n;
	return true;
}

static bool
set_protocol(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	if (strcmp(value, "simple") != 0 && strcmp(value, "extended") != 0 &&
		strcmp(value, "prepared") != 0)
		return fail_with(error, "protocol must be simple, extended or prepared, got \"%s\"", value);
	spec->protocol = pg_strdup(value);
	return true;
}

static bool
set_seed(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	char	   *end;

	errno = 0;
	spec->seed = strtoull(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0')
		return fail_with(error, "seed must be a non-negative whole number, got \"%s\"", value);
	spec->seed_given = true;
	return true;
}

static bool
set_pgbench_args(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	spec->pgbench_args = pg_strdup(value);
	return true;
}

static bool
set_reset(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	if (strcmp(value, "every-run") == 0 || strcmp(value, "on") == 0)
		spec->reset = RESET_EVERY_RUN;
	else if (strcmp(value, "never") == 0 || strcmp(value, "off") == 0)
		spec->reset = RESET_NEVER;
	else
		return fail_with(error, "reset must be \"every-run\" or \"never\", got \"%s\"", value);
	return true;
}

static bool
set_snapshot_probe_interval(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	if (!parse_int(value, 10, 60000, &spec->snapshot_probe_interval_ms))
		return fail_with(error, "snapshot_probe_interval must be a whole number of milliseconds from 10 to 60000, got \"%s\"", value);
	return true;
}

static bool
set_restart(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	spec->restart_auto = strcmp(value, "auto") == 0;
	spec->restart_every = 0;
	if (!spec->restart_auto && strcmp(value, "never") != 0 &&
		!parse_int(value, 1, 100000, &spec->restart_every))
		return fail_with(error, "restart must be a number of rounds (1 to 100000), \"never\" or \"auto\", got \"%s\"", value);
	return true;
}

static bool
set_pilot(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	spec->pilot_auto = strcmp(value, "auto") == 0;
	if (spec->pilot_auto)
		spec->pilot_rounds = PILOT_DEFAULT_ROUNDS;
	else if (strcmp(value, "off") == 0)
		spec->pilot_rounds = 0;
	else if (!parse_int(value, PILOT_MIN_ROUNDS, PILOT_MAX_ROUNDS, &spec->pilot_rounds))
		return fail_with(error, "pilot must be auto (%d paired rounds before the first counted run where the host is loaded and its noise at such a load was never measured), "
						 "off, or a number of rounds from %d to %d (always), got \"%s\"",
						 PILOT_DEFAULT_ROUNDS, PILOT_MIN_ROUNDS, PILOT_MAX_ROUNDS, value);
	return true;
}

/*
 * A key of parse NULL is a whole number from min to max, or with max 0 an
 * on/off word, at offset in the specification.
 */
static const struct
{
	const char *key;
	KeyParser	parse;
	size_t		offset;
	int			min,
				max;
}			experiment_keys[] = {
	{"scale", NULL, offsetof(ExperimentSpec, scale), 1, 100000},
	{"clients", set_clients}, {"jobs", set_jobs},
	{"duration", set_duration}, {"transactions", set_transactions},
	{"rounds", set_rounds}, {"budget", set_budget},
	{"min_rounds", NULL, offsetof(ExperimentSpec, min_rounds), 1, 100000},
	{"reference", set_reference},
	{"warmup", NULL, offsetof(ExperimentSpec, warmup), 0, 1000},
	{"script", set_script}, {"protocol", set_protocol},
	{"unlogged", NULL, offsetof(ExperimentSpec, unlogged)},
	{"seed", set_seed}, {"pgbench_args", set_pgbench_args},
	{"reset", set_reset},
	{"snapshot_probe", NULL, offsetof(ExperimentSpec, snapshot_probe)},
	{"snapshot_probe_interval", set_snapshot_probe_interval}, {"restart", set_restart},
	{"pilot", set_pilot},
};

/* Every [experiment] key, comma-separated: this module's, quiet.c's, profile_spec.c's */
static char *
experiment_key_names(void)
{
	PQExpBufferData buf;

	initPQExpBuffer(&buf);
	for (int i = 0; i < lengthof(experiment_keys); i++)
		appendPQExpBuffer(&buf, "%s%s", i ? ", " : "", experiment_keys[i].key);
	for (int i = 0; quiet_keys[i]; i++)
		appendPQExpBuffer(&buf, ", %s", quiet_keys[i]);
	for (int i = 0; profile_keys[i]; i++)
		appendPQExpBuffer(&buf, ", %s", profile_keys[i]);
	return buf.data;
}

static bool
set_experiment_key(ExperimentSpec *spec, const char *key, const char *value, char **error)
{
	*error = NULL;
	for (int i = 0; i < lengthof(experiment_keys); i++)
	{
		char	   *field = (char *) spec + experiment_keys[i].offset;

		if (strcmp(key, experiment_keys[i].key) != 0)
			continue;
		if (experiment_keys[i].parse)
			return experiment_keys[i].parse(spec, key, value, error);
		if (experiment_keys[i].max == 0 && !parse_bool_word(value, (bool *) field))
			return fail_with(error, "%s must be on or off, got \"%s\"", key, value);
		if (experiment_keys[i].max > 0 &&
			!parse_int(value, experiment_keys[i].min, experiment_keys[i].max, (int *) field))
			return bad_int(key, value, error);
		return true;
	}
	if (quiet_set_key(&spec->quiet, key, value, error) || *error != NULL)
		return *error == NULL;
	if (profile_set_key(&spec->profile, key, value, error) || *error != NULL)
		return *error == NULL;
	*error = psprintf("unknown key \"%s\" in [experiment]; known keys: %s", key, experiment_key_names());
	return false;
}

/*
 * "set" and "session_set": a name=value appended to the variant's list,
 * once settings.c has accepted it (the same checks for a file, flags and
 * a recorded experiment.json).
 */
static bool
add_setting(const VariantSpec *v, const char *key, const char *value,
			char **list, int *n, char **error)
{
	const char *eq = strchr(value, '=');
	char	   *normalized;
	char	   *problem;

	if (eq == NULL || eq == value)
		return fail_with(error, "%s must be name=value, got \"%s\" in variant \"%s\"", key, value, v->name);
	if (!setting_check(key, value, &normalized, &problem))
		return fail_with(error, "variant \"%s\": %s", v->name, problem);
	if (*n == MAX_LIST)
		return fail_with(error, "too many %s settings in variant \"%s\" (at most %d)", key, v->name, MAX_LIST);
	list[(*n)++] = normalized;
	return true;
}

/* One [variant] key */
static bool
set_variant_key(VariantSpec *v, const char *key, const char *value, char **error)
{
	if (strcmp(key, "bindir") == 0)
		v->bindir = pg_strdup(value);
	else if (strcmp(key, "conninfo") == 0)
		v->conninfo = pg_strdup(value);
	else if (strcmp(key, "cluster") == 0)
		v->cluster = pg_strdup(value);
	else if (strcmp(key, "set") == 0)
		return add_setting(v, key, value, v->settings, &v->nsettings, error);
	else if (strcmp(key, "session_set") == 0)
		return add_setting(v, key, value, v->session_settings, &v->nsession_settings, error);
	else if (strcmp(key, "extension") == 0)
	{
		if (!parse_bool_word(value, &v->extension))
			return fail_with(error, "extension must be on or off, got \"%s\" in variant \"%s\"", value, v->name);
	}
	else if (strcmp(key, "initdb_args") == 0)
	{
		/* initdb -c (PostgreSQL 16) would write settings past settings.c's checks */
		if (!initdb_args_check(v->name, value, error))
			return false;
		v->initdb_args = pg_strdup(value);
	}
	else if (strcmp(key, "snapshot_probe") == 0)
	{
		bool		on;

		if (!parse_bool_word(value, &on))
			return fail_with(error, "snapshot_probe must be on or off, got \"%s\" in variant \"%s\"", value, v->name);
		v->snapshot_probe = on ? PROBE_ON : PROBE_OFF;
	}
	else if (strcmp(key, "source") == 0)
		v->source = pg_strdup(value);
	else if (strcmp(key, "patch") == 0)
	{
		if (v->npatches == MAX_LIST)
			return fail_with(error, "too many patches in variant \"%s\" (at most %d)", v->name, MAX_LIST);
		v->patches[v->npatches++] = pg_strdup(value);
	}
	else if (strcmp(key, "cflags") == 0)
		v->cflags = pg_strdup(value);
	else if (strcmp(key, "configure") == 0)
		v->configure = pg_strdup(value);
	else if (strcmp(key, "pgo") == 0 || strcmp(key, "lto") == 0 || strcmp(key, "symbols") == 0)
	{
		if (!parse_bool_word(value, key[0] == 'p' ? &v->pgo : key[0] == 'l' ? &v->lto : &v->symbols))
			return fail_with(error, "%s must be on or off, got \"%s\" in variant \"%s\"", key, value, v->name);
	}
	else if (strcmp(key, "build_seeds") == 0 || strcmp(key, "build_seed") == 0)
	{
		if (!parse_int(value, 1, 64, strcmp(key, "build_seeds") == 0 ? &v->build_seeds : &v->build_seed))
			return fail_with(error, "%s must be a whole number from 1 to 64, got \"%s\" in variant \"%s\"", key, value, v->name);
	}
	else
		return fail_with(error, "unknown key \"%s\" in [variant %s]; known keys: bindir, conninfo, cluster, set, session_set, extension, initdb_args, snapshot_probe, source, patch, cflags, configure, pgo, lto, symbols, build_seeds", key, v->name);
	return true;
}

/*
 * Apply one key.  section is "experiment" or "variant NAME".  On failure
 * returns false with a message that names the key and the accepted values.
 */
bool
experiment_set(ExperimentSpec *spec, const char *section, const char *key,
			   const char *value, char **error)
{
	char	   *val = trim(pg_strdup(value));

	if (strcmp(section, "experiment") == 0)
		return set_experiment_key(spec, key, val, error);
	if (strncmp(section, "variant", 7) == 0 && (section[7] == ' ' || section[7] == '\0'))
	{
		char	   *name = trim(pg_strdup(section + 7));
		VariantSpec *v;

		if (*name == '\0')
			return fail_with(error, "a [variant] section needs a name, as in [variant A]");
		if ((v = find_or_add_variant(spec, name, error)) == NULL)
			return false;
		return set_variant_key(v, key, val, error);
	}
	*error = psprintf("unknown section [%s]; expected [experiment] or [variant NAME]", section);
	return false;
}

typedef struct IniState
{
	ExperimentSpec *spec;
	FILE	   *file;
	int			line;			/* the line inih is processing */
	int			error_line;		/* the first line the handler refused */
	char	   *error;
} IniState;

/* inih's line reader, counting lines so errors can name theirs. */
static char *
read_ini_line(char *buf, int size, void *stream)
{
	IniState   *st = (IniState *) stream;
	char	   *line = fgets(buf, size, st->file);

	if (line)
		st->line++;
	return line;
}

static int
read_ini_entry(void *user, const char *section, const char *name, const char *value)
{
	IniState   *st = (IniState *) user;
	char	   *error;

	/* newer inih versions report a bare [section] header with name NULL */
	if (name == NULL || st->error != NULL)
		return st->error == NULL;
	if (*section == '\0')
		error = psprintf("key \"%s\" is outside any [section]", name);
	else if (experiment_set(st->spec, section, name, value, &error))
		return 1;
	st->error = error;
	st->error_line = st->line;
	return 0;
}

bool
experiment_read_ini(ExperimentSpec *spec, const char *path, char **error)
{
	IniState	st = {spec, NULL, 0, 0, NULL};
	int			rc;

	if ((st.file = fopen(path, "re")) == NULL)
		return fail_with(error, "could not open experiment file \"%s\": %m", path);
	rc = ini_parse_stream(read_ini_line, &st, read_ini_entry, &st);
	fclose(st.file);
	if (rc == -2)
		return fail_with(error, "out of memory reading the experiment file");
	if (rc > 0)
	{
		*error = (st.error && st.error_line == rc)
			? psprintf("%s:%d: %s", path, rc, st.error)
			: psprintf("%s:%d: syntax error (expected [section], key = value, or a ; comment)", path, rc);
		return false;
	}
	return true;
}

int
experiment_jobs_for(const ExperimentSpec *spec, int clients)
{
	int			jobs;
	long		cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (cpus < 1)
		cpus = 1;
	if (strcmp(spec->jobs, "clients") == 0)
		jobs = clients;
	else if (strcmp(spec->jobs, "cpus") == 0)
		jobs = (int) cpus;
	else if (strcmp(spec->jobs, "auto") == 0)
		jobs = Min(clients, (int) cpus);
	else
		jobs = atoi(spec->jobs);
	/* pgbench refuses more threads than clients */
	return Max(1, Min(jobs, clients));
}
