/*-------------------------------------------------------------------------
 *
 * cluster.c
 *		Managed clusters: initdb, configuration, start and stop.
 *
 * A managed cluster lives in the results directory: clusters/NAME is ours
 * (the user running pgbench_ext) and holds the logs, the configuration we
 * write and server.log; only clusters/NAME/data belongs to the server
 * account.  So what we write as root never lies in a directory the server
 * (or code it runs) can write, except the two configuration files of data/
 * that the server reads, written afresh right after initdb or the copy of
 * an initdb cache entry (cluster_conf.c); and every file is opened without
 * following links (safe_file.c) all the same.
 *
 * The cluster is private: it listens on no TCP address (so says its
 * command line, which no configuration file overrides), only on a socket
 * in a 0700 directory of the server account, and its pg_hba.conf (ours,
 * named by hba_file) has one line, trust on that socket.  Its configuration,
 * rewritten at every start (the socket directory and port change), carries
 * the variant's settings as settings.c checked and quotes them, and preloads
 * pgbench_ext unless the variant says extension = off.  Every cluster
 * started is registered, so that every exit path — normal, error, a signal
 * — stops it; a postmaster left running by a client that was killed is
 * found by its postmaster.pid when the experiment is resumed, and stopped.
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
#include "cluster_conf.h"
#include "cluster_pid.h"
#include "hugepages.h"
#include "safe_file.h"
#include "initdb_args.h"
#include "initdb_cache.h"
#include "template_cache.h"
#include "quiet.h"
#include "settings.h"
#include "subprocess.h"
#include "pqexpbuffer.h"
#include "procfs.h"
#include "progress.h"
#include "safe_read.h"

#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_CLUSTERS MAX_VARIANTS

/* In clusters/NAME, beside data/: read by the server, written by us. */
#define SERVER_CONF		CLUSTER_SERVER_CONF
#define SERVER_HBA		"pg_hba.conf"
#define SERVER_IDENT	"pg_ident.conf"
#define SOCKET_DIR_PREFIX "/tmp/pgbench_ext."

static Cluster *started[MAX_CLUSTERS];
static int	nstarted;
static int	nprepared;

static pid_t starter;			/* the process that started them */

static void unregister(Cluster *c);
static void stop_all_at_exit(void);

/* A log of the cluster's directory, opened to append, or -1 with error. */
static int
open_cluster_log(const Cluster *c, const char *log, char **error)
{
	return safe_open_file(psprintf("%s/%s", c->dir, log), SAFE_APPEND | c->dir_how, error);
}

/*
 * Run a server program (initdb, pg_ctl) as the server account, its output
 * appended to LOG in the cluster's directory.  Returns its exit status, or
 * -1 with error when it could not run.
 */
static int
run_server_program(const Cluster *c, char *const argv[], const char *log, char **error)
{
	char	   *path = psprintf("%s/%s", c->dir, log);
	int			fd = open_cluster_log(c, log, error);
	int			rc;

	if (fd < 0)
		return -1;
	rc = run_logged_fd(argv, true, fd);
	close(fd);
	if (rc < 0)
		*error = psprintf("could not run \"%s\" (its log: %s)", argv[0], path);
	return rc;
}

/*
 * pg_ctl stop, and then the postmaster's end.  pg_ctl returns once
 * postmaster.pid is gone, but the postmaster unlinks it on its way out,
 * still running for a moment after; on a busy host that moment is long
 * enough for whoever comes next (a new start's shared memory check, a
 * look for what a stopped experiment left) to find it.
 */
static int
pg_ctl_stop(const Cluster *c, char **error)
{
	char	   *pg_ctl = psprintf("%s/pg_ctl", c->bindir);
	char	   *argv[] = {pg_ctl, "-D", c->datadir, "-m", "fast", "-w", "-t", "60", "stop", NULL};
	long		pid = read_postmaster_pid(c, NULL);
	int			rc = run_server_program(c, argv, "pg_ctl.log", error);

	if (rc == 0 && pid > 0 && !wait_for_process_end((pid_t) pid, 10.0))
	{
		*error = psprintf("the server of variant \"%s\" (pid %ld) removed its postmaster.pid but was still running 10 s later",
						  c->variant->name, pid);
		return -1;
	}
	return rc;
}

/*
 * A socket directory of ours, once its server is gone.  Its path may come
 * from a postmaster.pid (written by the server account), so only a
 * directory named as we name them is removed, and only when empty.
 */
static void
remove_socket_dir(const char *path)
{
	struct stat st;

	if (path != NULL && strncmp(path, SOCKET_DIR_PREFIX, strlen(SOCKET_DIR_PREFIX)) == 0 &&
		strchr(path + strlen(SOCKET_DIR_PREFIX), '/') == NULL &&
		lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
		(void) rmdir(path);
}

pid_t
cluster_postmaster_pid(const Cluster *c)
{
	const Cluster *server = c->host ? c->host : c;

	return server->managed && server->running ? (pid_t) read_postmaster_pid(server, NULL) : 0;
}

/*
 * After the client was killed (SIGKILL, a crash), its postmasters live on
 * and pg_ctl start would refuse their postmaster.pid.  A resumed
 * experiment stops such a server (one start is one sample: it starts
 * afresh), after making sure the pid is really that cluster's postmaster;
 * a pid that is not is left alone, for the server's own lock-file check to
 * judge.
 */
static bool
stop_left_over_server(Cluster *c, char **error)
{
	char	   *sockdir = NULL;
	long		pid = read_postmaster_pid(c, &sockdir);

	*error = NULL;
	if (!is_postmaster_of(c, pid))
		return true;
	printf("variant %s: stopping its server (pid %ld), left running by a %s that ended without stopping it\n",
		   c->variant->name, pid, progname);
	fflush(stdout);
	if (pg_ctl_stop(c, error) != 0)
		return fail_with(error, "could not stop the server of variant \"%s\" (pid %ld) left running in \"%s\"; pg_ctl's output: %s/pg_ctl.log",
						 c->variant->name, pid, c->datadir, c->dir);
	remove_socket_dir(sockdir);
	return true;
}

/*
 * The cluster's configuration, written at every start: its private
 * address, its pg_hba.conf, then the variant's settings.
 */
static bool
write_server_conf(const Cluster *c, char **error)
{
	char	   *absdir = make_absolute_path(c->dir);
	char	   *conf;
	bool		ok;

	if (absdir == NULL)
		return fail_with(error, "could not resolve the path \"%s\": %m", c->dir);
	conf = psprintf("# written by %s at every start of the server of variant %s\n"
					"listen_addresses = ''\n"
					"port = %d\n"
					"unix_socket_directories = %s\n"
					"hba_file = %s\n"
					"ident_file = %s\n"
					"%s%s",
					progname, c->variant->name, c->port, setting_quote(c->sockdir),
					setting_quote(psprintf("%s/%s", absdir, SERVER_HBA)),
					setting_quote(psprintf("%s/%s", absdir, SERVER_IDENT)),
					settings_conf_lines(c->variant),
					c->huge_pages == HUGE_PAGES_SERVER ? "" :
					psprintf("huge_pages = %s\n", quiet_huge_pages_name(c->huge_pages)));
	ok = safe_write_file(psprintf("%s/%s", c->dir, SERVER_HBA),
						 "# written by pgbench_ext: the server's private socket only, nothing over TCP\n"
						 "local all all trust\n", c->dir_how, error) &&
		safe_write_file(psprintf("%s/%s", c->dir, SERVER_IDENT),
						"# written by pgbench_ext: no user name maps\n", c->dir_how, error) &&
		safe_write_file(psprintf("%s/%s", c->dir, SERVER_CONF), conf, c->dir_how, error);
	free(absdir);
	return ok;
}

/*
 * A resumed experiment's cluster: our directory as we left it, and no
 * server of an earlier client still running in it.
 */
static bool
prepare_existing(Cluster *c, const char *results_dir, char **error)
{
	return safe_check_private_dir(psprintf("%s/clusters", results_dir), error) &&
		safe_check_private_dir(c->dir, error) &&
		stop_left_over_server(c, error) &&
		cluster_conf_own(c, error);
}

/*
 * A cluster of the initdb entry's kind, its template to be as wish says:
 * the template cache's entry of that kind when one is kept
 * (c->template_entry, to copy), else where to keep one once its template
 * is ready (c->template_store).  No wish, or no key to be had: neither.
 * False only when the entry is refused.
 */
static bool
find_filled_template(Cluster *c, const TemplateWish *wish, const char *initdb_entry,
					 const char *initdb_key, char **error)
{
	char	   *key_text;
	char	   *entry;

	if (wish == NULL ||
		(entry = template_cache_entry(initdb_entry, initdb_key, c->variant, c->bindir,
									  wish->scale, wish->unlogged, &key_text)) == NULL)
		return true;
	switch (template_cache_find(entry, error))
	{
		case ENTRY_FINISHED:
			c->template_entry = entry;
			return true;
		case ENTRY_REFUSED:
			return false;
		default:
			c->template_store = entry;
			c->template_key = key_text;
			return true;
	}
}

/* The data directory copied from a cache's entry, the copy logged in initdb.log. */
static bool
copy_cache_entry(Cluster *c, const char *entry, char **error)
{
	int			log_fd;
	bool		ok;

	if ((log_fd = open_cluster_log(c, "initdb.log", error)) < 0)
		return false;
	ok = initdb_cache_copy(entry, c->datadir, log_fd, error);
	close(log_fd);
	if (!ok)
		*error = psprintf("variant \"%s\": could not copy the data directory of %s: %s (its log: %s/initdb.log)",
						  c->variant->name, entry, *error, c->dir);
	return ok;
}

static bool
run_initdb(Cluster *c, const TemplateWish *wish, char **error)
{
	const VariantSpec *v = c->variant;
	char	   *argv[32];
	int			argc = 0;
	double		t0 = now_seconds();
	int			rc;
	char	   *entry;
	char	   *key_text;
	char	   *values;
	int			log_fd;
	bool		ok;

	argv[argc++] = psprintf("%s/initdb", c->bindir);
	argv[argc++] = "-D";
	argv[argc++] = c->datadir;
	argv[argc++] = "-U";
	argv[argc++] = "postgres";
	/* hba_file points elsewhere; this pg_hba.conf refuses TCP all the same */
	argv[argc++] = "--auth-local=trust";
	argv[argc++] = "--auth-host=reject";
	argv[argc++] = "--no-sync";
	if (v->initdb_args)
	{
		/* the words initdb_args_check() passed */
		argc += initdb_args_words(v->initdb_args, argv + argc, 30 - argc);
	}
	argv[argc] = NULL;

	switch (initdb_cache_lookup(c->bindir, argv, &entry, &key_text, &c->initdb_values, error))
	{
		case TEMPLATE_REFUSED:
			return false;
		case TEMPLATE_FOUND:
			/* a filled template descends from the entry: initdb's values are its */
			c->initdb_template = entry;
			if (!find_filled_template(c, wish, entry, key_text, error))
				return false;
			ok = copy_cache_entry(c, c->template_entry ? c->template_entry : entry, error);
			c->initdb_s = now_seconds() - t0;
			return ok;
		case TEMPLATE_NONE:
		case TEMPLATE_MISSING:
			break;
	}
	if ((rc = run_server_program(c, argv, "initdb.log", error)) != 0)
	{
		if (rc > 0)
			*error = psprintf("initdb failed for variant \"%s\"; its output (%s/initdb.log):\n%s",
							  v->name, c->dir, tail_of_file(psprintf("%s/initdb.log", c->dir), 15));
		return false;
	}
	c->initdb_s = now_seconds() - t0;
	if (entry && (log_fd = open_cluster_log(c, "initdb.log", error)) >= 0)
	{
		initdb_cache_store(entry, key_text, c->datadir, log_fd);
		close(log_fd);
	}
	if (entry && (values = cluster_conf_initdb_values(c, error)) == NULL)
		return false;
	if (entry)
		initdb_cache_record_values(entry, values);
	/* initdb ran: its template is filled here, and kept if none is */
	if (entry && !find_filled_template(c, wish, entry, key_text, error))
		return false;
	c->template_entry = NULL;
	return true;
}

/*
 * The first cluster of its kind in the template cache, its template
 * ready and no run made yet: stopped cleanly, its data directory kept,
 * and started again (a restart paid once per kind).  The start before
 * served the set-up alone, which no run saw: the restart is the set-up's
 * start, its instance and stop time those before it (run/setup.c records
 * it then).  Nothing is kept unless the stop was clean.
 */
bool
cluster_keep_template(Cluster *c, char **error)
{
	int			instance = c->instance;
	double		stop_s = c->stop_s;
	int			log_fd;

	if (c->template_store == NULL || c->host || !c->managed || !c->running)
		return true;
	cluster_stop(c);
	if (read_postmaster_pid(c, NULL) <= 0 &&
		(log_fd = open_cluster_log(c, "initdb.log", error)) >= 0)
	{
		template_cache_store(c->template_store, c->template_key, c->datadir, log_fd);
		close(log_fd);
	}
	c->template_store = NULL;
	if (!cluster_start(c, error))
		return false;
	c->instance = instance;
	c->stop_s = stop_s;
	return true;
}

/* Whether dir belongs to the server account, which we are not. */
static bool
dir_of_server_account(const char *dir)
{
	const struct passwd *pw;
	struct stat st;
	char	   *ignored;

	return need_server_account() && stat(dir, &st) == 0 &&
		(pw = server_account(&ignored)) != NULL && st.st_uid == pw->pw_uid;
}

/*
 * Set up the variant's server: for a managed variant run initdb (unless a
 * resumed experiment already has the cluster) and include our
 * configuration from its postgresql.conf.  wish, when given, lets a copy
 * of the template cache's entry stand for initdb and pgbench -i.
 */
bool
cluster_prepare(Cluster *c, const VariantSpec *v, const char *results_dir, const char *dirname,
				const TemplateWish *wish, char **error)
{
	struct stat st;

	memset(c, 0, sizeof(*c));
	c->variant = v;
	c->managed = (v->bindir != NULL);
	/* a conninfo variant still needs a pgbench: the one we were built with */
	c->bindir = pg_strdup(v->bindir ? v->bindir : PGBENCH_EXT_PG_BINDIR);
	if (!c->managed)
		return true;

	c->stop_s = NAN;
	c->huge_pages_need = -1;
	/* one binary of a build seed is one draw of layout: its stack is drawn too */
	c->pad_environment = v->build_seed > 0;
	c->dir = psprintf("%s/clusters/%s", results_dir, dirname ? dirname : v->name);
	/*
	 * A cluster below a directory of the server account (the PGO training
	 * cluster, in a build of the build cache) has its directories made by
	 * that account; everywhere else they must be ours.
	 */
	c->dir_how = dir_of_server_account(results_dir) ? SAFE_SERVER_DIR : 0;
	c->datadir = psprintf("%s/data", c->dir);
	c->logfile = psprintf("%s/server.log", c->dir);
	/*
	 * Behind a private socket directory any port is free; distinct ports
	 * still keep the servers' SysV shared memory keys apart.
	 */
	c->port = 20000 + (int) (getpid() % 2000) * 16 + nprepared++ % 16;

	/* a variant built from source has its installation only now */
	if (!settings_check_libraries(v, c->bindir, error))
		return false;
	if (stat(psprintf("%s/PG_VERSION", c->datadir), &st) == 0)
		return prepare_existing(c, results_dir, error);

	/*
	 * Ours, readable by the server account, writable by nobody else whatever
	 * the umask (a link planted as clusters/ or clusters/NAME is refused);
	 * data/ is made afresh and given to the server account.
	 */
	if (!safe_mkdir(psprintf("%s/clusters", results_dir), 0755, c->dir_how, error) ||
		!safe_mkdir(c->dir, 0755, c->dir_how, error))
		return false;
	if (lstat(c->datadir, &st) == 0)
		return fail_with(error, "\"%s\" exists but holds no cluster: refusing to use it\n"
						 "hint: Remove it; %s makes the data directory itself.", c->datadir, progname);
	if (!safe_mkdir(c->datadir, 0700, SAFE_GIVE, error))
		return false;
	/* server.log is written by the server, in our directory */
	return safe_write_file(c->logfile, "", SAFE_APPEND | c->dir_how, error) &&
		safe_give_to_server_account(c->logfile, error) &&
		run_initdb(c, wish, error) &&
		cluster_conf_own(c, error);
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

/*
 * Variants with build seeds, and every server that is restarted during
 * the experiment, also vary the environment's size at every start: it
 * shifts the initial stack, another layout accident that one fixed value
 * would bake into every instance (pad_environment: cluster_prepare() sets
 * it for a build seed, the runner for restarts, and a counted server has
 * it cleared, valgrind_server_use()).
 */
static bool
randomize_environment_size(Cluster *c, char **error)
{
	static bool seeded = false;
	int			pad;

	c->env_pad = 0;
	if (!c->pad_environment)
	{
		unsetenv("PGBENCH_EXT_ENV_PAD");
		return true;
	}
	if (!seeded)
	{
		srandom((unsigned int) (getpid() ^ (long) (now_seconds() * 1e6)));
		seeded = true;
	}
	pad = (int) (random() % 4096);
	c->env_pad = pad;
	setenv("PGBENCH_EXT_ENV_PAD", psprintf("%*s", pad, ""), 1);
	return safe_write_file(psprintf("%s/pg_ctl.log", c->dir),
						   psprintf("environment padding: %d bytes\n", pad), SAFE_APPEND | c->dir_how, error);
}

/* A new private socket directory: 0700, the server account's. */
static bool
make_socket_dir(Cluster *c, char **error)
{
	if ((c->sockdir = safe_mkdtemp(SOCKET_DIR_PREFIX, error)) == NULL)
		return false;
	return safe_give_to_server_account(c->sockdir, error);
}

/*
 * huge_pages = on: the pages its shared memory needs, free for it to map.
 * Asked of its postgres once, before its first start (the server must be
 * stopped to say): the settings that size it do not change in between.
 */
static bool
provide_huge_pages(Cluster *c, char **error)
{
	if (c->huge_pages != HUGE_PAGES_ON)
		return true;
	if (c->huge_pages_need < 0 &&
		(c->huge_pages_need = hugepages_needed(c->bindir, c->datadir, c->variant->name, error)) < 0)
		return false;
	return hugepages_provide(c->huge_pages_need, c->variant->name, error);
}

/* pg_ctl start, or the start_server of whoever runs it otherwise */
static bool
start_postmaster(Cluster *c, char **error)
{
	char	   *argv[] = {psprintf("%s/pg_ctl", c->bindir), "-D", c->datadir, "-l", c->logfile,
		"-o", "-c " CLUSTER_NO_TCP "''", "-w", "-t", "120", "start", NULL};
	int			rc;

	if (c->start_server)
		return c->start_server(c, error);
	rc = run_server_program(c, argv, "pg_ctl.log", error);
	if (rc > 0)
		*error = psprintf("the server of variant \"%s\" did not start; its log (%s) ends with:\n%s",
						  c->variant->name, c->logfile, tail_of_file(c->logfile, 8));
	return rc == 0;
}

/* The start itself, with the huge pages and the ASLR it is to have */
static bool
start_quieted(Cluster *c, char **error)
{
	int			persona = 0;
	bool		started_ok;

	if (!provide_huge_pages(c, error) ||
		(c->aslr_off && !quiet_aslr_off_begin(&persona, error)))
		return false;
	started_ok = start_postmaster(c, error);
	if (c->aslr_off)
		quiet_aslr_off_end(persona);
	return started_ok;
}

bool
cluster_start(Cluster *c, char **error)
{
	double		t0 = now_seconds();
	bool		started_ok;

	if (c->host)
		return cluster_start(c->host, error);
	if (!c->managed || c->running)
		return true;
	if (c->sockdir == NULL && !make_socket_dir(c, error))
		return false;
	/*
	 * Huge pages made free for it can be taken by another server of the
	 * host (huge_pages = try, PostgreSQL's default) before it maps them:
	 * then once more.
	 */
	started_ok = write_server_conf(c, error) &&
		randomize_environment_size(c, error) &&
		(start_quieted(c, error) ||
		 (c->huge_pages == HUGE_PAGES_ON && c->huge_pages_need > 0 &&
		  hugepages_taken(c->huge_pages_need) && start_quieted(c, error)));
	if (!started_ok)
	{
		/* a server refused at start (a bad setting) left no socket in it */
		remove_socket_dir(c->sockdir);
		c->sockdir = NULL;
		return false;
	}
	c->running = true;
	c->instance++;
	c->start_s = now_seconds() - t0;
	remember_postmaster(c);
	unregister(c);				/* a restart after a crash: registered once */
	if (nstarted < MAX_CLUSTERS)
		started[nstarted++] = c;
	stop_all_at_exit();
	return true;
}

static void
stop_all_at_exit_handler(void)
{
	cluster_stop_all();
}

/*
 * Whatever ends the process after a start — an error deep down (pg_fatal,
 * a refusal of the write path), a usage error — stops the servers it
 * started: registered at the first start, in the process that made it.
 */
static void
stop_all_at_exit(void)
{
	if (starter == 0)
	{
		starter = getpid();
		atexit(stop_all_at_exit_handler);
	}
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
	char	   *error = NULL;
	double		t0;

	unregister(c);
	/* the host's own registration stops it */
	if (c->host || !c->managed || !c->running)
		return;
	t0 = now_seconds();
	if (pg_ctl_stop(c, &error) == 0)
	{
		remove_socket_dir(c->sockdir);
		c->sockdir = NULL;
	}
	else if (stop_postmaster_by_signal(c))
		log_warning_text(psprintf("variant \"%s\": pg_ctl could not stop its server (%s): stopped its postmaster (pid %ld) by a signal",
												 c->variant->name, error ? error : "its exit status was not 0",
												 (long) c->postmaster));
	c->stop_s = now_seconds() - t0;
	c->running = false;
	c->postmaster = 0;
}

/*
 * Whether the postmaster is still there to serve, asked of the kernel and
 * not of the server: a connection would start a backend at every check,
 * and under valgrind that costs a second of CPU before and after every
 * run.  A postmaster killed outright leaves its pid file, and its pid as a
 * zombie until reaped: /proc tells the zombie apart.  Where /proc cannot
 * tell (no entry: gone, or hidden; no /proc at all), the socket is asked,
 * which starts no backend when nothing listens.
 */
bool
cluster_alive(const Cluster *c)
{
	const Cluster *server = c->host ? c->host : c;
	long		pid = read_postmaster_pid(server, NULL);
	char		state;
	pid_t		parent;
	char	   *conninfo;
	PGPing		ping;

	if (pid <= 0)
		return false;
	if (procfs_stat((pid_t) pid, &state, &parent))
		return state != 'Z' && state != 'X';
	conninfo = cluster_conninfo(c, "postgres");
	ping = PQping(conninfo);
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
	long		pid = read_postmaster_pid(c, NULL);

	return pid <= 0 || wait_for_process_end((pid_t) pid, 10.0);
}

/* For atexit() and signal paths: stop whatever is still running. */
void
cluster_stop_all(void)
{
	/* a child forked after a start has exit paths of its own, not these */
	if (nstarted > 0 && getpid() != starter)
		return;
	while (nstarted > 0)
		cluster_stop(started[nstarted - 1]);
	hugepages_give_back();
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
