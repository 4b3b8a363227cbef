/*-------------------------------------------------------------------------
 *
 * experiment.h
 *		What an experiment compares and how: the resolved specification.
 *
 * A specification comes from an INI file ("pgbench_ext run FILE"), from
 * command-line flags ("pgbench_ext ab"), or from an earlier experiment's
 * experiment.json (--rerun, --resume).  All three go through
 * experiment_set(), so every key means the same thing everywhere.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_EXPERIMENT_H
#define PGBENCH_EXT_EXPERIMENT_H

#include "postgres_fe.h"

#include <jansson.h>

#include "profile_spec.h"
#include "quiet_keys.h"

#define MAX_VARIANTS	16
#define MAX_LIST		32

typedef enum ResetPolicy
{
	RESET_EVERY_RUN,			/* fresh copy of the data before every run */
	RESET_NEVER					/* runs reuse the data the previous run left */
} ResetPolicy;

/* A variant's snapshot_probe key: unset (the experiment's), off or on */
typedef enum ProbeChoice
{
	PROBE_AS_EXPERIMENT = 0,
	PROBE_OFF,
	PROBE_ON
} ProbeChoice;

typedef struct VariantSpec
{
	char	   *name;
	char	   *bindir;			/* a managed cluster of this installation */
	char	   *conninfo;		/* or an existing server we do not manage */
	char	   *settings[MAX_LIST]; /* "name=value", in file order */
	int			nsettings;
	char	   *cluster;		/* run on this other variant's server instead */
	char	   *session_settings[MAX_LIST]; /* "name=value" for its connections */
	int			nsession_settings;
	bool		extension;		/* load pgbench_ext (default on) */
	char	   *initdb_args;
	ProbeChoice snapshot_probe;

	/* built from a PostgreSQL source tree (build.c); bindir is then its result */
	char	   *source;
	char	   *patches[MAX_LIST];	/* applied in order with patch -p1 */
	int			npatches;
	char	   *cflags;
	char	   *configure;		/* extra configure arguments */
	bool		pgo;
	bool		lto;
	bool		symbols;		/* -g -fno-omit-frame-pointer, as profile builds */
	int			build_seeds;	/* N > 1: expanded into NAME@seedK variants */
	int			build_seed;		/* K of an expanded variant, or 0 */
	json_t	   *build;			/* what build_variants() did: recorded, not a key */
} VariantSpec;

/* pilot = auto's rounds, and the bounds of pilot = N */
#define PILOT_DEFAULT_ROUNDS 6
#define PILOT_MIN_ROUNDS 3
#define PILOT_MAX_ROUNDS 30

typedef struct ExperimentSpec
{
	int			scale;
	int			clients[MAX_LIST];
	int			nclients;
	char	   *jobs;			/* a number, or "clients" / "cpus" / "auto" */
	int			duration_s;		/* -T, or 0 */
	int			transactions;	/* -t, or 0 */
	int			rounds;			/* under rounds = auto: the budget's most (budget.c) */
	int			warmup;			/* leading rounds whose runs are discarded */
	char	   *scripts[MAX_LIST];	/* builtin names or file paths */
	int			nscripts;
	char	   *protocol;		/* simple, extended, prepared */
	bool		unlogged;
	uint64		seed;
	bool		seed_given;
	char	   *pgbench_args;	/* passed through, split on white space */
	ResetPolicy reset;
	bool		snapshot_probe; /* time GetSnapshotData() during every run */
	int			snapshot_probe_interval_ms; /* pause between two probes */

	/*
	 * Restarts of the managed servers: every restart_every rounds (0:
	 * never), or restart_auto, which plan.c resolves from the variants'
	 * servers and the rounds.
	 */
	int			restart_every;
	bool		restart_auto;

	/*
	 * rounds = auto: blocks of rounds until every cell is decided or
	 * budget_s seconds of runs are spent (budget.c), at least min_rounds.
	 */
	bool		rounds_auto;
	int			budget_s;
	int			min_rounds;

	/*
	 * rounds = auto: the ratio B/A the looks test against, or 0 for the
	 * ordinary decision (against 1, with the noise threshold).  A look
	 * then decides which side of it B/A lies on
	 * (stats_sequential_decide_against()).
	 */
	double		reference;

	/*
	 * pilot: before the first counted run, pilot_rounds paired rounds that
	 * measure the noise at the host's load now and forecast the time to
	 * decide (pilot.c); 0: none.  pilot_auto: only on a loaded host whose
	 * history holds no noise of such a load (preflight.c).
	 */
	int			pilot_rounds;
	bool		pilot_auto;

	ProfileSpec profile;		/* profile, cache_sim, sample_event, sample_rate */
	QuietSpec	quiet;			/* pin, aslr, pgbench_seed, prewarm, schedule */
	VariantSpec variants[MAX_VARIANTS];
	int			nvariants;
} ExperimentSpec;

extern void experiment_init(ExperimentSpec *spec);
extern bool experiment_set(ExperimentSpec *spec, const char *section,
						   const char *key, const char *value, char **error);
extern bool experiment_read_ini(ExperimentSpec *spec, const char *path, char **error);
extern bool experiment_check(const ExperimentSpec *spec, char **error);
extern bool experiment_resolve(ExperimentSpec *spec, bool probe_perf, char **error);
extern bool experiment_check_variants(const ExperimentSpec *spec, char **error);
extern bool snapshot_probe_enabled(const ExperimentSpec *spec, const VariantSpec *v);
extern int	experiment_variant_index(const ExperimentSpec *spec, const char *name);
extern char *experiment_variant_names(const ExperimentSpec *spec);
extern int	experiment_jobs_for(const ExperimentSpec *spec, int clients);
extern bool experiment_is_builtin_script(const char *script);
extern bool experiment_parse_duration(const char *value, int *seconds);

extern json_t *experiment_to_json(const ExperimentSpec *spec);
extern bool experiment_from_json(ExperimentSpec *spec, json_t *obj, char **error);

#endif							/* PGBENCH_EXT_EXPERIMENT_H */
