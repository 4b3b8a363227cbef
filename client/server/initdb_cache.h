/*-------------------------------------------------------------------------
 *
 * initdb_cache.h
 *		Data directories fresh from initdb, kept to be copied instead of
 *		running initdb again (PGBENCH_EXT_INITDB_CACHE=DIR).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_INITDB_CACHE_H
#define PGBENCH_EXT_INITDB_CACHE_H

typedef enum InitdbTemplate
{
	TEMPLATE_NONE,				/* no cache named: run initdb */
	TEMPLATE_MISSING,			/* run initdb, then keep a copy */
	TEMPLATE_FOUND,				/* copy it */
	TEMPLATE_REFUSED			/* the cache fails its checks: error set */
} InitdbTemplate;

extern InitdbTemplate initdb_cache_lookup(const char *bindir, char *const argv[], char **entry,
										  char **key_text, char **values, char **error);
extern bool initdb_cache_copy(const char *entry, const char *datadir, int log_fd, char **error);
extern void initdb_cache_store(const char *entry, const char *key_text, const char *datadir,
							   int log_fd);
extern void cache_keep_datadir(const char *entry, const char *marker, const char *what,
							   const char *key_text, const char *datadir, const char *leave_out,
							   int log_fd);
extern void initdb_cache_record_values(const char *entry, const char *values);

#endif							/* PGBENCH_EXT_INITDB_CACHE_H */
