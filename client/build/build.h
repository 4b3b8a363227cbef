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

/* What building an experiment's source variants takes (build_forecast()) */
typedef struct BuildForecast
{
	int			variants;		/* built from source */
	int			cached;			/* of them, in the build cache already */
	int			full;			/* to build from nothing */
	int			started;		/* to build from another build's tree */
	double		seconds;		/* the builds' time here; NAN: not known */
	const char *unknown;		/* the kind of build the cache has no time
								 * of, where seconds is NAN */
} BuildForecast;

extern bool build_check(const ExperimentSpec *spec, char **error);
extern bool build_forecast(ExperimentSpec *spec, BuildForecast *f, char **error);
extern void build_forecast_print(ExperimentSpec *spec, FILE *out);
extern bool build_variants(ExperimentSpec *spec, char **error);

/*
 * One variant's build as build.c describes it, shared with build_forecast.c
 * (the build family), which describes builds without making them.
 */
typedef struct Build
{
	VariantSpec *v;
	char	   *key;
	char	   *key_text;		/* what the key hashes, for build.json */
	char	   *dir;			/* CACHE/KEY */
	char	   *source_id;
	char	   *compiler;
	char	   *cflags;			/* as given to configure */
	char	   *ldflags;
	json_t	   *patches;
	char	   *base;			/* CACHE/KEY of the tree we start from, or NULL */
	bool		base_patched;	/* ... which already has our patches */
	char	   *failed_step;
	char	   *failed_log;
} Build;

/* b (its v set) described: its key, cache entry and a tree to start from */
extern bool build_describe(Build *b, char **error);

/* The key text of b, optionally without its patches, of build seed seed */
extern char *build_key_text(Build *b, bool with_patches, int seed);

/* The cache entry of a key text */
extern char *build_key_dir(const char *text);

/* The pass of build_variants() that builds v (0, 1 or 2) */
extern int	build_pass(const VariantSpec *v);

#endif							/* PGBENCH_EXT_BUILD_H */
