/*-------------------------------------------------------------------------
 *
 * perf_events.h
 *		Per-process hardware and software counters through perf_event_open.
 *
 * A PerfEventSet counts for the process that opened it (pid 0, any CPU),
 * in two groups: the hardware group (cycles, instructions, cache
 * references, cache misses, L1D read misses) and the software group (task
 * clock, context switches, page faults).  Members of a group are scheduled
 * together, so ratios such as instructions per cycle stay meaningful when
 * the kernel has to multiplex the PMU.
 *
 * Opening never throws: every event that could not be opened keeps the
 * errno the kernel gave, and perf_event_reason() turns it into words, so
 * callers can carry on with whatever did open (on virtual machines the
 * hardware group usually fails with ENOENT while software events work).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PERF_EVENTS_H
#define PGBENCH_EXT_PERF_EVENTS_H

#include "postgres.h"

typedef enum PerfEventKind
{
	/* hardware group */
	PERF_EV_CYCLES,
	PERF_EV_INSTRUCTIONS,
	PERF_EV_CACHE_REFERENCES,
	PERF_EV_CACHE_MISSES,
	PERF_EV_L1D_READ_MISSES,
	/* software group */
	PERF_EV_TASK_CLOCK,
	PERF_EV_CONTEXT_SWITCHES,
	PERF_EV_PAGE_FAULTS,
	PERF_EV_COUNT
} PerfEventKind;

#define PERF_EV_FIRST_SOFTWARE PERF_EV_TASK_CLOCK

/* Pseudo-errno values for events that were never attempted. */
#define PERF_EV_NOT_REQUESTED	(-1)	/* hardware == false */
#define PERF_EV_NOT_OPENED		(-3)	/* perf_events_open not called */

typedef struct PerfEventSet
{
	int			fd[PERF_EV_COUNT];	/* -1 when not counting */
	int			err[PERF_EV_COUNT]; /* 0 when counting, else errno or a
									 * PERF_EV_* pseudo-errno above */
	uint64		id[PERF_EV_COUNT];	/* kernel's event id, to match group reads */
	int			leader[PERF_EV_COUNT];	/* kind of this event's group leader: the
										 * first of its group that opened */
	bool		user_only[PERF_EV_COUNT];	/* kernel mode excluded (paranoid) */

	/*
	 * The first page of each event's mmap'd ring: the kernel publishes there
	 * whether user-space rdpmc is allowed and which PMC the event sits on.
	 * NULL where the mapping failed or rdpmc cannot be used; reads then go
	 * through read() on the group leader.
	 */
	void	   *mmap_page[PERF_EV_COUNT];
	bool		use_rdpmc;		/* every open hardware event allows rdpmc */
} PerfEventSet;

extern void perf_events_open(PerfEventSet *set, bool hardware);
extern void perf_events_read(PerfEventSet *set, uint64 *values, bool *valid);
extern void perf_events_close(PerfEventSet *set);
extern const char *perf_event_name(PerfEventKind kind);
extern bool perf_event_is_hardware(PerfEventKind kind);
extern const char *perf_event_reason(const PerfEventSet *set, PerfEventKind kind);

#endif							/* PGBENCH_EXT_PERF_EVENTS_H */
