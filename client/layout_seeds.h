/*-------------------------------------------------------------------------
 *
 * layout_seeds.h
 *		The NAME@seedK convention of variants built with layout seeds.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_LAYOUT_SEEDS_H
#define PGBENCH_EXT_LAYOUT_SEEDS_H

#include "experiment.h"

/* Separates a variant's name from its layout seed: "B@seed2". */
#define LAYOUT_SEED_MARK	"@seed"
/* A pattern naming every seed of one variant: "B@seed*". */
#define LAYOUT_SEED_ALL		LAYOUT_SEED_MARK "*"

extern bool layout_seeds_expand(ExperimentSpec *spec, char **error);
extern char *layout_seed_base(const char *variant, int *seed);
extern int	layout_seed_baseline(const ExperimentSpec *spec, int v);
extern int	layout_seed_pooled(const ExperimentSpec *spec, char **names);
extern bool layout_seed_matches(const char *pattern, const char *variant);

struct ReportData;

#endif							/* PGBENCH_EXT_LAYOUT_SEEDS_H */
