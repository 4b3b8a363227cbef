/*-------------------------------------------------------------------------
 *
 * pgo.h
 *		The training load of a profile-guided build, pgo = on (pgo.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PGO_H
#define PGBENCH_EXT_PGO_H

#include "client.h"

/* A seed the measurement does not use, and the seconds of each script. */
#define PGO_TRAINING_SEED		271828
#define PGO_TRAINING_SECONDS	15

extern bool pgo_train(const char *bindir, const char *work_dir, const char *log, char **error);

#endif							/* PGBENCH_EXT_PGO_H */
