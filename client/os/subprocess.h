/*-------------------------------------------------------------------------
 *
 * subprocess.h
 *		Child processes: the one way the client runs another program (an
 *		argv vector, never a shell), and the unprivileged account that
 *		runs them when we are root.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SUBPROCESS_H
#define PGBENCH_EXT_SUBPROCESS_H

#include <pwd.h>
#include <signal.h>
#include <sched.h>
#include <sys/types.h>

#include "account.h"

/* Set by the SIGINT/SIGTERM handler: children are ended, the run stops. */
extern volatile sig_atomic_t run_interrupted;

/* One child process to run. */
typedef struct ChildSpec
{
	char	   *const *argv;	/* argv[0]: a path, or a name looked up in PATH */
	bool		unprivileged;	/* as the server account when we are root */
	bool		interruptible;	/* ended when the user interrupts us */
	const char *cwd;			/* working directory, or NULL: ours */
	int			in_fd;			/* stdin, or -1: /dev/null */
	int			out_fd;			/* stdout, or -1: /dev/null */
	int			err_fd;			/* stderr, or -1: /dev/null */
	int			log_fd;			/* if >= 0: stdout and stderr, after a "$ argv" line */
	const char *log_path;		/* else if set: the same, appended to this file,
								 * which the child opens as the account it runs as */
	int			keep_fds[2];	/* descriptors the program is told of (perf's
								 * --control), or -1; every other one but
								 * 0, 1 and 2 is closed in the child */
	const cpu_set_t *cpus;		/* the CPUs it may run on, or NULL: ours */
} ChildSpec;

#define CHILD_SPEC_INIT {NULL, false, false, NULL, -1, -1, -1, -1, NULL, {-1, -1}}

extern pid_t child_start(const ChildSpec *spec);
extern int	wait_process(pid_t pid);
extern int	child_run(const ChildSpec *spec);
extern int	child_run_logged(const ChildSpec *spec, const char *log_path);
extern int	untar_as_server_account(const ChildSpec *writer, const char *to, const char *log_path);
extern bool copy_to_server_account(const char *from, char *const *excludes, char *const *files,
								   const char *to, const char *log_path);
extern char *child_output(const ChildSpec *spec, bool with_stderr, int *status);
extern char *pg_config_dir(const char *bindir, const char *option);
extern bool run_in_child(bool (*fn) (void *arg, char **error), void *arg, bool unprivileged,
						 char **error);

/* the cluster's form: initdb and pg_ctl, never interrupted */
extern int	run_logged_fd(char *const argv[], bool as_server, int log_fd);

/* the account, and the client's own work done as that account */
extern bool give_to_server_account(const char *path, char **error);
extern bool unprivileged_can_access(const char *path, int mode);
extern bool unprivileged_mkdir(const char *path, char **error);
extern bool unprivileged_remove(const char *path, char **error);
extern bool unprivileged_write(const char *path, const char *text, char **error);

extern void adopt_orphaned_servers(void);
extern void reap_exited_children(void);
extern char *tail_of_file(const char *path, int max_lines);

#endif							/* PGBENCH_EXT_SUBPROCESS_H */
