/*-------------------------------------------------------------------------
 *
 * farm_history_db.c
 *		The points of "pgbench_ext history" from the results database:
 *		every imported signature on every machine that ran it, through the
 *		SQL function history(), so that the database gives the points the
 *		directories give; and the queue of each agent, for the farm's index.
 *
 * The cell of a signature is the one asked for (--variant, --script,
 * --clients), else that of its first imported experiment (in the order
 * written): its first variant, script and client count, as a results
 * directory's first.  What the database holds was imported from results
 * directories that may be anyone's, and its tables may have been written
 * by any role allowed to: a signature or fingerprint that is not 16 hex
 * digits (they name the pages' directories) is left out with a warning,
 * and every text is escaped where it is shown.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "farm.h"

#include <math.h>

/*
 * One row per point of every (signature, machine), in history order; the
 * histories in the order of their first point, as directories given in
 * the order written are grouped
 */
static const char *const points_sql =
"WITH firsts AS (\n"
"    SELECT DISTINCT ON (s.signature) s.signature, e.experiment_id, e.spec\n"
"    FROM pgbench_ext.experiment_sources s\n"
"    JOIN pgbench_ext.experiments e ON e.experiment_id = s.experiment_id\n"
"    ORDER BY s.signature, e.written_at, e.experiment_id),\n"
"cells AS (\n"
"    SELECT f.signature,\n"
"           coalesce($1, (SELECT v.variant FROM pgbench_ext.variants v\n"
"                         WHERE v.experiment_id = f.experiment_id\n"
"                         ORDER BY v.position LIMIT 1)) AS variant,\n"
"           coalesce($2, f.spec -> 'experiment' -> 'script' ->> 0) AS script,\n"
"           coalesce($3::int, (f.spec -> 'experiment' -> 'clients' ->> 0)::int) AS clients\n"
"    FROM firsts f),\n"
"pairs AS (\n"
"    SELECT DISTINCT signature, fingerprint FROM pgbench_ext.experiment_sources)\n"
"SELECT c.signature, p.fingerprint, h.hostname, h.written_at, h.runs, h.tps,\n"
"       e.source_dir, c.variant, c.script, c.clients\n"
"FROM cells c\n"
"JOIN pairs p ON p.signature = c.signature\n"
"CROSS JOIN LATERAL pgbench_ext.history(c.signature, c.variant, c.script,\n"
"                                       c.clients, p.fingerprint) h\n"
"JOIN pgbench_ext.experiments e ON e.experiment_id = h.experiment_id\n"
"WHERE c.variant IS NOT NULL AND c.script IS NOT NULL AND c.clients IS NOT NULL\n"
"ORDER BY min(h.written_at) OVER (PARTITION BY c.signature, p.fingerprint),\n"
"         c.signature, p.fingerprint, h.point";

/*
 * Per agent, in the order registered: its fingerprints (its machine's and
 * its results'), the queued jobs it may take (as take_job() chooses them),
 * and the jobs it took last by their state.  Then the queued jobs that no
 * registered agent may take.  A reader needs SELECT on agents and jobs
 * (docs/farm.md, "Roles").
 */
static const char *const queue_sql =
"SELECT a.fingerprint, a.hostname, array_to_string(a.result_fingerprints, ' '),\n"
"       (SELECT count(*) FROM pgbench_ext.jobs q\n"
"        WHERE q.state = 'queued'\n"
"          AND (q.machines IN ('any', a.hostname, a.fingerprint)\n"
"               OR q.machines = ANY (a.result_fingerprints))),\n"
"       count(j.job_id) FILTER (WHERE j.state = 'running'),\n"
"       count(j.job_id) FILTER (WHERE j.state = 'done'),\n"
"       count(j.job_id) FILTER (WHERE j.state = 'failed')\n"
"FROM pgbench_ext.agents a\n"
"LEFT JOIN pgbench_ext.jobs j ON j.agent = a.fingerprint\n"
"GROUP BY a.fingerprint\n"
"ORDER BY a.registered_at, a.fingerprint";

static const char *const unclaimed_sql =
"SELECT count(*) FROM pgbench_ext.jobs q\n"
"WHERE q.state = 'queued'\n"
"  AND NOT EXISTS (SELECT FROM pgbench_ext.agents a\n"
"                  WHERE q.machines IN ('any', a.hostname, a.fingerprint)\n"
"                     OR q.machines = ANY (a.result_fingerprints))";

/* 16 lower-case hex digits, as import computes them */
static bool
is_digest(const char *s)
{
	size_t		n = strspn(s, "0123456789abcdef");

	return n == 16 && s[n] == '\0';
}

/* A text of the database for the terminal and, escaped again, the pages */
static char *
text_of(const PGresult *res, int row, int col)
{
	return escape_text(PQgetvalue(res, row, col), ESCAPE_TERMINAL);
}

/*
 * The points of every history the database holds, grouped by (signature,
 * fingerprint), each group in history order; *n their number.  variant
 * and script NULL and clients 0: each signature's first.  NULL (with
 * *error) when the query fails.
 */
FarmPoint *
farm_db_points(PGconn *conn, const char *variant, const char *script, int clients,
			   int *n, char **error)
{
	char	   *cl = clients > 0 ? psprintf("%d", clients) : NULL;
	const char *params[3] = {variant, script, cl};
	PGresult   *res = PQexecParams(conn, points_sql, 3, NULL, params, NULL, NULL, 0);
	FarmPoint  *pts;

	*n = 0;
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		*error = psprintf("could not read the histories: %s", PQerrorMessage(conn));
		PQclear(res);
		return NULL;
	}
	pts = pg_malloc0(sizeof(FarmPoint) * (PQntuples(res) + 1));
	for (int i = 0; i < PQntuples(res); i++)
	{
		FarmPoint  *p = &pts[*n];
		double		tps = strtod(PQgetvalue(res, i, 5), NULL);

		if (!is_digest(PQgetvalue(res, i, 0)) || !is_digest(PQgetvalue(res, i, 1)))
		{
			log_warningf("an experiment of signature \"%s\" on machine \"%s\" is left out: "
						 "they are not the 16 hex digits import records",
						 text_of(res, i, 0), text_of(res, i, 1));
			continue;
		}
		if (!(tps > 0 && isfinite(tps)))
			continue;			/* history() gives none; a table altered might */
		p->signature = pg_strdup(PQgetvalue(res, i, 0));
		p->machine.fingerprint = pg_strdup(PQgetvalue(res, i, 1));
		p->machine.hostname = text_of(res, i, 2);
		p->written_at = text_of(res, i, 3);
		p->runs = atoi(PQgetvalue(res, i, 4));
		p->value = tps;
		p->label = pg_strdup(PQgetvalue(res, i, 6));
		p->variant = pg_strdup(PQgetvalue(res, i, 7));
		p->cell = psprintf("%s, %s client%s", PQgetvalue(res, i, 8), PQgetvalue(res, i, 9),
						   strcmp(PQgetvalue(res, i, 9), "1") == 0 ? "" : "s");
		(*n)++;
	}
	PQclear(res);
	return pts;
}

/* An agent's fingerprints: its machine's, then those of its results */
static void
agent_fingerprints(FarmAgentQueue *a, const char *results)
{
	char	   *list = pg_strdup(results);
	char	   *save = NULL;

	a->fingerprints = pg_malloc(sizeof(char *) * (strlen(results) / 2 + 2));
	a->fingerprints[a->nfp++] = a->fingerprint;
	for (char *tok = strtok_r(list, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
		a->fingerprints[a->nfp++] = tok;
}

/*
 * The queues of the agents the database knows.  A database that has no
 * queue (an extension before 1.1.0) or a role that may not read it gives
 * a queue with its error, said on the page, not a failure: the histories
 * are still worth their pages.
 */
FarmQueue *
farm_db_queue(PGconn *conn)
{
	FarmQueue  *q = pg_malloc0(sizeof(FarmQueue));
	PGresult   *res = PQexec(conn, queue_sql);

	if (PQresultStatus(res) == PGRES_TUPLES_OK)
	{
		q->agents = pg_malloc0(sizeof(FarmAgentQueue) * (PQntuples(res) + 1));
		for (int i = 0; i < PQntuples(res); i++)
		{
			FarmAgentQueue *a = &q->agents[q->n++];

			a->fingerprint = pg_strdup(PQgetvalue(res, i, 0));
			a->hostname = pg_strdup(PQgetvalue(res, i, 1));
			agent_fingerprints(a, PQgetvalue(res, i, 2));
			a->queued = atoi(PQgetvalue(res, i, 3));
			a->running = atoi(PQgetvalue(res, i, 4));
			a->done = atoi(PQgetvalue(res, i, 5));
			a->failed = atoi(PQgetvalue(res, i, 6));
		}
		PQclear(res);
		res = PQexec(conn, unclaimed_sql);
	}
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		char	   *msg = pg_strdup(PQerrorMessage(conn));
		size_t		len = strlen(msg);

		while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
			msg[--len] = '\0';
		q->error = escape_text(msg, ESCAPE_TERMINAL);
		q->n = 0;
		log_warningf("the queue is not on the pages: could not read it: %s", q->error);
	}
	else
		q->unclaimed = atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	return q;
}
