/*-------------------------------------------------------------------------
 *
 * template_cache.h
 *		Data directories whose template database is filled and ready, kept
 *		beside the initdb cache's entries (PGBENCH_EXT_INITDB_CACHE=DIR).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_TEMPLATE_CACHE_H
#define PGBENCH_EXT_TEMPLATE_CACHE_H

#include "cache_dir.h"
#include "experiment.h"

extern char *template_cache_entry(const char *initdb_entry, const char *initdb_key,
								  const VariantSpec *v, const char *bindir, int scale,
								  bool unlogged, char **key_text);
extern CacheEntry template_cache_find(const char *entry, char **error);
extern void template_cache_store(const char *entry, const char *key_text, const char *datadir,
								 int log_fd);

#endif							/* PGBENCH_EXT_TEMPLATE_CACHE_H */
