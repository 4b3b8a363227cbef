/*-------------------------------------------------------------------------
 *
 * wait_sampler.h
 *		The background worker sampling wait events, its shared table and the
 *		profile read from it (wait_sampler.c).
 *
 * Locking: the table has one writer, the sampler, and is guarded by the
 * module's own LWLock (never ProcArrayLock): the sampler holds it
 * exclusively for the few microseconds of folding one sample in, readers
 * take it shared and wait_sampler_reset() exclusively.  No backend running
 * statements ever takes it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_WAIT_SAMPLER_H
#define PGBENCH_EXT_WAIT_SAMPLER_H

#include "pgbench_ext.h"

/* One (backend type, wait event) of the profile. */
typedef struct WaitRow
{
	const char *backend_type;
	const char *event_type;
	const char *event;
	uint64		samples;
	double		pct;			/* of the samples of the same backend type */
} WaitRow;

/* The profile since the last reset. */
typedef struct WaitProfile
{
	WaitRow    *rows;			/* most sampled first, palloc'd */
	int			nrows;
	uint64		samples;		/* all samples taken, lost ones included */
	uint64		lost;			/* samples of pairs the full table had no entry for */
} WaitProfile;

/* From _PG_init when preloaded: settings, then the worker's registration. */
extern void wait_sampler_init(void);
extern void wait_sampler_shmem_request(void);
extern void wait_sampler_shmem_startup(void);

extern bool wait_sampler_attached(void);
extern void wait_sampler_reset(void);
extern void wait_sampler_profile(WaitProfile *profile);

#endif							/* PGBENCH_EXT_WAIT_SAMPLER_H */
