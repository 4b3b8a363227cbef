/*-------------------------------------------------------------------------
 *
 * build_cache.h
 *		Where source builds are kept, and the checks that keep anyone else
 *		from having put or changed anything there.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_BUILD_CACHE_H
#define PGBENCH_EXT_BUILD_CACHE_H

#include <jansson.h>

/* Environment variable naming the build cache; the defaults are in build_cache.c. */
#define BUILD_CACHE_ENV		"PGBENCH_EXT_BUILD_CACHE"

/* What a directory of the cache is (build_cache_entry()). */
typedef enum CacheEntry
{
	ENTRY_ABSENT,
	ENTRY_UNFINISHED,			/* no marker (build.json): an interrupted or
								 * failed build */
	ENTRY_FINISHED,
	ENTRY_REFUSED				/* someone else could have written it: error set */
} CacheEntry;

extern char *build_cache_root(void);
extern bool build_cache_prepare(char **error);
extern CacheEntry build_cache_entry(const char *dir, char **error);
extern bool cache_dir_prepare(const char *root, const char *env_name, const char *what, char **error);
extern CacheEntry cache_entry(const char *dir, const char *marker, const char *kind, char **error);
extern json_t *build_cache_load(const char *dir, char **bindir, char **error);

#endif							/* PGBENCH_EXT_BUILD_CACHE_H */
