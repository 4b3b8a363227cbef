/*-------------------------------------------------------------------------
 *
 * test_pgbench_output.c
 *	  Unit tests (TAP) of the pgbench output parser on captured outputs.
 *
 * Every fixture in test/fixtures/pgbench (real PostgreSQL 15 runs, and
 * outputs of 13, 14, 16, 17 and 18 laid out from their printf formats; see
 * the README there) is parsed and each figure compared exactly with the text.
 * Then broken inputs: nothing, garbage, malformed lines and every possible
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

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Parse a fixture that must parse; report the message if it does not */
static void
parse_ok(const char *name, PgbenchResult *r)
{
	char		err[256];
	int			rc = parse_fixture(name, r, err, sizeof(err));

	ok(rc == 0, "parses (%s)", rc == 0 ? "ok" : err);
}

static void
check_progress(const PgbenchResult *r, int i, double elapsed, double tps,
			   double lat, double stddev, long long failed)
{
	const PgbenchProgress *p = &r->progress[i];

	ok(i < r->n_progress && p->elapsed_s == elapsed && p->tps == tps &&
	   p->latency_avg_ms == lat && p->latency_stddev_ms == stddev &&
	   p->failed == failed,
	   "progress[%d] = %.3f s, %.1f tps, lat %.3f stddev %.3f, %lld failed",
	   i, p->elapsed_s, p->tps, p->latency_avg_ms, p->latency_stddev_ms, p->failed);
}

static void
test_pg15_tpcb_T_progress(void)
{
	PgbenchResult r;

	parse_ok("pg15_tpcb_T_progress", &r);
	IS_INT(r.server_format, PGBENCH_FORMAT_15);
	IS_STR(r.pgbench_version, "15.20 (Debian 15.20-0+deb12u1)");
	IS_STR(r.transaction_type, "<builtin: TPC-B (sort of)>");
	IS_INT(r.scale, 2);
	IS_STR(r.query_mode, "simple");
	IS_INT(r.clients, 4);
	IS_INT(r.threads, 2);
	IS_INT(r.max_tries, 1);
	IS_INT(r.duration_s, 5);
	IS_INT(r.transactions_per_client, -1);
	IS_INT(r.transactions, 35254);
	IS_INT(r.transactions_expected, -1);
	IS_INT(r.failed, 0);
	IS_DBL(r.failed_pct, 0.0);
	IS_INT(r.retried, -1);
	IS_INT(r.skipped, -1);
	IS_DBL(r.latency_avg_ms, 0.564);
	IS_DBL(r.latency_stddev_ms, 0.584);
	IS_DBL(r.initial_connection_time_ms, 5.866);
	IS_DBL(r.tps, 7049.192784);
	IS_INT(r.tps_kind, PGBENCH_TPS_WITHOUT_INITIAL_CONNECTION);
	IS_NAN(r.tps_including_connections);
	IS_INT(r.n_scripts, 0);
	IS_INT(r.complete, 1);
	IS_INT(r.aborted, 0);
	IS_INT(r.n_errors, 0);
	IS_INT(r.n_unrecognized, 0);
	IS_INT(r.n_progress, 5);
	check_progress(&r, 0, 1.0, 8662.6, 0.456, 0.206, 0);
	check_progress(&r, 4, 5.0, 6705.5, 0.594, 1.146, 0);
	IS_NAN(r.progress[0].lag_ms);
	IS_INT(r.progress[0].skipped, -1);
	pgbench_result_free(&r);
}

static void
test_pg15_select_only_t(void)
{
	PgbenchResult r;

	parse_ok("pg15_select_only_t", &r);
	IS_STR(r.transaction_type, "<builtin: select only>");
	IS_INT(r.duration_s, -1);
	IS_INT(r.transactions_per_client, 500);
	IS_INT(r.transactions, 1000);
	IS_INT(r.transactions_expected, 1000);
	IS_DBL(r.latency_avg_ms, 0.088);
	/* no -P, --rate or -L: only the average, derived from the run time */
	IS_NAN(r.latency_stddev_ms);
	IS_DBL(r.tps, 22836.263987);
	IS_INT(r.n_progress, 0);
	pgbench_result_free(&r);
}

static void
test_pg15_weighted_builtins(void)
{
	PgbenchResult r;
	PgbenchScriptResult *s;

	parse_ok("pg15_weighted_builtins", &r);
	IS_STR(r.transaction_type, "multiple scripts");
	IS_INT(r.transactions, 51997);
	IS_DBL(r.tps, 17344.185193);
	IS_INT(r.n_scripts, 2);
	s = &r.scripts[0];
	IS_STR(s->name, "<builtin: select only>");
	IS_INT(s->weight, 2);
	IS_DBL(s->weight_pct, 66.7);
	IS_INT(s->transactions, 34554);
	IS_DBL(s->transactions_pct, 66.5);
	IS_DBL(s->tps, 11525.876015);
	IS_INT(s->failed, 0);
	IS_DBL(s->latency_avg_ms, 0.079);
	IS_DBL(s->latency_stddev_ms, 0.149);
	s = &r.scripts[1];
	IS_STR(s->name, "<builtin: simple update>");
	IS_INT(s->weight, 1);
	IS_INT(s->transactions, 17443);
	IS_DBL(s->tps, 5818.309178);
	IS_DBL(s->latency_avg_ms, 0.343);
	IS_INT(r.scripts[0].transactions + r.scripts[1].transactions, r.transactions);
	pgbench_result_free(&r);
}

static void
test_pg15_custom_file(void)
{
	PgbenchResult r;

	parse_ok("pg15_custom_file", &r);
	IS_STR(r.transaction_type, "custom_lookup.sql");
	IS_STR(r.query_mode, "prepared");
	IS_INT(r.transactions, 107238);
	IS_DBL(r.latency_avg_ms, 0.037);
	IS_DBL(r.tps, 53634.875923);
	IS_INT(r.n_scripts, 0);
	pgbench_result_free(&r);
}

static void
test_pg15_rate_latency_limit(void)
{
	PgbenchResult r;

	parse_ok("pg15_rate_latency_limit", &r);
	IS_INT(r.transactions, 8667);
	IS_INT(r.skipped, 244);
	IS_DBL(r.skipped_pct, 2.738);
	IS_DBL(r.latency_limit_ms, 0.3);
	IS_INT(r.latency_late, 697);
	IS_DBL(r.latency_avg_ms, 0.195);
	IS_DBL(r.latency_stddev_ms, 0.231);
	IS_DBL(r.lag_avg_ms, 0.093);
	IS_DBL(r.lag_max_ms, 3.525);
	IS_DBL(r.tps, 2898.172717);
	IS_INT(r.n_progress, 2);
	check_progress(&r, 0, 1.0, 2812.7, 0.217, 0.323, 0);
	IS_DBL(r.progress[0].lag_ms, 0.103);
	IS_INT(r.progress[0].skipped, 165);
	IS_INT(r.progress[1].skipped, 21);
	pgbench_result_free(&r);
}

static void
test_pg15_serialization_retries(void)
{
	PgbenchResult r;

	parse_ok("pg15_serialization_retries", &r);
	IS_INT(r.max_tries, 2);
	IS_INT(r.transactions, 15003);
	IS_INT(r.failed, 7973);
	IS_DBL(r.failed_pct, 34.701);
	IS_INT(r.serialization_failures, 7973);
	IS_INT(r.deadlock_failures, 0);
	IS_INT(r.retried, 11143);
	IS_DBL(r.retried_pct, 48.498);
	IS_INT(r.retries, 11143);
	IS_DBL(r.latency_avg_ms, 0.304);
	IS_INT(r.latency_avg_includes_failures, 0);
	IS_DBL(r.tps, 5009.501123);
	IS_INT(r.n_progress, 3);
	check_progress(&r, 2, 3.0, 5372.9, 0.270, 0.234, 3046);
	IS_INT(r.progress[2].retried, 4050);
	IS_INT(r.progress[2].retries, 4050);
	pgbench_result_free(&r);
}

static void
test_pg15_scripts_retries_per_command(void)
{
	PgbenchResult r;
	PgbenchScriptResult *s;

	parse_ok("pg15_scripts_retries_per_command", &r);
	IS_INT(r.max_tries, 3);
	IS_INT(r.failed, 865);
	IS_INT(r.retried, 3702);
	IS_INT(r.retries, 5258);
	IS_DBL(r.latency_limit_ms, 5.0);
	IS_INT(r.latency_late, 4);
	IS_DBL(r.tps, 17177.483147);
	IS_INT(r.n_scripts, 2);
	s = &r.scripts[0];
	IS_STR(s->name, "rr_conflict.sql");
	IS_INT(s->weight, 1);
	IS_DBL(s->weight_pct, 25.0);
	IS_INT(s->transactions, 7964);
	IS_DBL(s->tps, 3984.663748);
	IS_INT(s->failed, 865);
	IS_INT(s->retried, 3702);
	IS_INT(s->retries, 5258);
	IS_DBL(s->latency_stddev_ms, 0.374);
	s = &r.scripts[1];
	IS_STR(s->name, "<builtin: select only>");
	IS_INT(s->transactions, 26368);
	IS_INT(s->retries, 0);
	IS_DBL(s->latency_avg_ms, 0.063);
	/* the -r statement lines are skipped, not counted as unknown */
	IS_INT(r.n_unrecognized, 0);
	pgbench_result_free(&r);
}

static void
test_pg15_connect_per_tx(void)
{
	PgbenchResult r;

	parse_ok("pg15_connect_per_tx", &r);
	IS_INT(r.transactions, 757);
	IS_DBL(r.latency_avg_ms, 5.290);
	IS_DBL(r.average_connection_time_ms, 2.567);
	IS_NAN(r.initial_connection_time_ms);
	IS_DBL(r.tps, 378.069568);
	IS_INT(r.tps_kind, PGBENCH_TPS_INCLUDING_RECONNECTS);
	pgbench_result_free(&r);
}

static void
test_pg15_partitions_timestamp(void)
{
	PgbenchResult r;

	parse_ok("pg15_partitions_timestamp", &r);
	IS_INT(r.scale, 1);
	IS_STR(r.partition_method, "range");
	IS_INT(r.partitions, 3);
	IS_INT(r.transactions, 19401);
	IS_INT(r.n_progress, 2);
	/* --progress-timestamp: Unix time instead of the elapsed seconds */
	check_progress(&r, 1, 1795996954.552, 10263.2, 0.195, 0.382, 0);
	pgbench_result_free(&r);
}

static void
test_pg15_aborted(void)
{
	PgbenchResult r;

	/* every client failed at once: the summary stops after the counts */
	parse_ok("pg15_aborted", &r);
	IS_INT(r.aborted, 1);
	IS_INT(r.complete, 0);
	IS_INT(r.transactions, 0);
	IS_INT(r.transactions_expected, 20);
	IS_INT(r.failed, 0);
	IS_NAN(r.failed_pct);		/* pgbench printed "(NaN%)" */
	IS_NAN(r.tps);
	IS_INT(r.n_errors, 2);
	IS_STR(r.abort_reason, "client 1 script 0 aborted in command 1 query 0: ERROR:  division by zero");
	pgbench_result_free(&r);

	/* one client failed mid-run: full summary, still incomplete figures */
	parse_ok("pg15_aborted_midrun", &r);
	IS_INT(r.aborted, 1);
	IS_INT(r.complete, 1);
	IS_INT(r.transactions, 15394);
	IS_DBL(r.tps, 5138.685079);
	IS_INT(r.n_progress, 3);
	IS_INT(r.n_errors, 1);
	IS_STR(r.abort_reason, "client 1 script 0 aborted in command 2 query 0: ERROR:  division by zero");
	pgbench_result_free(&r);
}

static void
test_pg15_connection_failed(void)
{
	PgbenchResult r;
	char		err[256];

	ok(parse_fixture("pg15_connection_failed", &r, err, sizeof(err)) == -1,
	   "no summary: error");
	ok(strstr(err, "pgbench printed no result summary: connection to server") != NULL &&
	   strstr(err, "database \"nosuchdb\" does not exist") != NULL,
	   "message quotes pgbench: %s", err);
	pgbench_result_free(&r);
}

static void
test_pg13(void)
{
	PgbenchResult r;
	PgbenchScriptResult *s;

	parse_ok("pg13_tpcb_T_progress", &r);
	IS_INT(r.server_format, PGBENCH_FORMAT_13);
	IS_STR(r.pgbench_version, "");
	IS_INT(r.max_tries, -1);
	IS_INT(r.failed, -1);
	IS_INT(r.transactions, 41234);
	IS_DBL(r.latency_stddev_ms, 1.215);
	IS_NAN(r.initial_connection_time_ms);
	IS_DBL(r.tps_including_connections, 4122.819507);
	IS_DBL(r.tps, 4132.151898);
	IS_INT(r.tps_kind, PGBENCH_TPS_EXCLUDING_CONNECTIONS);
	IS_INT(r.n_progress, 10);
	check_progress(&r, 0, 1.0, 4021.9, 1.981, 1.302, -1);
	check_progress(&r, 9, 10.0, 4140.3, 1.932, 1.205, -1);
	pgbench_result_free(&r);

	parse_ok("pg13_weighted_rate_limit", &r);
	IS_STR(r.query_mode, "prepared");
	IS_INT(r.transactions, 4978);
	IS_INT(r.skipped, 12);
	IS_DBL(r.skipped_pct, 0.240);	/* 13 prints "(0.240 %)" */
	IS_INT(r.latency_late, 31);
	IS_DBL(r.lag_max_ms, 12.514);
	IS_DBL(r.tps, 995.809120);
	IS_INT(r.n_scripts, 2);
	s = &r.scripts[0];
	IS_INT(s->weight, 3);
	IS_INT(s->transactions, 3742);
	IS_INT(s->skipped, 9);
	IS_DBL(s->tps, 746.450710);
	IS_INT(s->failed, -1);
	IS_INT(r.scripts[1].skipped, 3);
	IS_INT(r.n_progress, 5);
	IS_DBL(r.progress[4].lag_ms, 0.087);
	IS_INT(r.progress[4].skipped, 2);
	IS_INT(r.progress[4].failed, -1);
	pgbench_result_free(&r);

	parse_ok("pg13_select_only_t", &r);
	IS_INT(r.transactions_expected, 2000);
	IS_DBL(r.latency_avg_ms, 0.102);
	IS_NAN(r.latency_stddev_ms);
	IS_DBL(r.tps, 19840.088884);
	pgbench_result_free(&r);

	parse_ok("pg13_aborted", &r);
	IS_INT(r.server_format, PGBENCH_FORMAT_13);
	IS_INT(r.aborted, 1);
	IS_INT(r.complete, 0);
	IS_INT(r.transactions, 0);
	IS_STR(r.abort_reason, "client 0 aborted in command 1 (SQL) of script 0; ERROR:  division by zero");
	pgbench_result_free(&r);
}

static void
test_pg14(void)
{
	PgbenchResult r;

	parse_ok("pg14_tpcb_T_progress", &r);
	IS_INT(r.server_format, PGBENCH_FORMAT_14);
	IS_STR(r.pgbench_version, "14.10, server 15.5");
	IS_INT(r.max_tries, -1);
	IS_INT(r.failed, -1);
	IS_DBL(r.initial_connection_time_ms, 12.407);
	IS_DBL(r.tps, 4123.271354);
	IS_INT(r.tps_kind, PGBENCH_TPS_WITHOUT_INITIAL_CONNECTION);
	IS_NAN(r.tps_including_connections);
	IS_INT(r.n_progress, 10);
	pgbench_result_free(&r);

	parse_ok("pg14_connect_scripts_t", &r);
	IS_INT(r.server_format, PGBENCH_FORMAT_14);
	IS_INT(r.transactions, 200);
	IS_DBL(r.average_connection_time_ms, 1.602);
	IS_DBL(r.tps, 524.218914);
	IS_INT(r.tps_kind, PGBENCH_TPS_INCLUDING_RECONNECTS);
	IS_INT(r.n_scripts, 2);
	IS_INT(r.scripts[0].transactions, 97);
	IS_DBL(r.scripts[0].latency_avg_ms, 2.011);
	IS_STR(r.scripts[1].name, "<builtin: select only>");
	IS_DBL(r.scripts[1].tps, 269.972741);
	IS_INT(r.n_unrecognized, 0);
	pgbench_result_free(&r);
}

static void
test_pg16_pg17(void)
{
	PgbenchResult r;
	char		err[256];

	parse_ok("pg16_scripts_retries_progress", &r);
	IS_INT(r.server_format, PGBENCH_FORMAT_15);
	IS_STR(r.pgbench_version, "16.4 (Ubuntu 16.4-1.pgdg22.04+1)");
	IS_STR(r.query_mode, "extended");
	IS_INT(r.transactions, 37508);
	IS_INT(r.failed, 41);
	IS_INT(r.retried, 1204);
	IS_INT(r.retries, 1390);
	IS_DBL(r.tps, 6250.897854);
	IS_INT(r.n_scripts, 2);
	IS_STR(r.scripts[1].name, "rr.sql");
	IS_INT(r.scripts[1].failed, 41);
	IS_INT(r.scripts[1].retries, 1390);
	IS_INT(r.n_progress, 3);
	check_progress(&r, 1, 4.0, 6301.0, 0.950, 0.598, 12);
	IS_INT(r.progress[1].retries, 460);
	pgbench_result_free(&r);

	parse_ok("pg17_failures_detailed_t", &r);
	IS_INT(r.server_format, PGBENCH_FORMAT_15);
	IS_INT(r.transactions, 1988);
	IS_INT(r.transactions_expected, 2000);
	IS_INT(r.failed, 12);
	IS_DBL(r.failed_pct, 0.600);
	IS_INT(r.serialization_failures, 12);
	IS_INT(r.deadlock_failures, 0);
	IS_DBL(r.latency_avg_ms, 0.812);
	IS_INT(r.latency_avg_includes_failures, 1);
	IS_DBL(r.tps, 2448.275862);
	pgbench_result_free(&r);

	/* --exit-on-abort (17): pgbench exits before printing any summary */
	ok(parse_fixture("pg17_exit_on_abort", &r, err, sizeof(err)) == -1,
	   "exit-on-abort: error");
	IS_STR(err, "pgbench printed no result summary: client 1 script 0 aborted in command 1 query 0: ERROR:  division by zero");
	IS_INT(r.aborted, 1);
	pgbench_result_free(&r);
}

static void
test_pg18(void)
{
	PgbenchResult r;
	PgbenchScriptResult *s;

	parse_ok("pg18_scripts_failures_progress", &r);
	IS_INT(r.server_format, PGBENCH_FORMAT_15);
	IS_STR(r.pgbench_version, "18.1");
	IS_INT(r.transactions, 20190);
	IS_INT(r.failed, 31);
	IS_DBL(r.failed_pct, 0.153);
	IS_DBL(r.tps, 5047.222403);
	IS_INT(r.n_scripts, 2);
	s = &r.scripts[1];
	IS_STR(s->name, "rr.sql");
	/* all 10119 tried, 10088 succeeded: the successful count is kept */
	IS_INT(s->transactions, 10088);
	IS_DBL(s->transactions_pct, 50.0);
	IS_DBL(s->tps, 2521.861298);
	IS_INT(s->failed, 31);
	IS_DBL(s->latency_avg_ms, 1.481);
	IS_INT(r.scripts[0].transactions + r.scripts[1].transactions, r.transactions);
	IS_INT(r.n_progress, 4);
	check_progress(&r, 3, 4.0, 5066.3, 0.788, 0.509, 7);
	IS_INT(r.n_unrecognized, 0);
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

int
main(int argc, char **argv)
{
	static const char *const all_fixtures[] = {
		"pg13_tpcb_T_progress", "pg13_weighted_rate_limit", "pg13_select_only_t",
		"pg13_aborted", "pg14_tpcb_T_progress", "pg14_connect_scripts_t",
		"pg15_tpcb_T_progress", "pg15_select_only_t", "pg15_weighted_builtins",
		"pg15_custom_file", "pg15_rate_latency_limit", "pg15_serialization_retries",
		"pg15_scripts_retries_per_command", "pg15_connect_per_tx",
		"pg15_partitions_timestamp", "pg15_aborted", "pg15_aborted_midrun",
		"pg16_scripts_retries_progress", "pg17_failures_detailed_t",
		"pg18_scripts_failures_progress",
	};

	if (argc >= 3 && strcmp(argv[1], "--parse") == 0)
		return parse_files(argv[2], argc >= 4 ? argv[3] : NULL);

	test_pg15_tpcb_T_progress();
	test_pg15_select_only_t();
	test_pg15_weighted_builtins();
	test_pg15_custom_file();
	test_pg15_rate_latency_limit();
	test_pg15_serialization_retries();
	test_pg15_scripts_retries_per_command();
	test_pg15_connect_per_tx();
	test_pg15_partitions_timestamp();
	test_pg15_aborted();
	test_pg15_connection_failed();
	test_pg13();
	test_pg14();
	test_pg16_pg17();
	test_pg18();
	test_progress_lines();
	test_errors();
	test_random_garbage();
	test_truncations(all_fixtures, sizeof(all_fixtures) / sizeof(all_fixtures[0]));

	free(fixture_out);
	free(fixture_err);
	printf("1..%d\n", tests_run);
	return tests_failed == 0 ? 0 : 1;
}
