/*-------------------------------------------------------------------------
 *
 * build.h
 *		Variants built from a PostgreSQL source tree (source = DIR): each
 *		is built into a cache before any cluster starts, then runs as a
 *		bindir variant.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_BUILD_H
#define PGBENCH_EXT_BUILD_H

#include "experiment.h"

/* Environment variable naming the build cache; the default is below. */
#define BUILD_CACHE_ENV		"PGBENCH_EXT_BUILD_CACHE"
#define BUILD_CACHE_DEFAULT "/var/tmp/pgbench_ext-builds"

/* The training load of pgo = on (pgo.c): a seed the measurement does not use. */
#define PGO_TRAINING_SEED		271828
#define PGO_TRAINING_SECONDS	15

extern bool pgo_train(const char *bindir, const char *work_dir, const char *log);
extern bool build_check(const ExperimentSpec *spec, char **error);
extern bool build_variants(ExperimentSpec *spec, char **error);

#endif							/* PGBENCH_EXT_BUILD_H */
