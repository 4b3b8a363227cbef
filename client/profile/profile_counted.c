/*-------------------------------------------------------------------------
 *
 * profile_counted.c
 *		Counted profiles: the variants' servers restarted under callgrind
 *		(valgrind_server.c starts them), and per run the instructions (with
 *		cache_sim, simulated cache misses) of one transaction, in total and
 *		per function.
 *
 * docs/profiles.md ("Counted: how") gives the method and why: counting
 * only inside PostgresMain (toggled over again in InitPostgres and
 * proc_exit); a part dumped before every ReadyForQuery, so that each
 * client backend of the run is counted after its warm-up transactions on
 * its own connection, and no other process is; time kept out (secure_read,
 * pgstat_report_stat, xact_end, ReceiveSharedInvalidMessages); the same
 * pgbench seed for every variant of a round; and which files are a run's:
 * those that appear after it starts, listed and read only once the server
 * is settled (every process the postmaster forked is one pg_stat_activity
 * knows), the parts of a process still alive then (the runner's own
 * connection) removed.  Files are opened and removed relative to the
 * directory, never through a symbolic link: the server account owns it.
 *
 * pgbench -i and the template's VACUUM run on the natively started server
 * (setup.c); the servers are then restarted under valgrind (see
 * profile_restart_counted), and restarts after a crash stay under it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile_counted.h"
#include "profile_spec.h"
#include "profile_parse.h"
#include "safe_file.h"
#include "valgrind_server.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>


struct CountedRun
{
	Experiment *x;
	const PlannedRun *pr;
	Cluster    *server;
	PGconn	   *conn;
	int			dirfd;
	ProfIndex	known;			/* files there before the run */
	Prof		window;			/* the client backends' counted transactions */
	bool		window_read;
	int			warmup_tx;		/* per client, left out of the window */
	int			backends;		/* client backends read */
	long long	window_tx;		/* transactions the profile is per */
	char	   *problem;		/* why this run has no profile, or NULL */
};

/*
 * Once server c is set up natively (its template made), restart it under
 * valgrind, as every start of a counted experiment's servers is from then
 * on.  The runner records the start.
 */
bool
profile_restart_counted(Cluster *c, const ProfileSpec *p, char **error)
{
	if (!safe_mkdir(valgrind_callgrind_dir(c), 0700, SAFE_GIVE, error))
		return false;
	printf("restarting the server of variant %s under valgrind (callgrind%s)\n",
		   c->variant->name, p->cache_sim ? ", cache simulation" : "");
	fflush(stdout);
	cluster_stop(c);
	return valgrind_server_use(c, p->cache_sim, error) && cluster_start(c, error);
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

/* The pid of a callgrind file's name, and its part number (0: the last). */
static long
file_pid(const char *name, int *part)
{
	char	   *end;
	long		pid = strtol(name + strlen(CALLGRIND_PREFIX), &end, 10);

	*part = *end == '.' ? atoi(end + 1) : 0;
	return pid;
}

/*
 * A file there before the run: remembered when it is the last part of a
 * process that still lives; else removed: a backend of no run's, done
 * with (the server is settled), or a part of a live process's statements
 * (the runner's connection's).
 */
static bool
remember_file(const char *name, void *arg)
{
	CountedRun *cr = arg;
	int			part;
	long		pid = file_pid(name, &part);

	/* a live process's parts: the runner's connection's statements */
	if (part > 0 || (pid > 0 && kill((pid_t) pid, 0) != 0 && errno == ESRCH))
		unlinkat(cr->dirfd, name, 0);
	else
		prof_index_put(&cr->known, name, 1);
	return true;
}

/* The first problem of a run is its reason; later ones follow from it. */
static bool
fail_run(CountedRun *cr, char *problem)
{
	if (cr->problem == NULL)
		cr->problem = problem;
	return false;
}

/*
 * The parts of one process's file: callgrind.out.PID.N for the dump
 * before its Nth ReadyForQuery, callgrind.out.PID for the last part,
 * written when it exits.
 */
typedef struct Backend
{
	long		pid;
	int			nparts;			/* files, the last part among them */
	bool		exited;			/* its last part is there */
} Backend;

typedef struct Listing
{
	Backend    *b;
	int			n;
	CountedRun *cr;
} Listing;

/* A new file of the run: counted under its process. */
static bool
list_file(const char *name, void *arg)
{
	Listing    *l = arg;
	int			part;
	long		pid = file_pid(name, &part);
	int			i;

	if (prof_index_get(&l->cr->known, name) >= 0 || pid <= 0)
		return true;
	for (i = 0; i < l->n && l->b[i].pid != pid; i++)
		;
	if (i == l->n)
	{
		l->b = pg_realloc(l->b, sizeof(Backend) * (l->n + 1));
		memset(&l->b[l->n++], 0, sizeof(Backend));
		l->b[i].pid = pid;
	}
	l->b[i].nparts++;
	l->b[i].exited |= part == 0;
	return true;
}

/* Every file the listing was made of is read by now: removed. */
static bool
remove_new_file(const char *name, void *arg)
{
	CountedRun *cr = arg;

	if (prof_index_get(&cr->known, name) < 0 && unlinkat(cr->dirfd, name, 0) != 0 && errno != ENOENT)
		return fail_run(cr, psprintf("could not remove \"%s\": %m", name));
	return true;
}

static char *
part_name(long pid, int part)
{
	return part == 0 ? psprintf(CALLGRIND_PREFIX "%ld", pid)
		: psprintf(CALLGRIND_PREFIX "%ld.%d", pid, part);
}

/* Parse one part into the run's window, then remove it. */
static bool
collect_part(CountedRun *cr, long pid, int part, Prof *into)
{
	char	   *name = part_name(pid, part);
	FILE	   *f;
	char		err[512];
	Prof		one;

	if ((f = profile_open_in_dir(cr->dirfd, name, &cr->problem)) == NULL)
		return false;
	prof_init(&one);
	if (!prof_parse_callgrind(f, &one, err, sizeof(err)))
		cr->problem = psprintf("%s: %s", name, err);
	else if (!prof_merge(into, &one))
		cr->problem = psprintf("%s counted other events than the run's other files", name);
	prof_free(&one);
	fclose(f);
	return cr->problem == NULL;
}

/*
 * One process's files.  A benchmark client's backend ran the run's
 * transactions_per_client transactions of m statements each: between its
 * first ReadyForQuery (after connecting) and its last part (exiting) it
 * has m * transactions parts, one per statement.  The first warm-up
 * transactions' parts are left out (catalog caches, the plan's first
 * lookups), and so are its first and last parts; the rest is its window.
 * Any other process (pgbench's own connection that asks for the scale,
 * an autovacuum worker) is no client of the run and is not counted.
 */
static bool
collect_backend(CountedRun *cr, const Backend *b, Prof *into)
{
	int			statements = b->nparts - 2;
	int			tx = cr->x->spec->transactions;
	bool		ok = true;

	if (b->exited && statements >= tx && statements % tx == 0)
	{
		int			m = statements / tx;

		for (int part = 2 + m * cr->warmup_tx; ok && part <= 1 + statements; part++)
			ok = collect_part(cr, b->pid, part, into);
		cr->backends++;
		cr->window_tx += tx - cr->warmup_tx;
	}
	return ok;
}
/* Whether the run's server and directory are there to list and read. */
static bool
server_ready(const CountedRun *cr)
{
	return cr->dirfd >= 0 && valgrind_server_started(cr->server);
}

/*
 * Settle, then read the window of every client backend whose files
 * appeared since the listing, and remove every new file.
 */
static bool
collect_new_files(CountedRun *cr, Prof *into)
{
	Listing		l = {NULL, 0, cr};
	char	   *problem = NULL;
	bool		ok = true;

	if (!valgrind_server_settled(cr->server, cr->conn, &problem))
		return fail_run(cr, problem);
	if (!each_file(cr->dirfd, list_file, &l))
		return fail_run(cr, psprintf("could not list %s", valgrind_callgrind_dir(cr->server)));
	for (int i = 0; ok && i < l.n; i++)
		ok = collect_backend(cr, &l.b[i], into);
	if (l.b)
		pfree(l.b);
	if (!each_file(cr->dirfd, remove_new_file, cr))
		return fail_run(cr, cr->problem ? cr->problem : psprintf("could not list %s", valgrind_callgrind_dir(cr->server)));
	return ok;
}

static bool
list_known_files(CountedRun *cr)
{
	char	   *problem = NULL;

	prof_index_free(&cr->known);
	prof_index_init(&cr->known);
	if (!valgrind_server_settled(cr->server, cr->conn, &problem))
		return fail_run(cr, problem);
	if (!each_file(cr->dirfd, remember_file, cr))
		return fail_run(cr, psprintf("could not list %s", valgrind_callgrind_dir(cr->server)));
	return true;
}

/* ---- one run ---- */

/*
 * Transactions each connection makes before its window opens: a tenth,
 * at least 5 (the first ones fill the catalog caches and the connection's
 * statistics entries; they are the same for every variant, but not work
 * that recurs per transaction).
 */
static int
counted_warmup_transactions(int transactions)
{
	return Min(Max(5, transactions / 10), transactions / 2);
}

CountedRun *
counted_prepare(Experiment *x, const PlannedRun *pr, PGconn *conn)
{
	CountedRun *cr = pg_malloc0(sizeof(CountedRun));
	VariantState *vs = &x->variants[pr->variant];

	cr->x = x;
	cr->pr = pr;
	cr->conn = conn;
	cr->server = cluster_server(&vs->cluster);
	cr->warmup_tx = counted_warmup_transactions(x->spec->transactions);
	prof_index_init(&cr->known);
	prof_init(&cr->window);
	if ((cr->dirfd = profile_open_dir(valgrind_callgrind_dir(cr->server), &cr->problem)) < 0)
		return cr;
	if (!server_ready(cr))
		fail_run(cr, pg_strdup("the server is not running under valgrind"));
	return cr;
}

/* The listing the run's files are told apart by. */
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
		cr->window_read = collect_new_files(cr, &cr->window);
}

/*
 * The run's profile per transaction: the client backends' windows over
 * their transactions, functions and arcs, with stacks from the call graph.
 */
bool
counted_collect(CountedRun *cr, const RunRecord *rec, Prof *out, char **problem)
{
	bool		ok = false;

	if (cr->problem == NULL && !cr->window_read)
		cr->problem = pg_strdup("the run's callgrind files were not read");
	if (cr->problem == NULL && cr->backends != cr->pr->clients)
		cr->problem = psprintf("%d of the run's %d client backends ran its %d transactions each, one statement "
							   "or more per transaction (pgbench -C connects per transaction: not for counted runs)",
							   cr->backends, cr->pr->clients, cr->x->spec->transactions);
	if (cr->problem == NULL && cr->window_tx != rec->transactions - (long long) cr->pr->clients * cr->warmup_tx)
		cr->problem = psprintf("pgbench made %lld transactions, the client backends %lld beyond their warm-up",
							   rec->transactions, cr->window_tx);
	if (cr->problem == NULL && prof_merge(out, &cr->window))
	{
		prof_divide(out, (double) cr->window_tx);
		out->processes = cr->backends;
		prof_compute_inclusive(out);
		/* contexts under 0.05% of a transaction fold into their caller */
		prof_stacks_from_arcs(out, out->totals[0] * 0.0005);
		prof_trim_stacks(out, "PostgresMain");
		ok = true;
	}
	*problem = cr->problem;
	prof_free(&cr->window);
	prof_index_free(&cr->known);
	if (cr->dirfd >= 0)
		close(cr->dirfd);
	return ok;
}

long long
counted_transactions(const CountedRun *cr)
{
	return cr->window_tx;
}
