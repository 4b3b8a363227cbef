/*-------------------------------------------------------------------------
 *
 * cluster.c
 *		Managed clusters: initdb, configuration, start and stop.
 *
 * A managed cluster lives in the results directory (clusters/NAME), listens
 * only on a private Unix socket (listen_addresses = ''), preloads
 * pgbench_ext unless the variant says extension = off, and carries the
 * variant's settings.  Every cluster started is registered, so that every
 * exit path — normal, error, Ctrl-C — stops it.
 *
 * A variant with "cluster = OTHER" has no server of its own: its Cluster
 * points at OTHER's (host), which is what starting, stopping and the
 * liveness checks act on; only its connections differ, by the libpq
 * options that carry its session_set settings.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cluster.h"
#include "profile.h"
#include "subprocess.h"
#include "pqexpbuffer.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_CLUSTERS MAX_VARIANTS

static Cluster *started[MAX_CLUSTERS];
static int	nstarted;
static int	nprepared;

static void unregister(Cluster *c);

/*
 * The variant's settings as postgresql.conf lines.  A shared_preload_libraries
 * setting is merged with pgbench_ext's instead of replacing it.
 */
static char *
config_lines(const Cluster *c)
{
	const VariantSpec *v = c->variant;
	char	   *preload = pg_strdup(v->extension ? "pgbench_ext" : "");
	char	   *lines = psprintf("\n# added by pgbench_ext for variant %s\n"
								 "listen_addresses = ''\n",
								 v->name);

	for (int i = 0; i < v->nsettings; i++)
	{
		char	   *name = pg_strdup(v->settings[i]);
		char	   *value = strchr(name, '=');

		*value++ = '\0';
		if (pg_strcasecmp(name, "shared_preload_libraries") == 0)
		{
			value = pg_strdup(value);
			/* accept both quoted and bare lists */
			if (value[0] == '\'')
			{
				value++;
				value[strcspn(value, "'")] = '\0';
			}
			preload = *preload ? psprintf("%s,%s", preload, value) : value;
			continue;
		}
		lines = psprintf("%s%s = '%s'\n", lines, name, value);
	}
	return psprintf("%sshared_preload_libraries = '%s'\n", lines, preload);
}

static bool
append_to_file(const char *path, const char *text, char **error)
{
	FILE	   *f = fopen(path, "a");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		return false;
	}
	return true;
}

/*
 * Set up the variant's server: for a managed variant run initdb (unless a
 * resumed experiment already has the cluster) and write its configuration.
 */
bool
cluster_prepare(Cluster *c, const VariantSpec *v, const char *results_dir, char **error)
{
	char		sock_template[] = "/tmp/pgbench_ext.XXXXXX";
	char	   *pgversion;
	struct stat st;

	memset(c, 0, sizeof(*c));
	c->variant = v;
	c->managed = (v->bindir != NULL);
	/* a conninfo variant still needs a pgbench: the one we were built with */
	c->bindir = pg_strdup(v->bindir ? v->bindir : PGBENCH_EXT_PG_BINDIR);
	if (!c->managed)
		return true;

	c->dir = psprintf("%s/clusters/%s", results_dir, v->name);
	c->datadir = psprintf("%s/data", c->dir);
	c->logfile = psprintf("%s/server.log", c->dir);
	if (mkdtemp(sock_template) == NULL)
	{
		*error = psprintf("could not create a socket directory under /tmp: %m");
		return false;
	}
	c->sockdir = pg_strdup(sock_template);
	if (!give_to_server_account(c->sockdir, error))
		return false;
	/*
	 * Behind a private socket directory any port is free; distinct ports
	 * still keep the servers' SysV shared memory keys apart.
	 */
	c->port = 20000 + (int) (getpid() % 2000) * 16 + nprepared++ % 16;

	pgversion = psprintf("%s/PG_VERSION", c->datadir);
	if (stat(pgversion, &st) == 0)
		return true;			/* resumed: initdb done, configuration kept */

	if (pg_mkdir_p(c->dir, 0755) != 0)
	{
		*error = psprintf("could not create directory \"%s\": %m", c->dir);
		return false;
	}
	if (!give_to_server_account(c->dir, error))
		return false;

	{
		char	   *initdb = psprintf("%s/initdb", c->bindir);
		char	   *initdb_log = psprintf("%s/initdb.log", c->dir);
		char	   *argv[32];
		int			argc = 0;
		double		t0 = now_seconds();

		argv[argc++] = initdb;
		argv[argc++] = "-D";
		argv[argc++] = c->datadir;
		argv[argc++] = "-U";
		argv[argc++] = "postgres";
		argv[argc++] = "-A";
		argv[argc++] = "trust";
		argv[argc++] = "--no-sync";
		if (v->initdb_args)
		{
			char	   *copy = pg_strdup(v->initdb_args);
			char	   *save = NULL;

			for (char *tok = strtok_r(copy, " \t", &save); tok && argc < 30;
				 tok = strtok_r(NULL, " \t", &save))
				argv[argc++] = tok;
		}
		argv[argc] = NULL;
		if (run_logged(argv, true, initdb_log) != 0)
		{
			*error = psprintf("initdb failed for variant \"%s\"; its output (%s):\n%s",
							  v->name, initdb_log, tail_of_file(initdb_log, 15));
			return false;
		}
		c->initdb_s = now_seconds() - t0;
	}
	/* The port is rewritten at every start; settings stay. */
	return append_to_file(psprintf("%s/postgresql.conf", c->datadir), config_lines(c), error);
}

/*
 * A variant on another's server, after that one's cluster_prepare(): the
 * host's fields are copied for readers (bindir, logfile, managed); what
 * changes with the server's state is asked of the host itself.
 */
void
cluster_prepare_shared(Cluster *c, const VariantSpec *v, Cluster *host)
{
	*c = *host;
	c->variant = v;
	c->host = host;
	c->initdb_s = c->start_s = 0;
}

/* The Cluster that owns the server c connects to. */
Cluster *
cluster_server(Cluster *c)
{
	return c->host ? c->host : c;
}

/* Rewrite the lines that change with every start (socket dir, port). */
static bool
write_start_settings(const Cluster *c, char **error)
{
	char	   *path = psprintf("%s/postgresql.pgbench_ext_start.conf", c->datadir);
	FILE	   *f = fopen(path, "w");
	char	   *include = psprintf("%s/postgresql.conf", c->datadir);
	char	   *tail;

	if (f == NULL)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		return false;
	}
	fprintf(f, "unix_socket_directories = '%s'\nport = %d\n", c->sockdir, c->port);
	fclose(f);
	if (!give_to_server_account(path, error))
		return false;
	tail = tail_of_file(include, 1);
	if (strstr(tail, "postgresql.pgbench_ext_start.conf") == NULL)
		return append_to_file(include, "include_if_exists 'postgresql.pgbench_ext_start.conf'\n", error);
	return true;
}

/*
 * Variants with layout seeds also vary the environment's size at every
 * start: it shifts the initial stack, another layout accident that one
 * fixed value would bake into every run of a build.
 */
static void
randomize_environment_size(Cluster *c)
{
	static bool seeded = false;
	int			pad;
	char	   *ignored;

	if (c->variant->layout_seed == 0)
		return;
	if (!seeded)
	{
		srandom((unsigned int) (getpid() ^ (long) (now_seconds() * 1e6)));
		seeded = true;
	}
	pad = (int) (random() % 4096);
	setenv("PGBENCH_EXT_ENV_PAD", psprintf("%*s", pad, ""), 1);
	append_to_file(psprintf("%s/pg_ctl.log", c->dir),
				   psprintf("environment padding: %d bytes\n", pad), &ignored);
}

bool
cluster_start(Cluster *c, char **error)
{
	char	   *pg_ctl;
	double		t0 = now_seconds();

	if (c->host)
		return cluster_start(c->host, error);
	if (!c->managed || c->running)
		return true;
	if (!write_start_settings(c, error))
		return false;
	randomize_environment_size(c);
	pg_ctl = psprintf("%s/pg_ctl", c->bindir);
	if (c->under_valgrind)
	{
		if (!profile_counted_start_server(c, error))
			return false;
	}
	else
	{
		char	   *argv[] = {pg_ctl, "-D", c->datadir, "-l", c->logfile, "-w", "-t", "120", "start", NULL};
		char	   *ctl_log = psprintf("%s/pg_ctl.log", c->dir);

		if (run_logged(argv, true, ctl_log) != 0)
		{
			*error = psprintf("the server of variant \"%s\" did not start; its log (%s) ends with:\n%s",
							  c->variant->name, c->logfile, tail_of_file(c->logfile, 8));
			return false;
		}
	}
	c->running = true;
	c->start_s = now_seconds() - t0;
	unregister(c);				/* a restart after a crash: registered once */
	if (nstarted < MAX_CLUSTERS)
		started[nstarted++] = c;
	return true;
}

static void
unregister(Cluster *c)
{
	for (int i = 0; i < nstarted; i++)
		if (started[i] == c)
			started[i--] = started[--nstarted];
}

void
cluster_stop(Cluster *c)
{
	unregister(c);
	/* the host's own registration stops it */
	if (c->host || !c->managed || !c->running)
		return;
	{
		char	   *pg_ctl = psprintf("%s/pg_ctl", c->bindir);
		char	   *argv[] = {pg_ctl, "-D", c->datadir, "-m", "fast", "-w", "-t", "60", "stop", NULL};

		run_logged(argv, true, psprintf("%s/pg_ctl.log", c->dir));
	}
	c->running = false;
}

/*
 * Whether the postmaster is still there to serve.  Its pid file and pid
 * outlive a SIGKILL for a while (a zombie until reaped), but its socket
 * does not: ask the socket.
 */
bool
cluster_alive(const Cluster *c)
{
	char	   *conninfo = cluster_conninfo(c, "postgres");
	PGPing		ping = PQping(conninfo);

	pg_free(conninfo);
	return ping == PQPING_OK || ping == PQPING_REJECT;
}

/*
 * After a crash: wait (bounded) until the dead postmaster's pid is gone,
 * reaping it if it was ours, so that a restart is not refused by the lock
 * file.  False if it is still there after ten seconds.
 */
bool
cluster_wait_for_exit(const Cluster *c)
{
	char	   *pidfile = psprintf("%s/postmaster.pid", c->datadir);

	for (int i = 0; i < 200; i++)
	{
		FILE	   *f;
		long		pid = 0;

		reap_exited_children();
		if ((f = fopen(pidfile, "r")) == NULL)
			return true;
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
		if (pid <= 0 || kill((pid_t) pid, 0) != 0)
			return true;
		pg_usleep(50000);
	}
	return false;
}

/* For atexit() and signal paths: stop whatever is still running. */
void
cluster_stop_all(void)
{
	while (nstarted > 0)
		cluster_stop(started[nstarted - 1]);
}

/*
 * The variant's session_set settings as a libpq options value: "-c
 * name=value" each, a backslash before spaces and backslashes inside one
 * (as the server splits options), then quoted for a conninfo string.
 */
static char *
session_options(const VariantSpec *v)
{
	PQExpBufferData opts;
	PQExpBufferData quoted;

	if (v->nsession_settings == 0)
		return pg_strdup("");
	initPQExpBuffer(&opts);
	for (int i = 0; i < v->nsession_settings; i++)
	{
		appendPQExpBufferStr(&opts, i ? " -c " : "-c ");
		for (const char *p = v->session_settings[i]; *p; p++)
		{
			if (*p == ' ' || *p == '\\')
				appendPQExpBufferChar(&opts, '\\');
			appendPQExpBufferChar(&opts, *p);
		}
	}
	initPQExpBuffer(&quoted);
	appendPQExpBufferStr(&quoted, " options='");
	for (const char *p = opts.data; *p; p++)
	{
		if (*p == '\'' || *p == '\\')
			appendPQExpBufferChar(&quoted, '\\');
		appendPQExpBufferChar(&quoted, *p);
	}
	appendPQExpBufferChar(&quoted, '\'');
	termPQExpBuffer(&opts);
	return quoted.data;
}

char *
cluster_conninfo(const Cluster *c, const char *dbname)
{
	const Cluster *server = c->host ? c->host : c;
	char	   *options = session_options(c->variant);

	if (!server->managed)
		return dbname
			? psprintf("%s dbname=%s%s", server->variant->conninfo, dbname, options)
			: psprintf("%s%s", server->variant->conninfo, options);
	return psprintf("host=%s port=%d user=postgres dbname=%s%s",
					server->sockdir, server->port, dbname ? dbname : "postgres", options);
}
