/*-------------------------------------------------------------------------
 *
 * subprocess.c
 *		The one way the client runs another program: an argv vector (never
 *		a shell, so no value is ever parsed as a command), each child in a
 *		process group of its own.
 *
 * Privilege.  Started as root (as CI is), the client keeps root only to
 * create directories and hand them to an unprivileged account: "postgres",
 * or PGBENCH_EXT_OS_USER.  Everything that builds or runs PostgreSQL —
 * configure, make, patch, initdb, pg_ctl, postgres, pgbench — runs as that
 * account (ChildSpec.unprivileged), and so does the client's own work
 * inside directories that account owns (as_unprivileged()), so that root
 * never writes where that account could have planted a symlink.  Not as
 * root, everything runs as whoever started us.
 *
 * Interruption.  A Ctrl-C on the terminal reaches only the client, its
 * children being in groups of their own.  The handler sets run_interrupted;
 * whoever is waiting for an interruptible child (a build step, pgbench)
 * then ends that child's whole group — make and the compilers it started —
 * with SIGTERM, and with SIGKILL after a grace period, and waits until the
 * group is gone.  initdb and pg_ctl are never cut short: they are brief,
 * and a server half started or half stopped would be left behind.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "safe_file.h"
#include "subprocess.h"
#include "words.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include "pqexpbuffer.h"
#include "progress.h"

/* How long an interrupted child's group has between SIGTERM and SIGKILL. */
#define END_GRACE_SECONDS	3.0
#define WAIT_POLL_USEC		20000

volatile sig_atomic_t run_interrupted = 0;

/* The interruptible children running now. */
#define MAX_INTERRUPTIBLE 16
static pid_t interruptible[MAX_INTERRUPTIBLE];
static int	ninterruptible;

/*
 * Make path (a file or directory we created) belong to the server account:
 * safe_file.c's fchown() on a descriptor opened without following a link
 * (a link planted there is refused by name).
 */
bool
give_to_server_account(const char *path, char **error)
{
	return safe_give_to_server_account(path, error);
}

/* In a child: become the server account for good, or exit. */
static void
become_unprivileged_or_exit(void)
{
	char	   *error;
	const struct passwd *pw = server_account(&error);

	if (pw == NULL ||
		setgid(pw->pw_gid) != 0 ||
		initgroups(pw->pw_name, pw->pw_gid) != 0 ||
		setuid(pw->pw_uid) != 0 ||
		setuid(0) == 0)			/* the switch must not be undoable */
	{
		fprintf(stderr, "%s: error: could not switch to the server account\n", progname);
		_exit(127);
	}
	setenv("HOME", pw->pw_dir, 1);
	setenv("USER", pw->pw_name, 1);
	setenv("LOGNAME", pw->pw_name, 1);
}

/* Fork a child in a process group of its own, with default signal actions. */
static pid_t
fork_in_own_group(bool unprivileged)
{
	pid_t		pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid > 0)
	{
		/* also here: the parent may signal the group before the child runs */
		(void) setpgid(pid, pid);
		return pid;
	}
	if (pid < 0)
		return pid;
	(void) setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (unprivileged && need_server_account())
		become_unprivileged_or_exit();
	return 0;
}

static void
write_command_line(int fd, const ChildSpec *spec)
{
	PQExpBufferData line;

	initPQExpBuffer(&line);
	appendPQExpBufferStr(&line, "$");
	for (int i = 0; spec->argv[i]; i++)
		appendPQExpBuffer(&line, " %s", spec->argv[i]);
	if (spec->cwd)
		appendPQExpBuffer(&line, "    (in %s)", spec->cwd);
	appendPQExpBufferChar(&line, '\n');
	if (write(fd, line.data, line.len) != line.len)
	{
		/* a log that cannot be written: the command's own output fails too */
	}
	termPQExpBuffer(&line);
}

/*
 * In a child about to exec: close every descriptor but the standard streams
 * and those spec keeps, whatever the rest of the client forgot to mark
 * close-on-exec (a results file, a pipe, a library's socket).  A program
 * we run holds only what it is given (test/t/086_sigpipe_descriptors.pl).
 */
static void
close_other_fds(const ChildSpec *spec)
{
	DIR		   *d = opendir("/proc/self/fd");
	struct dirent *de;
	int			listing = d ? dirfd(d) : -1;
	int			fds[1024];
	int			n = 0;

	if (d == NULL)
	{
		/* no /proc: the descriptors the client can have open */
		for (int fd = 3; fd < 1024; fd++)
			if (fd != spec->keep_fds[0] && fd != spec->keep_fds[1])
				(void) close(fd);
	}
	else
	{
		/* collected first: closing while listing would skip entries */
		while ((de = readdir(d)) != NULL && n < lengthof(fds))
		{
			int			fd = atoi(de->d_name);

			if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && fd > 2 && fd != listing &&
				fd != spec->keep_fds[0] && fd != spec->keep_fds[1])
				fds[n++] = fd;
		}
		closedir(d);
		for (int i = 0; i < n; i++)
			(void) close(fds[i]);
	}
	for (int i = 0; i < 2; i++)
		if (spec->keep_fds[i] >= 0)
			(void) fcntl(spec->keep_fds[i], F_SETFD, 0);
}

/*
 * Start spec->argv.  Returns the child's pid (also its process group), or
 * -1 if it could not fork; a program that cannot be executed exits 127.
 */
pid_t
child_start(const ChildSpec *spec)
{
	pid_t		pid;
	int			devnull;
	int			log_fd = spec->log_fd;

	/* nothing new starts that would be ended at once */
	if (spec->interruptible && run_interrupted)
		return -1;
	pid = fork_in_own_group(spec->unprivileged);
	if (pid > 0 && spec->interruptible && ninterruptible < MAX_INTERRUPTIBLE)
		interruptible[ninterruptible++] = pid;
	if (pid != 0)
		return pid;				/* parent, or -1 */

	/* with MAKELEVEL set, PostgreSQL's make takes itself for a sub-make */
	unsetenv("MAKELEVEL");
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKEOVERRIDES");
	if (spec->cwd && chdir(spec->cwd) != 0)
	{
		fprintf(stderr, "%s: error: could not change directory to \"%s\": %s\n",
				progname, spec->cwd, strerror(errno));
		_exit(127);
	}
	if (log_fd < 0 && spec->log_path)
	{
		char	   *error;

		log_fd = safe_open_write(spec->log_path, true, &error);
		if (log_fd < 0)
		{
			fprintf(stderr, "%s: error: could not open log file: %s\n", progname, error);
			_exit(127);
		}
	}
	if (log_fd >= 0)
		write_command_line(log_fd, spec);
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	dup2(spec->in_fd >= 0 ? spec->in_fd : devnull, STDIN_FILENO);
	if (log_fd >= 0)
	{
		dup2(log_fd, STDOUT_FILENO);
		dup2(log_fd, STDERR_FILENO);
	}
	else
	{
		dup2(spec->out_fd >= 0 ? spec->out_fd : devnull, STDOUT_FILENO);
		dup2(spec->err_fd >= 0 ? spec->err_fd : devnull, STDERR_FILENO);
	}
	close_other_fds(spec);
	if (spec->cpus && sched_setaffinity(0, sizeof(cpu_set_t), spec->cpus) != 0)
	{
		fprintf(stderr, "%s: error: could not pin \"%s\" to its CPUs: %s\n",
				progname, spec->argv[0], strerror(errno));
		_exit(127);
	}
	execvp(spec->argv[0], spec->argv);
	fprintf(stderr, "could not execute \"%s\": %s\n", spec->argv[0], strerror(errno));
	_exit(127);
}

static int
exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

static bool
group_exists(pid_t pgid)
{
	return kill(-pgid, 0) == 0 || errno != ESRCH;
}

/*
 * End what is left of process group pgid: SIGTERM, SIGKILL after the
 * grace period, until no member remains (bounded).  The leader's exit
 * status goes to *status if it is reaped here.  Members orphaned by their
 * parent's death are ours to reap when we are a subreaper.
 */
static void
end_group(pid_t pgid, bool *leader_reaped, int *status)
{
	double		start = now_seconds();
	bool		killed = false;

	(void) kill(-pgid, SIGTERM);
	(void) kill(-pgid, SIGCONT);
	while (now_seconds() - start < 2 * END_GRACE_SECONDS)
	{
		if (!*leader_reaped && waitpid(pgid, status, WNOHANG) == pgid)
			*leader_reaped = true;
		if (*leader_reaped)
			reap_exited_children();
		if (!group_exists(pgid))
			return;
		if (!killed && now_seconds() - start >= END_GRACE_SECONDS)
		{
			(void) kill(-pgid, SIGKILL);
			killed = true;
		}
		pg_usleep(WAIT_POLL_USEC);
	}
}

/* Whether pid was started interruptible; it is forgotten (being waited for). */
static bool
forget_interruptible(pid_t pid)
{
	for (int i = 0; i < ninterruptible; i++)
		if (interruptible[i] == pid)
		{
			interruptible[i] = interruptible[--ninterruptible];
			return true;
		}
	return false;
}

/*
 * Wait for pid (a child of child_start()); returns its exit status, or
 * 128 + signal, or -1.  Once the user interrupts, an interruptible child's
 * whole group is ended first.
 */
int
wait_process(pid_t pid)
{
	int			status = 0;
	bool		reaped = false;
	bool		ends = forget_interruptible(pid);

	while (!reaped)
	{
		pid_t		r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			reaped = true;
		else if (r < 0 && errno != EINTR)
			return -1;
		else if (run_interrupted && ends)
		{
			end_group(pid, &reaped, &status);
			if (!reaped && waitpid(pid, &status, 0) != pid)
				return 128 + SIGKILL;
			return exit_status(status);
		}
		else
			pg_usleep(WAIT_POLL_USEC);
	}
	/* the leader is gone; compilers it started may not be */
	if (run_interrupted && ends)
		end_group(pid, &reaped, &status);
	return exit_status(status);
}

/* Run spec to completion: its exit status, or -1 if it could not start. */
int
child_run(const ChildSpec *spec)
{
	pid_t		pid = child_start(spec);

	return pid < 0 ? -1 : wait_process(pid);
}

/*
 * Run writer with its stdout fed to reader's stdin, like "writer | reader".
 * Returns the reader's exit status if it failed, else the writer's.
 */
static int
child_pipe(const ChildSpec *writer, const ChildSpec *reader)
{
	ChildSpec	w = *writer;
	ChildSpec	r = *reader;
	int			fds[2];
	pid_t		wpid,
				rpid;
	int			wrc,
				rrc;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	r.in_fd = fds[0];
	rpid = child_start(&r);
	close(fds[0]);
	w.out_fd = fds[1];
	wpid = rpid < 0 ? -1 : child_start(&w);
	close(fds[1]);
	wrc = wpid < 0 ? -1 : wait_process(wpid);
	rrc = rpid < 0 ? -1 : wait_process(rpid);
	return rrc != 0 ? rrc : wrc;
}

/*
 * "writer | tar -x" into the directory to, the tar as the server account,
 * so that what lands there is that account's: a tree read by the invoking
 * user (who may be the only one able to read it), or a commit exported by
 * git.  The tar's output goes to log_path, or to stderr when NULL.
 * child_pipe()'s status.
 */
int
untar_as_server_account(const ChildSpec *writer, const char *to, const char *log_path)
{
	ChildSpec	reader = CHILD_SPEC_INIT;
	char	   *r[] = {"tar", "-C", (char *) to, "--no-same-owner", "-xf", "-", NULL};

	reader.argv = r;
	reader.unprivileged = true;
	reader.interruptible = true;
	reader.log_path = log_path;
	if (log_path == NULL)
		reader.err_fd = STDERR_FILENO;
	return child_pipe(writer, &reader);
}

/*
 * Copy files (paths relative to from; excludes are tar's --exclude
 * options, or NULL) into the directory to, as the server account
 * (untar_as_server_account()).
 */
bool
copy_to_server_account(const char *from, char *const *excludes, char *const *files, const char *to,
					   const char *log_path)
{
	ChildSpec	writer = CHILD_SPEC_INIT;
	Argv		w = {0};

	argv_add(&w, "tar");
	argv_add(&w, "-C");
	argv_add(&w, from);
	if (excludes)
		argv_add_words(&w, excludes);
	argv_add(&w, "-cf");
	argv_add(&w, "-");
	argv_add(&w, "--");
	argv_add_words(&w, files);
	writer.argv = w.args;
	writer.err_fd = STDERR_FILENO;
	writer.interruptible = true;
	return untar_as_server_account(&writer, to, log_path) == 0;
}

/*
 * Run spec and return what it wrote to stdout (and stderr, if asked), at
 * most 64 kB of it; *status gets its exit status.
 */
char *
child_output(const ChildSpec *spec, bool with_stderr, int *status)
{
	ChildSpec	s = *spec;
	int			fds[2];
	pid_t		pid;
	PQExpBufferData out;
	bool		ended = false;

	initPQExpBuffer(&out);
	*status = -1;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return out.data;
	s.out_fd = fds[1];
	if (with_stderr)
		s.err_fd = fds[1];
	s.log_fd = -1;
	s.log_path = NULL;
	pid = child_start(&s);
	close(fds[1]);
	if (pid < 0)
	{
		close(fds[0]);
		return out.data;
	}
	for (;;)
	{
		struct pollfd pfd = {fds[0], POLLIN, 0};
		char		buf[4096];
		ssize_t		n;

		if (run_interrupted && spec->interruptible && !ended)
		{
			/* no output is worth waiting for now: end it so that we read EOF */
			(void) kill(-pid, SIGKILL);
			ended = true;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out.len < 65536)
			appendBinaryPQExpBuffer(&out, buf, n);
	}
	close(fds[0]);
	*status = wait_process(pid);
	return out.data;
}

/*
 * Run spec to completion with its output appended to log_path, which we
 * open (never through a symlink) so that it may lie where the child's
 * account cannot write.  Returns its exit status (0 = success), or -1 if
 * it could not start.
 */
int
child_run_logged(const ChildSpec *spec, const char *log_path)
{
	ChildSpec	s = *spec;
	int			rc;

	char	   *error;

	s.log_fd = safe_open_write(log_path, true, &error);
	if (s.log_fd < 0)
	{
		log_error_text(error);
		return -1;
	}
	rc = child_run(&s);
	close(s.log_fd);
	return rc;
}

/* argv into a log the caller opened (cluster.c: without following links). */
int
run_logged_fd(char *const argv[], bool as_server, int log_fd)
{
	ChildSpec	spec = CHILD_SPEC_INIT;

	spec.argv = argv;
	spec.unprivileged = as_server;
	spec.log_fd = log_fd;
	return child_run(&spec);
}

/*
 * Run fn(arg, error) in a child process, as the server account if
 * unprivileged (and we are root).  fn's effects on memory are lost (so is
 * whatever global state it changes); its error message comes back.
 */
bool
run_in_child(bool (*fn) (void *arg, char **error), void *arg, bool unprivileged, char **error)
{
	int			fds[2];
	pid_t		pid;
	PQExpBufferData msg;
	char		buf[1024];
	ssize_t		n;
	int			rc;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return fail_with(error, "could not create a pipe: %m");
	pid = fork_in_own_group(unprivileged);
	if (pid == 0)
	{
		char	   *child_error = NULL;

		close(fds[0]);
		if (fn(arg, &child_error))
			_exit(0);
		if (child_error && write(fds[1], child_error, strlen(child_error)) < 0)
			_exit(2);
		/* _exit: the parent's atexit handlers (stopping its servers) are not ours */
		_exit(1);
	}
	close(fds[1]);
	if (pid < 0)
	{
		close(fds[0]);
		return fail_with(error, "could not fork: %m");
	}
	initPQExpBuffer(&msg);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			appendBinaryPQExpBuffer(&msg, buf, n);
	close(fds[0]);
	rc = wait_process(pid);
	if (rc != 0)
		*error = msg.len > 0 ? pg_strdup(msg.data)
			: psprintf("a child process of the client exited with status %d", rc);
	termPQExpBuffer(&msg);
	return rc == 0;
}

/*
 * The client's own file work inside directories the server account owns,
 * done as that account (when we are root; as ourselves otherwise).
 */
static bool
as_unprivileged(bool (*fn) (void *arg, char **error), void *arg, char **error)
{
	return run_in_child(fn, arg, true, error);
}

/* The client's own file work, done as the children's account. */
typedef enum FileOp
{
	FILE_ACCESS,
	FILE_MKDIR,
	FILE_REMOVE,
	FILE_WRITE
} FileOp;

typedef struct FileWork
{
	FileOp		op;
	const char *path;
	const char *text;			/* FILE_WRITE */
	int			mode;			/* FILE_ACCESS: access(2)'s */
} FileWork;

static bool
do_file_work(void *arg, char **error)
{
	FileWork   *w = arg;
	struct stat st;

	switch (w->op)
	{
		case FILE_ACCESS:
			return access(w->path, w->mode) == 0;
		case FILE_MKDIR:
			return safe_mkdir(w->path, 0700, 0, error);
		case FILE_REMOVE:
			if (lstat(w->path, &st) != 0)
				return errno == ENOENT;
			/* rmtree() removes links, never what they point to */
			if (S_ISDIR(st.st_mode) ? rmtree(w->path, true) : unlink(w->path) == 0)
				return true;
			return fail_with(error, "could not remove \"%s\": %m", w->path);
		case FILE_WRITE:
			return safe_write_file(w->path, w->text, 0, error);
	}
	return false;
}

static bool
file_work(FileOp op, const char *path, const char *text, int mode, char **error)
{
	FileWork	w = {op, path, text, mode};

	return as_unprivileged(do_file_work, &w, error);
}

/* Whether the account children run as can access path (access(2) modes). */
bool
unprivileged_can_access(const char *path, int mode)
{
	char	   *ignored;

	return file_work(FILE_ACCESS, path, NULL, mode, &ignored);
}

/* Create directory path (mode 0700) as the children's account; it may exist. */
bool
unprivileged_mkdir(const char *path, char **error)
{
	return file_work(FILE_MKDIR, path, NULL, 0, error);
}

/* Remove a file or a directory tree as the children's account; absent is fine. */
bool
unprivileged_remove(const char *path, char **error)
{
	return file_work(FILE_REMOVE, path, NULL, 0, error);
}

/* Write text to path (replacing it) as the children's account. */
bool
unprivileged_write(const char *path, const char *text, char **error)
{
	return file_work(FILE_WRITE, path, text, 0, error);
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

/* The last lines of a log file, for error messages that quote the server. */
char *
tail_of_file(const char *path, int max_lines)
{
	FILE	   *f = fopen(path, "re");
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

/*
 * An absolute directory of the installation in bindir, as its pg_config
 * prints it for option ("--pkglibdir", "--sharedir"), run as the server
 * account; NULL when pg_config fails or prints no absolute path.  An
 * answer is kept for the life of the process: an installation's
 * directories do not move while an experiment runs, and every managed
 * cluster asks again (the library check, the template cache's key).
 */
char *
pg_config_dir(const char *bindir, const char *option)
{
	static struct
	{
		char	   *bindir;
		char	   *option;
		char	   *dir;
	}			known[16];
	static int	nknown;
	char	   *argv[] = {psprintf("%s/pg_config", bindir), (char *) option, NULL};
	ChildSpec	spec = CHILD_SPEC_INIT;
	int			status;
	char	   *out;

	for (int i = 0; i < nknown; i++)
		if (strcmp(known[i].bindir, bindir) == 0 && strcmp(known[i].option, option) == 0)
			return pg_strdup(known[i].dir);
	spec.argv = argv;
	spec.unprivileged = true;
	out = child_output(&spec, false, &status);
	if (status != 0 || out == NULL || out[0] != '/')
		return NULL;
	out[strcspn(out, "\n")] = '\0';
	if (nknown < lengthof(known))
	{
		known[nknown].bindir = pg_strdup(bindir);
		known[nknown].option = pg_strdup(option);
		known[nknown].dir = pg_strdup(out);
		nknown++;
	}
	return out;
}
