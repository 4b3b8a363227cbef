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

#include "cache_dir.h"

#include <jansson.h>

/* Environment variable naming the build cache; the defaults are in build_cache.c. */
#define BUILD_CACHE_ENV		"PGBENCH_EXT_BUILD_CACHE"

extern char *build_cache_root(void);
extern bool build_cache_prepare(char **error);
extern CacheEntry build_cache_entry(const char *dir, char **error);
extern json_t *build_cache_load(const char *dir, char **bindir, char **error);
extern void build_cache_times(double *full_s, double *started_s);

#endif							/* PGBENCH_EXT_BUILD_CACHE_H */
