/*-------------------------------------------------------------------------
 *
 * farm_import.c
 *		A results directory into the results database: read and checked
 *		(farm_import_read), then loaded inside the caller's transaction
 *		(farm_import_load), so that "import" gives each directory its own
 *		transaction and an agent of the queue loads its results in the
 *		transaction that marks its job done.
 *
 * What goes in: the machine (machines), the experiment and its variants
 * with where it comes from (experiment_sources), its runs, its profiles
 * when it has them (profile_import.c) and, under rounds = auto, its plan
 * of looks and budget.csv (budget_blocks), from which experiment_report()
 * replays the looks as the report does.  Loading is idempotent by run
 * identity: an experiment is known by its identity (its machine's
 * fingerprint, farm_machine.c, its specification, when it was written and
 * when its first run started), a run by that and its number, and loading a
 * directory again adds only the runs that are not there yet (those of a
 * --resume), never a second copy.  The columns of runs.csv are matched by
 * name against those of the runs table, so a runs.csv with more columns (a
 * later version) still imports what the table holds.  Every directory is
 * read as untrusted data and checked against its experiment.json before
 * anything is loaded.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "budget.h"
#include "digest.h"
#include "experiment.h"
#include "farm_import.h"
#include "profile_import.h"
#include "results.h"

#include <math.h>
#include <stdlib.h>

#include "common/logging.h"
#include "fe_utils/string_utils.h"
#include "pqexpbuffer.h"

/* The connection a load goes through, and its first error. */
typedef struct ImportCtx
{
	PGconn	   *conn;
	char	   *error;
	int			status;			/* EXIT_RUNTIME_ERROR, or EXIT_USAGE: bad input */
} ImportCtx;

/* A statement of the load; NULL (the error kept) when it failed. */
static PGresult *
exec_params(ImportCtx *ctx, const char *sql, int n, const char *const *values, const char *what)
{
	PGresult   *res;

	if (ctx->error != NULL)
		return NULL;
	res = PQexecParams(ctx->conn, sql, n, NULL, values, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		ctx->error = psprintf("%s: %s", what, PQerrorMessage(ctx->conn));
		ctx->status = EXIT_RUNTIME_ERROR;
		PQclear(res);
		return NULL;
	}
	return res;
}

static char *
json_text(json_t *j)
{
	return j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
}

/* The variants, in the specification's order (position 1 is the baseline). */
static int
import_variants(ImportCtx *ctx, const char *id, json_t *doc)
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

		PQclear(exec_params(ctx,
							"INSERT INTO pgbench_ext.variants (experiment_id, variant, position, spec, environment, pg_config) "
							"VALUES ($1, $2, $3, $4, $5, $6)", 6, params, "could not import a variant"));
	}
	return (int) i;
}

/*
 * The INSERT of runs.csv's columns that the runs table has (their
 * positions in keep[], *nkeep of them), or NULL.
 */
static char *
runs_insert_sql(ImportCtx *ctx, const RunsCsv *t, int *keep, int *nkeep)
{
	PGresult   *res;
	PQExpBufferData sql;

	res = exec_params(ctx, "SELECT attname FROM pg_catalog.pg_attribute "
					  "WHERE attrelid = 'pgbench_ext.runs'::regclass AND attnum > 0 AND NOT attisdropped",
					  0, NULL, "could not read the columns of pgbench_ext.runs");
	if (res == NULL)
		return NULL;
	*nkeep = 0;
	initPQExpBuffer(&sql);
	appendPQExpBufferStr(&sql, "INSERT INTO pgbench_ext.runs (experiment_id, detail");
	for (int c = 0; c < t->ncols; c++)
		for (int r = 0; r < PQntuples(res); r++)
			if (strcmp(t->columns[c], PQgetvalue(res, r, 0)) == 0 &&
				strcmp(t->columns[c], "experiment_id") != 0 && strcmp(t->columns[c], "detail") != 0)
			{
				appendPQExpBuffer(&sql, ", %s", fmtId(t->columns[c]));
				keep[(*nkeep)++] = c;
				break;
			}
	PQclear(res);
	appendPQExpBufferStr(&sql, ") VALUES ($1, $2");
	for (int k = 0; k < *nkeep; k++)
		appendPQExpBuffer(&sql, ", $%d", k + 3);
	appendPQExpBufferStr(&sql, ") ON CONFLICT (experiment_id, run_id) DO NOTHING");
	return sql.data;
}

/*
 * runs.csv's lines (checked by results_read_runs()), with each run's
 * runs/NNNN.json; only the columns the runs table has are imported, and
 * only the runs not imported before.  Returns how many were new.
 */
static int
import_runs(ImportCtx *ctx, const char *id, const char *dir, const RunsCsv *t)
{
	int			nkeep = 0,
				inserted = 0,
				id_col = runs_csv_column(t, "run_id");
	int		   *keep = pg_malloc(sizeof(int) * t->ncols);
	char	   *sql = runs_insert_sql(ctx, t, keep, &nkeep);

	for (int i = 0; sql != NULL && i < t->nrows && ctx->error == NULL; i++)
	{
		char	  **fields = t->rows[i];
		const char **params = pg_malloc(sizeof(char *) * (nkeep + 2));
		json_t	   *detail;
		PGresult   *res;

		if (!results_read_run_detail(dir, atoi(fields[id_col]), &detail, &ctx->error))
		{
			ctx->status = EXIT_USAGE;
			break;
		}
		params[0] = id;
		params[1] = json_text(detail);
		for (int k = 0; k < nkeep; k++)
			params[k + 2] = fields[keep[k]][0] != '\0' ? fields[keep[k]] : NULL;
		res = exec_params(ctx, sql, nkeep + 2, params, psprintf("could not import run %s", fields[id_col]));
		if (res != NULL)
			inserted += atoi(PQcmdTuples(res));
		PQclear(res);
		json_decref(detail);
		pg_free(params);
	}
	pg_free(keep);
	return inserted;
}

/*
 * The experiment's identity: its machine, its specification (with the seed
 * drawn for it), when experiment.json was written and when its first run
 * started, so that one experiment resumed (which appends runs and leaves
 * experiment.json as it was) is still one, and one file run twice is two.
 */
static char *
experiment_identity(const FarmImport *d)
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
read_import_budget(FarmImport *d)
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
import_budget(ImportCtx *ctx, const char *id, const FarmImport *d)
{
	const char *plan[3] = {id, json_text(d->sequential), json_text(json_object_get(d->doc, "plan"))};

	if (d->sequential == NULL)
		return;
	PQclear(exec_params(ctx,
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
		PQclear(exec_params(ctx,
							"INSERT INTO pgbench_ext.budget_blocks (experiment_id, block, rounds, spent_s) "
							"VALUES ($1, $2, $3, $4) ON CONFLICT (experiment_id, block) DO NOTHING",
							4, row, "could not import budget.csv"));
	}
}

/*
 * Read and check one results directory.  False when it is none, with the
 * error and a hint for the user.
 */
bool
farm_import_read(const char *dir, FarmImport *d, char **error, char **hint)
{
	d->dir = dir;
	if ((d->doc = results_read_spec(dir, &d->spec, error)) == NULL)
	{
		*hint = psprintf("\"%s\" must be a results directory written by \"%s run\" or \"%s ab\"; nothing was imported.",
						 escape_text(dir, ESCAPE_TERMINAL), progname, progname);
		return false;
	}
	if ((d->runs = results_read_runs(dir, &d->spec, error)) == NULL)
	{
		*hint = pg_strdup("Nothing was imported.");
		return false;
	}
	if ((d->absdir = realpath(dir, NULL)) == NULL)
		d->absdir = pg_strdup(dir);
	d->machine = farm_machine_of(d->doc);
	d->signature = farm_signature(d->doc);
	d->identity = experiment_identity(d);
	read_import_budget(d);
	return true;
}

/* The experiment's row and its variants; returns its id, or NULL. */
static char *
import_experiment(ImportCtx *ctx, const FarmImport *d, int *nvariants)
{
	PGresult   *res;
	char	   *id;
	const char *params[6] = {d->absdir,
		json_string_value(json_object_get(d->doc, "pgbench_ext_version")),
		json_string_value(json_object_get(d->doc, "written_at")),
		json_text(json_object_get(d->doc, "spec")),
		json_text(json_object_get(d->doc, "machine")),
	psprintf("%d", results_restart_rounds(d->doc))};
	const char *source[4] = {NULL, d->identity, d->machine.fingerprint, d->signature};

	res = exec_params(ctx,
					  "INSERT INTO pgbench_ext.experiments (source_dir, pgbench_ext_version, written_at, spec, machine, restart_rounds) "
					  "VALUES ($1, $2, $3, $4, $5, $6) RETURNING experiment_id",
					  6, params, "could not import the experiment");
	if (res == NULL)
		return NULL;
	id = pg_strdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	*nvariants = import_variants(ctx, id, d->doc);
	source[0] = id;
	PQclear(exec_params(ctx,
						"INSERT INTO pgbench_ext.experiment_sources (experiment_id, identity, fingerprint, signature) "
						"VALUES ($1, $2, $3, $4)", 4, source, "could not record where the experiment comes from"));
	return id;
}

/*
 * One results directory, inside the caller's transaction: its machine,
 * then the experiment unless its identity is there already, then the runs
 * not yet imported.  0, or the exit status of the failure (EXIT_USAGE: the
 * directory's data) with *error set; the caller then rolls back.
 */
int
farm_import_load(PGconn *conn, const FarmImport *d, FarmImported *r, char **error)
{
	const char *machine[3] = {d->machine.fingerprint, d->machine.hostname, json_text(d->machine.facts)};
	const char *identity[1] = {d->identity};
	ImportCtx	ctx = {conn, NULL, 0};
	PGresult   *res;

	memset(r, 0, sizeof(*r));
	PQclear(exec_params(&ctx,
						"INSERT INTO pgbench_ext.machines (fingerprint, hostname, facts) VALUES ($1, $2, $3) "
						"ON CONFLICT (fingerprint) DO NOTHING", 3, machine, "could not record the machine"));
	res = exec_params(&ctx, "SELECT experiment_id FROM pgbench_ext.experiment_sources WHERE identity = $1",
					  1, identity, "could not look for the experiment");
	if (res != NULL)
	{
		r->known = PQntuples(res) > 0;
		r->experiment_id = r->known ? pg_strdup(PQgetvalue(res, 0, 0))
			: import_experiment(&ctx, d, &r->nvariants);
		PQclear(res);
	}
	if (ctx.error == NULL)
		r->nruns = import_runs(&ctx, r->experiment_id, d->dir, d->runs);
	if (ctx.error == NULL)
		import_budget(&ctx, r->experiment_id, d);
	if (ctx.error == NULL && !r->known &&
		(r->nprofiles = profile_import(conn, r->experiment_id, d->dir, &ctx.error)) < 0)
		ctx.status = EXIT_RUNTIME_ERROR;
	*error = ctx.error;
	return ctx.error != NULL ? ctx.status : 0;
}

/* What was imported, and how to see it from psql. */
void
farm_import_print(const FarmImport *d, const FarmImported *r)
{
	if (r->known)
		printf("experiment %s was imported before from %s: %d new runs of %d\n",
			   r->experiment_id, escape_text(d->absdir, ESCAPE_TERMINAL), r->nruns, d->runs->nrows);
	else
		printf("imported experiment %s: %d variants, %d runs from %s\n", r->experiment_id,
			   r->nvariants, r->nruns, escape_text(d->absdir, ESCAPE_TERMINAL));
	printf("  machine %s (\"%s\"), signature %s\n", d->machine.fingerprint, d->machine.hostname, d->signature);
	printf("  report: SELECT * FROM pgbench_ext.experiment_report(%s);\n", r->experiment_id);
	if (r->nprofiles > 0)
		printf("  profiles of %d runs: SELECT * FROM pgbench_ext.profile_compare(%s);\n",
			   r->nprofiles, r->experiment_id);
}
