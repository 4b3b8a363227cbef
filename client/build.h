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

/* The training load of pgo = on (pgo.c): a seed the measurement does not use. */
#define PGO_TRAINING_SEED		271828
#define PGO_TRAINING_SECONDS	15

extern bool pgo_train(const char *bindir, const char *work_dir, const char *log, char **error);
extern bool build_check(const ExperimentSpec *spec, char **error);
extern bool build_variants(ExperimentSpec *spec, char **error);

#endif							/* PGBENCH_EXT_BUILD_H */
