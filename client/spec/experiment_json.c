/*-------------------------------------------------------------------------
 *
 * experiment_json.c
 *		An experiment specification as JSON: written into a results
 *		directory's experiment.json (and a bisect's bisect.json), and read
 *		back from one, which may be anyone's.
 *
 * Reading goes through experiment_set(), key by key, so a recorded
 * specification passes every check a file or flags would; each list is
 * bounded before its items are read.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "experiment.h"
#include "pqexpbuffer.h"

static json_t *
json_string_list(char *const *items, int n)
{
	json_t	   *arr = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(arr, json_string(items[i]));
	return arr;
}

/* A key of "auto", a word for none (0) or a count, as the file takes it */
static json_t *
auto_word_or_count(bool is_auto, int count, const char *none_word)
{
	if (is_auto)
		return json_string("auto");
	return count == 0 ? json_string(none_word) : json_integer(count);
}

json_t *
experiment_to_json(const ExperimentSpec *spec)
{
	json_t	   *exp;
	json_t	   *clients = json_array();
	json_t	   *variants = json_array();

	for (int i = 0; i < spec->nclients; i++)
		json_array_append_new(clients, json_integer(spec->clients[i]));
	exp = json_pack("{s:i, s:o, s:s}", "scale", spec->scale, "clients", clients, "jobs", spec->jobs);
	if (spec->duration_s > 0)
		json_object_set_new(exp, "duration", json_integer(spec->duration_s));
	else
		json_object_set_new(exp, "transactions", json_integer(spec->transactions));
	if (spec->rounds_auto)
		json_object_update_new(exp, json_pack("{s:s, s:i, s:o*, s:o*}", "rounds", "auto",
											  "budget", spec->budget_s,
											  "min_rounds", spec->min_rounds > 0 ? json_integer(spec->min_rounds) : NULL,
											  "reference", spec->reference > 0 ? json_real(spec->reference) : NULL));
	else
		json_object_set_new(exp, "rounds", json_integer(spec->rounds));
	/* the seed as a string: JSON readers lose precision past 2^53 */
	json_object_update_new(exp, json_pack("{s:i, s:o, s:s, s:b, s:s, s:s*, s:s, s:b, s:i, s:o, s:o}",
										  "warmup", spec->warmup,
										  "script", json_string_list(spec->scripts, spec->nscripts),
										  "protocol", spec->protocol, "unlogged", spec->unlogged,
										  "seed", psprintf(UINT64_FORMAT, spec->seed),
										  "pgbench_args", spec->pgbench_args,
										  "reset", spec->reset == RESET_EVERY_RUN ? "every-run" : "never",
										  "snapshot_probe", spec->snapshot_probe,
										  "snapshot_probe_interval", spec->snapshot_probe_interval_ms,
										  "restart", auto_word_or_count(spec->restart_auto, spec->restart_every, "never"),
										  "pilot", auto_word_or_count(spec->pilot_auto, spec->pilot_rounds, "off")));
	quiet_spec_to_json(&spec->quiet, exp);
	profile_spec_to_json(&spec->profile, exp);

	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];
		json_t	   *vj;

		vj = json_pack("{s:s, s:s*, s:s*, s:s*, s:o, s:o*, s:b, s:s*, s:o*}", "name", v->name,
					   "bindir", v->source == NULL ? v->bindir : NULL,
					   "conninfo", v->conninfo, "cluster", v->cluster,
					   "set", json_string_list(v->settings, v->nsettings),
					   "session_set", v->nsession_settings > 0
					   ? json_string_list(v->session_settings, v->nsession_settings) : NULL,
					   "extension", v->extension, "initdb_args", v->initdb_args,
					   "snapshot_probe", v->snapshot_probe != PROBE_AS_EXPERIMENT
					   ? json_boolean(v->snapshot_probe == PROBE_ON) : NULL);
		if (v->source)
			json_object_update_new(vj, json_pack("{s:s, s:o, s:s*, s:s*, s:b, s:b, s:o*, s:o*}",
												 "source", v->source,
												 "patch", json_string_list(v->patches, v->npatches),
												 "cflags", v->cflags, "configure", v->configure,
												 "pgo", v->pgo, "lto", v->lto,
												 "symbols", v->symbols ? json_true() : NULL,
												 "build_seed", v->build_seed > 0 ? json_integer(v->build_seed) : NULL));
		json_array_append_new(variants, vj);
	}
	return json_pack("{s:o, s:o}", "experiment", exp, "variants", variants);
}

/*
 * A JSON value as the text experiment_set() accepts for the same key, or
 * NULL for a type no key has (an object, null, a fraction, a list of
 * anything but strings and numbers).
 */
static char *
json_value_text(json_t *value)
{
	if (json_is_string(value))
		return pg_strdup(json_string_value(value));
	if (json_is_integer(value))
		return psprintf("%lld", (long long) json_integer_value(value));
	if (json_is_real(value))
		return psprintf("%.17g", json_real_value(value));
	if (json_is_boolean(value))
		return pg_strdup(json_is_true(value) ? "on" : "off");
	if (json_is_array(value))
	{
		PQExpBufferData s;
		size_t		i;
		json_t	   *item;

		initPQExpBuffer(&s);
		json_array_foreach(value, i, item)
		{
			if (!json_is_string(item) && !json_is_integer(item))
			{
				termPQExpBuffer(&s);
				return NULL;
			}
			appendPQExpBuffer(&s, "%s%s", i > 0 ? "," : "", json_value_text(item));
		}
		return s.data;
	}
	return NULL;
}

/*
 * A list of experiment.json longer than any key takes (MAX_LIST, as from a
 * file or flags; MAX_VARIANTS variants): refused before it is read, since
 * each item costs a check against the others.
 */
static bool
list_within(json_t *list, size_t max, const char *section, const char *key, char **error)
{
	if (!json_is_array(list) || json_array_size(list) <= max)
		return true;
	return fail_with(error, "%s%s%s%s lists %zu items, more than the %zu it may have\n"
					 "hint: The results directory is damaged or not one of %s's: no experiment of it lists more.",
					 section ? "[" : "", section ? section : "", section ? "] " : "", key,
					 json_array_size(list), max, progname);
}

/* experiment_set() with a JSON value, or the type of the value refused. */
static bool
set_from_json(ExperimentSpec *spec, const char *section, const char *key, json_t *value,
			  char **error)
{
	char	   *text;

	if (!list_within(value, MAX_LIST, section, key, error))
		return false;
	if ((text = json_value_text(value)) == NULL)
		return fail_with(error, "[%s] %s has a value of the wrong type (%s)", section, key,
						 json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY));
	return experiment_set(spec, section, key, text, error);
}

/*
 * Rebuild a specification from experiment_to_json()'s output, through
 * experiment_set() so the same checks apply to a shared results directory.
 */
bool
experiment_from_json(ExperimentSpec *spec, json_t *obj, char **error)
{
	json_t	   *exp = json_object_get(obj, "experiment");
	json_t	   *variants = json_object_get(obj, "variants");
	const char *key;
	json_t	   *value;
	size_t		i;
	json_t	   *vj;

	if (!json_is_object(exp) || !json_is_array(variants))
		return fail_with(error, "the specification has no \"experiment\" object or no \"variants\" array");
	experiment_init(spec);
	/* recorded before servers were restarted during an experiment: never */
	if (json_object_get(exp, "restart") == NULL)
		spec->restart_auto = false;
	/* recorded before duets: interleaved, whatever auto would choose now */
	if (json_object_get(exp, "schedule") == NULL)
		spec->quiet.schedule_given = true;
	/* recorded before aslr = auto: on, as it was then unless set */
	if (json_object_get(exp, "aslr") == NULL)
		spec->quiet.aslr_given = true;
	/* recorded before a duet's CPUs were traded within its runs: off */
	if (json_object_get(exp, "swap_interval") == NULL)
		spec->quiet.swap_ms = 0;
	json_object_foreach(exp, key, value)
		if (!set_from_json(spec, "experiment", key, value, error))
			return false;
	if (!list_within(variants, MAX_VARIANTS, NULL, "variants", error))
		return false;

	json_array_foreach(variants, i, vj)
	{
		json_t	   *name = json_object_get(vj, "name");
		char	   *section;

		if (!json_is_string(name))
			return fail_with(error, "variant %zu has no name", i);
		section = psprintf("variant %s", json_string_value(name));
		/* creates the variant even when it has no other keys */
		if (!experiment_set(spec, section, "extension",
							json_is_false(json_object_get(vj, "extension")) ? "off" : "on", error))
			return false;
		json_object_foreach(vj, key, value)
		{
			if (strcmp(key, "name") == 0 || strcmp(key, "extension") == 0)
				continue;
			if (strcmp(key, "set") == 0 || strcmp(key, "session_set") == 0 ||
				strcmp(key, "patch") == 0)
			{
				size_t		k;
				json_t	   *item;

				if (!json_is_array(value))
					return fail_with(error, "[%s] %s must be a list of strings", section, key);
				if (!list_within(value, MAX_LIST, section, key, error))
					return false;
				json_array_foreach(value, k, item)
				{
					if (!json_is_string(item))
						return fail_with(error, "[%s] %s must be a list of strings", section, key);
					if (!experiment_set(spec, section, key, json_string_value(item), error))
						return false;
				}
				continue;
			}
			if (!set_from_json(spec, section, key, value, error))
				return false;
		}
	}
	return true;
}
