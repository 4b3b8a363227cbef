/*-------------------------------------------------------------------------
 *
 * initdb_args.h
 *		A variant's initdb_args, parsed as initdb parses them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_INITDB_ARGS_H
#define PGBENCH_EXT_INITDB_ARGS_H

extern int	initdb_args_words(const char *args, char **words, int max);
extern bool initdb_args_check(const char *variant, const char *args, char **error);

#endif							/* PGBENCH_EXT_INITDB_ARGS_H */
