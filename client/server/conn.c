/*-------------------------------------------------------------------------
 *
 * conn.c
 *		Connecting to a server and the three-way version handshake.
 *
 * Before the client uses a database it checks that its own version, the
 * loaded library's (pgbench_ext.version()) and the installed SQL objects'
 * (pg_extension.extversion) agree, and names the one that differs.
 * Mismatched halves would otherwise read counters with the wrong layout
 * and report nonsense with a straight face.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "conn.h"

#include "common/logging.h"

bool
conn_option(int c, const char *arg, ConnOptions *opts)
{
	switch (c)
	{
		case 'h':
			opts->host = arg;
			return true;
		case 'p':
			opts->port = arg;
			return true;
		case 'U':
			opts->username = arg;
			return true;
		case 'd':
			opts->dbname = arg;
			return true;
	}
	return false;
}

void
conn_usage(void)
{
	printf("\nConnection options:\n");
	printf("  CONNINFO                 a connection string or URI (\"host=/tmp dbname=bench\")\n");
	printf("  -h, --host=HOSTNAME      database server host or socket directory\n");
	printf("  -p, --port=PORT          database server port number\n");
	printf("  -U, --username=USERNAME  connect as specified database user\n");
	printf("  -d, --dbname=DBNAME      database to connect to\n");
}

/*
 * Where libpq went and as whom (never the password), for error messages.
 * PQhost() and friends report the defaults libpq filled in, not just what
 * the user typed, which is what someone debugging a refusal needs.
 */
char *
describe_conninfo(PGconn *conn)
{
	const char *host = PQhost(conn);
	const char *port = PQport(conn);
	const char *db = PQdb(conn);
	const char *user = PQuser(conn);

	return psprintf("host=%s port=%s dbname=%s user=%s",
					host && *host ? host : "(default)",
					port && *port ? port : "(default)",
					db ? db : "(default)", user ? user : "(default)");
}

static PGconn *
connect_or_die(const ConnOptions *opts)
{
	/*
	 * A positional CONNINFO goes in as dbname with expand_dbname, so it may
	 * be a plain database name, a key=value string or a URI; explicit
	 * options come after it and win.
	 */
	const char *given[][2] = {
		{"dbname", opts->conninfo}, {"host", opts->host}, {"port", opts->port},
		{"user", opts->username}, {"dbname", opts->dbname},
		{"fallback_application_name", progname},
	};
	const char *keywords[lengthof(given) + 1];
	const char *values[lengthof(given) + 1];
	int			n = 0;
	PGconn	   *conn;

	for (int i = 0; i < lengthof(given); i++)
		if (given[i][1] != NULL)
		{
			keywords[n] = given[i][0];
			values[n++] = given[i][1];
		}
	keywords[n] = NULL;
	values[n] = NULL;

	conn = PQconnectdbParams(keywords, values, true);
	if (conn == NULL)
		pg_fatal("out of memory");
	if (PQstatus(conn) != CONNECTION_OK)
	{
		char	   *tried = describe_conninfo(conn);

		log_errorf("%s", PQerrorMessage(conn));
		pg_log_error_detail("Connection parameters tried: %s", escape_text(tried, ESCAPE_TERMINAL));
		pg_log_error_hint("Check that the server is running and the parameters (or PGHOST, PGPORT, PGUSER, PGDATABASE) are right.");
		PQfinish(conn);
		exit(EXIT_RUNTIME_ERROR);
	}
	return conn;
}

PGresult *
exec_or_die(PGconn *conn, const char *sql)
{
	PGresult   *res = PQexec(conn, sql);
	ExecStatusType st = PQresultStatus(res);

	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
	{
		log_errorf("query failed: %s", PQerrorMessage(conn));
		pg_log_error_detail("Query was: %s", escape_text(sql, ESCAPE_TERMINAL_LINES));
		PQclear(res);
		PQfinish(conn);
		exit(EXIT_RUNTIME_ERROR);
	}
	return res;
}

/*
 * Check that the extension is installed in conn's database and that its
 * SQL objects, its library and this client all have one version.  On a
 * problem returns false with a message and a hint (malloc'd).
 */
bool
check_extension_version(PGconn *conn, char **problem, char **hint)
{
	const char *db = PQdb(conn);
	PGresult   *res;
	char	   *sql_version;
	char	   *lib_version;

	res = exec_or_die(conn,
					  "SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'pgbench_ext'");
	if (PQntuples(res) == 0)
	{
		PQclear(res);
		*problem = psprintf("extension \"pgbench_ext\" is not installed in database \"%s\"", db);
		*hint = psprintf("Connect to \"%s\" as a superuser and run: CREATE EXTENSION pgbench_ext;", db);
		return false;
	}
	sql_version = pg_strdup(PQgetvalue(res, 0, 0));
	PQclear(res);

	res = PQexec(conn, "SELECT pgbench_ext.version()");
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		*problem = psprintf("could not call pgbench_ext.version() in database \"%s\": %s",
							db, PQerrorMessage(conn));
		*hint = pg_strdup("Reinstall the extension on the server (make install), then DROP EXTENSION pgbench_ext; CREATE EXTENSION pgbench_ext;");
		PQclear(res);
		return false;
	}
	lib_version = pg_strdup(PQgetvalue(res, 0, 0));
	PQclear(res);

	if (strcmp(lib_version, PGBENCH_EXT_VERSION) != 0)
	{
		*problem = psprintf("the server's pgbench_ext library is version %s, but this client is version %s",
							lib_version, PGBENCH_EXT_VERSION);
		*hint = psprintf("Install pgbench_ext %s on the server (make install with its pg_config) and restart it, or use a %s client.",
						 PGBENCH_EXT_VERSION, lib_version);
		return false;
	}
	if (strcmp(sql_version, lib_version) != 0)
	{
		*problem = psprintf("extension objects in database \"%s\" are version %s, but the loaded library is version %s",
							db, sql_version, lib_version);
		*hint = psprintf("Run ALTER EXTENSION pgbench_ext UPDATE TO '%s'; in \"%s\", or DROP EXTENSION pgbench_ext; CREATE EXTENSION pgbench_ext;",
						 lib_version, db);
		return false;
	}
	return true;
}

/* Connect and refuse to go on unless the handshake succeeds. */
PGconn *
connect_checked(const ConnOptions *opts)
{
	PGconn	   *conn = connect_or_die(opts);
	char	   *problem;
	char	   *hint;

	if (!check_extension_version(conn, &problem, &hint))
	{
		log_error_text(problem);
		pg_log_error_hint("%s", escape_text(hint, ESCAPE_TERMINAL_LINES));
		PQfinish(conn);
		exit(EXIT_RUNTIME_ERROR);
	}
	return conn;
}
