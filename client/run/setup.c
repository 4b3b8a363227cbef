/*-------------------------------------------------------------------------
 *
 * setup.c
 *		Before the first run: start every variant's server, check it, and
 *		build the data every run starts from.
 *
 * Everything that can fail before a long experiment fails here, with the
 * server's own complaint quoted: a bad setting shows up as a server that
 * does not start; an extension of another version as a refused handshake.
 * pgbench -i runs once per variant into a template database; each run then
 * starts from an identical copy (CREATE DATABASE ... TEMPLATE).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout.h"
#include "conn.h"
#include "setup.h"
#include "results.h"
#include "safe_file.h"
#include "subprocess.h"
#include "progress.h"

#include <sys/time.h>
#include <time.h>

#include "common/logging.h"

bool
exec_ok(PGconn *conn, const char *sql, char **error)
{
	PGresult   *res = PQexec(conn, sql);
	ExecStatusType st = PQresultStatus(res);

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
	{
		*error = psprintf("%s failed: %s", sql, PQerrorMessage(conn));
		PQclear(res);
		return false;
	}
	PQclear(res);
	return true;
}

/* Our own statements' NOTICEs ("does not exist, skipping") are noise; warnings are not. */
static void
notice_unless_routine(void *arg, const char *message)
{
	if (strncmp(message, "NOTICE:", 7) != 0)
		log_warningf("%s", message);
}

PGconn *
connect_variant(VariantState *vs, const char *dbname, char **error)
{
	char	   *conninfo = cluster_conninfo(&vs->cluster, dbname);
	PGconn	   *conn = PQconnectdb(conninfo);

	if (PQstatus(conn) != CONNECTION_OK)
	{
		*error = psprintf("could not connect to variant \"%s\": %s(parameters tried: %s)",
						  vs->cluster.variant->name, PQerrorMessage(conn),
						  describe_conninfo(conn));
		PQfinish(conn);
		return NULL;
	}
	PQsetNoticeProcessor(conn, notice_unless_routine, NULL);
	return conn;
}

static bool
database_exists(PGconn *conn, const char *name)
{
	const char *params[1] = {name};
	PGresult   *res = PQexecParams(conn, "SELECT 1 FROM pg_database WHERE datname = $1",
								   1, NULL, params, NULL, NULL, 0);
	bool		exists = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;

	PQclear(res);
	return exists;
}

/*
 * The template is ready once pgbench -i has filled it, and marked so then:
 * a set-up interrupted after CREATE DATABASE (a signal, SIGKILL) leaves a
 * template that --resume must fill again, not use.
 */
#define TEMPLATE_READY "pgbench_ext: filled by pgbench -i"

static bool
template_ready(PGconn *conn)
{
	PGresult   *res = PQexec(conn, "SELECT shobj_description(oid, 'pg_database') = '" TEMPLATE_READY "' "
							 "FROM pg_database WHERE datname = '" TEMPLATE_DB "'");
	bool		ready = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
		strcmp(PQgetvalue(res, 0, 0), "t") == 0;

	PQclear(res);
	return ready;
}

/*
 * How the template is copied from template1.  From PostgreSQL 15 CREATE
 * DATABASE writes every block of template1 to WAL unless told to copy its
 * files; on a server just started, with nothing dirty for the copy's two
 * checkpoints to write, the copy of the files costs half the CPU (about
 * 70 against 140 ms here, the server's processes counted).
 */
static const char *
template_strategy_clause(PGconn *conn)
{
	return PQserverVersion(conn) >= 150000 ? " STRATEGY FILE_COPY" : "";
}

/* Rows of a query as a JSON array of objects keyed by column name. */
static json_t *
rows_to_json(PGresult *res)
{
	json_t	   *rows = json_array();

	for (int r = 0; r < PQntuples(res); r++)
	{
		json_t	   *row = json_object();

		for (int f = 0; f < PQnfields(res); f++)
			json_object_set_new(row, PQfname(res, f),
								PQgetisnull(res, r, f) ? json_null() : json_string(PQgetvalue(res, r, f)));
		json_array_append_new(rows, row);
	}
	return rows;
}

static bool
run_pgbench_init(Experiment *x, VariantState *vs, char **error)
{
	const ExperimentSpec *spec = x->spec;
	char	   *log = psprintf("%s/pgbench-init-%s.log", x->dir, vs->cluster.variant->name);
	char	   *argv[16];
	int			argc = 0;
	double		t0 = now_seconds();
	int			rc;
	ChildSpec	child = CHILD_SPEC_INIT;

	argv[argc++] = psprintf("%s/pgbench", vs->cluster.bindir);
	argv[argc++] = "-i";
	argv[argc++] = "-q";

	/*
	 * pgbench's own steps but its VACUUM (v): the whole database's VACUUM
	 * ANALYZE that follows (prepare_template) vacuums and analyzes these
	 * tables too, and did it twice for about 100 ms of CPU a set-up at
	 * scale 1 (-I is pgbench's from PostgreSQL 11).
	 */
	argv[argc++] = "-I";
	argv[argc++] = "dtgp";
	argv[argc++] = "-s";
	argv[argc++] = psprintf("%d", spec->scale);
	if (spec->unlogged)
		argv[argc++] = "--unlogged-tables";
	argv[argc++] = cluster_conninfo(&vs->cluster, TEMPLATE_DB);
	argv[argc] = NULL;
	child.argv = argv;
	child.unprivileged = true;
	child.interruptible = true; /* a large scale takes long: Ctrl-C ends it */
	rc = child_run_logged(&child, log);
	if (run_interrupted)
		return fail_with(error, "pgbench -i for variant \"%s\" interrupted", vs->cluster.variant->name);
	if (rc != 0)
		return fail_with(error, "pgbench -i failed for variant \"%s\" (exit status %d); its output (%s):\n%s",
						 vs->cluster.variant->name, rc, log, tail_of_file(log, 10));
	vs->pgbench_init_s = now_seconds() - t0;
	return true;
}

/*
 * A template found ready in a copy of the template cache's entry: its
 * pgbench -i log says where it came from, and no time went into filling.
 */
static bool
template_from_cache(Experiment *x, VariantState *vs, PGconn *conn, char **error)
{
	char	   *log = psprintf("%s/pgbench-init-%s.log", x->dir, vs->cluster.variant->name);

	PQfinish(conn);
	vs->pgbench_init_s = 0;
	return safe_write_file(log,
						   psprintf("pgbench -i not run: the template database came ready (pgbench -i -I dtgp -s %d%s, VACUUM ANALYZE, CHECKPOINT) from the template cache, in the copy of entry %s\n",
									x->spec->scale, x->spec->unlogged ? " --unlogged-tables" : "",
									vs->cluster.template_entry), 0, error);
}

/*
 * The template database: created, given the extension (its environment()
 * works even when not preloaded), and filled by pgbench -i.  A resumed
 * experiment finds it ready.
 */
static bool
prepare_template(Experiment *x, VariantState *vs, char **error)
{
	PGconn	   *conn;
	PGresult   *res;
	char	   *problem;
	char	   *hint;
	bool		fresh;

	if ((conn = connect_variant(vs, "postgres", error)) == NULL)
		return false;
	vs->server_version_num = PQserverVersion(conn);
	fresh = !database_exists(conn, TEMPLATE_DB);
	if (!fresh && !template_ready(conn))
	{
		/* left half made by an interrupted set-up: made again */
		if (!exec_ok(conn, "DROP DATABASE " TEMPLATE_DB, error))
			goto fail;
		fresh = true;
	}
	if (fresh && !exec_ok(conn, psprintf("CREATE DATABASE " TEMPLATE_DB "%s", template_strategy_clause(conn)), error))
		goto fail;
	PQfinish(conn);

	if ((conn = connect_variant(vs, TEMPLATE_DB, error)) == NULL)
		return false;
	if (!exec_ok(conn, "SET client_min_messages = warning", error) ||
		!exec_ok(conn, "CREATE EXTENSION IF NOT EXISTS pgbench_ext", error))
	{
		*error = psprintf("%s\nhint: install pgbench_ext into this variant's installation: make install PG_CONFIG=%s/pg_config",
						  *error, vs->cluster.bindir);
		goto fail;
	}
	/*
	 * In the template, so that every run database copied from it has it;
	 * a counted view's runs need it too, and are told before the timed ones.
	 */
	if ((x->spec->quiet.prewarm || x->spec->profile.counted_view) &&
		!exec_ok(conn, "CREATE EXTENSION IF NOT EXISTS pg_prewarm", error))
	{
		const char *key = x->spec->quiet.prewarm ? "prewarm" : "counted_view";

		*error = psprintf("variant \"%s\": %s = on needs pg_prewarm (PostgreSQL's contrib) in its installation: %s\n"
						  "hint: install pg_prewarm into the installation of %s, or set %s = off",
						  vs->cluster.variant->name, key, *error, vs->cluster.bindir, key);
		goto fail;
	}
	if (!check_extension_version(conn, &problem, &hint))
	{
		*error = psprintf("variant \"%s\": %s\nhint: %s", vs->cluster.variant->name, problem, hint);
		goto fail;
	}

	/* each build's struct layout, for "pgbench_ext layout DIR A B" */
	res = PQexec(conn, "SELECT to_regproc('pgbench_ext.struct_layout') IS NOT NULL");
	if (PQresultStatus(res) == PGRES_TUPLES_OK && strcmp(PQgetvalue(res, 0, 0), "t") == 0)
		layout_save(layout_from_server(conn),
					psprintf("%s/layout-%s.json", x->dir, vs->cluster.variant->name));
	PQclear(res);

	res = PQexec(conn, "SELECT current_setting('shared_preload_libraries') ~ '(^|,)\\s*pgbench_ext\\s*(,|$)' "
				 "AND to_regproc('pgbench_ext.counters') IS NOT NULL");
	vs->has_counters = PQresultStatus(res) == PGRES_TUPLES_OK && strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);

	res = PQexec(conn, "SELECT category, name, value, note FROM pgbench_ext.environment()");
	vs->environment = PQresultStatus(res) == PGRES_TUPLES_OK ? rows_to_json(res) : json_array();
	PQclear(res);
	res = PQexec(conn, "SELECT name, setting FROM pg_config");
	vs->pg_config = PQresultStatus(res) == PGRES_TUPLES_OK ? rows_to_json(res) : json_array();
	PQclear(res);

	/*
	 * The session waits, idle, while pgbench -i fills the database (it
	 * holds no lock pgbench needs) and then settles it: a backend fewer to
	 * start than a session of its own afterwards.
	 */
	if (fresh && !run_pgbench_init(x, vs, error))
		goto fail;

	/*
	 * A settled starting point: nothing dirty, statistics current.  A copy
	 * of the template cache's entry is that already: it was kept after this
	 * step and a clean stop, and nothing has written to it since.
	 */
	if (!fresh && vs->cluster.template_entry)
		return template_from_cache(x, vs, conn, error);
	if (!exec_ok(conn, "VACUUM ANALYZE", error) || !exec_ok(conn, "CHECKPOINT", error) ||
		(fresh && !exec_ok(conn, "COMMENT ON DATABASE " TEMPLATE_DB " IS '" TEMPLATE_READY "'", error)))
		goto fail;
	PQfinish(conn);
	return true;

fail:
	PQfinish(conn);
	return false;
}

/* The state of the variant called name. */
static VariantState *
cluster_variant_state(Experiment *x, const char *name)
{
	return &x->variants[experiment_variant_index(x->spec, name)];
}

/*
 * What identifies a variant's build, for runs.csv: a source variant's
 * build key (a digest of all that went into it), else the installation's
 * bindir, which for a server given by conninfo is the one it reports.
 */
static char *
build_identity(const VariantSpec *v, const VariantState *vs)
{
	const char *key = json_string_value(json_object_get(v->build, "key"));
	size_t		i;
	json_t	   *row;

	if (key != NULL)
		return pg_strdup(key);
	if (v->bindir != NULL)
		return pg_strdup(v->bindir);
	json_array_foreach(vs->pg_config, i, row)
	{
		const char *name = json_string_value(json_object_get(row, "name"));

		if (name != NULL && strcmp(name, "BINDIR") == 0 &&
			json_is_string(json_object_get(row, "setting")))
			return pg_strdup(json_string_value(json_object_get(row, "setting")));
	}
	return pg_strdup("unknown");
}

/*
 * The directory of variant i's cluster, below RESULTS/clusters: its name,
 * or under profile = counted its index, of one width whatever the names.
 * The server sees the path (in its argv, its data_directory, the files of
 * its configuration, where callgrind writes), and a path of another
 * length moves its processes' heap and stack, and with them the paths
 * string functions take: a count of another variant's name.
 */
static const char *
cluster_dirname(const Experiment *x, int i)
{
	if (x->spec->profile.mode != PROFILE_COUNTED)
		return NULL;
	StaticAssertStmt(MAX_VARIANTS <= 100, "two digits name every variant");
	return psprintf("%02d", i);
}

/*
 * What the template cache may stand for: the template's scale and
 * tables.  Not under profile = counted, whose servers start under
 * callgrind (and whose counts would then include no set-up at all).
 */
static const TemplateWish *
template_wish(const Experiment *x, TemplateWish *wish)
{
	if (x->spec->profile.mode == PROFILE_COUNTED)
		return NULL;
	wish->scale = x->spec->scale;
	wish->unlogged = x->spec->unlogged;
	return wish;
}

/*
 * Start the variant's server and make its template ready.  A cluster that
 * keeps its data directory in the template cache restarts once after the
 * filling: the start recorded is then the restart, the one runs see.
 */
static bool
start_and_fill(Experiment *x, VariantState *vs, const VariantSpec *v, char **error)
{
	bool		keeps = !v->cluster && vs->cluster.template_store != NULL;
	const char *cause = x->resume ? "resume" : "setup";

	if (!cluster_start(&vs->cluster, error) ||
		(!v->cluster && !keeps && !record_start(x, &vs->cluster, cause, error)) ||
		!prepare_template(x, vs, error))
		return false;
	return !keeps ||
		(cluster_keep_template(&vs->cluster, error) && record_start(x, &vs->cluster, cause, error));
}

/*
 * Servers of their own first, then the variants on another's server
 * (experiment_check() made sure that one has its own): their template is
 * the host's, found ready, and only its own session's facts are read.
 */
bool
setup_variants(Experiment *x, char **error)
{
	TemplateWish wish;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < x->spec->nvariants; i++)
		{
			VariantState *vs = &x->variants[i];
			const VariantSpec *v = &x->spec->variants[i];

			if ((v->cluster != NULL) != (pass == 1))
				continue;
			if (v->cluster)
			{
				printf("setting up variant %s (on variant %s's cluster)\n", v->name, v->cluster);
				cluster_prepare_shared(&vs->cluster, v,
									   &x->variants[experiment_variant_index(x->spec, v->cluster)].cluster);
			}
			else
			{
				printf("setting up variant %s (%s)\n", v->name, v->bindir ? v->bindir : v->conninfo);
				if (!cluster_prepare(&vs->cluster, v, x->dir, cluster_dirname(x, i),
									 template_wish(x, &wish), error))
					return false;
				vs->cluster.instance = x->last_instance[i];
				if (x->plan->restart_rounds > 0)
					vs->cluster.pad_environment = true;	/* a build seed's already is */
				vs->cluster.aslr_off = !x->spec->quiet.aslr;
				vs->cluster.huge_pages = x->spec->quiet.huge_pages;
			}
			fflush(stdout);
			if (!start_and_fill(x, vs, v, error))
				return false;
			vs->build_id = v->cluster ? cluster_variant_state(x, v->cluster)->build_id : build_identity(v, vs);
		}
	return true;
}

/*
 * A start of a managed server, in instances.csv: its number, how long the
 * stop before it and the start took (the cost of a restart, for the
 * report's designs), and why.
 */
bool
record_start(Experiment *x, Cluster *c, const char *cause, char **error)
{
	InstanceRecord r = {0};
	time_t		t = time(NULL);

	if (!c->managed)
		return true;
	r.server = c->variant->name;
	r.instance = c->instance;
	strftime(r.started_at, sizeof(r.started_at), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	r.stop_s = c->stop_s;
	r.start_s = c->start_s;
	r.env_pad = c->env_pad;
	r.cause = cause;
	return results_append_instance(x->dir, &r, error);
}
