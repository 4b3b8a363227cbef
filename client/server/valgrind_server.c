/*-------------------------------------------------------------------------
 *
 * valgrind_server.c
 *		A managed server whose postmaster runs under valgrind's callgrind
 *		for counted profiles (profile_counted.c): its start, the processes
 *		it runs beside its backends, and waiting until the backends that
 *		exited have written their files.
 *
 * Every process the postmaster forks is profiled too and writes its own
 * file (callgrind.out.PID[.PART] in clusters/NN/callgrind) when it
 * dumps or exits; the options below choose what is counted, and
 * profile_counted.c reads the files of each run.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cluster_conf.h"
#include "procfs.h"
#include "profile_spec.h"
#include "safe_file.h"
#include "safe_read.h"
#include "settings.h"
#include "subprocess.h"
#include "valgrind_server.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define START_TIMEOUT_S		600		/* a start under valgrind takes ~10 s */
#define SETTLE_TIMEOUT_S	300		/* backends exiting under valgrind */
#define SETTLE_POLL_MS		20		/* /proc, while a run's backends exit */
#define SETTLE_PROC_ONLY_S	2.0		/* then pg_stat_activity too, */
#define SETTLE_ASK_EVERY_S	1.0		/* at most this often */
#define MAX_OWN				32

/* What a server under valgrind runs beside its backends. */
typedef struct ValgrindServer
{
	const Cluster *cluster;
	pid_t		postmaster;
	pid_t		own[MAX_OWN];	/* its children once started, listed or not */
	int			nown;
	bool		cache_sim;		/* --cache-sim=yes */
} ValgrindServer;

static ValgrindServer servers[MAX_VARIANTS];
static int	nservers;

/* where the server's processes write their callgrind files */
char *
valgrind_callgrind_dir(const Cluster *server)
{
	return psprintf("%s/callgrind", server->dir);
}

/* c's entry, or NULL */
static ValgrindServer *
find_server(const Cluster *c)
{
	for (int i = 0; i < nservers; i++)
		if (servers[i].cluster == c)
			return &servers[i];
	return NULL;
}

/* c's entry, made where missing; NULL when there is no room */
static ValgrindServer *
valgrind_server(const Cluster *c)
{
	if (find_server(c) != NULL)
		return find_server(c);
	if (nservers == MAX_VARIANTS)
		return NULL;
	memset(&servers[nservers], 0, sizeof(ValgrindServer));
	servers[nservers].cluster = c;
	return &servers[nservers++];
}

/* ---- processes ---- */

/* Server processes pg_stat_activity knows; -1 if the query fails. */
static int
listed_pids(PGconn *conn, pid_t *out, int max)
{
	PGresult   *res = PQexec(conn, "SELECT pid FROM pg_catalog.pg_stat_activity");
	int			n = -1;

	if (PQresultStatus(res) == PGRES_TUPLES_OK)
		for (n = 0; n < PQntuples(res) && n < max; n++)
			out[n] = (pid_t) atol(PQgetvalue(res, n, 0));
	PQclear(res);
	return n;
}

static bool
pid_in(pid_t pid, const pid_t *set, int n)
{
	for (int i = 0; i < n; i++)
		if (set[i] == pid)
			return true;
	return false;
}

/* Whether each of children is one of the server's own processes or in set. */
static bool
children_known(const ValgrindServer *vg, const pid_t *children, int nc, const pid_t *set, int n)
{
	for (int i = 0; i < nc; i++)
		if (!pid_in(children[i], vg->own, vg->nown) && !pid_in(children[i], set, n))
			return false;
	return nc >= 0;
}

/*
 * Wait until every child of the postmaster is a process the server lists,
 * or one of its own (there since it started): no exited backend is left
 * writing its file.  /proc is watched first, every SETTLE_POLL_MS, for
 * the run's backends to be gone, leaving the server's own processes and
 * conn's backend (which the server lists); only a child that stays (an
 * autovacuum worker, another session) is asked of pg_stat_activity, whose
 * every statement a backend under valgrind runs tens of times slower (and
 * dumps a part for): once a second at most, /proc watched in between,
 * since a run's backends exiting under valgrind on a loaded host can take
 * seconds, and asking every tenth of a second kept the runner's backend
 * busy the whole time.
 */
static bool
wait_settled(ValgrindServer *vg, PGconn *conn, char **problem)
{
	double		deadline = now_seconds() + SETTLE_TIMEOUT_S;
	double		ask_after = now_seconds() + SETTLE_PROC_ONLY_S;
	pid_t		mine = (pid_t) PQbackendPID(conn);

	for (;;)
	{
		pid_t		children[1024];
		pid_t		listed[1024];
		int			nc = procfs_children(vg->postmaster, children, lengthof(children));
		int			nl;

		if (mine != 0 && children_known(vg, children, nc, &mine, 1))
			return true;
		if (now_seconds() < ask_after)
		{
			pg_usleep(SETTLE_POLL_MS * 1000L);
			continue;
		}
		ask_after = now_seconds() + SETTLE_ASK_EVERY_S;
		nl = listed_pids(conn, listed, lengthof(listed));
		if (nl >= 0 && children_known(vg, children, nc, listed, nl))
			return true;
		if (nl < 0 || now_seconds() > deadline)
		{
			*problem = nl < 0
				? psprintf("could not list the server's processes: %s", PQerrorMessage(conn))
				: psprintf("the server's exiting processes did not finish within %d s", SETTLE_TIMEOUT_S);
			return false;
		}
	}
}

/* ---- the server under valgrind ---- */

/*
 * Whether the postmaster says in its postmaster.pid that it accepts
 * connections (its eighth line, "ready", as pg_ctl waits for it).  Until
 * then every connection tried is a process forked under valgrind only to
 * be refused ("the database system is starting up"), a third of a second
 * of CPU each.
 */
static bool
says_ready(const Cluster *c)
{
	FILE	   *f = safe_fopen_read_optional(psprintf("%s/postmaster.pid", c->datadir), SAFE_MAX_LOG);
	char		line[MAXPGPATH];
	int			n = 0;

	if (f == NULL)
		return false;
	while (n < 8 && fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n == 8 && strncmp(line, "ready", 5) == 0;
}

/*
 * What runs beside backends: the background processes of the postmaster
 * pid, listed in pg_stat_activity or not (13, 14: the stats collector is
 * not), but not the connection's own backend, which started them waiting.
 */
static void
note_own_processes(ValgrindServer *vg, pid_t pid, int own_backend, double deadline)
{
	pid_t		children[1024];
	int			nc,
				stable = 0,
				last = -1;

	vg->nown = 0;
	/* background processes start over the first seconds */
	while (stable < 10 && now_seconds() < deadline)
	{
		nc = procfs_children(pid, children, lengthof(children));
		stable = nc == last ? stable + 1 : 0;
		last = nc;
		pg_usleep(200000);
	}
	nc = procfs_children(pid, children, lengthof(children));
	for (int i = 0; i < nc && vg->nown < MAX_OWN; i++)
		if (children[i] != (pid_t) own_backend)
			vg->own[vg->nown++] = children[i];
}

/*
 * Where counting turns on and off (callgrind's --toggle-collect): argv's
 * options from argc on; returns the new argc.
 */
static int
add_toggles(char **argv, int argc)
{
	argv[argc++] = "--toggle-collect=PostgresMain";
	argv[argc++] = "--toggle-collect=InitPostgres";
	argv[argc++] = "--toggle-collect=proc_exit";
	/*
	 * Time, not work: waiting for the client's next command, flushing
	 * statistics (at most once a second), and pgbench_ext's own counters at
	 * commit (xact_end), which read the CPU time every so many
	 * milliseconds.  Its injected delays, which calibrations count, stay.
	 */
	argv[argc++] = "--toggle-collect=secure_read";
	argv[argc++] = "--toggle-collect=pgstat_report_stat";
	argv[argc++] = "--toggle-collect=xact_end";
	/*
	 * And its counters at each statement's end, whose branches follow the
	 * statement's duration (a new longest one: one instruction more).
	 */
	argv[argc++] = "--toggle-collect=statement_ended";

	/*
	 * The pending statistics entries of relations a flush removed, made
	 * again by the next transaction that touches each: once per flush, so
	 * once a second rather than once per transaction (a window of 35
	 * transactions took in one flush more or fewer, 24 instructions per
	 * transaction, 0.024%).  Not pgstat_prep_pending_entry(), which the
	 * flush itself calls for the database's entry: a toggle inside a
	 * toggled function turns counting back on.
	 */
	argv[argc++] = "--toggle-collect=pgstat_assoc_relation";
	/*
	 * With it, the timer the next flush is due by (enable_timeout_after(),
	 * IDLE_STATS_UPDATE_TIMEOUT, set once per flush: 7 instructions per
	 * transaction in a window of 35).  Time-outs set by statement_timeout,
	 * lock_timeout and the like are left out with it.
	 */
	argv[argc++] = "--toggle-collect=enable_timeout_after";
	/*
	 * And the same timer taken down once a flush has sent everything
	 * (disable_timeout(), its alarm set again): once per flush too, and
	 * 1.8 of the 2.5 instructions per transaction that a flush still added
	 * to a window of 35 transactions.
	 */
	argv[argc++] = "--toggle-collect=disable_timeout";
	/* other processes' work: the invalidations they sent, when they arrive */
	argv[argc++] = "--toggle-collect=ReceiveSharedInvalidMessages";
	return argc;
}

/*
 * Start c's postmaster under callgrind (cluster_start calls this as the
 * cluster's start_server) and wait until it accepts connections.
 */
static bool
start_under_valgrind(Cluster *c, char **error)
{
	char	   *problem = NULL;
	char	   *valgrind = profile_valgrind_path(&problem);
	char	   *conninfo = cluster_conninfo(c, "postgres");
	ValgrindServer *vg = valgrind_server(c);
	char	   *argv[32];
	int			argc = 0;
	int			log;
	pid_t		pid;
	double		deadline = now_seconds() + START_TIMEOUT_S;
	PGconn	   *conn;

	if (valgrind == NULL || vg == NULL)
		return fail_with(error, "variant \"%s\": %s", c->variant->name, problem ? problem : "too many servers");
	argv[argc++] = valgrind;
	argv[argc++] = "--tool=callgrind";
	argv[argc++] = "-q";
	argv[argc++] = "--vgdb=no";
	argc = add_toggles(argv, argc);
	/*
	 * A part per statement: the window of each connection's transactions.
	 * A toggle above entered where counting is off (reading the startup
	 * packet, a flush at exit) turns it on there; those calls fall in a
	 * backend's first or last part, which are never read.
	 */
	argv[argc++] = "--dump-before=ReadyForQuery";
	argv[argc++] = "--dump-line=no";
	argv[argc++] = psprintf("--callgrind-out-file=%s/" CALLGRIND_PREFIX "%%p", valgrind_callgrind_dir(c));
	if (vg->cache_sim)
		argv[argc++] = "--cache-sim=yes";
	argv[argc++] = psprintf("%s/postgres", c->bindir);
	argv[argc++] = "-D";
	argv[argc++] = c->datadir;
	argv[argc++] = "-c";
	argv[argc++] = CLUSTER_NO_TCP;

	/*
	 * No autovacuum unless the variant's settings ask for it: its launcher
	 * starts a worker in each database every autovacuum_naptime, and each
	 * runs under valgrind too, a second or more of CPU for nothing that is
	 * counted.  A worker's ANALYZE also sends the catalog invalidations
	 * that move a run's count.  Runs of a fixed number of transactions
	 * under valgrind are short; the template was vacuumed natively.
	 */
	if (!settings_have(c->variant->settings, c->variant->nsettings, "autovacuum"))
	{
		argv[argc++] = "-c";
		argv[argc++] = "autovacuum=off";
	}

	/*
	 * No relation statistics either, unless asked for: after each flush
	 * (at most once a second, so by the clock, not by the work) the next
	 * transaction makes the relations' pending entries again, and the
	 * tests inlined around every counted read and scan take the other
	 * branch; the functions are toggled out, the inlined tests cannot be.
	 * Off, every transaction takes the same branch.
	 */
	if (!settings_have(c->variant->settings, c->variant->nsettings, "track_counts"))
	{
		argv[argc++] = "-c";
		argv[argc++] = "track_counts=off";
	}
	argv[argc] = NULL;

	/* the server's log, appended to as pg_ctl -l would, never through a link */
	if ((log = safe_open_write(c->logfile, true, error)) < 0)
		return false;
	/* the whole command: what it forces on the server is read there */
	dprintf(log, "pgbench_ext: starting the server under callgrind:");
	for (int i = 0; i < argc; i++)
		dprintf(log, " %s", argv[i]);
	dprintf(log, "\n");
	{
		/* not interruptible: the cluster's own stop ends it */
		ChildSpec	server = CHILD_SPEC_INIT;

		server.argv = argv;
		server.unprivileged = true;
		server.out_fd = server.err_fd = log;
		pid = child_start(&server);
	}
	close(log);
	if (pid < 0)
		return fail_with(error, "could not start valgrind for variant \"%s\": %m", c->variant->name);
	/*
	 * Connected, not pinged: a ping that reaches the server starts a
	 * backend under valgrind as a connection does (about half a second of
	 * CPU), and the connection serves below.
	 */
	for (;;)
	{
		int			status;

		conn = says_ready(c) ? PQconnectdb(conninfo) : NULL;
		if (conn != NULL && PQstatus(conn) == CONNECTION_OK)
			break;
		PQfinish(conn);
		if (waitpid(pid, &status, WNOHANG) == pid || now_seconds() > deadline)
		{
			if (now_seconds() > deadline)
				kill(pid, SIGQUIT);
			*error = psprintf("the server of variant \"%s\" did not start under valgrind; its log (%s) ends with:\n%s",
							  c->variant->name, c->logfile, tail_of_file(c->logfile, 8));
			return false;
		}
		pg_usleep(200000);
	}
	vg->postmaster = pid;

	note_own_processes(vg, pid, PQbackendPID(conn), deadline);
	PQfinish(conn);
	return true;
}

/*
 * From now on, start c under callgrind (with its cache simulation when
 * cache_sim): cluster_start() runs start_under_valgrind().
 */
bool
valgrind_server_use(Cluster *c, bool cache_sim, char **error)
{
	ValgrindServer *vg = valgrind_server(c);

	if (vg == NULL)
		return fail_with(error, "too many servers under valgrind");
	vg->cache_sim = cache_sim;
	c->start_server = start_under_valgrind;

	/*
	 * Every start the same, a build seed's too: a start's own environment
	 * size moves the stack and the heap, and with them the paths string
	 * functions take (what time verdicts sample across starts is noise in
	 * a count).
	 */
	c->pad_environment = false;
	return true;
}

/* whether c's postmaster was started under callgrind and is known */
bool
valgrind_server_started(const Cluster *c)
{
	ValgrindServer *vg = find_server(c);

	return vg != NULL && vg->postmaster != 0;
}

/*
 * Wait until every process c's postmaster forked is one the server lists
 * through conn or one of its own: no backend that exited is still writing
 * its file.  False with *problem set when that cannot be known in time.
 */
bool
valgrind_server_settled(const Cluster *c, PGconn *conn, char **problem)
{
	ValgrindServer *vg = find_server(c);

	if (vg != NULL)
		return wait_settled(vg, conn, problem);
	*problem = pg_strdup("the server is not running under valgrind");
	return false;
}
