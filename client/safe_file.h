/*-------------------------------------------------------------------------
 *
 * safe_file.h
 *		Writing files in directories that someone else may control: a
 *		cluster directory the server account owns, a results directory
 *		received from someone else.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SAFE_FILE_H
#define PGBENCH_EXT_SAFE_FILE_H

#include <stdio.h>

extern int	safe_open_write(const char *path, bool append, char **error);
extern FILE *safe_fopen_write(const char *path, bool append, char **error);
extern bool safe_write_file(const char *path, const char *text, bool append, char **error);
extern bool safe_give_to_server_account(const char *path, char **error);
extern bool safe_check_private_dir(const char *path, char **error);

#endif							/* PGBENCH_EXT_SAFE_FILE_H */
