/*-------------------------------------------------------------------------
 *
 * cache_dir.h
 *		A private cache directory and the checks on what is found in it
 *		(cache_dir.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CACHE_DIR_H
#define PGBENCH_EXT_CACHE_DIR_H

#include <sys/stat.h>

/* What a directory of the cache is (cache_entry()). */
typedef enum CacheEntry
{
	ENTRY_ABSENT,
	ENTRY_UNFINISHED,			/* no marker (build.json): an interrupted or
								 * failed build */
	ENTRY_FINISHED,
	ENTRY_REFUSED				/* someone else could have written it: error set */
} CacheEntry;

extern bool cache_dir_prepare(const char *root, const char *env_name, const char *what, char **error);
extern CacheEntry cache_entry(const char *dir, const char *marker, const char *kind, char **error);
extern bool cache_trusted(const char *what, const char *path, const struct stat *st, const char *fix,
						  char **error);

#endif							/* PGBENCH_EXT_CACHE_DIR_H */
