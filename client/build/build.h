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

extern bool build_check(const ExperimentSpec *spec, char **error);
extern bool build_variants(ExperimentSpec *spec, char **error);

#endif							/* PGBENCH_EXT_BUILD_H */
