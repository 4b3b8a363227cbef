/*-------------------------------------------------------------------------
 *
 * cmd_import.c
 *		"pgbench_ext import DIR... [CONNINFO]": load results directories of
 *		any number of hosts into the extension's tables of one database
 *		(experiments, variants, runs, and the farm's machines and
 *		experiment_sources), so that experiments can be analysed from psql:
 *		pgbench_ext.experiment_report() gives the same figures as the
 *		terminal table, from the same C code; history() and farm_compare()
 *		take them across dates and machines.
 *
 * One transaction per directory: an experiment is imported whole or not at
 * all, with its profiles when it has them (profile_import.c) and, under
 * rounds = auto, its plan of looks and budget.csv (budget_blocks), from
 * which experiment_report() replays the looks as the report does.  Importing is
 * idempotent by run identity: an experiment is known by its identity (its
 * machine's fingerprint, farm_machine.c, its specification, when it was
 * written and when its first run started), a run by that and its number,
 * and importing a directory again adds only the runs that are not there
 * yet (those of a --resume), never a second copy.  The columns of
 * runs.csv are matched by name against those of the runs table, so a
 * runs.csv with more columns (a later version) still imports what the
 * table holds.  Every directory is read as untrusted data and checked
 * against its experiment.json before anything is imported.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "budget.h"
#include "conn.h"
#include "commands.h"
#include "digest.h"
#include "experiment.h"
#include "farm.h"
#include "profile_import.h"
#include "results.h"

#include <getopt.h>
#include <math.h>
#include <sys/stat.h>

#include "common/logging.h"
#include "fe_utils/string_utils.h"
#include "pqexpbuffer.h"

static void
import_usage(void)
{
	printf("%s import loads results directories, of any number of hosts, into the\n"
		   "extension's tables of one database (pgbench_ext.experiments, variants, runs,\n"
		   "machines, experiment_sources, and the profile_* tables when an experiment\n"
		   "has profiles) for analysis from psql.  Importing a directory again adds only\n"
		   "the runs that are not there yet.\n\n", progname);
	printf("Usage:\n  %s import [OPTION]... DIR... [CONNINFO]\n\n", progname);
	printf("Options:\n");
	printf("  -?, --help               show this help, then exit\n");
	conn_usage();
	printf("\nThen: SELECT * FROM pgbench_ext.experiment_report(EXPERIMENT_ID);\n");
	printf("      SELECT * FROM pgbench_ext.profile_compare(EXPERIMENT_ID);\n");
	printf("      SELECT * FROM pgbench_ext.history(SIGNATURE, VARIANT, SCRIPT, CLIENTS);\n");
	printf("      SELECT * FROM pgbench_ext.farm_compare(SIGNATURE, BASELINE, VARIANT, SCRIPT, CLIENTS);\n");
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
 * runs/NNNN.json; only the columns the runs table has are imported, and
 * only the runs not imported before.  Returns how many were new.
 */
static int
import_runs(PGconn *conn, const char *id, const char *dir, const RunsCsv *t)
{
	char	   *error = NULL;
	int			nkeep = 0,
				inserted = 0,
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
	appendPQExpBufferStr(&sql, ") ON CONFLICT (experiment_id, run_id) DO NOTHING");

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
		res = exec_params(conn, sql.data, nkeep + 2, params,
						  psprintf("could not import run %s", fields[id_col]));
		inserted += atoi(PQcmdTuples(res));
		PQclear(res);
		json_decref(detail);
		pg_free(params);
	}
	termPQExpBuffer(&sql);
	return inserted;
}

/* A results directory read and checked, not yet imported. */
typedef struct ImportDir
{
	const char *dir;
	char	   *absdir;
	json_t	   *doc;
	ExperimentSpec spec;
	RunsCsv    *runs;
	FarmMachine machine;
	char	   *signature;
	char	   *identity;
	json_t	   *sequential;		/* rounds = auto: the plan, checked; else NULL */
	double	   *block_spent;	/* budget.csv by block (NAN: none), max_blocks */
	int			max_blocks;
	int			block_rounds;
} ImportDir;

/*
 * The experiment's identity: its machine, its specification (with the seed
 * drawn for it), when experiment.json was written and when its first run
 * started, so that one experiment resumed (which appends runs and leaves
 * experiment.json as it was) is still one, and one file run twice is two.
 */
static char *
experiment_identity(const ImportDir *d)
{
	char	   *spec = json_dumps(json_object_get(d->doc, "spec"), JSON_COMPACT | JSON_SORT_KEYS);
	const char *written = json_string_value(json_object_get(d->doc, "written_at"));
	int			col = runs_csv_column(d->runs, "started_at");
	const char *first = d->runs->nrows > 0 && col >= 0 ? d->runs->rows[0][col] : "";

	return pnstrdup(sha256_of_string(psprintf("%s\n%s\n%s\n%s", d->machine.fingerprint,
											  spec ? spec : "", written ? written : "", first)), 32);
}

/*
 * rounds = auto: the plan experiment.json records and budget.csv, checked
 * as the report reads them; either damaged is a warning, and SQL then
 * shows what the report shows (no looks: all rounds, or none past the
 * blocks budget.csv records).
 */
static void
read_import_budget(ImportDir *d)
{
	BudgetPlan	plan;
	char	   *error = NULL;
	int			recorded;
	double		spent;

	if (!d->spec.rounds_auto)
		return;
	if (!budget_from_json(d->doc, &plan, &error))
	{
		log_warningf("%s: %s: the looks of rounds = auto are not imported", d->dir, error);
		return;
	}
	d->sequential = json_object_get(d->doc, "sequential");
	d->max_blocks = plan.max_blocks;
	d->block_rounds = plan.block_rounds;
	d->block_spent = pg_malloc(sizeof(double) * plan.max_blocks);
	if (!budget_read_spent(d->dir, &recorded, &spent, d->block_spent, plan.max_blocks, &error))
	{
		log_warningf("%s: %s: its blocks' times are not imported", d->dir, error);
		for (int b = 0; b < plan.max_blocks; b++)
			d->block_spent[b] = NAN;
	}
}

/*
 * rounds = auto: the plan (on an experiment imported before it was, too)
 * and the blocks of budget.csv not imported yet.
 */
static void
import_budget(PGconn *conn, const char *id, const ImportDir *d)
{
	const char *plan[3] = {id, json_text(d->sequential), json_text(json_object_get(d->doc, "plan"))};

	if (d->sequential == NULL)
		return;
	PQclear(exec_params(conn,
						"UPDATE pgbench_ext.experiments SET sequential = coalesce(sequential, $2), "
						"plan = coalesce(plan, $3) WHERE experiment_id = $1",
						3, plan, "could not import the plan of rounds = auto"));
	for (int b = 0; b < d->max_blocks; b++)
	{
		const char *row[4];

		if (isnan(d->block_spent[b]))
			continue;
		row[0] = id;
		row[1] = psprintf("%d", b + 1);
		row[2] = psprintf("%d", (b + 1) * d->block_rounds);
		row[3] = psprintf("%.17g", d->block_spent[b]);
		PQclear(exec_params(conn,
							"INSERT INTO pgbench_ext.budget_blocks (experiment_id, block, rounds, spent_s) "
							"VALUES ($1, $2, $3, $4) ON CONFLICT (experiment_id, block) DO NOTHING",
							4, row, "could not import budget.csv"));
	}
}

/* Read and check one results directory; exits with status 2 when it is none. */
static void
read_import_dir(const char *dir, ImportDir *d)
{
	char	   *error = NULL;

	d->dir = dir;
	if ((d->doc = results_read_spec(dir, &d->spec, &error)) == NULL)
	{
		log_error_text(error);
		pg_log_error_hint("\"%s\" must be a results directory written by \"%s run\" or \"%s ab\"; nothing was imported.",
						  escape_text(dir, ESCAPE_TERMINAL), progname, progname);
		exit(EXIT_USAGE);
	}
	if ((d->runs = results_read_runs(dir, &d->spec, &error)) == NULL)
	{
		log_error_text(error);
		pg_log_error_hint("Nothing was imported.");
		exit(EXIT_USAGE);
	}
	if ((d->absdir = realpath(dir, NULL)) == NULL)
		d->absdir = pg_strdup(dir);
	d->machine = farm_machine_of(d->doc);
	d->signature = farm_signature(d->doc);
	d->identity = experiment_identity(d);
	read_import_budget(d);
}

/* The experiment's row and its variants; returns its id. */
static char *
import_experiment(PGconn *conn, const ImportDir *d, int *nvariants)
{
	PGresult   *res;
	char	   *id;
	const char *params[6] = {d->absdir,
		json_string_value(json_object_get(d->doc, "pgbench_ext_version")),
		json_string_value(json_object_get(d->doc, "written_at")),
		json_text(json_object_get(d->doc, "spec")),
		json_text(json_object_get(d->doc, "machine")),
	psprintf("%d", results_restart_rounds(d->doc))};

	res = exec_params(conn,
					  "INSERT INTO pgbench_ext.experiments (source_dir, pgbench_ext_version, written_at, spec, machine, restart_rounds) "
					  "VALUES ($1, $2, $3, $4, $5, $6) RETURNING experiment_id",
					  6, params, "could not import the experiment");
	id = pg_strdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	*nvariants = import_variants(conn, id, d->doc);
	{
		const char *source[4] = {id, d->identity, d->machine.fingerprint, d->signature};

		PQclear(exec_params(conn,
							"INSERT INTO pgbench_ext.experiment_sources (experiment_id, identity, fingerprint, signature) "
							"VALUES ($1, $2, $3, $4)", 4, source, "could not record where the experiment comes from"));
	}
	return id;
}

/*
 * One results directory in one transaction: its machine, then the
 * experiment unless its identity is there already, then the runs not yet
 * imported.
 */
static void
import_dir(PGconn *conn, const ImportDir *d)
{
	const char *machine[3] = {d->machine.fingerprint, d->machine.hostname, json_text(d->machine.facts)};
	const char *identity[1] = {d->identity};
	PGresult   *res;
	char	   *id;
	char	   *error = NULL;
	int			nvariants = 0,
				nruns,
				nprofiles = 0;
	bool		known;

	PQclear(exec_or_die(conn, "BEGIN"));
	PQclear(exec_params(conn,
						"INSERT INTO pgbench_ext.machines (fingerprint, hostname, facts) VALUES ($1, $2, $3) "
						"ON CONFLICT (fingerprint) DO NOTHING", 3, machine, "could not record the machine"));
	res = exec_params(conn, "SELECT experiment_id FROM pgbench_ext.experiment_sources WHERE identity = $1",
					  1, identity, "could not look for the experiment");
	known = PQntuples(res) > 0;
	id = known ? pg_strdup(PQgetvalue(res, 0, 0)) : import_experiment(conn, d, &nvariants);
	PQclear(res);
	nruns = import_runs(conn, id, d->dir, d->runs);
	import_budget(conn, id, d);
	if (!known && (nprofiles = profile_import(conn, id, d->dir, &error)) < 0)
	{
		log_error_text(error);
		PQexec(conn, "ROLLBACK");
		PQfinish(conn);
		exit(EXIT_RUNTIME_ERROR);
	}
	PQclear(exec_or_die(conn, "COMMIT"));
	/* profile_import() prepares its statements anew for each experiment */
	PQclear(exec_or_die(conn, "DEALLOCATE ALL"));
	if (known)
		printf("experiment %s was imported before from %s: %d new runs of %d\n",
			   id, escape_text(d->absdir, ESCAPE_TERMINAL), nruns, d->runs->nrows);
	else
		printf("imported experiment %s: %d variants, %d runs from %s\n", id, nvariants, nruns,
			   escape_text(d->absdir, ESCAPE_TERMINAL));
	printf("  machine %s (\"%s\"), signature %s\n", d->machine.fingerprint, d->machine.hostname, d->signature);
	printf("  report: SELECT * FROM pgbench_ext.experiment_report(%s);\n", id);
	if (nprofiles > 0)
		printf("  profiles of %d runs: SELECT * FROM pgbench_ext.profile_compare(%s);\n", nprofiles, id);
}

/*
 * Whether the last argument is the connection string (a database name, a
 * key=value string or a URI) rather than one more directory: it is no
 * directory.
 */
static bool
is_conninfo(const char *arg)
{
	struct stat st;

	return !(stat(arg, &st) == 0 && S_ISDIR(st.st_mode));
}

int
cmd_import(int argc, char **argv)
{
	static struct option long_options[] = {
		CONN_LONG_OPTIONS,
		{NULL, 0, NULL, 0}
	};
	ConnOptions opts = {0};
	int			c,
				ndirs;
	ImportDir  *dirs;
	PGconn	   *conn;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		import_usage();
		return 0;
	}
	while ((c = cli_getopt(argc, argv, CONN_SHORT_OPTIONS, long_options, "import")) != -1)
	{
		if (!conn_option(c, optarg, &opts))
		{
			pg_log_error_hint("Try \"%s import --help\" for more information.", progname);
			exit(EXIT_USAGE);
		}
	}
	if (argc - optind >= 2 && is_conninfo(argv[argc - 1]))
		opts.conninfo = argv[--argc];
	if (optind >= argc)
		usage_error("import", "no results directory given");

	/* every directory is checked before anything is imported */
	ndirs = argc - optind;
	dirs = pg_malloc0(sizeof(ImportDir) * ndirs);
	for (int i = 0; i < ndirs; i++)
		read_import_dir(argv[optind + i], &dirs[i]);
	conn = connect_checked(&opts);
	for (int i = 0; i < ndirs; i++)
		import_dir(conn, &dirs[i]);
	PQfinish(conn);
	return 0;
}
