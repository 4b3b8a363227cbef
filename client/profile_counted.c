/*-------------------------------------------------------------------------
 *
 * profile_counted.c
 *		Counted profiles: the variants' servers under callgrind, and per
 *		run the instructions (with cache_sim, simulated cache misses) of
 *		one transaction, in total and per function.
 *
 * The postmaster runs under valgrind --tool=callgrind; every process it
 * forks is profiled too, and writes its own file (callgrind.out.PID in
 * clusters/NAME/callgrind) when it exits.  Counting is on only inside
 * PostgresMain, and off again inside InitPostgres and proc_exit (each
 * --toggle-collect turns it over on entry and back on return): a
 * backend's own work on its queries, never the postmaster's before the
 * fork, nor the background processes', nor connecting and exiting, whose
 * cost varies with the state of caches shared between backends (the first
 * backend of a new database builds its relation cache file) and so would
 * not cancel between the short and the long run.  A toggle turns
 * counting over, not off: a process that never runs PostgresMain (an
 * autovacuum worker) counts from InitPostgres on; only files in which
 * PostgresMain ran are a backend's and are read.
 *
 * Connection set-up and catalog warm-up are cancelled out as in
 * bench/hook_instructions.sh: before each run, a short run of the same
 * pgbench (a tenth of the transactions) is counted too, and the run's
 * figure is (long - short) / (transactions long - transactions short).
 * Both runs get the same --random-seed (run_one.c gives counted runs one
 * per round whatever pgbench_seed says), so the short run's transactions
 * are the first ones of the long run and the difference is exactly the
 * later transactions' cost.  The seed changes from round to round (the
 * same for every variant within a round), so rounds sample different
 * accounts; with reset = every-run every run starts from the same data.
 *
 * Which files belong to a run: those that appear after it starts.  Before
 * listing the files and after the run, the server must be settled: every
 * process the postmaster has forked is one pg_stat_activity knows (or one
 * that was there, unlisted, when the server started), so that no backend
 * that exited is still writing its file.  Files are opened and removed
 * relative to the directory, never through a symbolic link: the server
 * account owns that directory.
 *
 * pgbench -i and the template's VACUUM run on the natively started server
 * (setup.c); the servers are then restarted under valgrind (see
 * profile_after_setup), and restarts after a crash stay under it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "pgbench_output.h"
#include "profile_int.h"
#include "profile_parse.h"
#include "safe_file.h"
#include "subprocess.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/logging.h"

#define CALLGRIND_PREFIX	"callgrind.out."
#define START_TIMEOUT_S		600		/* a start under valgrind takes ~10 s */
#define SETTLE_TIMEOUT_S	300		/* backends exiting under valgrind */
#define MAX_RESIDENT		32

/* What a server under valgrind runs beside its backends. */
typedef struct ValgrindServer
{
	const Cluster *cluster;
	pid_t		postmaster;
	pid_t		resident[MAX_RESIDENT];	/* children pg_stat_activity does not list */
	int			nresident;
	bool		cache_sim;		/* --cache-sim=yes */
} ValgrindServer;

static ValgrindServer servers[MAX_VARIANTS];
static int	nservers;

struct CountedRun
{
	Experiment *x;
	const PlannedRun *pr;
	Cluster    *server;
	ValgrindServer *vg;
	PGconn	   *conn;
	int			dirfd;
	ProfIndex	known;			/* files there before the run */
	Prof		shorter;
	Prof		longer;
	bool		longer_read;
	long long	short_tx;
	long long	delta_tx;		/* transactions the profile is per */
	char	   *problem;		/* why this run has no profile, or NULL */
};

static char *
callgrind_dir(const Cluster *server)
{
	return psprintf("%s/callgrind", server->dir);
}

static ValgrindServer *
valgrind_server(const Cluster *c)
{
	for (int i = 0; i < nservers; i++)
		if (servers[i].cluster == c)
			return &servers[i];
	if (nservers == MAX_VARIANTS)
		return NULL;
	memset(&servers[nservers], 0, sizeof(ValgrindServer));
	servers[nservers].cluster = c;
	return &servers[nservers++];
}

/* ---- processes ---- */

/* The children of pid, from /proc/N/stat (ppid is the 4th field). */
static int
children_of(pid_t pid, pid_t *out, int max)
{
	DIR		   *proc = opendir("/proc");
	struct dirent *de;
	int			n = 0;

	if (proc == NULL)
		return -1;
	while ((de = readdir(proc)) != NULL)
	{
		char		buf[512];
		FILE	   *f;
		char	   *paren;
		long		ppid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if ((f = fopen(psprintf("/proc/%s/stat", de->d_name), "re")) == NULL)
			continue;
		buf[0] = '\0';
		if (fgets(buf, sizeof(buf), f) == NULL)
			buf[0] = '\0';
		fclose(f);
		/* "PID (COMM) STATE PPID ...": COMM may hold anything, even ')' */
		if ((paren = strrchr(buf, ')')) == NULL || sscanf(paren + 1, " %*c %ld", &ppid) != 1)
			continue;
		if (ppid == pid && n < max)
			out[n++] = (pid_t) atol(de->d_name);
	}
	closedir(proc);
	return n;
}

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

/*
 * Wait until every child of the postmaster is a process the server lists,
 * or a resident one: no exited backend is left writing its file.
 */
static bool
wait_settled(ValgrindServer *vg, PGconn *conn, char **problem)
{
	double		deadline = now_seconds() + SETTLE_TIMEOUT_S;

	for (;;)
	{
		pid_t		children[1024];
		pid_t		listed[1024];
		int			nc = children_of(vg->postmaster, children, lengthof(children));
		int			nl = listed_pids(conn, listed, lengthof(listed));
		bool		settled = nc >= 0 && nl >= 0;

		for (int i = 0; settled && i < nc; i++)
			settled = pid_in(children[i], listed, nl) ||
				pid_in(children[i], vg->resident, vg->nresident);
		if (settled)
			return true;
		if (nl < 0 || now_seconds() > deadline)
		{
			*problem = nl < 0
				? psprintf("could not list the server's processes: %s", PQerrorMessage(conn))
				: psprintf("the server's exiting processes did not finish within %d s", SETTLE_TIMEOUT_S);
			return false;
		}
		pg_usleep(100000);
	}
}

/* ---- the server under valgrind ---- */

/*
 * Start c's postmaster under callgrind (cluster_start calls this as the
 * cluster's start_server) and wait until it accepts connections.
 */
bool
profile_counted_start_server(Cluster *c, char **error)
{
	char	   *problem = NULL;
	char	   *valgrind = profile_valgrind_path(&problem);
	char	   *conninfo = cluster_conninfo(c, "postgres");
	ValgrindServer *vg = valgrind_server(c);
	char	   *argv[16];
	int			argc = 0;
	int			log;
	pid_t		pid;
	double		deadline = now_seconds() + START_TIMEOUT_S;
	PGconn	   *conn;

	if (valgrind == NULL || vg == NULL)
	{
		*error = psprintf("variant \"%s\": %s", c->variant->name, problem ? problem : "too many servers");
		return false;
	}
	argv[argc++] = valgrind;
	argv[argc++] = "--tool=callgrind";
	argv[argc++] = "-q";
	argv[argc++] = "--vgdb=no";
	argv[argc++] = "--toggle-collect=PostgresMain";
	argv[argc++] = "--toggle-collect=InitPostgres";
	argv[argc++] = "--toggle-collect=proc_exit";
	argv[argc++] = "--dump-line=no";
	argv[argc++] = psprintf("--callgrind-out-file=%s/" CALLGRIND_PREFIX "%%p", callgrind_dir(c));
	if (vg->cache_sim)
		argv[argc++] = "--cache-sim=yes";
	argv[argc++] = psprintf("%s/postgres", c->bindir);
	argv[argc++] = "-D";
	argv[argc++] = c->datadir;
	argv[argc] = NULL;

	/* the server's log, appended to as pg_ctl -l would, never through a link */
	if ((log = safe_open_write(c->logfile, true, error)) < 0)
		return false;
	dprintf(log, "pgbench_ext: starting the server under callgrind: %s ...\n", valgrind);
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
	{
		*error = psprintf("could not start valgrind for variant \"%s\": %m", c->variant->name);
		return false;
	}
	for (;;)
	{
		PGPing		ping = PQping(conninfo);
		int			status;

		if (ping == PQPING_OK)
			break;
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

	/* what runs beside backends and is not listed (13, 14: the stats collector) */
	vg->nresident = 0;
	if ((conn = PQconnectdb(conninfo)) != NULL && PQstatus(conn) == CONNECTION_OK)
	{
		pid_t		children[1024];
		pid_t		listed[1024];
		int			nc,
					nl,
					stable = 0,
					last = -1;

		/* background processes start over the first seconds */
		while (stable < 10 && now_seconds() < deadline)
		{
			nc = children_of(pid, children, lengthof(children));
			stable = nc == last ? stable + 1 : 0;
			last = nc;
			pg_usleep(200000);
		}
		nc = children_of(pid, children, lengthof(children));
		nl = listed_pids(conn, listed, lengthof(listed));
		for (int i = 0; i < nc && nl >= 0; i++)
			if (!pid_in(children[i], listed, nl) && vg->nresident < MAX_RESIDENT)
				vg->resident[vg->nresident++] = children[i];
	}
	PQfinish(conn);
	return true;
}

/*
 * Once every server is set up natively (its template made), restart the
 * servers of a counted experiment under valgrind.
 */
bool
profile_after_setup(Experiment *x, char **error)
{
	const ProfileSpec *p = &x->spec->profile;

	if (p->mode != PROFILE_COUNTED)
		return true;
	for (int i = 0; i < x->spec->nvariants; i++)
	{
		Cluster    *c = &x->variants[i].cluster;
		char	   *dir;

		if (c->host || !c->managed)
			continue;
		dir = callgrind_dir(c);
		if (!safe_mkdir(dir, 0700, SAFE_GIVE, error))
			return false;
		printf("restarting the server of variant %s under valgrind (callgrind%s)\n",
			   c->variant->name, p->cache_sim ? ", cache simulation" : "");
		fflush(stdout);
		cluster_stop(c);
		c->start_server = profile_counted_start_server;
		if (valgrind_server(c) == NULL)
		{
			*error = pg_strdup("too many servers under valgrind");
			return false;
		}
		valgrind_server(c)->cache_sim = p->cache_sim;
		if (!cluster_start(c, error))
			return false;
	}
	return true;
}

/* ---- the files of a run ---- */

int
profile_open_dir(const char *path, char **problem)
{
	int			fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		*problem = psprintf("could not open directory \"%s\": %m", path);
	return fd;
}

FILE *
profile_open_in_dir(int dirfd, const char *name, char **problem)
{
	int			fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	FILE	   *f;

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
	{
		*problem = psprintf("could not open \"%s\" as a regular file: %m", name);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if ((f = fdopen(fd, "r")) == NULL)
	{
		*problem = psprintf("could not read \"%s\": %m", name);
		close(fd);
	}
	return f;
}

/* Names of the callgrind files in the directory, passed to fn one by one. */
static bool
each_file(int dirfd, bool (*fn) (const char *name, void *arg), void *arg)
{
	int			fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	DIR		   *d;
	struct dirent *de;
	bool		ok = true;

	if (fd < 0 || (d = fdopendir(fd)) == NULL)
	{
		if (fd >= 0)
			close(fd);
		return false;
	}
	rewinddir(d);
	while (ok && (de = readdir(d)) != NULL)
		if (strncmp(de->d_name, CALLGRIND_PREFIX, strlen(CALLGRIND_PREFIX)) == 0)
			ok = fn(de->d_name, arg);
	closedir(d);
	return ok;
}

/*
 * A file there before the run: remembered when its process still lives
 * (the postmaster's, the runner's connection's, written when they exit),
 * else removed: a backend of no run's, done with (the server is settled).
 */
static bool
remember_file(const char *name, void *arg)
{
	CountedRun *cr = arg;
	long		pid = atol(name + strlen(CALLGRIND_PREFIX));

	if (pid > 0 && kill((pid_t) pid, 0) != 0 && errno == ESRCH)
		unlinkat(cr->dirfd, name, 0);
	else
		prof_index_put(&cr->known, name, 1);
	return true;
}

typedef struct Collecting
{
	CountedRun *cr;
	Prof	   *into;
	char	   *problem;
} Collecting;

/* A file the run's processes wrote: parse into the profile, then remove. */
static bool
collect_file(const char *name, void *arg)
{
	Collecting *c = arg;
	FILE	   *f;
	char		err[512];
	Prof		one;

	if (prof_index_get(&c->cr->known, name) >= 0)
		return true;

	if ((f = profile_open_in_dir(c->cr->dirfd, name, &c->problem)) == NULL)
		return false;
	prof_init(&one);
	if (!prof_parse_callgrind(f, &one, err, sizeof(err)))
		c->problem = psprintf("%s: %s", name, err);
	/* a backend; not a process that only crossed a toggle (see above) */
	else if (prof_find_func(&one, "PostgresMain") >= 0 && !prof_merge(c->into, &one))
		c->problem = psprintf("%s counted other events than the run's other files", name);
	prof_free(&one);
	fclose(f);
	if (unlinkat(c->cr->dirfd, name, 0) != 0 && c->problem == NULL)
		c->problem = psprintf("could not remove \"%s\": %m", name);
	return c->problem == NULL;
}

/* The first problem of a run is its reason; later ones follow from it. */
static bool
fail_run(CountedRun *cr, char *problem)
{
	if (cr->problem == NULL)
		cr->problem = problem;
	return false;
}

/* Whether the run's server and directory are there to list and read. */
static bool
server_ready(const CountedRun *cr)
{
	return cr->dirfd >= 0 && cr->vg != NULL && cr->vg->postmaster != 0;
}

/* Settle, then read and remove the files that appeared since the listing. */
static bool
collect_new_files(CountedRun *cr, Prof *into)
{
	Collecting	c = {cr, into, NULL};
	char	   *problem = NULL;

	if (!wait_settled(cr->vg, cr->conn, &problem))
		return fail_run(cr, problem);
	if (!each_file(cr->dirfd, collect_file, &c))
		return fail_run(cr, c.problem ? c.problem : psprintf("could not list %s", callgrind_dir(cr->server)));
	return true;
}

static bool
list_known_files(CountedRun *cr)
{
	char	   *problem = NULL;

	prof_index_free(&cr->known);
	prof_index_init(&cr->known);
	if (!wait_settled(cr->vg, cr->conn, &problem))
		return fail_run(cr, problem);
	if (!each_file(cr->dirfd, remember_file, cr))
		return fail_run(cr, psprintf("could not list %s", callgrind_dir(cr->server)));
	return true;
}

/* ---- one run ---- */

static char *
read_text(const char *path)
{
	char	   *ignored;
	FILE	   *f = safe_fopen_read(path, SAFE_MAX_LOG, &ignored);
	char	   *text = pg_strdup("");
	char		buf[4096];
	size_t		n;

	if (f == NULL)
		return text;
	while ((n = fread(buf, 1, sizeof(buf) - 1, f)) > 0)
	{
		buf[n] = '\0';
		text = psprintf("%s%s", text, buf);
	}
	fclose(f);
	return text;
}

/*
 * The short run: pgbench as the run will call it, with a tenth of its
 * transactions; its counted profile is kept in cr->shorter.
 */
static bool
short_run(CountedRun *cr, char **argv)
{
	char	   *out_path = results_run_path(cr->x->dir, cr->pr->run_id, ".short.out");
	char	   *err_path = results_run_path(cr->x->dir, cr->pr->run_id, ".short.err");
	char	  **copy;
	int			n = 0,
				out,
				err,
				rc;
	pid_t		pid;
	PgbenchResult result;
	char		errbuf[512];
	char	   *open_error;
	ChildSpec	pgbench = CHILD_SPEC_INIT;

	while (argv[n])
		n++;
	copy = pg_malloc0(sizeof(char *) * (n + 1));
	for (int i = 0; i < n; i++)
	{
		copy[i] = argv[i];
		if (i > 0 && strcmp(argv[i - 1], "-t") == 0)
			copy[i] = psprintf("%d", Max(10, atoi(argv[i]) / 10));
	}
	out = safe_open_file(out_path, SAFE_FRESH, &open_error);
	err = out < 0 ? -1 : safe_open_file(err_path, SAFE_FRESH, &open_error);
	/* as run_one.c runs pgbench: as the server account, ended on Ctrl-C */
	pgbench.argv = copy;
	pgbench.unprivileged = true;
	pgbench.interruptible = true;
	pgbench.out_fd = out;
	pgbench.err_fd = err;
	if (out < 0 || err < 0)
	{
		if (out >= 0)
			safe_abandon(out);
		return fail_run(cr, open_error);
	}
	if ((pid = child_start(&pgbench)) < 0)
	{
		safe_abandon(out);
		safe_abandon(err);
		return fail_run(cr, psprintf("could not run the short pgbench run: %m"));
	}
	rc = wait_process(pid);
	if (!safe_close(out, &open_error) || !safe_close(err, &open_error))
		return fail_run(cr, open_error);
	if (pgbench_output_parse(read_text(out_path), read_text(err_path), &result, errbuf, sizeof(errbuf)) != 0 ||
		rc != 0 || result.aborted)
	{
		pgbench_result_free(&result);
		return fail_run(cr, psprintf("the short pgbench run (set-up cancellation) failed with status %d: %s",
									 rc, rc == 0 ? errbuf : tail_of_file(err_path, 2)));
	}
	cr->short_tx = result.transactions;
	pgbench_result_free(&result);
	return collect_new_files(cr, &cr->shorter);
}

CountedRun *
counted_prepare(Experiment *x, const PlannedRun *pr, char **argv, PGconn *conn)
{
	CountedRun *cr = pg_malloc0(sizeof(CountedRun));
	VariantState *vs = &x->variants[pr->variant];

	cr->x = x;
	cr->pr = pr;
	cr->conn = conn;
	cr->server = cluster_server(&vs->cluster);
	cr->vg = valgrind_server(cr->server);
	prof_index_init(&cr->known);
	prof_init(&cr->shorter);
	prof_init(&cr->longer);
	if ((cr->dirfd = profile_open_dir(callgrind_dir(cr->server), &cr->problem)) < 0)
		return cr;
	if (!server_ready(cr))
	{
		fail_run(cr, pg_strdup("the server is not running under valgrind"));
		return cr;
	}
	if (list_known_files(cr))
		short_run(cr, argv);
	return cr;
}

/*
 * The listing the run's files are told apart by; after a failed short run
 * too, so that its files stay out of the run's.
 */
void
counted_start(CountedRun *cr)
{
	if (server_ready(cr))
		list_known_files(cr);
}

/*
 * Right after pgbench: the run's files, before anything else connects
 * (the runner's liveness check would add a backend); removed even when
 * they cannot make a profile.
 */
void
counted_stop(CountedRun *cr)
{
	if (server_ready(cr))
		cr->longer_read = collect_new_files(cr, &cr->longer);
}

/*
 * The run's profile per transaction: (long - short) / their difference
 * in transactions, functions and arcs, with stacks from the call graph.
 */
bool
counted_collect(CountedRun *cr, const RunRecord *rec, Prof *out, char **problem)
{
	bool		ok = false;
	double		tx = (double) (rec->transactions - cr->short_tx);

	cr->delta_tx = rec->transactions - cr->short_tx;
	if (cr->problem == NULL && !cr->longer_read)
		cr->problem = pg_strdup("the run's callgrind files were not read");
	if (cr->problem == NULL)
	{
		if (!(tx > 0))
			cr->problem = psprintf("the run made %lld transactions, no more than its short run's %lld",
								   rec->transactions, cr->short_tx);
		else if (!prof_difference(out, &cr->longer, &cr->shorter, tx))
			cr->problem = pg_strdup("the short and the long run counted different events");
		else
		{
			prof_compute_inclusive(out);
			/* contexts under 0.05% of a transaction fold into their caller */
			prof_stacks_from_arcs(out, out->totals[0] * 0.0005);
			prof_trim_stacks(out, "PostgresMain");
			ok = true;
		}
	}
	*problem = cr->problem;
	prof_free(&cr->longer);
	prof_free(&cr->shorter);
	prof_index_free(&cr->known);
	if (cr->dirfd >= 0)
		close(cr->dirfd);
	return ok;
}

long long
counted_transactions(const CountedRun *cr)
{
	return cr->delta_tx;
}
