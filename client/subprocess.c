/*-------------------------------------------------------------------------
 *
 * subprocess.c
 *		Running initdb, pg_ctl and pgbench as child processes.
 *
 * initdb and postgres refuse to run as root.  When the client runs as
 * root (as CI does), server-side commands run as an unprivileged account
 * instead: "postgres", or PGBENCH_EXT_OS_USER.  pgbench itself is only a
 * client and runs as whoever started us.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "subprocess.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

bool
need_server_account(void)
{
	return geteuid() == 0;
}

/* The account server processes run as when we are root. */
const struct passwd *
server_account(char **error)
{
	const char *name = getenv("PGBENCH_EXT_OS_USER");
	struct passwd *pw;

	if (name == NULL || *name == '\0')
		name = "postgres";
	pw = getpwnam(name);
	if (pw == NULL)
	{
		*error = psprintf("running as root, but there is no account \"%s\" to run the server as", name);
		return NULL;
	}
	if (pw->pw_uid == 0)
	{
		*error = psprintf("account \"%s\" is root; initdb and postgres refuse to run as root", name);
		return NULL;
	}
	return pw;
}

/* Make path (a directory we created) belong to the server account. */
bool
give_to_server_account(const char *path, char **error)
{
	const struct passwd *pw;

	if (!need_server_account())
		return true;
	if ((pw = server_account(error)) == NULL)
		return false;
	if (chown(path, pw->pw_uid, pw->pw_gid) != 0)
	{
		*error = psprintf("could not give \"%s\" to user \"%s\": %m", path, pw->pw_name);
		return false;
	}
	return true;
}

static void
drop_privileges_or_exit(void)
{
	char	   *error;
	const struct passwd *pw = server_account(&error);

	if (pw == NULL ||
		setgid(pw->pw_gid) != 0 ||
		initgroups(pw->pw_name, pw->pw_gid) != 0 ||
		setuid(pw->pw_uid) != 0)
	{
		fprintf(stderr, "%s: error: could not switch to the server account\n", progname);
		_exit(127);
	}
	setenv("HOME", pw->pw_dir, 1);
	setenv("USER", pw->pw_name, 1);
	setenv("LOGNAME", pw->pw_name, 1);
}

/*
 * Start argv[0] with stdout and stderr sent to the given descriptors (-1:
 * to /dev/null).  Its own process group, so a Ctrl-C on the terminal
 * reaches us first and we decide what to stop and how.
 */
pid_t
spawn_process(char *const argv[], bool as_server, int out_fd, int err_fd)
{
	pid_t		pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid != 0)
		return pid;				/* parent, or -1 */

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (as_server && need_server_account())
		drop_privileges_or_exit();
	{
		int			devnull = open("/dev/null", O_RDWR);

		dup2(devnull, STDIN_FILENO);
		dup2(out_fd >= 0 ? out_fd : devnull, STDOUT_FILENO);
		dup2(err_fd >= 0 ? err_fd : devnull, STDERR_FILENO);
	}
	execv(argv[0], argv);
	fprintf(stderr, "could not execute \"%s\": %s\n", argv[0], strerror(errno));
	_exit(127);
}

/*
 * pg_ctl leaves the postmaster an orphan.  Where no init reaps orphans
 * (containers often have none), a postmaster that died stays a zombie whose
 * pid still answers kill(pid, 0), and a restart then refuses to start:
 * "lock file postmaster.pid already exists".  Adopting orphans makes them
 * ours to reap.
 */
void
adopt_orphaned_servers(void)
{
#ifdef PR_SET_CHILD_SUBREAPER
	(void) prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
}

/* Reap adopted children that have exited; never blocks. */
void
reap_exited_children(void)
{
	int			status;

	while (waitpid(-1, &status, WNOHANG) > 0)
		;
}

/* Wait for pid; returns its exit status, or 128 + signal. */
int
wait_process(pid_t pid)
{
	int			status;

	while (waitpid(pid, &status, 0) < 0)
	{
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/*
 * Run a command to completion with its output appended to log_path.
 * Returns its exit status (0 = success), or -1 if it could not start.
 */
int
run_logged(char *const argv[], bool as_server, const char *log_path)
{
	int			fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	int			rc;

	if (fd < 0)
		return -1;
	rc = run_logged_fd(argv, as_server, fd);
	close(fd);
	return rc;
}

/* run_logged() into a log the caller opened (cluster.c: without following links). */
int
run_logged_fd(char *const argv[], bool as_server, int log_fd)
{
	pid_t		pid;

	dprintf(log_fd, "$");
	for (int i = 0; argv[i]; i++)
		dprintf(log_fd, " %s", argv[i]);
	dprintf(log_fd, "\n");
	pid = spawn_process(argv, as_server, log_fd, log_fd);
	if (pid < 0)
		return -1;
	return wait_process(pid);
}

/* The last lines of a log file, for error messages that quote the server. */
char *
tail_of_file(const char *path, int max_lines)
{
	FILE	   *f = fopen(path, "r");
	char	  **lines;
	char		buf[1024];
	int			n = 0;
	char	   *result = pg_strdup("");

	if (f == NULL)
		return result;
	lines = pg_malloc0(sizeof(char *) * max_lines);
	while (fgets(buf, sizeof(buf), f))
	{
		pg_free(lines[n % max_lines]);
		lines[n % max_lines] = pg_strdup(buf);
		n++;
	}
	fclose(f);
	for (int i = Max(0, n - max_lines); i < n; i++)
		result = psprintf("%s%s", result, lines[i % max_lines]);
	return result;
}
