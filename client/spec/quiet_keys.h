/*-------------------------------------------------------------------------
 *
 * quiet_keys.h
 *		The [experiment] keys that quiet the servers of a run (quiet_keys.c),
 *		carried out by quiet.c: CPU sets, address-space randomization, one
 *		pgbench seed per round, prewarmed relations, huge pages
 *		(hugepages.c), and the schedule (interleaved, or both sides at
 *		once: duet, their CPU sets traded within the run: duet_swap.c).
 *
 * Included by experiment.h, whose ExperimentSpec holds one QuietSpec.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_QUIET_KEYS_H
#define PGBENCH_EXT_QUIET_KEYS_H

#include <stdbool.h>

#include <jansson.h>

typedef enum ScheduleMode
{
	SCHEDULE_INTERLEAVED = 0,	/* one run at a time, variants in random order */
	SCHEDULE_DUET				/* the variants of a pair run at the same time */
} ScheduleMode;

/* huge_pages: the servers' own setting, or one the experiment imposes */
typedef enum HugePagesMode
{
	HUGE_PAGES_SERVER = 0,		/* nothing written: PostgreSQL's own "try", or
								 * the variant's huge_pages */
	HUGE_PAGES_ON,				/* pages reserved (as root), and required */
	HUGE_PAGES_OFF				/* never, even where the pool has free pages */
} HugePagesMode;

typedef struct QuietSpec
{
	bool		pin;			/* each server and its pgbench on a CPU set of
								 * their own, the sets swapped every round */
	bool		aslr;			/* address-space randomization of managed servers */
	bool		aslr_given;		/* the key was on or off, else aslr = auto:
								 * quiet_resolve() (or profile = counted) chooses */
	char	   *aslr_why;		/* what aslr = auto chose and why, or NULL */
	bool		shared_seed;	/* one pgbench --random-seed per round, the same
								 * for every variant */
	bool		prewarm;		/* pg_prewarm the run database before each run */
	bool		prewarm_given;	/* the key was on or off, else prewarm = auto:
								 * on under profile = counted */
	HugePagesMode huge_pages;	/* shared memory of the managed servers */
	ScheduleMode schedule;
	int			swap_ms;		/* a duet's sides trade CPU sets this often
								 * within a run (duet_swap.c); 0: every round */
	bool		schedule_given; /* else schedule = auto: quiet_resolve() chooses */
	char	   *schedule_why;	/* what schedule = auto chose and why, or NULL */
} QuietSpec;

/* The number of CPU sets the pinned runs of a round use */
#define QUIET_CPU_SLOTS 2

/*
 * swap_interval's default and its bounds, in milliseconds: a swap moves each
 * side's processes, whose caches then refill on the other CPU, so it is not
 * done more often than the shortest bound.  25 ms left a round's noise at
 * 1.5% where 100 ms left 2.4% (docs/calibration.md), for about 2% of tps.
 */
#define QUIET_SWAP_DEFAULT_MS 25
#define QUIET_SWAP_MIN_MS 10
#define QUIET_SWAP_MAX_MS 60000

struct ExperimentSpec;

/* What the managed servers of an experiment run (quiet_server_binaries()) */
typedef enum ServerBinaries
{
	SERVER_BINARIES_UNKNOWN,	/* a managed variant names no binary yet */
	SERVER_BINARIES_ONE,		/* every one runs one postgres */
	SERVER_BINARIES_OWN			/* builds, or bindirs, of their own */
} ServerBinaries;

/* The keys quiet_set_key() takes, NULL-terminated */
extern const char *const quiet_keys[];

extern void quiet_init(QuietSpec *q);
extern void quiet_resolve(struct ExperimentSpec *spec);
extern ServerBinaries quiet_server_binaries(const struct ExperimentSpec *spec, char **why,
											int *servers);
extern bool quiet_check(const struct ExperimentSpec *spec, char **error);

/*
 * Set one key: true if key is one of these and value is good, false with
 * *error set if the value is bad, false with *error NULL if key is not one
 * of these keys.
 */
extern bool quiet_set_key(QuietSpec *q, const char *key, const char *value, char **error);
extern void quiet_spec_to_json(const QuietSpec *q, json_t *experiment);
extern const char *quiet_schedule_name(ScheduleMode mode);
extern const char *quiet_huge_pages_name(HugePagesMode mode);
extern char *quiet_swap_name(int swap_ms);

#endif							/* PGBENCH_EXT_QUIET_KEYS_H */
