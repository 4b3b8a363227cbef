/*-------------------------------------------------------------------------
 *
 * profile_import.h
 *		"import" of a results directory's profiles into the extension's
 *		SQL tables (profile_import.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_IMPORT_H
#define PGBENCH_EXT_PROFILE_IMPORT_H

#include "client.h"

extern int	profile_import(PGconn *conn, const char *experiment_id, const char *dir,
						   char **error);

#endif							/* PGBENCH_EXT_PROFILE_IMPORT_H */
