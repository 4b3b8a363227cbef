/*-------------------------------------------------------------------------
 *
 * cluster_pid.c
 *		A managed cluster's postmaster by its pid: read from postmaster.pid,
 *		checked to be that cluster's (its program, its directory, the
 *		server account's), remembered at its start, waited for, and stopped
 *		by signals when pg_ctl cannot reach it.
 *
 * pg_ctl finds a server through its data directory; these find it through
 * /proc, for what pg_ctl cannot do: a server left by a client killed
 * outright (cluster.c's --resume), one whose directory was moved or
 * replaced by a link while it ran (every exit stops it all the same).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cluster.h"
#include "cluster_pid.h"
#include "procfs.h"
#include "progress.h"
#include "safe_read.h"
#include "subprocess.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether process pid runs as the account the servers run as. */
static bool
runs_as_server_account(long pid)
{
	char	   *ignored;
	const struct passwd *pw;
	uid_t		uid;
	struct stat st;

	if (!need_server_account())
		uid = geteuid();
	else
		uid = (pw = server_account(&ignored)) ? pw->pw_uid : (uid_t) -1;
	return pid > 0 && stat(psprintf("/proc/%ld", pid), &st) == 0 && st.st_uid == uid;
}

/*
 * Wait (bounded) until process pid has ended, reaping it if it is ours (a
 * postmaster whose pg_ctl has exited is the client's, a subreaper's).  A
 * zombie has ended: it holds no memory, no directory, no shared memory.
 * False if it still runs after the given seconds.
 */
bool
wait_for_process_end(pid_t pid, double seconds)
{
	double		start = now_seconds();

	for (;;)
	{
		char		state;
		pid_t		parent;

		reap_exited_children();
		if (procfs_stat(pid, &state, &parent) ? (state == 'Z' || state == 'X')
			: kill(pid, 0) != 0)
			return true;
		if (now_seconds() - start >= seconds)
			return false;
		pg_usleep(20000);
	}
}

static bool
same_file(const char *a, const char *b)
{
	struct stat sa,
				sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
		sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * Whether pid is the postmaster of c's data directory: it runs the
 * variant's postgres, in the data directory (a postmaster works there), as
 * the account servers run as.  Where /proc cannot tell, it is not.
 */
bool
is_postmaster_of(const Cluster *c, long pid)
{
	char	   *proc = psprintf("/proc/%ld", pid);

	return runs_as_server_account(pid) &&
		same_file(psprintf("%s/exe", proc), psprintf("%s/postgres", c->bindir)) &&
		same_file(psprintf("%s/cwd", proc), c->datadir);
}

/*
 * The pid in the data directory's postmaster.pid (the server account's
 * file: a regular file, or none), and the socket directory it names; 0
 * when there is none.
 */
long
read_postmaster_pid(const Cluster *c, char **sockdir)
{
	char	   *ignored;
	FILE	   *f = safe_fopen_read(psprintf("%s/postmaster.pid", c->datadir), SAFE_MAX_LOG, &ignored);
	char		line[MAXPGPATH];
	long		pid = 0;

	if (f == NULL)
		return 0;
	for (int n = 1; fgets(line, sizeof(line), f); n++)
	{
		line[strcspn(line, "\n")] = '\0';
		if (n == 1)
			pid = atol(line);
		else if (n == 5 && sockdir)
			*sockdir = pg_strdup(line);
	}
	fclose(f);
	return pid;
}

/*
 * The postmaster just started, by the pid in its postmaster.pid: kept only
 * if that process runs as the server account (the file is that account's,
 * so a signal to the process is one it could send itself), with its start
 * time.
 */
void
remember_postmaster(Cluster *c)
{
	long		pid = read_postmaster_pid(c, NULL);

	c->postmaster = 0;
	if (runs_as_server_account(pid) &&
		(c->postmaster_started = procfs_start_time((pid_t) pid)) != 0)
		c->postmaster = (pid_t) pid;
}

/*
 * When pg_ctl could not stop the server (its data directory unreachable:
 * the results directory moved or replaced by a link while it ran), the
 * postmaster remembered at its start gets the signals pg_ctl would send:
 * a fast shutdown, then an immediate one.  True once it has ended.
 */
bool
stop_postmaster_by_signal(Cluster *c)
{
	static const int signals[] = {SIGINT, SIGQUIT, SIGKILL};
	char		state;
	pid_t		parent;

	/* gone already (a crash), or that pid is another process by now */
	if (c->postmaster <= 0 || procfs_start_time(c->postmaster) != c->postmaster_started ||
		!procfs_stat(c->postmaster, &state, &parent) || state == 'Z' || state == 'X')
		return false;
	for (int i = 0; i < lengthof(signals); i++)
		if (kill(c->postmaster, signals[i]) != 0 ||
			wait_for_process_end(c->postmaster, i == 0 ? 60.0 : 10.0))
			return true;
	return false;
}

