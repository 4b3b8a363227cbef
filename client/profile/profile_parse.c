/*-------------------------------------------------------------------------
 *
 * profile_parse.c
 *	  Callgrind output files and "perf script" text into profiles.
 *
 * Callgrind's format (the "Callgrind Format Specification" of valgrind's manual): a header of
 * "key: value" lines (events:, positions:, totals:, summary:), then
 * blocks.  "fn=" names the function the following cost lines belong to,
 * "cfn=" a function it calls; "calls=COUNT TARGET" says the next cost
 * line is the inclusive cost of those calls, not the function's own.
 * Names are compressed: "fn=(12) name" defines id 12, a later "fn=(12)"
 * refers to it; fn= and cfn= share ids, as do ob= and cob=.  A cost line
 * is the position(s) ("positions:" says how many: line, or instr line;
 * absolute, "+N", "-N" or "*") then one count per event, trailing zeros
 * left out.  A file may hold several parts (dumps), each with its totals.
 *
 * perf script, with the fields PERF_SCRIPT_FIELDS and call chains: per
 * sample a line "TID PERIOD", then one line per frame, leaf first,
 * "<tab>ADDRESS SYMBOL (DSO)", then an empty line.
 *
 * Names are cleaned for the formats they go on to (folded stacks split on
 * ';', tables on new lines): control characters and ';' become '?'.
 *
 * client/profile/profile_parse.c
 *
 *-------------------------------------------------------------------------
 */
#include "profile_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME_ID		50000000	/* far beyond any real file */
#define MAX_POSITIONS	4

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static bool
fail(char *errbuf, size_t errlen, long line, const char *fmt,...)
{
	va_list		ap;
	int			n = line > 0 ? snprintf(errbuf, errlen, "line %ld: ", line) : 0;

	if (n < 0 || (size_t) n >= errlen)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(errbuf + n, errlen - n, fmt, ap);
	va_end(ap);
	return false;
}

static void
clean_name(char *s)
{
	for (; *s; s++)
		if ((unsigned char) *s < 0x20 || *s == 0x7f || *s == ';')
			*s = '?';
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* A symbol the profiler could not name: "[unknown]" (perf), "0x4f2a10" (callgrind). */
static bool
prof_name_unresolved(const char *name)
{
	if (strcmp(name, "[unknown]") == 0 || name[0] == '\0')
		return true;
	if (name[0] == '0' && name[1] == 'x' && name[2] != '\0')
	{
		for (const char *c = name + 2; *c; c++)
			if (!isxdigit((unsigned char) *c))
				return false;
		return true;
	}
	return false;
}

/* ---- callgrind ---- */

/* Names by compression id, for one namespace of one file. */
typedef struct NameTable
{
	char	  **names;
	long		size;
} NameTable;

static void
names_free(NameTable *t)
{
	for (long i = 0; i < t->size; i++)
		free(t->names[i]);
	free(t->names);
}

/*
 * The name a "fn=" style value gives: "(id) name" defines, "(id)" refers,
 * a bare "name" is uncompressed.  NULL (with errbuf) if malformed.
 */
static const char *
resolve_name(NameTable *t, char *value, long line, char *errbuf, size_t errlen)
{
	char	   *end;
	long		id;

	if (value[0] != '(')
	{
		clean_name(value);
		return value;
	}
	errno = 0;
	id = strtol(value + 1, &end, 10);
	if (errno != 0 || end == value + 1 || *end != ')' || id < 0 || id > MAX_NAME_ID)
	{
		fail(errbuf, errlen, line, "bad name id in \"%.40s\"", value);
		return NULL;
	}
	end++;
	while (*end == ' ')
		end++;
	if (*end != '\0')
	{
		if (id >= t->size)
		{
			long		size = t->size ? t->size : 256;

			while (size <= id)
				size *= 2;
			t->names = prof_realloc(t->names, sizeof(char *) * size);
			memset(t->names + t->size, 0, sizeof(char *) * (size - t->size));
			t->size = size;
		}
		free(t->names[id]);
		t->names[id] = prof_strdup(end);
		clean_name(t->names[id]);
		return t->names[id];
	}
	if (id >= t->size || t->names[id] == NULL)
	{
		fail(errbuf, errlen, line, "name id %ld used before it is defined", id);
		return NULL;
	}
	return t->names[id];
}

/* Skip one position token: decimal, hex, "+N", "-N" or "*". */
static bool
skip_position(char **p)
{
	char	   *s = *p;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '*')
		s++;
	else
	{
		if (*s == '+' || *s == '-')
			s++;
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		{
			s += 2;
			if (!isxdigit((unsigned char) *s))
				return false;
			while (isxdigit((unsigned char) *s))
				s++;
		}
		else
		{
			if (!isdigit((unsigned char) *s))
				return false;
			while (isdigit((unsigned char) *s))
				s++;
		}
	}
	if (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n')
		return false;
	*p = s;
	return true;
}

/* The costs of a cost line after its positions; missing ones are 0. */
static bool
parse_costs(char *s, int npos, int nevents, double *cost)
{
	for (int i = 0; i < npos; i++)
		if (!skip_position(&s))
			return false;
	for (int e = 0; e < nevents; e++)
	{
		char	   *end;
		unsigned long long v;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '\n')
		{
			cost[e] = 0;
			continue;
		}
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno != 0 || end == s || *s == '-')
			return false;
		cost[e] = (double) v;
		s = end;
	}
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return *s == '\0';
}

/*
 * The blank-separated names of a header line ("events: Ir Dr") into
 * fixed buffers; the count, or -1.  Not words.c's split_words(): no
 * quoting, no allocation, and this file is linked without libpq into
 * test_profile.
 */
static int
split_event_names(const char *value, char names[][PROF_NAME_MAX], int max)
{
	int			n = 0;
	const char *s = value;

	while (*s)
	{
		size_t		len;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '\n')
			break;
		len = strcspn(s, " \t\n");
		if (n == max || len >= PROF_NAME_MAX)
			return -1;
		memcpy(names[n], s, len);
		names[n][len] = '\0';
		n++;
		s += len;
	}
	return n;
}

static bool
header_value(const char *line, const char *key, const char **value)
{
	size_t		n = strlen(key);

	if (strncmp(line, key, n) != 0 || line[n] != ':')
		return false;
	*value = line + n + 1;
	while (**value == ' ')
		(*value)++;
	return true;
}

/*
 * The function a name denotes.  Callgrind marks recursion levels as
 * "name'2" (--separate-recs): one function.  A function without a symbol
 * is named by its address in its object, "[postgres+0x265970]", so that
 * the call graph keeps its shape; perf's "[unknown]" frames, which carry
 * no function address, become "[unknown in postgres]"; the kernel's
 * clock_gettime() and friends in the vDSO, which perf leaves unnamed when
 * it keeps no copy of it (perf record -N), "[vdso]".
 */
static int
func_of(Prof *p, const char *name, const char *object)
{
	char	   *copy = prof_strdup(name);
	char	   *quote = strrchr(copy, '\'');
	char	   *unknown;
	int			f;

	if (quote && quote != copy && quote[1] != '\0' && strspn(quote + 1, "0123456789") == strlen(quote + 1))
		*quote = '\0';
	if (!prof_name_unresolved(copy))
		f = prof_func(p, copy, base_name(object));
	else
	{
		const char *obj = object && *object ? base_name(object) : "?";
		const char *hex = copy[0] == '0' ? copy + 2 : NULL;

		while (hex && *hex == '0' && hex[1] != '\0')
			hex++;
		unknown = prof_malloc(strlen(obj) + strlen(copy) + 16);
		if (strcmp(obj, "[vdso]") == 0)
			strcpy(unknown, "[vdso]");	/* the kernel's code in user space */
		else if (hex)
			sprintf(unknown, "[%s+0x%s]", obj, hex);
		else
			sprintf(unknown, "[unknown in %s]", obj);
		clean_name(unknown);
		f = prof_func(p, unknown, base_name(object));
		free(unknown);
	}
	free(copy);
	return f;
}

char *
prof_unresolved_group(const char *name)
{
	const char *plus = strstr(name, "+0x");
	size_t		len = strlen(name);

	if (name[0] != '[' || plus == NULL || name[len - 1] != ']' ||
		strspn(plus + 3, "0123456789abcdefABCDEF") != (size_t) (name + len - 1 - (plus + 3)))
		return NULL;
	{
		char	   *group = prof_malloc(len + 16);

		sprintf(group, "[unknown in %.*s]", (int) (plus - name - 1), name + 1);
		return group;
	}
}

/* Where the reading of one callgrind file stands */
typedef struct CallgrindParse
{
	Prof	   *p;
	char	   *errbuf;
	size_t		errlen;
	long		lineno;
	NameTable	fn_names;
	NameTable	ob_names;
	int			npos;
	int			nevents;
	int			cur_fn;
	const char *cur_ob;
	char	   *ob_copy;
	char	   *callee_ob;
	char	   *callee_name;
	double		pending_calls;	/* >= 0: the next cost line is a call's */
	double		totals[PROF_MAX_EVENTS];
	double		summary[PROF_MAX_EVENTS];
	bool		has_totals;
	bool		has_summary;
} CallgrindParse;

/* A cost line: a function's own cost, or a call's */
static bool
parse_cost_line(CallgrindParse *st, char *line)
{
	double		cost[PROF_MAX_EVENTS];
	int			callee;

	if (st->nevents == 0)
		return fail(st->errbuf, st->errlen, st->lineno, "a cost line before the \"events:\" line");
	if (!parse_costs(line, st->npos, st->nevents, cost))
		return fail(st->errbuf, st->errlen, st->lineno, "malformed cost line \"%.60s\"", line);
	if (st->cur_fn < 0)
		return fail(st->errbuf, st->errlen, st->lineno, "a cost line outside any function (no fn= before it)");
	if (st->pending_calls < 0)
	{
		for (int e = 0; e < st->nevents; e++)
			st->p->funcs[st->cur_fn].self[e] += cost[e];
		return true;
	}
	if (st->callee_name == NULL)
		return fail(st->errbuf, st->errlen, st->lineno, "calls= without a cfn= naming the function called");
	callee = func_of(st->p, st->callee_name, st->callee_ob ? st->callee_ob : st->cur_ob);
	prof_add_arc(st->p, st->cur_fn, callee, st->pending_calls, cost);
	st->pending_calls = -1;
	free(st->callee_ob);
	st->callee_ob = NULL;
	return true;
}

/* fn=, cfn=, ob=, cob= and calls=; false with the error, true otherwise */
static bool
parse_name_line(CallgrindParse *st, char *line, bool *handled)
{
	const char *name;
	char	   *end;

	*handled = true;
	if (strncmp(line, "fn=", 3) == 0)
	{
		if ((name = resolve_name(&st->fn_names, line + 3, st->lineno, st->errbuf, st->errlen)) == NULL)
			return false;
		st->cur_fn = func_of(st->p, name, st->cur_ob);
		/* a new function: what its caller called is not its business */
		free(st->callee_name);
		free(st->callee_ob);
		st->callee_name = st->callee_ob = NULL;
		st->pending_calls = -1;
	}
	else if (strncmp(line, "cfn=", 4) == 0)
	{
		if ((name = resolve_name(&st->fn_names, line + 4, st->lineno, st->errbuf, st->errlen)) == NULL)
			return false;
		free(st->callee_name);
		st->callee_name = prof_strdup(name);
	}
	else if (strncmp(line, "ob=", 3) == 0 || strncmp(line, "cob=", 4) == 0)
	{
		bool		callee = line[0] == 'c';

		if ((name = resolve_name(&st->ob_names, line + (callee ? 4 : 3), st->lineno, st->errbuf, st->errlen)) == NULL)
			return false;
		if (!callee)
		{
			free(st->ob_copy);
			st->cur_ob = st->ob_copy = prof_strdup(name);
		}
		free(st->callee_ob);
		st->callee_ob = callee ? prof_strdup(name) : NULL;
	}
	else if (strncmp(line, "calls=", 6) == 0)
	{
		errno = 0;
		st->pending_calls = strtod(line + 6, &end);
		if (errno != 0 || end == line + 6 || !(st->pending_calls >= 0))
			return fail(st->errbuf, st->errlen, st->lineno, "malformed \"%.60s\"", line);
	}
	else
		*handled = false;
	return true;
}

/* events:, positions:, totals: and summary:; other header lines carry nothing we use */
static bool
parse_header_line(CallgrindParse *st, const char *line)
{
	const char *value;
	char		names[PROF_MAX_EVENTS][PROF_NAME_MAX];
	double		cost[PROF_MAX_EVENTS];
	int			n;

	if (header_value(line, "events", &value))
	{
		n = split_event_names(value, names, PROF_MAX_EVENTS);
		if (n <= 0)
			return fail(st->errbuf, st->errlen, st->lineno, "\"events:\" names no events, or more than %d", PROF_MAX_EVENTS);
		if (st->nevents > 0 && n != st->nevents)
			return fail(st->errbuf, st->errlen, st->lineno, "a second \"events:\" line with other events");
		if (!prof_set_events(st->p, names, n))
			return fail(st->errbuf, st->errlen, st->lineno, "events \"%s\" differ from those of the files read before", value);
		st->nevents = n;
	}
	else if (header_value(line, "positions", &value))
	{
		st->npos = split_event_names(value, names, MAX_POSITIONS);
		if (st->npos <= 0)
			return fail(st->errbuf, st->errlen, st->lineno, "malformed \"positions:\" line");
	}
	else if (header_value(line, "totals", &value) || header_value(line, "summary", &value))
	{
		bool		is_totals = line[0] == 't';

		if (st->nevents == 0 || !parse_costs((char *) value, 0, st->nevents, cost))
			return fail(st->errbuf, st->errlen, st->lineno, "malformed \"%.60s\"", line);
		for (int e = 0; e < st->nevents; e++)
			(is_totals ? st->totals : st->summary)[e] += cost[e];
		if (is_totals)
			st->has_totals = true;
		else
			st->has_summary = true;
	}
	/* fl= fi= fe= cfi= cfl= jump= jcnd= and others: nothing we use */
	return true;
}

bool
prof_parse_callgrind(FILE *in, Prof *p, char *errbuf, size_t errlen)
{
	CallgrindParse st = {0};
	char	   *line = NULL;
	size_t		cap = 0;
	bool		ok = true;

	st.p = p;
	st.errbuf = errbuf;
	st.errlen = errlen;
	st.npos = 1;
	st.cur_fn = -1;
	st.cur_ob = st.ob_copy = prof_strdup("");
	st.pending_calls = -1;
	errbuf[0] = '\0';
	while (ok && getline(&line, &cap, in) > 0)
	{
		bool		handled;

		st.lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\0' || line[0] == '#')
			continue;
		if (isdigit((unsigned char) line[0]) || line[0] == '+' || line[0] == '-' || line[0] == '*')
			ok = parse_cost_line(&st, line);
		else
			ok = parse_name_line(&st, line, &handled) && (handled || parse_header_line(&st, line));
	}
	if (ok && ferror(in))
		ok = fail(errbuf, errlen, 0, "read error: %s", strerror(errno));
	if (ok && st.nevents == 0)
		ok = fail(errbuf, errlen, 0, "not a callgrind output file (no \"events:\" line)");
	if (ok)
	{
		for (int e = 0; e < st.nevents; e++)
			p->totals[e] += st.has_totals ? st.totals[e] : st.has_summary ? st.summary[e] : 0;
		p->processes++;
	}
	free(line);
	free(st.callee_name);
	free(st.callee_ob);
	free(st.ob_copy);
	names_free(&st.fn_names);
	names_free(&st.ob_names);
	return ok;
}

/* ---- perf script ---- */

typedef struct Frame
{
	int			func;
	bool		unresolved;
} Frame;

typedef struct Sample
{
	double		period;
	Frame	   *frames;
	int			nframes;
	int			cap;
	bool		open;
} Sample;

/* One sample, complete: leaf self cost, inclusive once per function, stack. */
static void
finish_sample(Prof *p, Sample *s, char **buf, size_t *buflen)
{
	size_t		len = 0;

	if (!s->open)
		return;
	s->open = false;
	p->samples++;
	p->totals[0] += s->period;
	if (s->nframes == 0)
		return;
	if (s->frames[0].unresolved)
		p->unresolved++;
	p->funcs[s->frames[0].func].self[0] += s->period;
	for (int i = 0; i < s->nframes; i++)
	{
		bool		seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = s->frames[j].func == s->frames[i].func;
		if (!seen)
			p->funcs[s->frames[i].func].incl[0] += s->period;
	}
	/* folded: root first */
	for (int i = s->nframes - 1; i >= 0; i--)
	{
		const char *name = p->funcs[s->frames[i].func].name;
		size_t		n = strlen(name);

		if (len + n + 2 > *buflen)
		{
			*buflen = (len + n + 2) * 2;
			*buf = prof_realloc(*buf, *buflen);
		}
		if (len > 0)
			(*buf)[len++] = ';';
		memcpy(*buf + len, name, n);
		len += n;
	}
	(*buf)[len] = '\0';
	prof_add_stack(p, *buf, s->period);
}

/* "<tab>ADDRESS SYMBOL (DSO)" */
static bool
parse_frame(Prof *p, char *line, Frame *frame)
{
	char	   *s = line;
	char	   *sym;
	char	   *open;
	char	   *end = line + strlen(line);

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isxdigit((unsigned char) *s))
		return false;
	while (isxdigit((unsigned char) *s))
		s++;
	if (*s != ' ')
		return false;
	while (*s == ' ')
		s++;
	sym = s;
	while (end > sym && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	if (end == sym || end[-1] != ')' || (open = strrchr(sym, '(')) == NULL || open == sym)
		return false;
	end[-1] = '\0';
	open[-1] = '\0';			/* the space before "(DSO)" */
	clean_name(sym);
	frame->unresolved = prof_name_unresolved(sym);
	frame->func = func_of(p, frame->unresolved ? "[unknown]" : sym, open + 1);
	return true;
}

bool
prof_parse_perf_script(FILE *in, const char *event, Prof *p, char *errbuf, size_t errlen)
{
	char		names[1][PROF_NAME_MAX];
	char	   *line = NULL;
	size_t		cap = 0;
	long		lineno = 0;
	Sample		s = {0};
	char	   *buf;
	size_t		buflen = 1024;
	bool		ok = true;
	ProfIndex	tids;

	errbuf[0] = '\0';
	snprintf(names[0], PROF_NAME_MAX, "%s", event);
	if (!prof_set_events(p, names, 1))
		return fail(errbuf, errlen, 0, "the profile already holds other events than \"%s\"", event);
	buf = prof_malloc(buflen);
	prof_index_init(&tids);
	while (ok && getline(&line, &cap, in) > 0)
	{
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\t')
		{
			Frame		f;

			if (!s.open)
				ok = fail(errbuf, errlen, lineno, "a call chain line outside any sample");
			else if (!parse_frame(p, line, &f))
				ok = fail(errbuf, errlen, lineno, "malformed call chain line \"%.60s\"", line);
			else
			{
				if (s.nframes == s.cap)
				{
					s.cap = s.cap ? s.cap * 2 : 64;
					s.frames = prof_realloc(s.frames, sizeof(Frame) * s.cap);
				}
				s.frames[s.nframes++] = f;
			}
		}
		else if (line[strspn(line, " ")] == '\0')
			finish_sample(p, &s, &buf, &buflen);
		else
		{
			char	   *end;
			long		tid;
			double		period;

			finish_sample(p, &s, &buf, &buflen);
			errno = 0;
			tid = strtol(line, &end, 10);
			if (errno == 0 && end != line && *end == '/')
				tid = strtol(end + 1, &end, 10);
			period = errno == 0 && end != line ? strtod(end, &end) : -1;
			if (errno != 0 || !(period > 0) || tid < 0)
			{
				ok = fail(errbuf, errlen, lineno,
						  "expected a sample line \"TID PERIOD\", got \"%.60s\" (perf script -F %s)",
						  line, PERF_SCRIPT_FIELDS);
				break;
			}
			s.open = true;
			s.period = period;
			s.nframes = 0;
			{
				char		key[32];

				snprintf(key, sizeof(key), "%ld", tid);
				if (prof_index_get(&tids, key) < 0)
				{
					prof_index_put(&tids, key, 1);
					p->processes++;
				}
			}
		}
	}
	if (ok)
		finish_sample(p, &s, &buf, &buflen);
	if (ok && ferror(in))
		ok = fail(errbuf, errlen, 0, "read error: %s", strerror(errno));
	free(line);
	free(buf);
	free(s.frames);
	prof_index_free(&tids);
	return ok;
}
