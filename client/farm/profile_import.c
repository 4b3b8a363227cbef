/*-------------------------------------------------------------------------
 *
 * profile_import.c
 *		"pgbench_ext import": the profiles of an experiment into the
 *		extension's tables profile_runs, profile_functions and
 *		profile_stacks, for pgbench_ext.profile_compare() in psql.
 *
 * Called inside import's transaction once the runs are in; a run's
 * profile is imported when the report would use it (profile_run_usable),
 * figures as the file holds them (doubles printed with 17 digits, which
 * float8 reads back exactly), so that psql compares what the client does.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile_import.h"
#include "profile_report.h"
#include "results.h"
#include "safe_file.h"
#include "safe_read.h"

#include <math.h>

static char *
float_text(json_t *v)
{
	return json_is_number(v) && isfinite(json_number_value(v))
		? psprintf("%.17g", json_number_value(v)) : NULL;
}

static bool
prepare(PGconn *conn, const char *name, const char *sql, int nparams, char **error)
{
	PGresult   *res = PQprepare(conn, name, sql, nparams, NULL);
	bool		ok = PQresultStatus(res) == PGRES_COMMAND_OK;

	if (!ok)
		*error = psprintf("could not prepare the profile import: %s", PQerrorMessage(conn));
	PQclear(res);
	return ok;
}

static bool
insert(PGconn *conn, const char *name, int n, const char *const *values, char **error)
{
	PGresult   *res = PQexecPrepared(conn, name, n, values, NULL, NULL, 0);
	bool		ok = PQresultStatus(res) == PGRES_COMMAND_OK;

	if (!ok)
		*error = psprintf("could not import a profile: %s", PQerrorMessage(conn));
	PQclear(res);
	return ok;
}

/* One run's profile: its events, functions and stacks. */
static bool
import_run(PGconn *conn, const char *id, const char *run, json_t *doc, char **error)
{
	json_t	   *events = json_object_get(doc, "events");
	const char *name;
	json_t	   *f;

	for (size_t e = 0; e < json_array_size(events); e++)
	{
		const char *event = json_string_value(json_array_get(events, e));
		char	   *position = psprintf("%zu", e + 1);
		const char *values[10] = {id, run, event, position, report_json_str(doc, "mode", ""),
			float_text(json_object_get(doc, "transactions")),
			float_text(json_array_get(json_object_get(doc, "totals"), e)),
			float_text(json_array_get(json_object_get(doc, "floor"), e)),
			float_text(json_object_get(doc, "samples")),
		float_text(json_object_get(doc, "unresolved"))};

		if (!insert(conn, "profile_run", 10, values, error))
			return false;
		json_object_foreach(json_object_get(doc, "functions"), name, f)
		{
			const char *fvalues[7] = {id, run, event, name, report_json_str(f, "object", ""),
				float_text(json_array_get(json_object_get(f, "self"), e)),
			float_text(json_array_get(json_object_get(f, "incl"), e))};

			if (fvalues[5] == NULL || !profile_name_ok(name, false))
				continue;
			if (!insert(conn, "profile_function", 7, fvalues, error))
				return false;
		}
	}
	json_object_foreach(json_object_get(doc, "stacks"), name, f)
	{
		const char *svalues[4] = {id, run, name, float_text(f)};

		if (svalues[3] && profile_name_ok(name, true) && !insert(conn, "profile_stack", 4, svalues, error))
			return false;
	}
	return true;
}

int
profile_import(PGconn *conn, const char *experiment_id, const char *dir, char **error)
{
	const char *params[1] = {experiment_id};
	PGresult   *res;
	int			imported = 0;

	if (!prepare(conn, "profile_run",
				 "INSERT INTO pgbench_ext.profile_runs (experiment_id, run_id, event, position, mode, "
				 "transactions, total_per_tx, floor_per_tx, samples, unresolved) "
				 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", 10, error) ||
		!prepare(conn, "profile_function",
				 "INSERT INTO pgbench_ext.profile_functions (experiment_id, run_id, event, function_name, "
				 "object, self_per_tx, inclusive_per_tx) VALUES ($1, $2, $3, $4, $5, $6, $7)", 7, error) ||
		!prepare(conn, "profile_stack",
				 "INSERT INTO pgbench_ext.profile_stacks (experiment_id, run_id, stack, value) "
				 "VALUES ($1, $2, $3, $4)", 4, error))
		return -1;
	res = PQexecParams(conn, "SELECT run_id FROM pgbench_ext.runs WHERE experiment_id = $1 ORDER BY run_id",
					   1, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		*error = psprintf("could not list the imported runs: %s", PQerrorMessage(conn));
		PQclear(res);
		return -1;
	}
	for (int i = 0; i < PQntuples(res); i++)
	{
		const char *run = PQgetvalue(res, i, 0);
		char	   *ignored;
		json_t	   *doc = safe_read_json(results_run_path(dir, atoi(run), ".profile.json"),
										 SAFE_MAX_JSON, &ignored);
		bool		ok = true;

		if (profile_run_usable(doc))
		{
			ok = import_run(conn, experiment_id, run, doc, error);
			imported += ok;
		}
		json_decref(doc);
		if (!ok)
		{
			PQclear(res);
			return -1;
		}
	}
	PQclear(res);
	return imported;
}
