/*-------------------------------------------------------------------------
 *
 * noise_history.c
 *		The host's noise history: noise.csv in the client's state directory
 *		(account_state_dir()), read by the pre-flight and appended to by
 *		every finished experiment.
 *
 * Each record is one comparison's measured sd of the paired log ratio
 * between rounds and between instance pairs, with their degrees of
 * freedom, what a run cost beyond its pgbench time, what a restart cost
 * and how busy other processes kept the CPUs as the experiment began.
 * Every record begins with the file's format version
 * (NOISE_HISTORY_FORMAT_VERSION).  The history is a cache of what
 * experiments measured, not a result: without it the first looks measure
 * the noise again.  So a history of another format stops nothing: the
 * pre-flight reads none of it and says so, and the next record sets it
 * aside (noise.csv.format-N beside it, N the version found, 0 for a file
 * without one) and begins a new one, saying so.
 *
 * The record that describes an experiment best (noise_record_score()) is
 * the latest of the closest kind; the rules are in docs/experiments.md.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "account.h"
#include "host_load.h"
#include "noise_history.h"
#include "plan.h"
#include "results.h"
#include "safe_file.h"
#include "safe_read.h"
#include "pqexpbuffer.h"

#include <math.h>
#include <time.h>

#define NOISE_FILE "noise.csv"
#define NOISE_COLUMNS 13
#define NOISE_HEADER "format_version,recorded_at,script,clients,servers,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s,busy_pct\n"
#define NOISE_MAX_BYTES (16 * 1024 * 1024)

char *
noise_history_path(void)
{
	return psprintf("%s/%s", account_state_dir(), NOISE_FILE);
}

/*
 * The schedule as the history names it: a duet whose sides trade CPUs
 * within the run ("duet-swap") has a third of the round noise of one whose
 * sides stay put for a round ("duet"), so the two are told apart; and
 * servers started without address-space randomization ("/aslr-off") have
 * a seventh of the offset between two servers' starts.
 */
const char *
noise_schedule_label(const ExperimentSpec *spec)
{
	const char *schedule = spec->quiet.schedule == SCHEDULE_DUET && spec->quiet.swap_ms > 0 ?
		"duet-swap" : quiet_schedule_name(spec->quiet.schedule);

	return spec->quiet.aslr ? schedule : psprintf("%s/aslr-off", schedule);
}

NoiseQuery
noise_query_of(const ExperimentSpec *spec, double busy_pct)
{
	NoiseQuery	q;

	q.two_servers = plan_two_servers(spec);
	q.schedule = noise_schedule_label(spec);
	q.script = spec->scripts[0];
	q.clients = spec->clients[0];
	q.busy_pct = busy_pct;
	return q;
}

static double
csv_double(const char *field)
{
	return *field ? strtod(field, NULL) : NAN;
}

/*
 * A record of this format: NOISE_COLUMNS fields, the first the format
 * version, a round sd; the header, or anything else, is none.
 */
bool
noise_parse_record(char *line, NoiseRecord *r)
{
	char	   *f[NOISE_COLUMNS];
	int			n = 0;
	char	   *p = line;

	memset(r, 0, sizeof(*r));
	line[strcspn(line, "\n")] = '\0';
	for (;;)
	{
		if (n == NOISE_COLUMNS)
			return false;		/* one field too many */
		f[n++] = p;
		if ((p = strchr(p, ',')) == NULL)
			break;
		*p++ = '\0';
	}
	if (n != NOISE_COLUMNS || strcmp(f[0], CppAsString2(NOISE_HISTORY_FORMAT_VERSION)) != 0)
		return false;
	strlcpy(r->recorded_at, f[1], sizeof(r->recorded_at));
	strlcpy(r->script, f[2], sizeof(r->script));
	r->clients = atoi(f[3]);
	r->two_servers = strcmp(f[4], "two") == 0;
	strlcpy(r->schedule, f[5], sizeof(r->schedule));
	r->round_sd = csv_double(f[6]);
	r->round_df = atoi(f[7]);
	r->instance_sd = csv_double(f[8]);
	r->instance_df = atoi(f[9]);
	r->run_overhead_s = csv_double(f[10]);
	r->restart_s = csv_double(f[11]);
	r->busy_pct = csv_double(f[12]);
	return isfinite(r->round_sd);
}

/*
 * How close two labels are: the same schedule ("duet-swap", whatever the
 * randomization) counts most, then the same kind ("duet-swap" and "duet"
 * are both duets), then (load_closeness()) the host's load, then the same
 * randomization.
 */
static int
schedule_closeness(const char *a, const char *b)
{
	size_t		len = strcspn(a, "/");
	bool		same_schedule = strcspn(b, "/") == len && strncmp(a, b, len) == 0;
	bool		same_kind = same_schedule || (strncmp(a, "duet", 4) == 0 && strncmp(b, "duet", 4) == 0);
	bool		same_aslr = (strchr(a, '/') == NULL) == (strchr(b, '/') == NULL);

	return 32 * same_schedule + 16 * same_kind + 2 * same_aslr;
}

bool
noise_like_load(double busy_pct, double record_busy_pct)
{
	return isfinite(busy_pct) && isfinite(record_busy_pct) &&
		(busy_pct > LOADED_BUSY_PCT) == (record_busy_pct > LOADED_BUSY_PCT);
}

/*
 * How close a record's load is to now's (between the kind of schedule and
 * its randomization): of a like load, or not recorded, or unlike.
 */
static int
load_closeness(double busy_pct, double record_busy_pct)
{
	if (noise_like_load(busy_pct, record_busy_pct))
		return 8;
	return isfinite(record_busy_pct) ? 0 : 4;
}

bool
noise_enough_df(const NoiseRecord *r, bool two)
{
	return r->round_df >= RESTART_AUTO_MIN_DF && (!two || r->instance_df >= RESTART_AUTO_MIN_DF);
}

/*
 * Of the experiment's arrangement (one server or two) always, with an
 * instance sd for two; then of its schedule, which changes the noise most
 * (the two sides of a duet share the host's interference; a duet that
 * trades CPUs within its runs is closer to one that does not than to
 * interleaved rounds), then of the host's load now (loaded or quiet),
 * which moves a schedule's round sd less than the schedule does, then of
 * its randomization; then of its pgbench load (script and clients of the
 * first cell); last, of sds that rest on enough degrees of freedom for
 * restart = auto to choose from (noise_enough_df()), so that the time
 * promised and the restarts' spacing come from one record.
 */
int
noise_record_score(const NoiseRecord *r, const NoiseQuery *q)
{
	if (r->two_servers != q->two_servers || (q->two_servers && !isfinite(r->instance_sd)))
		return -1;
	return 2 * (schedule_closeness(r->schedule, q->schedule) +
				load_closeness(q->busy_pct, r->busy_pct) +
				(strcmp(r->script, q->script) == 0 && r->clients == q->clients)) +
		noise_enough_df(r, q->two_servers);
}

/*
 * The format of the history whose first line is header and second (NULL:
 * none) first_record: NOISE_HISTORY_FORMAT_VERSION's, or the version
 * another names in its first column, or 0 for a file without one.
 */
static int
history_format(const char *header, const char *first_record)
{
	if (strcmp(header, NOISE_HEADER) == 0)
		return NOISE_HISTORY_FORMAT_VERSION;
	if (strncmp(header, "format_version,", 15) == 0 && first_record != NULL)
		return Max(0, atoi(first_record));
	return 0;
}

/*
 * The history at path read: its text (NULL where there is none) and its
 * format (history_format()).
 */
static char *
read_history(const char *path, int *format)
{
	FILE	   *f = safe_fopen_read_optional(path, NOISE_MAX_BYTES);
	PQExpBufferData text;
	char		line[1024];
	char	   *header;
	char	   *second;

	*format = NOISE_HISTORY_FORMAT_VERSION;
	if (f == NULL)
		return NULL;
	initPQExpBuffer(&text);
	while (fgets(line, sizeof(line), f))
		appendPQExpBufferStr(&text, line);
	fclose(f);
	if (text.len == 0)
		return text.data;
	header = pnstrdup(text.data, strcspn(text.data, "\n") + 1);
	second = strchr(text.data, '\n');
	*format = history_format(header, second && second[1] ? second + 1 : NULL);
	return text.data;
}

/*
 * The latest of the best-scored records of the history at path: file order
 * is what "latest" means.  A history of another format is not read, and a
 * warning says what becomes of it.
 */
NoiseRecord
noise_history_find(const char *path, const NoiseQuery *q)
{
	int			format;
	char	   *text = read_history(path, &format);
	NoiseRecord best = {0},
				r;
	int			best_score = -1;
	char	   *line;
	char	   *next;

	if (text == NULL)
		return best;
	if (format != NOISE_HISTORY_FORMAT_VERSION)
	{
		log_warningf("the host's noise history \"%s\" is of format version %d, not %d: none of its records is used; the next finished experiment moves it to \"%s.format-%d\" and begins a new history",
					 path, format, NOISE_HISTORY_FORMAT_VERSION, path, format);
		return best;
	}
	for (line = text; *line; line = next)
	{
		int			score;

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (!noise_parse_record(line, &r) || (score = noise_record_score(&r, q)) < 0)
			continue;
		if (score >= best_score)
		{
			best = r;
			best.found = true;
			best_score = score;
		}
	}
	return best;
}

bool
noise_history_append(const char *path, const char *records, char **error)
{
	int			format;
	char	   *text = read_history(path, &format);
	char	   *dir = pg_strdup(path);
	char	   *aside;

	*strrchr(dir, '/') = '\0';
	if (!safe_mkdir_p(dir, 0700, error))
		return false;
	if (text != NULL && *text && format == NOISE_HISTORY_FORMAT_VERSION)
		return safe_write_file(path, records, SAFE_APPEND, error);
	if (text != NULL && *text)
	{
		/* kept beside it as it was, never over another set aside before */
		aside = psprintf("%s.format-%d", path, format);
		if (!safe_write_file(aside, text, SAFE_NEW, error))
			return false;
		log_warningf("the host's noise history \"%s\" was of format version %d, not %d: moved to \"%s\"; a new history begins with this experiment's records",
					 path, format, NOISE_HISTORY_FORMAT_VERSION, aside);
	}
	return safe_write_file(path, psprintf("%s%s", NOISE_HEADER, records), 0, error);
}

void
noise_history_record(const ExperimentSpec *spec, const char *results_dir, double busy_pct)
{
	char	   *error = NULL;
	json_t	   *summary = results_read_json(results_dir, "summary.json", &error);
	json_t	   *cells = summary ? json_object_get(summary, "cells") : NULL;
	json_t	   *cost = summary ? json_object_get(summary, "cost_s") : NULL;
	double		round_s = json_number_value(json_object_get(cost, "round"));
	double		restart_s = json_number_value(json_object_get(cost, "restart"));
	int			slots = plan_round_slots(spec);
	double		overhead = NAN;
	char	   *path = noise_history_path();
	char		when[32];
	time_t		now = time(NULL);
	PQExpBufferData buf;
	size_t		i;
	json_t	   *cell;

	if (cells == NULL)
		return;
	if (spec->duration_s > 0 && round_s > 0)
		overhead = Max(0, round_s / slots - spec->duration_s);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	initPQExpBuffer(&buf);
	json_array_foreach(cells, i, cell)
	{
		json_t	   *ratio = json_object_get(json_object_get(json_object_get(cell, "levels"), "components"), "ratio");
		json_t	   *round = json_object_get(ratio, "round");
		json_t	   *instance = json_object_get(ratio, "instance");
		const char *script = json_string_value(json_object_get(cell, "script"));

		if (!json_is_object(round) || script == NULL || strchr(script, ',') ||
			json_is_true(json_object_get(cell, "every_seed")))
			continue;
		appendPQExpBuffer(&buf, "%d,%s,%s,%d,%s,%s,%.6f,%d,", NOISE_HISTORY_FORMAT_VERSION,
						  when, script,
						  (int) json_integer_value(json_object_get(cell, "clients")),
						  plan_two_servers(spec) ? "two" : "one",
						  noise_schedule_label(spec),
						  json_number_value(json_object_get(round, "sd")),
						  (int) json_integer_value(json_object_get(round, "df")));
		if (json_is_object(instance))
			appendPQExpBuffer(&buf, "%.6f,%d,", json_number_value(json_object_get(instance, "sd")),
							  (int) json_integer_value(json_object_get(instance, "df")));
		else
			appendPQExpBufferStr(&buf, ",,");
		appendPQExpBuffer(&buf, isfinite(overhead) ? "%.3f," : ",", overhead);
		appendPQExpBuffer(&buf, restart_s > 0 ? "%.3f," : ",", restart_s);
		appendPQExpBuffer(&buf, isfinite(busy_pct) ? "%.1f\n" : "\n", busy_pct);
	}
	if (buf.len > 0 && !noise_history_append(path, buf.data, &error))
		log_warning_text(psprintf("the host's noise history was not written: %s", error));
	termPQExpBuffer(&buf);
	json_decref(summary);
}
