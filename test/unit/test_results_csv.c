/*-------------------------------------------------------------------------
 *
 * test_results_csv.c
 *	  Unit tests (TAP) of reading a results directory's CSV files back as
 *	  data that may come from anyone (client/results/results_csv.c, and runs.csv's
 *	  rows in results.c): fields written as RFC 4180 quotes them and read
 *	  back the same; every kind of malformed line refused with the file,
 *	  the line and the problem (cut short, a NUL byte, a quote out of place
 *	  or never closed, fields too many or too few, a required column
 *	  missing, an empty file); whole numbers within their limits; a run of
 *	  runs.csv checked against its experiment (run number, variant, script,
 *	  clients, status, levels, warm-up, numbers); and --resume's reading of
 *	  it: the runs done, those interrupted moved to interrupted.csv, a run
 *	  past the plan or the columns of another version refused.
 *
 * test/unit/test_results_csv.c
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "experiment.h"
#include "results.h"

#include <limits.h>
#include <math.h>
#include <unistd.h>

#include "test_client_util.h"

static char *dir;
static int	nfile;

static char *
write_file(const char *text, size_t len)
{
	char	   *path = psprintf("%s/t%d.csv", dir, ++nfile);
	FILE	   *f = fopen(path, "w");

	fwrite(text, 1, len, f);
	fclose(f);
	return path;
}

static bool
accept_row(const RunsCsv *t, char **f, const void *arg, char **problem)
{
	return true;
}

static const char *const ab[] = {"a", "b"};

/* text read as a CSV needing columns a and b: the table, or NULL and *error */
static RunsCsv *
read_text(const char *text, char **error)
{
	*error = NULL;
	return results_read_csv(write_file(text, strlen(text)), ab, 2, accept_row, NULL, "HINT", error);
}

/* text refused, the error naming its line and holding want */
static void
refused(const char *text, int line, const char *want, const char *what)
{
	char	   *error;
	RunsCsv    *t = read_text(text, &error);
	char	   *at = psprintf("line %d: ", line);

	ok(t == NULL && error && strstr(error, at) && strstr(error, want) && strstr(error, "hint: HINT"),
	   "%s", what);
	if (t != NULL || !error || !strstr(error, at) || !strstr(error, want))
		diag("got \"%s\", want \"%s%s\"", error ? error : "(no error)", at, want);
}

static void
test_fields(void)
{
	char	   *text = NULL;
	size_t		len = 0;
	FILE	   *mem = open_memstream(&text, &len);
	char	   *error;
	RunsCsv    *t;

	fputs("a,b,c,d", mem);
	results_csv_text(mem, "plain");
	results_csv_text(mem, "with, comma and \"quotes\"\nand a line");
	results_csv_number(mem, 2.5, "%.3f");
	results_csv_number(mem, NAN, "%.3f");
	fputc('\n', mem);
	fclose(mem);
	ok(strcmp(text, "a,b,c,d,plain,\"with, comma and \"\"quotes\"\" and a line\",2.500,\n") == 0,
	   "fields written as RFC 4180 quotes them, a line break a blank, NaN empty");
	t = read_text(psprintf("a,b,c,d\n%s", text + 8), &error);
	ok(t && t->nrows == 1 && strcmp(t->rows[0][0], "plain") == 0 &&
	   strcmp(t->rows[0][1], "with, comma and \"quotes\" and a line") == 0 &&
	   strcmp(t->rows[0][2], "2.500") == 0 && strcmp(t->rows[0][3], "") == 0,
	   "and read back the same%s%s", error ? ": " : "", error ? error : "");
	t = read_text("b,x,a\r\n1,2,3\r\n4,,6\r\n", &error);
	ok(t && t->nrows == 2 && runs_csv_column(t, "a") == 2 && runs_csv_column(t, "z") == -1 &&
	   strcmp(t->rows[1][2], "6") == 0 && strcmp(t->rows[1][1], "") == 0 && strcmp(t->lines[0], "1,2,3\r\n") == 0,
	   "columns found by name, CRLF line ends, each line kept as written");
	ok(t && strcmp(results_csv_header(t), "b,x,a") == 0, "the header's names");
	t = read_text("a,b\n", &error);
	ok(t && t->nrows == 0, "a header alone: no rows");
}

static void
test_malformed(void)
{
	char	   *error;

	refused("a,b\n1,2\n3,4", 3, "the line is cut short (no line end): a write was interrupted", "a line cut short");
	ok(results_read_csv(write_file("a,b\n1,\0002\n", 9), ab, 2, accept_row, NULL, "HINT", &error) == NULL &&
	   strstr(error, "line 2: the line holds a NUL byte"), "a NUL byte");
	refused("a,b\n\"1,2\n", 2, "a quoted field is not closed, or a quote is out of place", "a quote never closed");
	refused("a,b\n1\"x,2\n", 2, "a quoted field is not closed, or a quote is out of place", "a quote inside a field");
	refused("a,b\n\"1\"x,2\n", 2, "a quoted field is not closed, or a quote is out of place", "text after a closing quote");
	refused("a,b\n1,2\n1,2,3\n", 3, "more fields than the header's 2", "a field too many");
	refused("a,b,c\n1,2\n", 2, "2 fields, but the header has 3", "a field too few");
	refused("a,c\n1,2\n", 1, "the header has no column \"b\" (it needs a and b)", "a required column missing");
	ok(read_text("", &error) == NULL && strstr(error, "it is empty (no header)") && !strstr(error, "line"),
	   "an empty file");
	ok(results_read_csv(psprintf("%s/none.csv", dir), ab, 2, accept_row, NULL, "HINT", &error) == NULL && error,
	   "a file not there");
}

static void
test_numbers(void)
{
	long		n;
	char	   *problem = NULL;
	char	   *error;
	RunsCsv    *t = read_text("a,b,x\n1,2,3\n", &error);
	static const char *const nums[] = {"a", "b", "missing"};
	char	   *row_ok[] = {"1.5", "", "x"};
	char	   *row_bad[] = {"1.5", "inf", "x"};
	char	   *row_text[] = {"1.5e", "1", "x"};

	ok(results_parse_int("42", 1, &n) && n == 42, "a whole number");
	ok(results_parse_int(psprintf("%d", INT_MAX), 0, &n) && !results_parse_int(psprintf("%ld", (long) INT_MAX + 1), 0, &n),
	   "up to INT_MAX");
	ok(!results_parse_int("0", 1, &n) && !results_parse_int("-3", 0, &n), "not below its least");
	ok(!results_parse_int("", 0, &n) && !results_parse_int("7x", 0, &n) && !results_parse_int("1.0", 0, &n),
	   "nothing, or anything after the digits: none");
	ok(t && results_check_numbers(t, row_ok, nums, 3, &problem), "numbers, an empty one, and a column not there");
	ok(t && !results_check_numbers(t, row_bad, nums, 3, &problem) && strstr(problem, "b \"inf\" is not a number"),
	   "an infinity is no number");
	ok(t && !results_check_numbers(t, row_text, nums, 3, &problem) && strstr(problem, "a \"1.5e\" is not a number"),
	   "nor a number with text after it");
}

/* a run of variant v of spec, as the runner records it */
static RunRecord
run_of(const ExperimentSpec *spec, PlannedRun *p, int id, int round, int v, const char *status)
{
	RunRecord	r;

	memset(&r, 0, sizeof(r));
	memset(p, 0, sizeof(*p));
	p->run_id = id;
	p->round = round;
	p->variant = v;
	p->clients = spec->clients[0];
	p->warmup = round == 0;
	r.planned = p;
	r.variant = spec->variants[v].name;
	r.script = spec->scripts[0];
	r.jobs = 1;
	r.build = "/x";
	r.instance = 1;
	strlcpy(r.started_at, "2090-01-01T00:00:00Z", sizeof(r.started_at));
	r.duration_s = r.wall_s = 1;
	r.reset_s = NAN;
	r.tps = 1000 + id;
	r.latency_avg_ms = r.latency_stddev_ms = 1;
	r.transactions = 1000;
	r.status = status;
	r.cpu_user_us_per_tx = r.cpu_sys_us_per_tx = NAN;
	r.voluntary_switches_per_tx = r.involuntary_switches_per_tx = NAN;
	r.blks_hit = r.blks_read = r.wal_bytes = NAN;
	r.buffers_written_checkpointer = r.buffers_written_bgwriter = r.buffers_written_backends = NAN;
	r.snapshot.full_ns_median = r.snapshot.full_ns_p90 = NAN;
	r.snapshot.reuse_ns_median = r.snapshot.reuse_ns_p90 = NAN;
	r.snapshot.xcnt = r.snapshot.procs = NAN;
	r.reason = strcmp(status, "ok") == 0 ? NULL : "stopped, \"by\" hand";
	return r;
}

/* runs.csv of results directory rdir with its last line's field col set to value */
static void
corrupt(const char *rdir, const char *header_and_rows, int col, const char *value)
{
	char	   *text = pg_strdup(header_and_rows);
	char	   *last = text + strlen(text) - 1;
	char	   *out;
	char	   *field;
	int			i = 0;
	FILE	   *f;

	*last = '\0';
	last = strrchr(text, '\n') + 1;
	out = psprintf("%.*s", (int) (last - text), text);
	for (field = last; i < col; i++)
		field = strchr(field, ',') + 1;
	out = psprintf("%s%.*s%s%s\n", out, (int) (field - last), last, value, field + strcspn(field, ","));
	f = fopen(psprintf("%s/runs.csv", rdir), "w");
	fputs(out, f);
	fclose(f);
}

static void
test_runs(void)
{
	ExperimentSpec spec;
	char	   *rdir = psprintf("%s/results", dir);
	char	   *error = NULL;
	PlannedRun	p[4];
	RunRecord	r[4];
	RunsCsv    *t;
	char	   *good;
	FILE	   *f;
	bool	   *done;
	int			ndone;
	struct
	{
		int			col;
		const char *value;
		const char *want;
	}			bad[] = {
		{0, "0", "run_id \"0\" is not a positive whole number"},
		{0, "1000001", "run_id 1000001 is more than 1000000"},
		{2, "C", "variant \"C\" is not a variant of the experiment (experiment.json has \"A\", \"B\")"},
		{3, "tpcc", "script \"tpcc\" is not a script of the experiment"},
		{4, "3", "clients \"3\" is not a client count of the experiment"},
		{19, "done", "status \"done\" is none of ok, failed, interrupted"},
		{9, "32768", "instance \"32768\" is not a whole number from 0 to 32767"},
		{1, "-1", "round \"-1\" is not a whole number from 0 to 32767"},
		{6, "maybe", "warmup \"maybe\" is neither true nor false"},
		{14, "fast", "tps \"fast\" is not a number"},
		{2, "\x1b[31mA", "variant \"\\x1b[31mA\" is not a variant"},
	};

	experiment_init(&spec);
	if (!experiment_set(&spec, "variant A", "bindir", "/x", &error) ||
		!experiment_set(&spec, "variant B", "bindir", "/x", &error) ||
		!experiment_set(&spec, "experiment", "clients", "2", &error))
	{
		ok(false, "an experiment of two variants: %s", error);
		return;
	}
	ok(results_create(rdir, &error), "a results directory%s%s", error ? ": " : "", error ? error : "");
	r[0] = run_of(&spec, &p[0], 1, 1, 0, "ok");
	r[1] = run_of(&spec, &p[1], 2, 1, 1, "failed");
	r[2] = run_of(&spec, &p[2], 3, 2, 1, "interrupted");
	r[3] = run_of(&spec, &p[3], 9, 0, 0, "ok");
	for (int i = 0; i < 4; i++)
		ok(results_append_run(rdir, &r[i], &error), "run %d recorded", p[i].run_id);
	t = results_read_runs(rdir, &spec, &error);
	ok(t && t->nrows == 4, "runs.csv read back: 4 runs%s%s", error && !t ? ": " : "", error && !t ? error : "");
	if (t == NULL)
		return;
	ok(strcmp(t->rows[1][runs_csv_column(t, "variant")], "B") == 0 &&
	   strcmp(t->rows[0][runs_csv_column(t, "tps")], "1001.000") == 0 &&
	   strcmp(t->rows[0][runs_csv_column(t, "reset_s")], "") == 0 &&
	   strcmp(t->rows[3][runs_csv_column(t, "warmup")], "true") == 0 &&
	   strcmp(t->rows[1][runs_csv_column(t, "reason")], "stopped, \"by\" hand") == 0,
	   "its fields as written: names, numbers, none as empty, a warm-up, a quoted reason");

	f = fopen(psprintf("%s/runs.csv", rdir), "r");
	good = pg_malloc0(65536);
	if (fread(good, 1, 65535, f) == 0)
		diag("runs.csv is empty");
	fclose(f);
	for (int i = 0; i < lengthof(bad); i++)
	{
		corrupt(rdir, good, bad[i].col, bad[i].value);
		t = results_read_runs(rdir, &spec, &error);
		ok(t == NULL && strstr(error, "runs.csv\" line 5: ") && strstr(error, bad[i].want),
		   "a run whose field %d is %s: refused", bad[i].col, bad[i].value);
		if (t != NULL || !strstr(error, bad[i].want))
			diag("got \"%s\", want \"%s\"", t ? "(no error)" : error, bad[i].want);
	}

	/* --resume: a plan of 8 runs, run 1 recorded twice */
	{
		char	   *first = strchr(good, '\n') + 1;

		f = fopen(psprintf("%s/runs.csv", rdir), "w");
		fprintf(f, "%s%.*s", good, (int) (strchr(first, '\n') + 1 - first), first);
		fclose(f);
	}
	done = results_completed_runs(rdir, &spec, 8, &ndone, &error);
	ok(done && ndone == 2 && done[1] && done[2] && !done[3],
	   "resume: the runs done, ok or failed, and not the interrupted one%s%s", done ? "" : ": ", done ? "" : error);
	t = results_read_runs(rdir, &spec, &error);
	ok(t && t->nrows == 4 && strcmp(t->rows[2][0], "9") == 0,
	   "runs.csv left with them and the warm-up past the plan");
	t = results_read_csv(psprintf("%s/interrupted.csv", rdir), ab, 0, accept_row, NULL, "", &error);
	ok(t && t->nrows == 1 && strcmp(t->rows[0][0], "3") == 0, "the interrupted run moved to interrupted.csv");
	corrupt(rdir, good, 1, "1");
	done = results_completed_runs(rdir, &spec, 8, &ndone, &error);
	ok(done == NULL && strstr(error, "holds run 9, but the plan of the experiment has 8 runs"),
	   "a counted run past the plan: refused");
	/* every column this version reads, and one more: read by name, never appended to */
	{
		int			header_len = strchr(good, '\n') - good;
		char	   *first = strchr(good, '\n') + 1;
		int			row_len = strchr(first, '\n') - first;

		f = fopen(psprintf("%s/runs.csv", rdir), "w");
		fprintf(f, "%.*s,extra\n%.*s,x\n", header_len, good, row_len, first);
		fclose(f);
	}
	done = results_completed_runs(rdir, &spec, 8, &ndone, &error);
	ok(done == NULL && strstr(error, "has the columns of another version of pgbench_ext"),
	   "runs.csv of another version's columns: refused for a resume");
	t = results_read_runs(rdir, &spec, &error);
	ok(t && t->nrows == 1, "but read by a report, by the columns' names");
	/* a column the report needs missing: refused by both */
	f = fopen(psprintf("%s/runs.csv", rdir), "w");
	fprintf(f, "run_id,round,variant,script,clients,status,extra\n1,1,A,tpcb-like,2,ok,x\n");
	fclose(f);
	t = results_read_runs(rdir, &spec, &error);
	ok(t == NULL && strstr(error, "the header has no column"),
	   "runs.csv without a column this version reads: refused, naming it");
}

int
main(void)
{
	dir = client_test_begin("test_results_csv");
	test_fields();
	test_malformed();
	test_numbers();
	test_runs();
	/* what the tests wrote */
	for (int i = 1; i <= nfile; i++)
		unlink(psprintf("%s/t%d.csv", dir, i));
	unlink(psprintf("%s/results/runs.csv", dir));
	unlink(psprintf("%s/results/interrupted.csv", dir));
	rmdir(psprintf("%s/results/runs", dir));
	rmdir(psprintf("%s/results", dir));
	rmdir(dir);
	return done_testing();
}
