/*-------------------------------------------------------------------------
 *
 * profile_data.c
 *	  Profiles in memory: functions, call arcs and folded stacks, merged
 *	  over processes and parts, divided per transaction, and the stacks of
 *	  a counted profile drawn from its call graph.
 *
 * Counted stacks: callgrind records which function called which, and at
 * what inclusive cost, but not whole stacks.  A function's cost is spread
 * over its callers in proportion to what each caller's calls cost (the
 * assumption gprof makes); where a function has a single caller, as most
 * of PostgreSQL's do along a transaction's path, that is exact.  It needs
 * nothing more from callgrind than its default output, where
 * --separate-callers would multiply the size of every file.
 *
 * client/profile/profile_data.c
 *
 * In report.h's map: the bottom (base).
 *
 *-------------------------------------------------------------------------
 */
#include "profile_data.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STACK_DEPTH 128

void *
prof_malloc(size_t n)
{
	void	   *p = malloc(n ? n : 1);

	if (p == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

void *
prof_realloc(void *ptr, size_t n)
{
	void	   *p = realloc(ptr, n ? n : 1);

	if (p == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

char *
prof_strdup(const char *s)
{
	size_t		n = strlen(s) + 1;

	return memcpy(prof_malloc(n), s, n);
}

/* ---- string index ---- */

static uint64_t
hash_string(const char *s)
{
	uint64_t	h = UINT64_C(14695981039346656037);

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * UINT64_C(1099511628211);
	return h;
}

void
prof_index_init(ProfIndex *ix)
{
	ix->size = 64;
	ix->used = 0;
	ix->keys = calloc(ix->size, sizeof(char *));
	ix->values = prof_malloc(ix->size * sizeof(int));
	if (ix->keys == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
}

void
prof_index_free(ProfIndex *ix)
{
	for (size_t i = 0; i < ix->size; i++)
		free(ix->keys[i]);
	free(ix->keys);
	free(ix->values);
	ix->keys = NULL;
	ix->values = NULL;
	ix->size = ix->used = 0;
}

static size_t
slot_of(const ProfIndex *ix, const char *key)
{
	size_t		mask = ix->size - 1;
	size_t		i = (size_t) hash_string(key) & mask;

	while (ix->keys[i] != NULL && strcmp(ix->keys[i], key) != 0)
		i = (i + 1) & mask;
	return i;
}

int
prof_index_get(const ProfIndex *ix, const char *key)
{
	size_t		i = slot_of(ix, key);

	return ix->keys[i] ? ix->values[i] : -1;
}

void
prof_index_put(ProfIndex *ix, const char *key, int value)
{
	size_t		i;

	if ((ix->used + 1) * 2 > ix->size)
	{
		ProfIndex	bigger;

		bigger.size = ix->size * 2;
		bigger.used = 0;
		bigger.keys = calloc(bigger.size, sizeof(char *));
		bigger.values = prof_malloc(bigger.size * sizeof(int));
		if (bigger.keys == NULL)
		{
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
		for (size_t k = 0; k < ix->size; k++)
			if (ix->keys[k])
			{
				size_t		j = slot_of(&bigger, ix->keys[k]);

				bigger.keys[j] = ix->keys[k];
				bigger.values[j] = ix->values[k];
				bigger.used++;
			}
		free(ix->keys);
		free(ix->values);
		*ix = bigger;
	}
	i = slot_of(ix, key);
	if (ix->keys[i] == NULL)
	{
		ix->keys[i] = prof_strdup(key);
		ix->used++;
	}
	ix->values[i] = value;
}

/* ---- profiles ---- */

void
prof_init(Prof *p)
{
	memset(p, 0, sizeof(*p));
	prof_index_init(&p->func_index);
	prof_index_init(&p->arc_index);
	prof_index_init(&p->stack_index);
}

void
prof_free(Prof *p)
{
	for (int i = 0; i < p->nfuncs; i++)
	{
		free(p->funcs[i].name);
		free(p->funcs[i].object);
	}
	for (int i = 0; i < p->nstacks; i++)
		free(p->stacks[i].frames);
	free(p->funcs);
	free(p->arcs);
	free(p->stacks);
	prof_index_free(&p->func_index);
	prof_index_free(&p->arc_index);
	prof_index_free(&p->stack_index);
	memset(p, 0, sizeof(*p));
}

bool
prof_set_events(Prof *p, char names[][PROF_NAME_MAX], int n)
{
	if (n < 1 || n > PROF_MAX_EVENTS)
		return false;
	if (p->nevents == 0)
	{
		for (int e = 0; e < n; e++)
			snprintf(p->events[e], PROF_NAME_MAX, "%s", names[e]);
		p->nevents = n;
		return true;
	}
	if (p->nevents != n)
		return false;
	for (int e = 0; e < n; e++)
		if (strcmp(p->events[e], names[e]) != 0)
			return false;
	return true;
}

int
prof_find_func(const Prof *p, const char *name)
{
	return prof_index_get(&p->func_index, name);
}

int
prof_func(Prof *p, const char *name, const char *object)
{
	int			i = prof_index_get(&p->func_index, name);

	if (i >= 0)
		return i;
	if ((p->nfuncs & (p->nfuncs - 1)) == 0)
		p->funcs = prof_realloc(p->funcs, sizeof(ProfFunc) * (p->nfuncs ? p->nfuncs * 2 : 16));
	i = p->nfuncs++;
	memset(&p->funcs[i], 0, sizeof(ProfFunc));
	p->funcs[i].name = prof_strdup(name);
	p->funcs[i].object = prof_strdup(object ? object : "");
	prof_index_put(&p->func_index, name, i);
	return i;
}

static char *
arc_key(const Prof *p, int caller, int callee, char *buf, size_t len)
{
	(void) p;
	snprintf(buf, len, "%d>%d", caller, callee);
	return buf;
}

void
prof_add_arc(Prof *p, int caller, int callee, double calls, const double *cost)
{
	char		key[32];
	int			i = prof_index_get(&p->arc_index, arc_key(p, caller, callee, key, sizeof(key)));

	if (i < 0)
	{
		if ((p->narcs & (p->narcs - 1)) == 0)
			p->arcs = prof_realloc(p->arcs, sizeof(ProfArc) * (p->narcs ? p->narcs * 2 : 16));
		i = p->narcs++;
		memset(&p->arcs[i], 0, sizeof(ProfArc));
		p->arcs[i].caller = caller;
		p->arcs[i].callee = callee;
		prof_index_put(&p->arc_index, key, i);
	}
	p->arcs[i].calls += calls;
	for (int e = 0; e < p->nevents; e++)
		p->arcs[i].cost[e] += cost[e];
}

void
prof_add_stack(Prof *p, const char *frames, double value)
{
	int			i = prof_index_get(&p->stack_index, frames);

	if (i < 0)
	{
		if ((p->nstacks & (p->nstacks - 1)) == 0)
			p->stacks = prof_realloc(p->stacks, sizeof(ProfStack) * (p->nstacks ? p->nstacks * 2 : 16));
		i = p->nstacks++;
		p->stacks[i].frames = prof_strdup(frames);
		p->stacks[i].value = 0;
		prof_index_put(&p->stack_index, frames, i);
	}
	p->stacks[i].value += value;
}

void
prof_compute_inclusive(Prof *p)
{
	for (int f = 0; f < p->nfuncs; f++)
		for (int e = 0; e < p->nevents; e++)
			p->funcs[f].incl[e] = p->funcs[f].self[e];
	/* a function calling itself is already inside its own inclusive cost */
	for (int a = 0; a < p->narcs; a++)
		if (p->arcs[a].caller != p->arcs[a].callee)
			for (int e = 0; e < p->nevents; e++)
				p->funcs[p->arcs[a].caller].incl[e] += p->arcs[a].cost[e];
}

/* Add sign * src into dst; funcs and arcs matched by name. */
static bool
accumulate(Prof *dst, const Prof *src, double sign)
{
	int		   *map;

	if (!prof_set_events(dst, (char (*)[PROF_NAME_MAX]) src->events, src->nevents))
		return false;
	map = prof_malloc(sizeof(int) * (src->nfuncs + 1));
	for (int f = 0; f < src->nfuncs; f++)
	{
		int			d = prof_func(dst, src->funcs[f].name, src->funcs[f].object);

		map[f] = d;
		for (int e = 0; e < src->nevents; e++)
		{
			dst->funcs[d].self[e] += sign * src->funcs[f].self[e];
			dst->funcs[d].incl[e] += sign * src->funcs[f].incl[e];
		}
	}
	for (int a = 0; a < src->narcs; a++)
	{
		double		cost[PROF_MAX_EVENTS];

		for (int e = 0; e < src->nevents; e++)
			cost[e] = sign * src->arcs[a].cost[e];
		prof_add_arc(dst, map[src->arcs[a].caller], map[src->arcs[a].callee],
					 sign * src->arcs[a].calls, cost);
	}
	for (int s = 0; s < src->nstacks; s++)
		prof_add_stack(dst, src->stacks[s].frames, sign * src->stacks[s].value);
	for (int e = 0; e < src->nevents; e++)
		dst->totals[e] += sign * src->totals[e];
	dst->samples += (long long) sign * src->samples;
	dst->unresolved += (long long) sign * src->unresolved;
	free(map);
	return true;
}

bool
prof_merge(Prof *dst, const Prof *src)
{
	if (!accumulate(dst, src, 1.0))
		return false;
	dst->processes += src->processes;
	return true;
}

void
prof_divide(Prof *p, double divisor)
{
	for (int e = 0; e < p->nevents; e++)
		p->totals[e] /= divisor;
	for (int f = 0; f < p->nfuncs; f++)
		for (int e = 0; e < p->nevents; e++)
		{
			p->funcs[f].self[e] /= divisor;
			p->funcs[f].incl[e] /= divisor;
		}
	for (int a = 0; a < p->narcs; a++)
	{
		p->arcs[a].calls /= divisor;
		for (int e = 0; e < p->nevents; e++)
			p->arcs[a].cost[e] /= divisor;
	}
	for (int s = 0; s < p->nstacks; s++)
		p->stacks[s].value /= divisor;
}

/*
 * Stacks start at their first frame named root (PostgresMain: what is
 * above it is the same postmaster context in every backend); stacks
 * without it are kept whole.
 */
void
prof_trim_stacks(Prof *p, const char *root)
{
	ProfStack  *old = p->stacks;
	int			n = p->nstacks;
	size_t		len = strlen(root);

	p->stacks = NULL;
	p->nstacks = 0;
	prof_index_free(&p->stack_index);
	prof_index_init(&p->stack_index);
	for (int i = 0; i < n; i++)
	{
		const char *start = old[i].frames;

		for (const char *f = old[i].frames; f != NULL; f = strchr(f, ';'), f = f ? f + 1 : NULL)
			if (strncmp(f, root, len) == 0 && (f[len] == ';' || f[len] == '\0'))
			{
				start = f;
				break;
			}
		prof_add_stack(p, start, old[i].value);
		free(old[i].frames);
	}
	free(old);
}

/* ---- stacks from the call graph ---- */

typedef struct Expansion
{
	Prof	   *p;
	int		  **out;			/* per function: its outgoing arcs (-1 ends) */
	double	   *into;			/* per function: cost of all calls into it */
	bool	   *back;			/* per arc: closes a cycle */
	int			stack[MAX_STACK_DEPTH];
	int			depth;
	double		min_value;
	char	   *buf;
	size_t		buflen;
} Expansion;

static void
emit(Expansion *x, double value)
{
	size_t		len = 0;

	if (!(value > 0))
		return;
	for (int i = 0; i < x->depth; i++)
	{
		const char *name = x->p->funcs[x->stack[i]].name;
		size_t		n = strlen(name);

		if (len + n + 2 > x->buflen)
		{
			x->buflen = (len + n + 2) * 2;
			x->buf = prof_realloc(x->buf, x->buflen);
		}
		if (i > 0)
			x->buf[len++] = ';';
		memcpy(x->buf + len, name, n);
		len += n;
	}
	x->buf[len] = '\0';
	prof_add_stack(x->p, x->buf, value);
}

/*
 * Function f in a context that carries share k of f's cost: its own cost
 * there, then each callee with the share of the callee's cost this call
 * brings.  What is not drawn deeper (depth, tiny contexts) stays with f.
 */
static void
expand(Expansion *x, int f, double k)
{
	double		self = x->p->funcs[f].self[0] * k;

	x->stack[x->depth++] = f;
	for (int *a = x->out[f]; *a >= 0; a++)
	{
		const ProfArc *arc = &x->p->arcs[*a];
		double		part = arc->cost[0] * k;

		if (!(part > 0))
			continue;
		if (x->depth == MAX_STACK_DEPTH || part < x->min_value || !(x->into[arc->callee] > 0))
			self += part;
		else
			expand(x, arc->callee, part / x->into[arc->callee]);
	}
	emit(x, self);
	x->depth--;
}

/*
 * Arcs that close a cycle, found by a depth-first walk: recursion, and
 * callgrind's "(below main)", which calls and is called by
 * __libc_start_main.  Their cost is inside the outer call's already.
 */
static void
mark_back_arcs(Expansion *x, int f, char *colour, int *nout)
{
	colour[f] = 1;				/* on the walk's path */
	for (int i = 0; i < nout[f]; i++)
	{
		int			a = x->out[f][i];
		int			callee = x->p->arcs[a].callee;

		if (colour[callee] == 1)
			x->back[a] = true;
		else if (colour[callee] == 0)
			mark_back_arcs(x, callee, colour, nout);
	}
	colour[f] = 2;				/* done */
}

static bool
usable_arc(const ProfArc *arc)
{
	return arc->caller != arc->callee && arc->cost[0] > 0;
}

void
prof_stacks_from_arcs(Prof *p, double min_value)
{
	Expansion	x;
	int			nfuncs = p->nfuncs;
	int		   *nout = calloc(nfuncs + 1, sizeof(int));
	bool	   *called = calloc(nfuncs + 1, sizeof(bool));
	char	   *colour = calloc(nfuncs + 1, 1);

	memset(&x, 0, sizeof(x));
	x.p = p;
	x.out = prof_malloc(sizeof(int *) * (nfuncs + 1));
	x.into = calloc(nfuncs + 1, sizeof(double));
	x.back = calloc(p->narcs + 1, sizeof(bool));
	if (nout == NULL || called == NULL || colour == NULL || x.into == NULL || x.back == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	x.min_value = min_value;
	x.buflen = 1024;
	x.buf = prof_malloc(x.buflen);
	for (int a = 0; a < p->narcs; a++)
		if (usable_arc(&p->arcs[a]))
		{
			nout[p->arcs[a].caller]++;
			called[p->arcs[a].callee] = true;
		}
	for (int f = 0; f < nfuncs; f++)
	{
		x.out[f] = prof_malloc(sizeof(int) * (nout[f] + 1));
		nout[f] = 0;
	}
	for (int a = 0; a < p->narcs; a++)
		if (usable_arc(&p->arcs[a]))
			x.out[p->arcs[a].caller][nout[p->arcs[a].caller]++] = a;
	for (int f = 0; f < nfuncs; f++)
		x.out[f][nout[f]] = -1;

	/* walks from the uncalled functions first, then from what is left */
	for (int pass = 0; pass < 2; pass++)
		for (int f = 0; f < nfuncs; f++)
			if (colour[f] == 0 && (pass == 1 || !called[f]))
				mark_back_arcs(&x, f, colour, nout);
	for (int f = 0; f < nfuncs; f++)
	{
		int			kept = 0;

		for (int i = 0; i < nout[f]; i++)
			if (!x.back[x.out[f][i]])
				x.out[f][kept++] = x.out[f][i];
		x.out[f][kept] = -1;
		for (int i = 0; i < kept; i++)
			x.into[p->arcs[x.out[f][i]].callee] += p->arcs[x.out[f][i]].cost[0];
	}

	/* roots: functions no kept arc calls (in a backend, the process's start) */
	for (int f = 0; f < nfuncs; f++)
		if (!(x.into[f] > 0) && (p->funcs[f].self[0] > 0 || x.out[f][0] >= 0))
			expand(&x, f, 1.0);

	for (int f = 0; f < nfuncs; f++)
		free(x.out[f]);
	free(x.out);
	free(x.into);
	free(x.back);
	free(x.buf);
	free(nout);
	free(called);
	free(colour);
}
