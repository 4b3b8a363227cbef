/*-------------------------------------------------------------------------
 *
 * pgbench_child.c
 *		pgbench as a child process: start it with its output in files of
 *		the results directory, copy its stderr there while feeding its
 *		progress lines to the display, and wait for it.
 *
 * The caller polls pipe_fd (one run alone, or the two runs of a duet at
 * once) and calls pgbench_child_read() when it is readable.  The files are
 * made afresh (a link or FIFO in their place is refused) and can be
 * followed while pgbench writes them.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "pgbench_child.h"
#include "pgbench_output.h"
#include "safe_file.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

bool
pgbench_child_start(PgbenchChild *c, char **argv, const cpu_set_t *cpus,
					const char *out_path, const char *err_path,
					Progress *progress, char **error)
{
	ChildSpec	spec = CHILD_SPEC_INIT;
	int			pipefd[2];

	memset(c, 0, sizeof(*c));
	c->pid = -1;
	c->pipe_fd = -1;
	c->err_path = err_path;
	c->progress = progress;
	c->out_fd = safe_open_file(out_path, SAFE_FRESH, error);
	c->err_file = c->out_fd < 0 ? -1 : safe_open_file(err_path, SAFE_FRESH, error);
	if (c->out_fd < 0 || c->err_file < 0 || pipe2(pipefd, O_CLOEXEC) != 0)
	{
		if (c->out_fd >= 0 && c->err_file >= 0)
			*error = psprintf("could not make a pipe for pgbench: %m");
		if (c->out_fd >= 0)
			safe_abandon(c->out_fd);
		if (c->err_file >= 0)
			safe_abandon(c->err_file);
		return false;
	}
	spec.argv = argv;
	spec.cpus = cpus;
	spec.unprivileged = true;
	spec.interruptible = true;
	spec.out_fd = c->out_fd;
	spec.err_fd = pipefd[1];
	c->pid = child_start(&spec);
	close(pipefd[1]);
	c->pipe_fd = pipefd[0];
	return true;
}

/*
 * Read what pgbench wrote to stderr; false once it has closed it (or the
 * copy cannot be written).  On Ctrl-C, pgbench and its connections are
 * stopped at once: the run is lost either way.
 */
bool
pgbench_child_read(PgbenchChild *c)
{
	char		buf[512];
	ssize_t		n;

	if (run_interrupted && !c->killed && c->pid > 0)
	{
		kill(-c->pid, SIGTERM);
		c->killed = true;
	}
	n = read(c->pipe_fd, buf, sizeof(buf));
	if (n <= 0 || write(c->err_file, buf, n) != n)
		return false;
	for (ssize_t i = 0; i < n; i++)
	{
		if (buf[i] == '\n' || c->linelen == sizeof(c->line) - 1)
		{
			PgbenchProgress p;

			c->line[c->linelen] = '\0';
			if (c->progress && pgbench_progress_parse_line(c->line, &p) == 0)
				progress_update(c->progress, p.elapsed_s, p.tps);
			c->linelen = 0;
		}
		else
			c->line[c->linelen++] = buf[i];
	}
	return true;
}

/*
 * Wait for pgbench and close its files, on disk whatever became of the
 * run (also when interrupted).  Returns its exit status, or -1 if it could
 * not start.
 */
int
pgbench_child_finish(PgbenchChild *c, char **error)
{
	int			rc = c->pid > 0 ? wait_process(c->pid) : -1;
	bool		synced;

	if (c->pipe_fd >= 0)
		close(c->pipe_fd);
	c->pipe_fd = -1;
	synced = fsync(c->out_fd) == 0 && fsync(c->err_file) == 0;
	if (!safe_close(c->out_fd, error) | !safe_close(c->err_file, error))
		log_warning_text(*error);
	else if (!synced)
		log_warning_text(psprintf("could not write \"%s\": %m", c->err_path));
	return rc;
}
