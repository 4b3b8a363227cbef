/*-------------------------------------------------------------------------
 *
 * farm_history_db.c
 *		The points of "pgbench_ext history" from the results database:
 *		every imported signature on every machine that ran it, through the
 *		SQL function history(), so that the database gives the points the
 *		directories give.
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
