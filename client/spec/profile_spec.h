/*-------------------------------------------------------------------------
 *
 * profile_spec.h
 *		The [experiment] keys of profiles: profile, cache_sim,
 *		sample_event, sample_rate, counted_view, counted_view_rounds,
 *		counted_view_transactions (profile_spec.c).
 *
 * Included by experiment.h, whose ExperimentSpec holds one ProfileSpec;
 * profile.h maps the other files of profiles.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_SPEC_H
#define PGBENCH_EXT_PROFILE_SPEC_H

#include <stdbool.h>

#include <jansson.h>

typedef enum ProfileMode
{
	PROFILE_OFF = 0,
	PROFILE_COUNTED,			/* servers under callgrind, instructions counted */
	PROFILE_SAMPLED				/* perf samples the servers during ordinary runs */
} ProfileMode;

/* All zero is "profile = off" with every default. */
typedef struct ProfileSpec
{
	ProfileMode mode;
	bool		cache_sim;		/* counted: callgrind --cache-sim=yes */
	char	   *sample_event;	/* sampled only: "cpu-clock", "cycles", or NULL to choose */
	int			sample_rate;	/* sampled only: samples per CPU-second, or 0 for the default */
	bool		counted_view;	/* after the runs, the same variants counted
								 * (counted_view.c), profile off or sampled */
	int			counted_view_rounds;	/* its rounds, or 0 for the default */
	int			counted_view_transactions;	/* its transactions a run, or 0 */
	char	   *event;			/* sampled: the event recorded (resolved), not a key */
} ProfileSpec;

/*
 * Set one key: true if key is a profile key and value is good, false with
 * *error set if the value is bad, and false with *error NULL if key is
 * not a profile key at all.
 */
/* The keys profile_set_key() takes, NULL-terminated */
extern const char *const profile_keys[];

extern bool profile_set_key(ProfileSpec *p, const char *key, const char *value,
							char **error);

/* The keys as experiment.json's [experiment] members (none when off). */
extern void profile_spec_to_json(const ProfileSpec *p, json_t *experiment);

extern const char *profile_mode_name(ProfileMode mode);

/* Before anything runs (experiment.h includes this header: no typedef here) */
struct ExperimentSpec;
extern void profile_resolve(struct ExperimentSpec *spec, bool probe_perf);
extern bool profile_validate(const struct ExperimentSpec *spec);
extern json_t *profile_facts_json(const struct ExperimentSpec *spec);

/* The tools, each found once: NULL with *problem saying why not */
extern char *profile_valgrind_path(char **problem);
extern char *profile_perf_path(char **problem);
extern bool profile_perf_as_server(void);

#endif							/* PGBENCH_EXT_PROFILE_SPEC_H */
