/*-------------------------------------------------------------------------
 *
 * pgbench_child.h
 *		pgbench as a child process: its output files, its progress lines
 *		read live (pgbench_child.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PGBENCH_CHILD_H
#define PGBENCH_EXT_PGBENCH_CHILD_H

#include "progress.h"
#include "subprocess.h"

typedef struct PgbenchChild
{
	pid_t		pid;
	int			pipe_fd;		/* its stderr, read by us; -1 once at its end */
	int			out_fd;			/* its stdout file */
	int			err_file;		/* the copy of its stderr */
	const char *err_path;
	Progress   *progress;		/* fed its progress lines, or NULL */
	char		line[1024];
	int			linelen;
	bool		killed;
} PgbenchChild;

extern bool pgbench_child_start(PgbenchChild *c, char **argv, const cpu_set_t *cpus,
								const char *out_path, const char *err_path,
								Progress *progress, char **error);
extern bool pgbench_child_read(PgbenchChild *c);
extern int	pgbench_child_finish(PgbenchChild *c, char **error);

#endif							/* PGBENCH_EXT_PGBENCH_CHILD_H */
