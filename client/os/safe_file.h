/*-------------------------------------------------------------------------
 *
 * safe_file.h
 *		The client's one way to write a file or make a directory (rules in
 *		safe_file.c); reading is safe_read.h's.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SAFE_FILE_H
#define PGBENCH_EXT_SAFE_FILE_H

#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

/* how safe_open_file() opens, and whose directories safe_mkdir() accepts */
#define SAFE_APPEND		0x01	/* append (created if absent), else replace */
#define SAFE_NEW		0x02	/* the file must not exist yet (O_EXCL) */
#define SAFE_SERVER_DIR	0x04	/* the directory may be the server account's */
#define SAFE_GIVE		0x08	/* hand a new directory to the server account */
#define SAFE_FRESH		0x10	/* made afresh in place (O_EXCL), an old regular
								 * file of that name removed first: a run's
								 * output, visible while it is written */

/* writing */
extern int	safe_open_file(const char *path, int how, char **error);
extern int	safe_open_write(const char *path, bool append, char **error);
extern bool safe_close(int fd, char **error);
extern void safe_abandon(int fd);
extern FILE *safe_fopen_write(const char *path, bool append, char **error);
extern bool safe_fclose(FILE *f, char **error);
extern void safe_abandon_stream(FILE *f);
extern bool safe_write_file(const char *path, const char *text, int how, char **error);
extern bool safe_file_refused(void);
extern bool safe_remove_file(const char *path, char **error);
extern bool safe_write_sysctl(const char *path, const char *value, char **error);

/* directories */
extern bool safe_mkdir(const char *path, mode_t mode, int how, char **error);
extern bool safe_mkdir_p(const char *path, mode_t mode, char **error);
extern char *safe_mkdtemp(const char *prefix, char **error);
extern bool safe_check_private_dir(const char *path, char **error);
extern bool safe_results_dir(const char *path, bool must_exist, char **error);
extern bool safe_give_to_server_account(const char *path, char **error);

#endif							/* PGBENCH_EXT_SAFE_FILE_H */
