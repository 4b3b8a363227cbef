/*-------------------------------------------------------------------------
 *
 * test_noise_history.c
 *	  Unit tests (TAP) of the host's noise history (client/plan/noise_history.c):
 *	  a record of format_version 2 read field by field, one of 1.0.0's
 *	  format 1 read with its two servers' binaries not recorded, and every
 *	  other line (the header, a record of another version or none, a field
 *	  too many or too few, no round sd) refused; the score that picks the
 *	  record describing an experiment (the arrangement and what its servers
 *	  run always, binaries of their own only from such a record of the same
 *	  randomization; then binaries said alike, the schedule, its kind, the
 *	  host's load, the randomization, the pgbench load, enough degrees of
 *	  freedom), and the latest of the best in file order; the schedule's
 *	  label and the query of an experiment; and the file itself: a new
 *	  history begun with its header, records appended to one of this
 *	  format, one of format 1 read and upgraded in place, one of another
 *	  format read as none and set aside (noise.csv.format-N) before a new
 *	  one begins, never over one set aside before.
 *
 * test/unit/test_noise_history.c
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "host_load.h"
#include "noise_history.h"

#include <math.h>
#include <unistd.h>

#include "test_client_util.h"

#define HEADER "format_version,recorded_at,script,clients,servers,binaries,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s,busy_pct\n"
#define HEADER_1_0 "format_version,recorded_at,script,clients,servers,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s,busy_pct\n"
#define OLD_HEADER "recorded_at,script,clients,servers,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s,busy_pct\n"

static char *dir;
static char *stderr_path;

/* what went to stderr since the last call, the warnings asserted below */
static char *
warnings(void)
{
	static char text[4096];
	FILE	   *f;
	size_t		n;

	fflush(stderr);
	f = fopen(stderr_path, "r");
	n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	text[n] = '\0';
	if (f)
		fclose(f);
	if (ftruncate(fileno(stderr), 0) != 0)
		text[0] = '\0';
	rewind(stderr);
	return text;
}

/* record line parsed: true, and r */
static bool
parses(const char *line, NoiseRecord *r)
{
	char	   *copy = pg_strdup(line);
	bool		ok = noise_parse_record(copy, r);

	pfree(copy);
	return ok;
}

static char *
slurp(const char *path)
{
	FILE	   *f = fopen(path, "r");
	static char text[8192];
	size_t		n;

	if (f == NULL)
		return NULL;
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void
write_text(const char *path, const char *text)
{
	FILE	   *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static void
test_parse(void)
{
	NoiseRecord r;

	ok(parses("2,2090-01-01T00:00:00Z,select-only,4,two,own,duet-swap/aslr-off,0.030000,40,0.010000,12,0.300,3.000,97.0\n", &r),
	   "a record of format_version 2 is read");
	ok(strcmp(r.recorded_at, "2090-01-01T00:00:00Z") == 0 && strcmp(r.script, "select-only") == 0 &&
	   r.clients == 4 && r.two_servers && r.binaries == NOISE_BINARIES_OWN &&
	   strcmp(r.schedule, "duet-swap/aslr-off") == 0,
	   "its date, script, clients, arrangement, binaries and schedule");
	ok(r.round_sd == 0.03 && r.round_df == 40 && r.instance_sd == 0.01 && r.instance_df == 12 &&
	   r.run_overhead_s == 0.3 && r.restart_s == 3.0 && r.busy_pct == 97.0,
	   "its sds, degrees of freedom, costs and load");
	ok(strcmp(noise_binaries_words(&r), ", binaries of their own") == 0, "named so");
	ok(parses("2,2090-01-01T00:00:00Z,select-only,1,two,one,duet,0.03,40,0.01,12,0.3,3.0,97.0", &r) &&
	   r.binaries == NOISE_BINARIES_ONE && strcmp(noise_binaries_words(&r), ", one binary") == 0,
	   "two servers of one binary");
	ok(parses("2,2090-01-01T00:00:00Z,tpcb-like,1,one,one,interleaved,0.010000,9,,,,,\n", &r) &&
	   !r.two_servers && r.binaries == NOISE_BINARIES_ONE && *noise_binaries_words(&r) == '\0' &&
	   isnan(r.instance_sd) &&
	   isnan(r.run_overhead_s) && isnan(r.restart_s) && isnan(r.busy_pct),
	   "one server, nothing but the round sd measured: the rest NAN");
	ok(parses("1,2090-01-01T00:00:00Z,select-only,4,two,duet-swap/aslr-off,0.030000,40,0.010000,12,0.300,3.000,97.0\n", &r) &&
	   r.two_servers && r.binaries == NOISE_BINARIES_NOT_RECORDED &&
	   strcmp(r.schedule, "duet-swap/aslr-off") == 0 && r.round_sd == 0.03 && r.instance_df == 12 &&
	   r.busy_pct == 97.0 && strcmp(noise_binaries_words(&r), ", binaries not recorded") == 0,
	   "a record of 1.0.0's format 1: read, two servers' binaries not recorded");
	ok(parses("1,2090-01-01T00:00:00Z,select-only,1,one,interleaved,0.010000,9,,,,,", &r) &&
	   r.binaries == NOISE_BINARIES_ONE, "format 1, one server: one binary");
	ok(!parses(HEADER, &r) && !parses(HEADER_1_0, &r), "the headers are no record");
	ok(!parses("3,2090-01-01T00:00:00Z,select-only,1,two,one,duet,0.03,40,0.01,12,0.3,3.0,97.0", &r),
	   "a record of format_version 3 is none");
	ok(!parses("1,2090-01-01T00:00:00Z,select-only,1,two,one,duet,0.03,40,0.01,12,0.3,3.0,97.0", &r),
	   "format 1 with format 2's fields: none");
	ok(!parses("2,2090-01-01T00:00:00Z,select-only,1,two,duet,0.03,40,0.01,12,0.3,3.0,97.0", &r),
	   "format 2 with format 1's fields: none");
	ok(!parses("2090-01-01T00:00:00Z,select-only,1,two,duet,0.03,40,0.01,12,0.3,3.0,97.0", &r),
	   "a record without a version (12 fields) is none");
	ok(!parses("2,2090-01-01T00:00:00Z,select-only,1,two,one,duet,0.03,40,0.01,12,0.3,3.0", &r),
	   "a field too few: none");
	ok(!parses("2,2090-01-01T00:00:00Z,select-only,1,two,one,duet,0.03,40,0.01,12,0.3,3.0,97.0,x", &r),
	   "a field too many: none");
	ok(!parses("2,2090-01-01T00:00:00Z,select-only,1,two,one,duet,,40,0.01,12,0.3,3.0,97.0", &r),
	   "no round sd: none");
	ok(!parses("", &r), "an empty line: none");
}

/* a record of two servers and the given schedule, load and df */
static NoiseRecord
record(const char *schedule, double busy, int df, const char *script, int clients)
{
	NoiseRecord r = {0};

	r.two_servers = true;
	r.binaries = NOISE_BINARIES_ONE;
	strlcpy(r.schedule, schedule, sizeof(r.schedule));
	strlcpy(r.script, script, sizeof(r.script));
	r.clients = clients;
	r.round_sd = 0.01;
	r.round_df = r.instance_df = df;
	r.instance_sd = 0.005;
	r.busy_pct = busy;
	return r;
}

static void
test_score(void)
{
	NoiseQuery	q = {true, false, "duet-swap/aslr-off", "select-only", 1, 90.0};
	NoiseRecord same = record("duet-swap/aslr-off", 95, 10, "select-only", 1);
	NoiseRecord r;

	ok(noise_like_load(90, 95) && noise_like_load(2, 25) && !noise_like_load(26, 25) &&
	   !noise_like_load(NAN, 2) && !noise_like_load(2, NAN),
	   "like loads: both above 25%% busy or both not; unmeasured is like nothing");
	r = same;
	r.round_df = 9;
	ok(noise_enough_df(&same, true) && !noise_enough_df(&r, true) && !noise_enough_df(&r, false),
	   "enough degrees of freedom: 10 for each sd");
	r = same;
	r.instance_df = 3;
	ok(!noise_enough_df(&r, true) && noise_enough_df(&r, false), "one server asks none of the instance sd");

	r = same;
	r.two_servers = false;
	ok(noise_record_score(&r, &q) < 0, "another arrangement: never");
	r = same;
	r.instance_sd = NAN;
	ok(noise_record_score(&r, &q) < 0, "two servers and no instance sd: never");
	ok(noise_record_score(&same, &q) >= 0, "the same of everything: a score");

	/* what the servers run */
	r = same;
	r.binaries = NOISE_BINARIES_OWN;
	ok(noise_record_score(&r, &q) < 0, "two servers of one binary: never from a record of builds");
	r = same;
	r.binaries = NOISE_BINARIES_NOT_RECORDED;
	{
		NoiseRecord unlike = record("interleaved", NAN, 3, "tpcb-like", 8);

		ok(noise_record_score(&r, &q) >= 0 && noise_record_score(&unlike, &q) > noise_record_score(&r, &q),
		   "from a record of 1.0.0 (binaries not recorded) only after any that says one binary");
	}
	{
		NoiseQuery	own = {true, true, "duet-swap", "select-only", 1, 90.0};
		NoiseRecord builds = record("duet-swap", 95, 10, "select-only", 1);

		builds.binaries = NOISE_BINARIES_OWN;
		ok(noise_record_score(&builds, &own) >= 0, "binaries of their own: from a record of such");
		r = builds;
		r.binaries = NOISE_BINARIES_ONE;
		ok(noise_record_score(&r, &own) < 0, "never from one of one binary");
		r.binaries = NOISE_BINARIES_NOT_RECORDED;
		ok(noise_record_score(&r, &own) < 0, "nor from one of 1.0.0, which did not say");
		r = builds;
		strlcpy(r.schedule, "duet-swap/aslr-off", sizeof(r.schedule));
		ok(noise_record_score(&r, &own) < 0, "nor from one of builds with other randomization");
		r = builds;
		strlcpy(r.schedule, "interleaved", sizeof(r.schedule));
		ok(noise_record_score(&r, &own) >= 0, "another schedule of the same randomization: a score");
	}

	/* each rule outranks all those after it together */
	{
		NoiseRecord kind = record("duet/aslr-off", 95, 10, "select-only", 1);
		NoiseRecord same_schedule = record("duet-swap", 2, 9, "tpcb-like", 8);
		NoiseRecord interleaved = record("interleaved/aslr-off", 95, 10, "select-only", 1);
		NoiseRecord unrecorded = record("duet-swap", NAN, 9, "tpcb-like", 8);
		NoiseRecord like = record("duet-swap", 95, 9, "tpcb-like", 8);
		NoiseRecord aslr = record("duet-swap/aslr-off", 2, 9, "tpcb-like", 8);
		NoiseRecord load = record("duet-swap/aslr-off", 2, 9, "select-only", 1);
		NoiseRecord df = record("duet-swap/aslr-off", 2, 10, "tpcb-like", 8);

		ok(noise_record_score(&same_schedule, &q) > noise_record_score(&kind, &q),
		   "the same schedule, all else unlike, before the other kind of duet");
		ok(noise_record_score(&kind, &q) > noise_record_score(&interleaved, &q),
		   "the other kind of duet before interleaved rounds");
		ok(noise_record_score(&like, &q) > noise_record_score(&unrecorded, &q) &&
		   noise_record_score(&unrecorded, &q) > noise_record_score(&same_schedule, &q),
		   "a like load, then a load not recorded, then an unlike one");
		ok(noise_record_score(&like, &q) > noise_record_score(&aslr, &q),
		   "the load before the randomization");
		ok(noise_record_score(&aslr, &q) > noise_record_score(&same_schedule, &q),
		   "the same randomization counts");
		ok(noise_record_score(&load, &q) > noise_record_score(&aslr, &q),
		   "then the same script and clients");
		ok(noise_record_score(&df, &q) == noise_record_score(&aslr, &q) + 1 &&
		   noise_record_score(&load, &q) > noise_record_score(&df, &q),
		   "enough degrees of freedom last");
	}
}

/* the labels the history files schedules under, and a query of a spec */
static void
test_labels(void)
{
	ExperimentSpec spec;
	NoiseQuery	q;
	char	   *error = NULL;

	experiment_init(&spec);
	if (!experiment_set(&spec, "experiment", "clients", "4,8", &error) ||
		!experiment_set(&spec, "experiment", "script", "select-only", &error) ||
		!experiment_set(&spec, "variant A", "bindir", "/x", &error) ||
		!experiment_set(&spec, "variant B", "bindir", "/y", &error))
	{
		ok(false, "an experiment of two servers: %s", error);
		return;
	}
	spec.quiet.schedule = SCHEDULE_DUET;
	spec.quiet.swap_ms = 25;
	spec.quiet.aslr = false;
	ok(strcmp(noise_schedule_label(&spec), "duet-swap/aslr-off") == 0,
	   "a duet trading CPUs within its runs, without randomization: duet-swap/aslr-off");
	spec.quiet.aslr = true;
	ok(strcmp(noise_schedule_label(&spec), "duet-swap") == 0, "with randomization: duet-swap");
	spec.quiet.swap_ms = 0;
	ok(strcmp(noise_schedule_label(&spec), "duet") == 0, "a duet whose sides stay put: duet");
	spec.quiet.schedule = SCHEDULE_INTERLEAVED;
	spec.quiet.aslr = false;
	ok(strcmp(noise_schedule_label(&spec), "interleaved/aslr-off") == 0, "interleaved rounds: interleaved/aslr-off");
	q = noise_query_of(&spec, 42.0);
	ok(q.two_servers && strcmp(q.schedule, "interleaved/aslr-off") == 0 && strcmp(q.script, "select-only") == 0 &&
	   q.clients == 4 && q.busy_pct == 42.0, "a query: two servers, the label, the first cell, the load");
	ok(q.own_binaries && strcmp(noise_query_words(&q), "two servers of binaries of their own, interleaved/aslr-off") == 0,
	   "two bindirs: binaries of their own, named with the schedule");
	spec.variants[1].bindir = pg_strdup("/x");
	q = noise_query_of(&spec, 42.0);
	ok(q.two_servers && !q.own_binaries && strcmp(noise_query_words(&q), "two servers of one binary") == 0,
	   "one bindir: two servers of one binary");
	spec.variants[1].bindir = NULL;
	spec.variants[1].source = pg_strdup("/src");
	q = noise_query_of(&spec, 42.0);
	ok(q.own_binaries, "a variant built from source: binaries of their own");
	spec.variants[1].source = NULL;
	spec.variants[1].cluster = pg_strdup("A");
	q = noise_query_of(&spec, 42.0);
	ok(!q.two_servers && !q.own_binaries && strcmp(noise_query_words(&q), "one server") == 0,
	   "a variant on the other's cluster: one server");
}

static void
test_find(void)
{
	char	   *path = psprintf("%s/noise.csv", dir);
	NoiseQuery	q = {true, false, "duet-swap/aslr-off", "select-only", 1, 90.0};
	NoiseRecord r;

	r = noise_history_find(path, &q);
	ok(!r.found, "no history: no record");
	write_text(path, HEADER
			   "2,2090-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.030000,40,0.010000,12,0.300,3.000,97.0\n"
			   "2,2091-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.010000,40,0.003000,12,0.300,3.000,2.0\n"
			   "2,2092-01-01T00:00:00Z,select-only,1,one,one,duet-swap/aslr-off,0.010000,40,,,0.300,,97.0\n"
			   "2,2093-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.040000,40,,,0.300,3.000,97.0\n"
			   "2,2094-01-01T00:00:00Z,select-only,1,two,own,duet-swap,0.020000,40,0.017000,12,0.300,3.000,97.0\n");
	r = noise_history_find(path, &q);
	ok(r.found && strcmp(r.recorded_at, "2090-01-01T00:00:00Z") == 0 && r.round_sd == 0.03,
	   "a loaded host: the loaded host's record, though a quiet one's is later");
	q.busy_pct = 3;
	r = noise_history_find(path, &q);
	ok(r.found && strcmp(r.recorded_at, "2091-01-01T00:00:00Z") == 0, "a quiet host: the quiet one's");
	q.two_servers = false;
	r = noise_history_find(path, &q);
	ok(r.found && strcmp(r.recorded_at, "2092-01-01T00:00:00Z") == 0, "one server: the one server's");
	q.two_servers = q.own_binaries = true;
	q.schedule = "duet-swap";
	r = noise_history_find(path, &q);
	ok(r.found && strcmp(r.recorded_at, "2094-01-01T00:00:00Z") == 0 && r.instance_sd == 0.017,
	   "binaries of their own: the record of builds, however else unlike");
	q.schedule = "duet-swap/aslr-off";
	r = noise_history_find(path, &q);
	ok(!r.found, "of other randomization: none");
	q.own_binaries = false;

	write_text(path, HEADER_1_0
			   "1,2090-01-01T00:00:00Z,select-only,1,two,duet-swap/aslr-off,0.030000,40,0.010000,12,0.300,3.000,97.0\n");
	q.busy_pct = 90;
	warnings();
	r = noise_history_find(path, &q);
	ok(r.found && strcmp(r.recorded_at, "2090-01-01T00:00:00Z") == 0 &&
	   r.binaries == NOISE_BINARIES_NOT_RECORDED && warnings()[0] == '\0',
	   "a history of 1.0.0 (format 1) is read as it is, without a word");
	q.own_binaries = true;
	r = noise_history_find(path, &q);
	ok(!r.found, "but its two servers' records describe no experiment of builds");
	q.own_binaries = false;

	write_text(path, HEADER
			   "2,2090-01-01T00:00:00Z,select-only,1,two,one,duet,0.030000,40,0.010000,12,0.300,3.000,97.0\n"
			   "2,2080-01-01T00:00:00Z,select-only,1,two,one,duet,0.020000,40,0.010000,12,0.300,3.000,97.0\n");
	q.two_servers = true;
	q.busy_pct = 90;
	r = noise_history_find(path, &q);
	ok(r.found && strcmp(r.recorded_at, "2080-01-01T00:00:00Z") == 0,
	   "of records scored alike, the last in the file");

	write_text(path, OLD_HEADER
			   "2090-01-01T00:00:00Z,select-only,1,two,duet-swap/aslr-off,0.030000,40,0.010000,12,0.300,3.000,97.0\n");
	warnings();
	r = noise_history_find(path, &q);
	ok(!r.found, "a history without format_version: none of it read");
	ok(strstr(warnings(), psprintf("pgbench_ext: warning: the host's noise history \"%s\" is of format version 0, not 2: none of its records is used; the next finished experiment moves it to \"%s.format-0\"", path, path)) != NULL,
	   "and a warning names the file, the version found and what becomes of it");
	write_text(path, "format_version,recorded_at,script,clients,servers,binaries,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s,busy_pct,more\n"
			   "3,2090-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.030000,40,0.010000,12,0.300,3.000,97.0,x\n");
	r = noise_history_find(path, &q);
	ok(!r.found && strstr(warnings(), "is of format version 3, not 2"), "a history of format_version 3: none of it read");
	unlink(path);
}

static void
test_append(void)
{
	char	   *path = psprintf("%s/state/noise.csv", dir);
	char	   *aside = psprintf("%s.format-0", path);
	const char *one = "2,2090-01-01T00:00:00Z,select-only,1,two,own,duet,0.030000,40,0.010000,12,0.300,3.000,97.0\n";
	const char *two = "2,2091-01-01T00:00:00Z,select-only,1,two,one,duet,0.020000,40,0.010000,12,0.300,3.000,2.0\n";
	const char *of_1_0 = HEADER_1_0
		"1,2088-01-01T00:00:00Z,select-only,1,two,duet,0.030000,40,0.010000,12,0.300,3.000,97.0\n"
		"1,2088-01-02T00:00:00Z,tpcb-like,4,one,interleaved,0.010000,9,,,,,\n";
	const char *old = OLD_HEADER "2089-01-01T00:00:00Z,select-only,1,two,duet,0.030000,40,0.010000,12,0.300,3.000,97.0\n";
	char	   *error = NULL;
	char	   *text;

	ok(noise_history_append(path, one, &error), "a record into a history not there yet%s%s",
	   error ? ": " : "", error ? error : "");
	text = slurp(path);
	ok(text && strcmp(text, psprintf("%s%s", HEADER, one)) == 0, "begins it with its header");
	ok(noise_history_append(path, two, &error), "a record into a history of this format");
	text = slurp(path);
	ok(text && strcmp(text, psprintf("%s%s%s", HEADER, one, two)) == 0, "is appended");

	write_text(path, of_1_0);
	warnings();
	ok(noise_history_append(path, one, &error), "a record into a history of 1.0.0 (format 1)");
	text = slurp(path);
	ok(text && strcmp(text, psprintf("%s%s%s%s", HEADER,
									 "2,2088-01-01T00:00:00Z,select-only,1,two,,duet,0.030000,40,0.010000,12,0.300,3.000,97.0\n",
									 "2,2088-01-02T00:00:00Z,tpcb-like,4,one,one,interleaved,0.010000,9,,,,,\n",
									 one)) == 0,
	   "upgrades it in place: format 2's header, its records kept with binaries not recorded for two servers, then the new one");
	ok(strstr(warnings(), psprintf("the host's noise history \"%s\" was upgraded from format version 1 to 2", path)) != NULL,
	   "and says so");
	ok(access(psprintf("%s.format-1", path), F_OK) != 0, "nothing set aside");

	write_text(path, old);
	warnings();
	ok(noise_history_append(path, one, &error), "a record into a history without format_version");
	ok(strstr(warnings(), psprintf("the host's noise history \"%s\" was of format version 0, not 2: moved to \"%s\"; a new history begins", path, aside)) != NULL,
	   "a warning says where it went");
	text = slurp(aside);
	ok(text && strcmp(text, old) == 0, "sets the old one aside as noise.csv.format-0, as it was");
	text = slurp(path);
	ok(text && strcmp(text, psprintf("%s%s", HEADER, one)) == 0, "and begins a new one");

	write_text(path, old);
	error = NULL;
	ok(!noise_history_append(path, one, &error) && error && strstr(error, "format-0"),
	   "never over a history set aside before: refused, naming it");
	text = slurp(path);
	ok(text && strcmp(text, old) == 0, "and the history is left as it was");
	unlink(aside);
	unlink(path);
	rmdir(psprintf("%s/state", dir));
}

int
main(void)
{
	dir = client_test_begin("test_noise_history");
	stderr_path = psprintf("%s/stderr", dir);
	if (freopen(stderr_path, "w+", stderr) == NULL)
	{
		printf("Bail out! %s: %s\n", stderr_path, strerror(errno));
		return 1;
	}
	test_parse();
	test_score();
	test_labels();
	test_find();
	test_append();
	fclose(stderr);
	unlink(stderr_path);
	rmdir(dir);
	return done_testing();
}
