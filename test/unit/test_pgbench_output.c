/*-------------------------------------------------------------------------
 *
 * test_pgbench_output.c
 *	  Unit tests (TAP) of the pgbench output parser on captured outputs.
 *
 * Every fixture in test/fixtures/pgbench (real runs of PostgreSQL 15 and
 * 18, and outputs of 13, 14, 16, 17 and 18 laid out from their printf
 * formats; see the README there) is parsed and every field of the result
 * compared exactly with the fixture's NAME.expected.  Then broken inputs: nothing, garbage, malformed lines and every possible
 * truncation of every fixture must give a clear message, never a crash.
 *
 * "test_pgbench_output --parse OUT [ERR]" instead parses two files and
 * prints key=value lines, for the live test against a real pgbench.
 *
 * test/unit/test_pgbench_output.c
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_output.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define lengthof(a) ((int) (sizeof(a) / sizeof((a)[0])))

#ifndef FIXTURE_DIR
#define FIXTURE_DIR "test/fixtures/pgbench"
#endif

static int	tests_run;
static int	tests_failed;
static const char *current;		/* fixture being checked, for messages */

static void
ok(int cond, const char *fmt,...)
{
	va_list		ap;

	tests_run++;
	if (!cond)
		tests_failed++;
	printf("%sok %d - %s: ", cond ? "" : "not ", tests_run, current);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define IS_INT(got, want) \
	ok((long long) (got) == (long long) (want), "%s = %lld (want %lld)", #got, \
	   (long long) (got), (long long) (want))
/* exact: strtod of the printed text and the same literal round alike */
#define IS_DBL(got, want) \
	ok((got) == (want), "%s = %.17g (want %.17g)", #got, (double) (got), (double) (want))
#define IS_NAN(got) ok(isnan(got), "%s = %g (want NaN: not printed)", #got, (double) (got))
#define IS_STR(got, want) \
	ok(strcmp((got), (want)) == 0, "%s = \"%s\" (want \"%s\")", #got, (got), (want))

/* Read a whole file; NULL if it does not exist */
static char *
slurp(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	char	   *buf;
	long		len;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(len + 1);
	if (buf == NULL || fread(buf, 1, len, f) != (size_t) len)
	{
		fprintf(stderr, "could not read \"%s\"\n", path);
		exit(2);
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static char *fixture_out;
static char *fixture_err;

/* Parse fixture NAME.out (+ NAME.err); returns the parser's result code */
static int
parse_fixture(const char *name, PgbenchResult *r, char *errbuf, size_t errlen)
{
	char		path[1024];

	current = name;
	free(fixture_out);
	free(fixture_err);
	snprintf(path, sizeof(path), "%s/%s.out", FIXTURE_DIR, name);
	fixture_out = slurp(path);
	if (fixture_out == NULL)
	{
		printf("Bail out! fixture %s missing\n", path);
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/%s.err", FIXTURE_DIR, name);
	fixture_err = slurp(path);
	return pgbench_output_parse(fixture_out, fixture_err, r, errbuf, errlen);
}

/*
 * Every field of a parse is compared with NAME.expected, beside the
 * fixture: "field = value" lines for every field of PgbenchResult (its
 * scripts as "script.N.field", its progress lines as "progress.N = " and
 * the nine figures of PgbenchProgress in order), and "rc" and "error" for
 * what pgbench_output_parse() returned.  "-" is a figure pgbench did not
 * print (NAN or -1), an empty value an empty string.  The expected files
 * were written from reading the text, not from the parser; a field
 * missing from one, or a line naming no field, fails the test.
 */
typedef enum FieldType
{
	FIELD_INT,
	FIELD_LLONG,
	FIELD_DOUBLE,
	FIELD_BOOL,
	FIELD_STRING,
	FIELD_TPS_KIND
} FieldType;

typedef struct Field
{
	const char *name;
	FieldType	type;
	size_t		offset;
} Field;

#define RESULT(f, t) {#f, t, offsetof(PgbenchResult, f)}
#define SCRIPT(f, t) {#f, t, offsetof(PgbenchScriptResult, f)}
#define PROGRESS(f, t) {#f, t, offsetof(PgbenchProgress, f)}

static const Field result_fields[] = {
	RESULT(server_format, FIELD_INT), RESULT(pgbench_version, FIELD_STRING),
	RESULT(transaction_type, FIELD_STRING), RESULT(scale, FIELD_INT),
	RESULT(partition_method, FIELD_STRING), RESULT(partitions, FIELD_INT),
	RESULT(query_mode, FIELD_STRING), RESULT(clients, FIELD_INT), RESULT(threads, FIELD_INT),
	RESULT(max_tries, FIELD_INT), RESULT(duration_s, FIELD_INT),
	RESULT(transactions_per_client, FIELD_INT), RESULT(transactions, FIELD_LLONG),
	RESULT(transactions_expected, FIELD_LLONG), RESULT(failed, FIELD_LLONG),
	RESULT(failed_pct, FIELD_DOUBLE), RESULT(serialization_failures, FIELD_LLONG),
	RESULT(deadlock_failures, FIELD_LLONG), RESULT(other_failures, FIELD_LLONG),
	RESULT(retried, FIELD_LLONG), RESULT(retried_pct, FIELD_DOUBLE), RESULT(retries, FIELD_LLONG),
	RESULT(skipped, FIELD_LLONG), RESULT(skipped_pct, FIELD_DOUBLE),
	RESULT(latency_limit_ms, FIELD_DOUBLE), RESULT(latency_late, FIELD_LLONG),
	RESULT(latency_avg_ms, FIELD_DOUBLE), RESULT(latency_avg_includes_failures, FIELD_BOOL),
	RESULT(latency_stddev_ms, FIELD_DOUBLE), RESULT(lag_avg_ms, FIELD_DOUBLE),
	RESULT(lag_max_ms, FIELD_DOUBLE), RESULT(initial_connection_time_ms, FIELD_DOUBLE),
	RESULT(average_connection_time_ms, FIELD_DOUBLE), RESULT(tps, FIELD_DOUBLE),
	RESULT(tps_kind, FIELD_TPS_KIND), RESULT(tps_including_connections, FIELD_DOUBLE),
	RESULT(n_scripts, FIELD_INT), RESULT(n_progress, FIELD_INT), RESULT(complete, FIELD_BOOL),
	RESULT(aborted, FIELD_BOOL), RESULT(n_errors, FIELD_INT), RESULT(abort_reason, FIELD_STRING),
	RESULT(n_unrecognized, FIELD_INT), RESULT(first_unrecognized, FIELD_STRING),
};

static const Field script_fields[] = {
	SCRIPT(name, FIELD_STRING), SCRIPT(weight, FIELD_INT), SCRIPT(weight_pct, FIELD_DOUBLE),
	SCRIPT(transactions, FIELD_LLONG), SCRIPT(transactions_pct, FIELD_DOUBLE),
	SCRIPT(tps, FIELD_DOUBLE), SCRIPT(failed, FIELD_LLONG),
	SCRIPT(serialization_failures, FIELD_LLONG), SCRIPT(deadlock_failures, FIELD_LLONG),
	SCRIPT(other_failures, FIELD_LLONG), SCRIPT(retried, FIELD_LLONG), SCRIPT(retries, FIELD_LLONG),
	SCRIPT(skipped, FIELD_LLONG), SCRIPT(latency_avg_ms, FIELD_DOUBLE),
	SCRIPT(latency_stddev_ms, FIELD_DOUBLE),
};

/* in the order of a "progress.N = " line */
static const Field progress_fields[] = {
	PROGRESS(elapsed_s, FIELD_DOUBLE), PROGRESS(tps, FIELD_DOUBLE),
	PROGRESS(latency_avg_ms, FIELD_DOUBLE), PROGRESS(latency_stddev_ms, FIELD_DOUBLE),
	PROGRESS(failed, FIELD_LLONG), PROGRESS(lag_ms, FIELD_DOUBLE), PROGRESS(skipped, FIELD_LLONG),
	PROGRESS(retried, FIELD_LLONG), PROGRESS(retries, FIELD_LLONG),
};

static const char *const tps_kind_names[] = {
	[PGBENCH_TPS_UNKNOWN] = "unknown",
	[PGBENCH_TPS_EXCLUDING_CONNECTIONS] = "excluding_connections",
	[PGBENCH_TPS_WITHOUT_INITIAL_CONNECTION] = "without_initial_connection",
	[PGBENCH_TPS_INCLUDING_RECONNECTS] = "including_reconnects",
};

/* A field's value as an expected file writes it */
static void
format_field(const Field *f, const void *base, char *buf, size_t len)
{
	const char *p = (const char *) base + f->offset;
	double		d;
	long long	i;

	switch (f->type)
	{
		case FIELD_INT:
		case FIELD_LLONG:
			i = f->type == FIELD_INT ? *(const int *) p : *(const long long *) p;
			if (i == -1)
				snprintf(buf, len, "-");
			else
				snprintf(buf, len, "%lld", i);
			break;
		case FIELD_DOUBLE:
			d = *(const double *) p;
			if (isnan(d))
				snprintf(buf, len, "-");
			else
				snprintf(buf, len, "%.17g", d);
			break;
		case FIELD_BOOL:
			snprintf(buf, len, "%d", *(const bool *) p ? 1 : 0);
			break;
		case FIELD_STRING:
			snprintf(buf, len, "%s", p);
			break;
		case FIELD_TPS_KIND:
			snprintf(buf, len, "%s", tps_kind_names[*(const PgbenchTpsKind *) p]);
			break;
	}
}

/* Compare a field with its expected text: doubles by value, the rest as text. */
static void
check_field(const char *label, const Field *f, const void *base, const char *want)
{
	char		got[512];
	bool		same;

	format_field(f, base, got, sizeof(got));
	/* pgbench prints 0/0 as NaN: stored as NAN, like a figure not printed */
	if (f->type == FIELD_DOUBLE && strcmp(want, "NaN") == 0)
		same = strcmp(got, "-") == 0;
	else if (f->type == FIELD_DOUBLE && strcmp(want, "-") != 0 && strcmp(got, "-") != 0)
		same = strtod(want, NULL) == *(const double *) ((const char *) base + f->offset);
	else
		same = strcmp(got, want) == 0;
	ok(same, "%s = %s (want %s)", label, got, want);
}

/* The expected file of a fixture, as key/value pairs */
typedef struct Expected
{
	int			n;
	char	   *key[512];
	char	   *value[512];
	bool		used[512];
} Expected;

static void
read_expected(const char *name, Expected *e)
{
	char		path[1024];
	char	   *text;
	char	   *line;
	char	   *save = NULL;

	memset(e, 0, sizeof(*e));
	snprintf(path, sizeof(path), "%s/%s.expected", FIXTURE_DIR, name);
	if ((text = slurp(path)) == NULL)
	{
		ok(0, "%s exists (every fixture needs one)", path);
		return;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
	{
		char	   *eq = strstr(line, " =");

		if (line[0] == '#')
			continue;
		if (eq == NULL || e->n == lengthof(e->key))
		{
			ok(0, "%s: a \"field = value\" line: \"%s\"", path, line);
			continue;
		}
		*eq = '\0';
		e->key[e->n] = line;
		e->value[e->n++] = eq[2] == ' ' ? eq + 3 : eq + 2;
	}
}

/* The expected value of key; a missing one fails and gives NULL */
static const char *
expected_value(Expected *e, const char *key)
{
	for (int i = 0; i < e->n; i++)
		if (strcmp(e->key[i], key) == 0)
		{
			e->used[i] = true;
			return e->value[i];
		}
	ok(0, "%s.expected has \"%s = \"", current, key);
	return NULL;
}

static void
check_fields(Expected *e, const char *prefix, const Field *fields, int nfields, const void *base)
{
	for (int i = 0; i < nfields; i++)
	{
		char		key[128];
		const char *want;

		snprintf(key, sizeof(key), "%s%s", prefix, fields[i].name);
		if ((want = expected_value(e, key)) != NULL)
			check_field(key, &fields[i], base, want);
	}
}

/* One progress line: its nine figures, space-separated */
static void
check_progress_line(Expected *e, int n, const PgbenchProgress *p)
{
	char		key[64];
	char	   *want;
	char	   *save = NULL;
	const char *word;
	int			k = 0;

	snprintf(key, sizeof(key), "progress.%d", n);
	if ((word = expected_value(e, key)) == NULL)
		return;
	want = strdup(word);
	for (word = strtok_r(want, " ", &save); word; word = strtok_r(NULL, " ", &save), k++)
	{
		char		label[96];

		if (k >= lengthof(progress_fields))
			break;
		snprintf(label, sizeof(label), "%s.%s", key, progress_fields[k].name);
		check_field(label, &progress_fields[k], p, word);
	}
	ok(k == lengthof(progress_fields) && word == NULL, "%s has %d figures (%d)", key,
	   (int) lengthof(progress_fields), k);
	free(want);
}

/*
 * Parse fixture NAME and check every field against NAME.expected, and what
 * must hold between them: the scripts' counts add up to the totals.
 */
static void
check_fixture(const char *name)
{
	PgbenchResult r;
	Expected	e;
	char		err[512];
	char		rc[16];
	const char *want;
	long long	transactions = 0,
				failed = 0;

	read_expected(name, &e);
	snprintf(rc, sizeof(rc), "%d", parse_fixture(name, &r, err, sizeof(err)));
	if ((want = expected_value(&e, "rc")) != NULL)
		ok(strcmp(rc, want) == 0, "rc = %s (want %s; %s)", rc, want, err[0] ? err : "no message");
	if ((want = expected_value(&e, "error")) != NULL)
		ok(strcmp(err, want) == 0, "error = \"%s\" (want \"%s\")", err, want);
	check_fields(&e, "", result_fields, lengthof(result_fields), &r);
	for (int i = 0; i < r.n_scripts; i++)
	{
		char		prefix[32];

		snprintf(prefix, sizeof(prefix), "script.%d.", i + 1);
		check_fields(&e, prefix, script_fields, lengthof(script_fields), &r.scripts[i]);
		/* before 15 a script's count includes its skipped transactions */
		transactions += r.scripts[i].transactions -
			(r.server_format < PGBENCH_FORMAT_15 && r.scripts[i].skipped > 0 ? r.scripts[i].skipped : 0);
		failed += r.scripts[i].failed;
	}
	for (int i = 0; i < r.n_progress; i++)
		check_progress_line(&e, i + 1, &r.progress[i]);
	for (int i = 0; i < e.n; i++)
		if (!e.used[i])
			ok(0, "%s.expected: \"%s\" is no field of this parse", name, e.key[i]);
	if (r.n_scripts > 0 && r.complete)
	{
		ok(transactions == r.transactions, "the scripts' transactions (less those skipped, before 15) add up to %lld (%lld)",
		   r.transactions, transactions);
		if (r.failed >= 0)
			ok(failed == r.failed, "the scripts' failed transactions add up to %lld (%lld)",
			   r.failed, failed);
	}
	pgbench_result_free(&r);
}

/* Single progress lines, as the driver reads them while pgbench runs */
static void
test_progress_lines(void)
{
	PgbenchProgress p;

	current = "progress lines";
	ok(pgbench_progress_parse_line("progress: 3.0 s, 512.4 tps, lat 1.950 ms stddev 0.410", &p) == 0 &&
	   p.elapsed_s == 3.0 && p.tps == 512.4 && p.latency_avg_ms == 1.950 &&
	   p.latency_stddev_ms == 0.410 && p.failed == -1 && isnan(p.lag_ms),
	   "13/14 line");
	ok(pgbench_progress_parse_line("progress: 2.0 s, 99.0 tps, lat 0.5 ms stddev 0.1, 3 failed, "
								   "lag 0.020 ms, 7 skipped, 4 retried, 5 retries", &p) == 0 &&
	   p.failed == 3 && p.lag_ms == 0.020 && p.skipped == 7 && p.retried == 4 && p.retries == 5,
	   "15+ line with every optional part");
	ok(pgbench_progress_parse_line("progress: 1.0 s, 0.0 tps, lat 0.000 ms stddev NaN, 0 failed", &p) == 0 &&
	   isnan(p.latency_stddev_ms), "NaN as PostgreSQL's snprintf prints it");
	ok(pgbench_progress_parse_line("progress: 1.0 s, 5 tps", &p) == -1, "cut short");
	ok(pgbench_progress_parse_line("progress: 1.0 s, 5.0 tps, lat 1.0 ms stddev 0.1, 2 widgets", &p) == -1,
	   "unknown part");
	ok(pgbench_progress_parse_line("progress: 1.0 s, 5.0 tps, lat 1.0 ms stddev 0.1,", &p) == -1,
	   "dangling comma");
	ok(pgbench_progress_parse_line("starting vacuum...end.", &p) == -1, "not a progress line");
	ok(pgbench_progress_parse_line(NULL, &p) == -1, "NULL");
}

/* Broken inputs: each gives -1 and a message, none crashes */
static void
expect_error(const char *what, const char *out, const char *err, const char *msg)
{
	PgbenchResult r;
	char		buf[256];
	int			rc = pgbench_output_parse(out, err, &r, buf, sizeof(buf));

	current = what;
	ok(rc == -1 && strstr(buf, msg) != NULL, "error \"%s\" (got rc %d: \"%s\")", msg, rc, buf);
	pgbench_result_free(&r);
}

static void
test_errors(void)
{
	const char *header = "pgbench (15.4)\ntransaction type: x.sql\nscaling factor: 1\n"
		"query mode: simple\nnumber of clients: 1\nnumber of threads: 1\n"
		"maximum number of tries: 1\nduration: 1 s\n"
		"number of transactions actually processed: 10\n";
	char		buf[2048];

	expect_error("NULL output", NULL, NULL, "pgbench printed nothing on stdout");
	expect_error("empty output", "", "", "pgbench printed nothing on stdout");
	expect_error("garbage", "Segmentation fault\n\x01\x02\xff\n", "",
				 "no pgbench result summary");
	expect_error("garbage without newline", "tps = 1", NULL, "no pgbench result summary");

	snprintf(buf, sizeof(buf), "%s", header);
	expect_error("truncated after counts", buf, "", "truncated: the summary has no \"tps = \" line");

	snprintf(buf, sizeof(buf), "%slatency average = 1.000 ms\ntps = 12.5", header);
	expect_error("cut inside the tps line", buf, "", "truncated");

	snprintf(buf, sizeof(buf), "%slatency average = 1.000 ms\ntps = fast (without initial connection time)\n",
			 header);
	expect_error("malformed tps", buf, "", "stdout line 11: malformed line \"tps = fast");

	snprintf(buf, sizeof(buf), "pgbench (15.4)\ntransaction type: x.sql\nnumber of clients: many\n");
	expect_error("malformed clients", buf, "", "stdout line 3: malformed line \"number of clients: many\"");

	snprintf(buf, sizeof(buf), "%slatency average = 1.000 ms\ntps = 10.0 (without initial connection time)\n"
			 "SQL script 2: x.sql\n", header);
	expect_error("scripts out of order", buf, "", "expected SQL script 1");

	snprintf(buf, sizeof(buf), "%slatency average = 1.000 ms\ntps = 10.0 (without initial connection time)\n"
			 "SQL script 1: x.sql\n - weight: 1 (targets 50.0%% of total)\n", header);
	expect_error("cut inside a script section", buf, "", "truncated in the section of SQL script 1");

	snprintf(buf, sizeof(buf), "transaction type: x.sql\nscaling factor: 1\nquery mode: simple\n"
			 "tps = 10.0 (without initial connection time)\n");
	expect_error("header lines missing", buf, "", "lacks its \"number of clients\" line");

	snprintf(buf, sizeof(buf), "%stps = 10.0 (without initial connection time)\n", header);
	expect_error("no latency line", buf, "", "lacks its \"latency average\" line");

	snprintf(buf, sizeof(buf), "%slatency average = 1.000 ms\ntps = 10.0 (without initial connection time)\n",
			 header);
	expect_error("malformed progress", buf, "progress: 1.0 s, lots tps\n",
				 "stderr line 1: malformed progress line");
}

/* Deterministic pseudo-random garbage of every shape */
static void
test_random_garbage(void)
{
	unsigned int seed = 12345;
	int			survived = 0;
	const char	alphabet[] = "tps =()%.0123456789-nN:\n aeiouSQLscript";

	current = "random garbage";
	for (int round = 0; round < 2000; round++)
	{
		char		text[300];
		int			len = round % 299;
		PgbenchResult r;
		char		err[128];

		for (int i = 0; i < len; i++)
		{
			seed = seed * 1103515245 + 12345;
			text[i] = round % 2 ? alphabet[(seed >> 16) % (sizeof(alphabet) - 1)]
				: (char) (1 + (seed >> 16) % 255);
		}
		text[len] = '\0';
		if (pgbench_output_parse(text, text, &r, err, sizeof(err)) == -1 && err[0])
			survived++;
		pgbench_result_free(&r);
	}
	ok(survived == 2000, "%d of 2000 garbage inputs rejected with a message", survived);
}

/*
 * Every fixture is made only of known lines, and every cut of its stdout
 * is handled: never a crash; a cut before the end of the tps line must be
 * reported, unless pgbench itself said it aborted.
 */
static void
test_truncations(const char *const *names, int n)
{
	for (int f = 0; f < n; f++)
	{
		PgbenchResult r;
		char		err[256];
		char	   *full;
		char	   *tps_end;
		size_t		len;
		size_t		need;
		int			bad = 0;
		int			reported = 0;

		/* and the whole of it: every line has a known shape */
		parse_fixture(names[f], &r, err, sizeof(err));
		ok(r.n_unrecognized == 0, "no unrecognized line (first: \"%s\")",
		   r.first_unrecognized);
		pgbench_result_free(&r);
		full = strdup(fixture_out);
		len = strlen(full);
		/* the last "tps = " line ends the summary (13 prints two) */
		tps_end = NULL;
		for (char *t = strstr(full, "\ntps = "); t; t = strstr(t + 1, "\ntps = "))
			tps_end = strchr(t + 1, '\n');
		need = tps_end ? (size_t) (tps_end - full) + 1 : len + 1;
		for (size_t cut = 0; cut < len; cut++)
		{
			char		saved = full[cut];
			int			rc;

			full[cut] = '\0';
			rc = pgbench_output_parse(full, fixture_err, &r, err, sizeof(err));
			if (rc == -1 && err[0] == '\0')
				bad++;
			if (cut < need && !r.aborted)
			{
				if (rc == -1)
					reported++;
				else
					bad++;
			}
			pgbench_result_free(&r);
			full[cut] = saved;
		}
		current = names[f];
		ok(bad == 0, "all %zu truncations handled (%d cuts before the tps line reported)",
		   len, reported);
		free(full);
	}
}

/* CLI for the live test: parse two files, print what was found */
static int
parse_files(const char *outpath, const char *errpath)
{
	char	   *out = slurp(outpath);
	char	   *err = errpath ? slurp(errpath) : NULL;
	PgbenchResult r;
	char		msg[512];
	int			rc;

	if (out == NULL)
	{
		fprintf(stderr, "could not read \"%s\"\n", outpath);
		return 2;
	}
	rc = pgbench_output_parse(out, err, &r, msg, sizeof(msg));
	printf("rc=%d\n", rc);
	if (rc != 0)
		printf("error=%s\n", msg);
	printf("server_format=%d\npgbench_version=%s\ntransaction_type=%s\n",
		   r.server_format, r.pgbench_version, r.transaction_type);
	printf("scale=%d\nclients=%d\nthreads=%d\nduration_s=%d\n",
		   r.scale, r.clients, r.threads, r.duration_s);
	printf("transactions=%lld\nfailed=%lld\n", r.transactions, r.failed);
	printf("latency_avg_ms=%.3f\nlatency_stddev_ms=%.3f\ntps=%f\n",
		   r.latency_avg_ms, r.latency_stddev_ms, r.tps);
	printf("complete=%d\naborted=%d\nn_scripts=%d\nn_progress=%d\n",
		   r.complete, r.aborted, r.n_scripts, r.n_progress);
	printf("n_unrecognized=%d\nfirst_unrecognized=%s\n",
		   r.n_unrecognized, r.first_unrecognized);
	for (int i = 0; i < r.n_progress; i++)
		printf("progress=%.3f %.1f %.3f %lld\n", r.progress[i].elapsed_s,
			   r.progress[i].tps, r.progress[i].latency_avg_ms, r.progress[i].failed);
	pgbench_result_free(&r);
	free(out);
	free(err);
	return rc == 0 ? 0 : 1;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Every NAME of a NAME.out in the fixture directory, sorted */
static int
list_fixtures(char ***names)
{
	DIR		   *dir = opendir(FIXTURE_DIR);
	struct dirent *de;
	int			n = 0;

	*names = NULL;
	if (dir == NULL)
	{
		printf("Bail out! cannot read %s\n", FIXTURE_DIR);
		exit(2);
	}
	while ((de = readdir(dir)) != NULL)
	{
		size_t		len = strlen(de->d_name);

		if (len > 4 && strcmp(de->d_name + len - 4, ".out") == 0)
		{
			*names = realloc(*names, sizeof(char *) * (n + 1));
			(*names)[n++] = strndup(de->d_name, len - 4);
		}
	}
	closedir(dir);
	qsort(*names, n, sizeof(char *), compare_names);
	return n;
}

int
main(int argc, char **argv)
{
	char	  **fixtures;
	int			nfixtures;

	if (argc >= 3 && strcmp(argv[1], "--parse") == 0)
		return parse_files(argv[2], argc >= 4 ? argv[3] : NULL);

	nfixtures = list_fixtures(&fixtures);
	for (int i = 0; i < nfixtures; i++)
		check_fixture(fixtures[i]);
	test_progress_lines();
	test_errors();
	test_random_garbage();
	test_truncations((const char *const *) fixtures, nfixtures);

	free(fixture_out);
	free(fixture_err);
	printf("1..%d\n", tests_run);
	return tests_failed == 0 ? 0 : 1;
}
