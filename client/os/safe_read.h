/*-------------------------------------------------------------------------
 *
 * safe_read.h
 *		The client's bounded way to read a file of a results directory
 *		that may come from someone else (safe_read.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SAFE_READ_H
#define PGBENCH_EXT_SAFE_READ_H

#include "client.h"

#include <jansson.h>

/* reading files of a results directory: regular files only, bounded */
#define SAFE_MAX_JSON	(64 * 1024 * 1024)
#define SAFE_MAX_CSV	(256 * 1024 * 1024)
#define SAFE_MAX_LOG	(64 * 1024 * 1024)
#define SAFE_MAX_SVG	(64 * 1024 * 1024)

extern FILE *safe_fopen_read(const char *path, off_t max_bytes, char **error);
extern FILE *safe_fopen_read_optional(const char *path, off_t max_bytes);
extern json_t *safe_read_json(const char *path, off_t max_bytes, char **error);

#endif							/* PGBENCH_EXT_SAFE_READ_H */
