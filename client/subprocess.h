/*-------------------------------------------------------------------------
 *
 * subprocess.h
 *		Child processes, run as the server account when we are root.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SUBPROCESS_H
#define PGBENCH_EXT_SUBPROCESS_H

#include <pwd.h>
#include <sys/types.h>

extern bool need_server_account(void);
extern const struct passwd *server_account(char **error);
extern bool give_to_server_account(const char *path, char **error);
extern pid_t spawn_process(char *const argv[], bool as_server, int out_fd, int err_fd);
extern int	wait_process(pid_t pid);
extern int	run_logged(char *const argv[], bool as_server, const char *log_path);
extern int	run_logged_fd(char *const argv[], bool as_server, int log_fd);
extern void adopt_orphaned_servers(void);
extern void reap_exited_children(void);
extern char *tail_of_file(const char *path, int max_lines);

#endif							/* PGBENCH_EXT_SUBPROCESS_H */
