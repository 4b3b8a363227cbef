/*-------------------------------------------------------------------------
 *
 * build_seeds.h
 *		The NAME@seedK convention of variants built with build seeds
 *		(build_seeds.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_BUILD_SEEDS_H
#define PGBENCH_EXT_BUILD_SEEDS_H

#include "experiment.h"

/* Separates a variant's name from its build seed: "B@seed2". */
#define BUILD_SEED_MARK		"@seed"
/* A pattern naming every seed of one variant: "B@seed*". */
#define BUILD_SEED_ALL		BUILD_SEED_MARK "*"

extern bool build_seeds_expand(ExperimentSpec *spec, char **error);
extern char *build_seeds_base(const char *variant, int *seed);
extern int	build_seeds_baseline(const ExperimentSpec *spec, int v);
extern int	build_seeds_pooled(const ExperimentSpec *spec, char **names);
extern bool build_seeds_matches(const char *pattern, const char *variant);

#endif							/* PGBENCH_EXT_BUILD_SEEDS_H */
