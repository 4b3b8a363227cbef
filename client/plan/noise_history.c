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
 * (NOISE_HISTORY_FORMAT_VERSION).  Format 2 added what the servers ran
 * (one binary, or binaries of their own): a record of two builds says
 * nothing of two servers of one binary, nor one binary's of two builds'
 * offsets.  A history of format 1 (1.0.0) is read, its two-server records
 * as of binaries not recorded, and the next record upgrades it in place.
 * The history is a cache of what experiments measured, not a result:
 * without it the first looks measure the noise again.  So a history of
 * any other format stops nothing: the pre-flight reads none of it and
 * says so, and the next record sets it aside (noise.csv.format-N beside
 * it, N the version found, 0 for a file without one) and begins a new
 * one, saying so.
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
#include "common/logging.h"

#include <math.h>
#include <time.h>

#define NOISE_FILE "noise.csv"
#define NOISE_COLUMNS 14
#define NOISE_HEADER "format_version,recorded_at,script,clients,servers,binaries,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s,busy_pct\n"
#define NOISE_HEADER_1_0 "format_version,recorded_at,script,clients,servers,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s,busy_pct\n"
/* the column format 2 added, after servers */
#define NOISE_BINARIES_COLUMN 5
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
	char	   *why;
	int			servers;

	q.two_servers = plan_two_servers(spec);
	q.own_binaries = q.two_servers &&
		quiet_server_binaries(spec, &why, &servers) == SERVER_BINARIES_OWN;
	q.schedule = noise_schedule_label(spec);
	q.script = spec->scripts[0];
	q.clients = spec->clients[0];
	q.busy_pct = busy_pct;
	return q;
}

const char *
noise_query_words(const NoiseQuery *q)
{
	if (!q->two_servers)
		return "one server";
	return q->own_binaries ? psprintf("two servers of binaries of their own, %s", q->schedule)
		: "two servers of one binary";
}

const char *
noise_binaries_words(const NoiseRecord *r)
{
	if (!r->two_servers)
		return "";
	return r->binaries == NOISE_BINARIES_OWN ? ", binaries of their own" :
		r->binaries == NOISE_BINARIES_ONE ? ", one binary" : ", binaries not recorded";
}

static double
csv_double(const char *field)
{
	return *field ? strtod(field, NULL) : NAN;
}

/*
 * The fields of line (modified) into f, at most max; -1: more than that
 */
static int
split_fields(char *line, char **f, int max)
{
	int			n = 0;
	char	   *p = line;

	line[strcspn(line, "\n")] = '\0';
	for (;;)
	{
		if (n == max)
			return -1;
		f[n++] = p;
		if ((p = strchr(p, ',')) == NULL)
			return n;
		*p++ = '\0';
	}
}

/*
 * A record of this format (NOISE_COLUMNS fields, the first the format
 * version) or of format 1 (no binaries column: two servers' binaries not
 * recorded), with a round sd; the header, or anything else, is none.
 */
bool
noise_parse_record(char *line, NoiseRecord *r)
{
	char	   *f[NOISE_COLUMNS];
	int			n;

	memset(r, 0, sizeof(*r));
	n = split_fields(line, f, NOISE_COLUMNS);
	if (n == NOISE_COLUMNS - 1 && strcmp(f[0], CppAsString2(NOISE_HISTORY_FORMAT_1_0)) == 0)
	{
		/* as format 2's fields, the binaries column empty */
		memmove(&f[NOISE_BINARIES_COLUMN + 1], &f[NOISE_BINARIES_COLUMN],
				(NOISE_COLUMNS - 1 - NOISE_BINARIES_COLUMN) * sizeof(char *));
		f[NOISE_BINARIES_COLUMN] = "";
	}
	else if (n != NOISE_COLUMNS || strcmp(f[0], CppAsString2(NOISE_HISTORY_FORMAT_VERSION)) != 0)
		return false;
	strlcpy(r->recorded_at, f[1], sizeof(r->recorded_at));
	strlcpy(r->script, f[2], sizeof(r->script));
	r->clients = atoi(f[3]);
	r->two_servers = strcmp(f[4], "two") == 0;
	if (strcmp(f[5], "own") == 0 && r->two_servers)
		r->binaries = NOISE_BINARIES_OWN;
	else if (strcmp(f[5], "one") == 0 || !r->two_servers)
		r->binaries = NOISE_BINARIES_ONE;
	else
		r->binaries = NOISE_BINARIES_NOT_RECORDED;
	strlcpy(r->schedule, f[6], sizeof(r->schedule));
	r->round_sd = csv_double(f[7]);
	r->round_df = atoi(f[8]);
	r->instance_sd = csv_double(f[9]);
	r->instance_df = atoi(f[10]);
	r->run_overhead_s = csv_double(f[11]);
	r->restart_s = csv_double(f[12]);
	r->busy_pct = csv_double(f[13]);
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
 * Whether record r's servers ran what q's will: two servers of binaries of
 * their own only from a record of such, with the same randomization (the
 * offset between two builds' starts, what randomization leaves of their
 * layouts, was two to five times one binary's without it,
 * docs/calibration.md); two of one binary never from a
 * record of builds, and from one of 1.0.0, which did not say, only where
 * no record says (same_binaries false).
 */
static bool
binaries_allowed(const NoiseRecord *r, const NoiseQuery *q, bool *same_binaries)
{
	bool		same_aslr = (strchr(r->schedule, '/') == NULL) == (strchr(q->schedule, '/') == NULL);

	*same_binaries = r->binaries == (q->own_binaries ? NOISE_BINARIES_OWN : NOISE_BINARIES_ONE);
	if (q->own_binaries)
		return *same_binaries && same_aslr;
	return r->binaries != NOISE_BINARIES_OWN;
}

/*
 * Of the experiment's arrangement (one server or two) always, with an
 * instance sd for two, and of what its servers run (binaries_allowed());
 * then of its binaries said alike (not a record of 1.0.0); then of its
 * schedule, which changes the noise most
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
	bool		same_binaries;

	if (r->two_servers != q->two_servers || (q->two_servers && !isfinite(r->instance_sd)) ||
		!binaries_allowed(r, q, &same_binaries))
		return -1;
	return 2 * (64 * same_binaries + schedule_closeness(r->schedule, q->schedule) +
				load_closeness(q->busy_pct, r->busy_pct) +
				(strcmp(r->script, q->script) == 0 && r->clients == q->clients)) +
		noise_enough_df(r, q->two_servers);
}

/*
 * The format of the history whose first line is header and second (NULL:
 * none) first_record: NOISE_HISTORY_FORMAT_VERSION's or format 1's, or the
 * version another names in its first column, or 0 for a file without one.
 */
static int
history_format(const char *header, const char *first_record)
{
	if (strcmp(header, NOISE_HEADER) == 0)
		return NOISE_HISTORY_FORMAT_VERSION;
	if (strcmp(header, NOISE_HEADER_1_0) == 0)
		return NOISE_HISTORY_FORMAT_1_0;
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

/* Whether a history of this format is read (this one, or 1.0.0's) */
static bool
readable_format(int format)
{
	return format == NOISE_HISTORY_FORMAT_VERSION || format == NOISE_HISTORY_FORMAT_1_0;
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
	if (!readable_format(format))
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

/*
 * Record r as a line of this format: the one place its columns are
 * written, both for a finished experiment's records and for the records
 * of format 1 that an upgrade carries over.
 */
static void
append_record(PQExpBuffer buf, const NoiseRecord *r)
{
	const char *binaries = !r->two_servers || r->binaries == NOISE_BINARIES_ONE ? "one" :
		r->binaries == NOISE_BINARIES_OWN ? "own" : "";

	appendPQExpBuffer(buf, "%d,%s,%s,%d,%s,%s,%s,%.6f,%d,", NOISE_HISTORY_FORMAT_VERSION,
					  r->recorded_at, r->script, r->clients, r->two_servers ? "two" : "one",
					  binaries, r->schedule, r->round_sd, r->round_df);
	if (isfinite(r->instance_sd))
		appendPQExpBuffer(buf, "%.6f,%d,", r->instance_sd, r->instance_df);
	else
		appendPQExpBufferStr(buf, ",,");
	appendPQExpBuffer(buf, isfinite(r->run_overhead_s) ? "%.3f," : ",", r->run_overhead_s);
	appendPQExpBuffer(buf, isfinite(r->restart_s) ? "%.3f," : ",", r->restart_s);
	appendPQExpBuffer(buf, isfinite(r->busy_pct) ? "%.1f\n" : "\n", r->busy_pct);
}

/*
 * The records of a history of format 1 (text, its header first) in this
 * format, read as the pre-flight reads them (two servers' binaries not
 * recorded); what no reader takes for a record is left out.
 */
static char *
upgraded_from_1_0(char *text)
{
	PQExpBufferData out;
	NoiseRecord r;
	char	   *line;
	char	   *next;

	initPQExpBuffer(&out);
	for (line = text; *line; line = next)
	{
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (noise_parse_record(line, &r))
			append_record(&out, &r);
	}
	return out.data;
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
	if (text != NULL && *text && format == NOISE_HISTORY_FORMAT_1_0)
	{
		if (!safe_write_file(path, psprintf("%s%s%s", NOISE_HEADER, upgraded_from_1_0(text), records),
							 0, error))
			return false;
		pg_log_info("the host's noise history \"%s\" was upgraded from format version %d to %d: its records of two servers say nothing of what those ran, and experiments of binaries of their own read only records that do",
					path, NOISE_HISTORY_FORMAT_1_0, NOISE_HISTORY_FORMAT_VERSION);
		return true;
	}
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
	time_t		now = time(NULL);
	NoiseQuery	q = noise_query_of(spec, busy_pct);
	NoiseRecord r = {0};
	PQExpBufferData buf;
	size_t		i;
	json_t	   *cell;

	if (cells == NULL)
		return;
	if (spec->duration_s > 0 && round_s > 0)
		overhead = Max(0, round_s / slots - spec->duration_s);
	strftime(r.recorded_at, sizeof(r.recorded_at), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	r.two_servers = q.two_servers;
	r.binaries = q.own_binaries ? NOISE_BINARIES_OWN : NOISE_BINARIES_ONE;
	strlcpy(r.schedule, noise_schedule_label(spec), sizeof(r.schedule));
	r.run_overhead_s = overhead;
	r.restart_s = restart_s > 0 ? restart_s : NAN;
	r.busy_pct = busy_pct;
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
		strlcpy(r.script, script, sizeof(r.script));
		r.clients = (int) json_integer_value(json_object_get(cell, "clients"));
		r.round_sd = json_number_value(json_object_get(round, "sd"));
		r.round_df = (int) json_integer_value(json_object_get(round, "df"));
		r.instance_sd = json_is_object(instance) ? json_number_value(json_object_get(instance, "sd")) : NAN;
		r.instance_df = (int) json_integer_value(json_object_get(instance, "df"));
		append_record(&buf, &r);
	}
	if (buf.len > 0 && !noise_history_append(path, buf.data, &error))
		log_warning_text(psprintf("the host's noise history was not written: %s", error));
	termPQExpBuffer(&buf);
	json_decref(summary);
}
