/*-------------------------------------------------------------------------
 *
 * profile_data.h
 *	  A profile in memory: costs per function (self and inclusive), the
 *	  call arcs between functions, and folded stacks, for one or more
 *	  processes of one run.
 *
 * Plain C99 with libc only (no PostgreSQL headers), like the parsers that
 * fill it (profile_parse.c), so that both can be unit-tested on captured
 * files without a server.
 *
 * A profile has up to PROF_MAX_EVENTS events: callgrind's Ir (and with
 * cache simulation Dr, Dw, I1mr, D1mr, D1mw, ILmr, DLmr, DLmw), or perf's
 * one sampled event, whose cost is the sum of the samples' periods (ns of
 * cpu-clock, or cycles).  Costs are doubles: the counted ones are exact
 * integers far below 2^53.  Stacks carry the first event only, as folded
 * text "root;caller;callee".
 *
 * client/profile/profile_data.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PROFILE_DATA_H
#define PROFILE_DATA_H

#include <stdbool.h>
#include <stddef.h>

#define PROF_MAX_EVENTS 12
#define PROF_NAME_MAX	256		/* longest event name kept */

/* A string-keyed hash index (open addressing) onto array positions. */
typedef struct ProfIndex
{
	char	  **keys;
	int		   *values;
	size_t		size;			/* slots, a power of two */
	size_t		used;
} ProfIndex;

typedef struct ProfFunc
{
	char	   *name;
	char	   *object;			/* the binary or library it is in, or "" */
	double		self[PROF_MAX_EVENTS];
	double		incl[PROF_MAX_EVENTS];
} ProfFunc;

/* Calls from one function to another, with their inclusive cost. */
typedef struct ProfArc
{
	int			caller;			/* index into funcs */
	int			callee;
	double		calls;
	double		cost[PROF_MAX_EVENTS];
} ProfArc;

typedef struct ProfStack
{
	char	   *frames;			/* "root;...;leaf" */
	double		value;			/* cost of the first event with this leaf */
} ProfStack;

typedef struct Prof
{
	int			nevents;
	char		events[PROF_MAX_EVENTS][PROF_NAME_MAX];
	double		totals[PROF_MAX_EVENTS];

	ProfFunc   *funcs;
	int			nfuncs;
	ProfIndex	func_index;

	ProfArc    *arcs;
	int			narcs;
	ProfIndex	arc_index;

	ProfStack  *stacks;
	int			nstacks;
	ProfIndex	stack_index;

	/* sampled profiles: samples read, and those whose leaf had no symbol */
	long long	samples;
	long long	unresolved;
	int			processes;		/* files or pids merged in */
} Prof;

extern void prof_init(Prof *p);
extern void prof_free(Prof *p);

/* The index of an event by name, or -1. */
/* Set p's events (a fresh profile) or check that they equal these. */
extern bool prof_set_events(Prof *p, char names[][PROF_NAME_MAX], int n);

extern int	prof_func(Prof *p, const char *name, const char *object);
extern int	prof_find_func(const Prof *p, const char *name);
extern void prof_add_arc(Prof *p, int caller, int callee, double calls,
						 const double *cost);
extern void prof_add_stack(Prof *p, const char *frames, double value);

/* incl of every function: self plus the cost of its calls to others. */
extern void prof_compute_inclusive(Prof *p);

/* Add src into dst (same events): funcs, arcs, stacks, totals. */
extern bool prof_merge(Prof *dst, const Prof *src);

/* Divide every cost by divisor (e.g. transactions). */
extern void prof_divide(Prof *p, double divisor);

/*
 * Stacks of a counted profile from its call graph: each function's cost is
 * spread over its callers in proportion to the cost of their calls to it
 * (exact where a function has one caller).  Arcs that close a cycle
 * (recursion) are left out, their cost being inside the outer call's;
 * contexts below min_value are folded into their parent.
 */
extern void prof_stacks_from_arcs(Prof *p, double min_value);

/* Stacks cut to start at their first frame named root, where there is one. */
extern void prof_trim_stacks(Prof *p, const char *root);

/* ---- string index, also used by the parsers ---- */
extern void prof_index_init(ProfIndex *ix);
extern void prof_index_free(ProfIndex *ix);
extern int	prof_index_get(const ProfIndex *ix, const char *key);
extern void prof_index_put(ProfIndex *ix, const char *key, int value);

extern void *prof_malloc(size_t n);
extern void *prof_realloc(void *ptr, size_t n);
extern char *prof_strdup(const char *s);

#endif							/* PROFILE_DATA_H */
