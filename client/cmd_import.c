/*-------------------------------------------------------------------------
 *
 * cmd_import.c
 *		"pgbench_ext import DIR [CONNINFO]": load a results directory into
 *		the extension's tables (experiments, variants, runs), so that an
 *		experiment can be analysed from psql with pgbench_ext.experiment_report() —
 *		the same figures as the terminal table, from the same C code.
 *
 * One transaction: an experiment is imported whole or not at all, with
 * its profiles when it has them (profile_import.c).  The
 * columns of runs.csv are matched by name against those of the runs
 * table, so a runs.csv with more columns (a later version) still imports
 * what the table holds.  The directory is read as untrusted data: every
 * line is checked against experiment.json before anything is imported.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "conn.h"
#include "commands.h"
#include "experiment.h"
#include "profile.h"
#include "results.h"

#include <getopt.h>

#include "common/logging.h"
#include "fe_utils/string_utils.h"
#include "pqexpbuffer.h"

static void
import_usage(void)
{
	printf("%s import loads a results directory into the extension's tables\n"
		   "(pgbench_ext.experiments, variants, runs, and the profile_* tables when\n"
		   "the experiment has profiles) for analysis from psql.\n\n", progname);
	printf("Usage:\n  %s import [OPTION]... DIR [CONNINFO]\n\n", progname);
	printf("Options:\n");
	printf("  -?, --help               show this help, then exit\n");
	conn_usage();
	printf("\nThen: SELECT * FROM pgbench_ext.experiment_report(EXPERIMENT_ID);\n");
	printf("      SELECT * FROM pgbench_ext.profile_compare(EXPERIMENT_ID);\n");
}

static void
fail(PGconn *conn, const char *what)
{
	log_errorf("%s: %s", what, PQerrorMessage(conn));
	PQexec(conn, "ROLLBACK");
	PQfinish(conn);
	exit(EXIT_RUNTIME_ERROR);
}

/* A results directory that cannot be read as one: nothing is imported. */
static void
fail_input(PGconn *conn, const char *error)
{
	log_error_text(error);
	PQexec(conn, "ROLLBACK");
	PQfinish(conn);
	exit(EXIT_USAGE);
}

static PGresult *
exec_params(PGconn *conn, const char *sql, int n, const char *const *values, const char *what)
{
	PGresult   *res = PQexecParams(conn, sql, n, NULL, values, NULL, NULL, 0);

	if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK)
		fail(conn, what);
	return res;
}

static char *
json_text(json_t *j)
{
	return j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
}

/* The variants, in the specification's order (position 1 is the baseline). */
static int
import_variants(PGconn *conn, const char *id, json_t *doc)
{
	json_t	   *specs = json_object_get(json_object_get(doc, "spec"), "variants");
	json_t	   *facts = json_object_get(doc, "variants");
	size_t		i;
	json_t	   *vs;

	json_array_foreach(specs, i, vs)
	{
		const char *name = json_string_value(json_object_get(vs, "name"));
		json_t	   *f = json_object_get(facts, name ? name : "");
		char	   *pos = psprintf("%zu", i + 1);
		const char *params[6] = {id, name, pos, json_text(vs),
			json_text(json_object_get(f, "environment")),
		json_text(json_object_get(f, "pg_config"))};

		PQclear(exec_params(conn,
							"INSERT INTO pgbench_ext.variants (experiment_id, variant, position, spec, environment, pg_config) "
							"VALUES ($1, $2, $3, $4, $5, $6)", 6, params, "could not import a variant"));
	}
	return (int) i;
}

/*
 * runs.csv's lines (checked by results_read_runs()), with each run's
 * runs/NNNN.json; only the columns the runs table has are imported.
 */
static int
import_runs(PGconn *conn, const char *id, const char *dir, const RunsCsv *t)
{
	char	   *error = NULL;
	int			nkeep = 0,
				id_col;
	int		   *keep;
	PGresult   *res;
	PQExpBufferData sql;

	keep = pg_malloc(sizeof(int) * t->ncols);
	id_col = runs_csv_column(t, "run_id");
	res = PQexec(conn, "SELECT attname FROM pg_catalog.pg_attribute "
				 "WHERE attrelid = 'pgbench_ext.runs'::regclass AND attnum > 0 AND NOT attisdropped");
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		fail(conn, "could not read the columns of pgbench_ext.runs");

	initPQExpBuffer(&sql);
	appendPQExpBufferStr(&sql, "INSERT INTO pgbench_ext.runs (experiment_id, detail");
	for (int c = 0; c < t->ncols; c++)
		for (int r = 0; r < PQntuples(res); r++)
			if (strcmp(t->columns[c], PQgetvalue(res, r, 0)) == 0 &&
				strcmp(t->columns[c], "experiment_id") != 0 && strcmp(t->columns[c], "detail") != 0)
			{
				appendPQExpBuffer(&sql, ", %s", fmtId(t->columns[c]));
				keep[nkeep++] = c;
				break;
			}
	PQclear(res);
	appendPQExpBufferStr(&sql, ") VALUES ($1, $2");
	for (int k = 0; k < nkeep; k++)
		appendPQExpBuffer(&sql, ", $%d", k + 3);
	appendPQExpBufferStr(&sql, ")");

	for (int i = 0; i < t->nrows; i++)
	{
		char	  **fields = t->rows[i];
		const char **params = pg_malloc(sizeof(char *) * (nkeep + 2));
		json_t	   *detail;

		if (!results_read_run_detail(dir, atoi(fields[id_col]), &detail, &error))
			fail_input(conn, error);
		params[0] = id;
		params[1] = json_text(detail);
		for (int k = 0; k < nkeep; k++)
			params[k + 2] = fields[keep[k]][0] != '\0' ? fields[keep[k]] : NULL;
		PQclear(exec_params(conn, sql.data, nkeep + 2, params,
							psprintf("could not import run %s", fields[id_col])));
		json_decref(detail);
		pg_free(params);
	}
	termPQExpBuffer(&sql);
	return t->nrows;
}

int
cmd_import(int argc, char **argv)
{
	static struct option long_options[] = {
		CONN_LONG_OPTIONS,
		{NULL, 0, NULL, 0}
	};
	ConnOptions opts = {0};
	int			c;
	const char *dir;
	char	   *error = NULL;
	json_t	   *doc;
	ExperimentSpec spec;
	RunsCsv    *runs;
	PGconn	   *conn;
	PGresult   *res;
	char	   *id;
	char	   *absdir;
	int			nvariants,
				nruns,
				nprofiles;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		import_usage();
		return 0;
	}
	while ((c = getopt_long(argc, argv, CONN_SHORT_OPTIONS, long_options, NULL)) != -1)
	{
		if (!conn_option(c, optarg, &opts))
		{
			pg_log_error_hint("Try \"%s import --help\" for more information.", progname);
			exit(EXIT_USAGE);
		}
	}
	if (optind >= argc)
		usage_error("import", "no results directory given");
	dir = argv[optind++];
	if (optind < argc)
		opts.conninfo = argv[optind++];
	if (optind < argc)
		usage_error("import", "too many command-line arguments (first is \"%s\")", argv[optind]);

	if ((doc = results_read_spec(dir, &spec, &error)) == NULL)
	{
		log_error_text(error);
		pg_log_error_hint("\"%s\" must be a results directory written by \"%s run\" or \"%s ab\".",
						  dir, progname, progname);
		return EXIT_USAGE;
	}
	if ((runs = results_read_runs(dir, &spec, &error)) == NULL)
	{
		log_error_text(error);
		return EXIT_USAGE;
	}
	if ((absdir = realpath(dir, NULL)) == NULL)
		absdir = pg_strdup(dir);

	conn = connect_checked(&opts);
	PQclear(exec_or_die(conn, "BEGIN"));
	{
		const char *params[6] = {absdir,
			json_string_value(json_object_get(doc, "pgbench_ext_version")),
			json_string_value(json_object_get(doc, "written_at")),
			json_text(json_object_get(doc, "spec")),
			json_text(json_object_get(doc, "machine")),
		psprintf("%d", results_restart_rounds(doc))};

		res = exec_params(conn,
						  "INSERT INTO pgbench_ext.experiments (source_dir, pgbench_ext_version, written_at, spec, machine, restart_rounds) "
						  "VALUES ($1, $2, $3, $4, $5, $6) RETURNING experiment_id",
						  6, params, "could not import the experiment");
	}
	id = pg_strdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	nvariants = import_variants(conn, id, doc);
	nruns = import_runs(conn, id, dir, runs);
	if ((nprofiles = profile_import(conn, id, dir, &error)) < 0)
	{
		log_error_text(error);
		PQexec(conn, "ROLLBACK");
		PQfinish(conn);
		return EXIT_RUNTIME_ERROR;
	}
	PQclear(exec_or_die(conn, "COMMIT"));
	printf("imported experiment %s: %d variants, %d runs from %s\n", id, nvariants, nruns, absdir);
	printf("report: SELECT * FROM pgbench_ext.experiment_report(%s);\n", id);
	if (nprofiles > 0)
		printf("profiles of %d runs: SELECT * FROM pgbench_ext.profile_compare(%s);\n", nprofiles, id);
	PQfinish(conn);
	json_decref(doc);
	return 0;
}
