/*-------------------------------------------------------------------------
 *
 * pgbench_output.c
 *	  Parser of real pgbench output, PostgreSQL 13 through 18.
 *
 * The driver runs the variant's own pgbench and reads back what it printed,
 * so the figures are pgbench's, not a reimplementation's.  The lines come
 * from printResults() and printProgressReport() in src/bin/pgbench/pgbench.c;
 * three generations differ:
 *
 *	13	no banner; "tps = %f (including connections establishing)" then
 *		"tps = %f (excluding connections establishing)"; progress lines
 *		"progress: %s, %.1f tps, lat %.3f ms stddev %.3f[, lag %.3f ms[,
 *		N skipped]]"; skipped counts as "(%.3f %%)".
 *	14	a "pgbench (VERSION)" banner; "initial connection time = %.3f ms"
 *		and "tps = %f (without initial connection time)", or under -C
 *		"average connection time" and "tps = %f (including reconnection
 *		times)".
 *	15+	(16 and 17 print the same lines) "maximum number of tries: %u",
 *		"number of failed transactions: N (%.3f%%)", with --max-tries
 *		"number of transactions retried" and "total number of retries",
 *		"latency average = %.3f ms (including failures)"; each progress
 *		line gains ", N failed" and ", N retried, N retries".  18 splits
 *		the per-script " - N transactions (%.1f%% of total, tps = %f)"
 *		into " - N transactions (%.1f%% of total)" (all, failed ones too)
 *		and " - number of transactions actually processed: N (tps = %f)".
 *
 * "latency stddev" is measured, and printed, only with -P, --rate or -L;
 * otherwise the average is derived from the run time.  Several scripts (or
 * any @weight) add "SQL script N: NAME" sections with " - " lines; -r adds
 * statement latency lines, which are skipped.  After an aborted client
 * the summary still prints and stderr ends with "Run was aborted; the
 * above results are incomplete."; with no transaction at all the summary
 * stops after the transaction counts (15 to 17: after the failure counts,
 * with "(NaN%)").
 *
 * Summary lines are matched against a table of patterns taken from those
 * printf formats.  A line that starts like a known one but does not parse
 * is an error, so that a changed format is reported instead of silently
 * losing a figure; lines of no known shape are only counted.
 *
 * client/results/pgbench_output.c
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_output.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A value captured by a pattern placeholder */
typedef struct Captured
{
	char		kind;			/* 'd', 'i', 'f' or 's' */
	long long	i;
	double		f;
	const char *s;
	size_t		slen;
} Captured;

#define MAX_CAPTURES 6

/* What a matched line does besides storing its values */
typedef enum LineAction
{
	ACT_STORE,
	ACT_NEW_SCRIPT,				/* "SQL script N: NAME" */
	ACT_STATEMENTS,				/* -r statement latencies follow */
} LineAction;

/*
 * One known line shape.  Placeholders in the pattern: {d} int, {i} long
 * long, {f} double (also nan, as printed for 0/0), {s} the rest of the line
 * up to the pattern's literal tail; '~' matches optional spaces.  dest[k]
 * is 1 + the offset of the field receiving the k-th value, 0 to discard it.
 */
typedef struct LineRule
{
	const char *pattern;
	size_t		dest[MAX_CAPTURES];
	size_t		strsize;		/* size of the char array a {s} goes to */
	size_t		flag;			/* 1 + offset of a bool to set, or 0 */
	int			format;			/* output generation the line proves, or 0 */
	PgbenchTpsKind tps_kind;	/* set by the summary's final tps line */
	LineAction	action;
} LineRule;

#define R(field) (offsetof(PgbenchResult, field) + 1)
#define S(field) (offsetof(PgbenchScriptResult, field) + 1)
#define RSTR(field) sizeof(((PgbenchResult *) 0)->field)

static const LineRule summary_rules[] = {
	{"transaction type: {s}", {R(transaction_type)}, RSTR(transaction_type)},
	{"scaling factor: {d}", {R(scale)}},
	{"partition method: {s}", {R(partition_method)}, RSTR(partition_method)},
	{"partitions: {d}", {R(partitions)}},
	{"query mode: {s}", {R(query_mode)}, RSTR(query_mode)},
	{"number of clients: {d}", {R(clients)}},
	{"number of threads: {d}", {R(threads)}},
	{"maximum number of tries: {d}", {R(max_tries)}, .format = PGBENCH_FORMAT_15},
	{"duration: {d} s", {R(duration_s)}},
	{"number of transactions per client: {d}", {R(transactions_per_client)}},
	{"number of transactions actually processed: {i}/{i}",
	{R(transactions), R(transactions_expected)}},
	{"number of transactions actually processed: {i}", {R(transactions)}},
	{"number of failed transactions: {i} ({f}%)",
	{R(failed), R(failed_pct)}, .format = PGBENCH_FORMAT_15},
	{"number of serialization failures: {i} ({f}%)",
	{R(serialization_failures)}, .format = PGBENCH_FORMAT_15},
	{"number of deadlock failures: {i} ({f}%)",
	{R(deadlock_failures)}, .format = PGBENCH_FORMAT_15},
	/* development versions (--continue-on-error) */
	{"number of other failures: {i} ({f}%)",
	{R(other_failures)}, .format = PGBENCH_FORMAT_15},
	{"number of transactions retried: {i} ({f}%)",
	{R(retried), R(retried_pct)}, .format = PGBENCH_FORMAT_15},
	{"total number of retries: {i}", {R(retries)}, .format = PGBENCH_FORMAT_15},
	/* 13 and 14 print a space before the percent sign, 15+ none */
	{"number of transactions skipped: {i} ({f}~%)", {R(skipped), R(skipped_pct)}},
	{"number of transactions above the {f} ms latency limit: {i}/{i} ({f}~%)",
	{R(latency_limit_ms), R(latency_late)}},
	{"latency average = {f} ms", {R(latency_avg_ms)}},
	{"latency average = {f} ms (including failures)", {R(latency_avg_ms)},
	.flag = R(latency_avg_includes_failures), .format = PGBENCH_FORMAT_15},
	{"latency stddev = {f} ms", {R(latency_stddev_ms)}},
	{"rate limit schedule lag: avg {f} (max {f}) ms", {R(lag_avg_ms), R(lag_max_ms)}},
	{"initial connection time = {f} ms", {R(initial_connection_time_ms)},
	.format = PGBENCH_FORMAT_14},
	{"average connection time = {f} ms", {R(average_connection_time_ms)},
	.format = PGBENCH_FORMAT_14},
	{"tps = {f} (including connections establishing)",
	{R(tps_including_connections)}, .format = PGBENCH_FORMAT_13},
	{"tps = {f} (excluding connections establishing)", {R(tps)},
	.format = PGBENCH_FORMAT_13, .tps_kind = PGBENCH_TPS_EXCLUDING_CONNECTIONS},
	{"tps = {f} (without initial connection time)", {R(tps)},
	.format = PGBENCH_FORMAT_14, .tps_kind = PGBENCH_TPS_WITHOUT_INITIAL_CONNECTION},
	{"tps = {f} (including reconnection times)", {R(tps)},
	.format = PGBENCH_FORMAT_14, .tps_kind = PGBENCH_TPS_INCLUDING_RECONNECTS},
	{"SQL script {d}: {s}", .action = ACT_NEW_SCRIPT},
	{"statement latencies in milliseconds{s}", .action = ACT_STATEMENTS},
};

/* The " - " lines of a "SQL script N:" section */
static const LineRule script_rules[] = {
	{" - weight: {d} (targets {f}% of total)", {S(weight), S(weight_pct)}},
	{" - {i} transactions ({f}% of total, tps = {f})",
	{S(transactions), S(transactions_pct), S(tps)}},
	/* 18 counts failed and skipped ones here, the successful ones next */
	{" - {i} transactions ({f}% of total)", {S(transactions), S(transactions_pct)}},
	{" - number of transactions actually processed: {i} (tps = {f})",
	{S(transactions), S(tps)}},
	{" - number of failed transactions: {i} ({f}%)", {S(failed)}},
	{" - number of serialization failures: {i} ({f}%)", {S(serialization_failures)}},
	{" - number of deadlock failures: {i} ({f}%)", {S(deadlock_failures)}},
	{" - number of other failures: {i} ({f}%)", {S(other_failures)}},
	{" - number of transactions retried: {i} ({f}%)", {S(retried)}},
	{" - total number of retries: {i}", {S(retries)}},
	{" - number of transactions skipped: {i} ({f}~%)", {S(skipped)}},
	{" - latency average = {f} ms", {S(latency_avg_ms)}},
	{" - latency stddev = {f} ms", {S(latency_stddev_ms)}},
	{" - statement latencies in milliseconds{s}", .action = ACT_STATEMENTS},
};

#define lengthof(a) (sizeof(a) / sizeof((a)[0]))

/* Does s begin with word, ignoring case? */
static bool
word_at(const char *s, const char *word)
{
	for (; *word; s++, word++)
		if (tolower((unsigned char) *s) != *word)
			return false;
	return true;
}

/*
 * Parse a number at *p as pgbench's printf wrote it ('.' as the decimal
 * point whatever this process's locale says); advance *p past it.
 */
static bool
scan_number(const char **p, bool integer, long long *ival, double *fval)
{
	const char *s = *p;
	const char *start = s;
	char		buf[64];
	char	   *end;
	size_t		len;

	if (*s == '-' || *s == '+')
		s++;
	/* PostgreSQL's own snprintf writes NaN and Infinity, e.g. "(NaN%)" */
	if (!integer && (word_at(s, "infinity") || word_at(s, "nan") || word_at(s, "inf")))
		s += word_at(s, "infinity") ? 8 : 3;
	else
	{
		if (!isdigit((unsigned char) *s))
			return false;
		while (isdigit((unsigned char) *s))
			s++;
		if (!integer && *s == '.')
		{
			s++;
			while (isdigit((unsigned char) *s))
				s++;
		}
	}
	len = s - start;
	if (len >= sizeof(buf))
		return false;
	memcpy(buf, start, len);
	buf[len] = '\0';
	errno = 0;
	if (integer)
	{
		*ival = strtoll(buf, &end, 10);
	}
	else
	{
		const char *point = localeconv()->decimal_point;
		char	   *dot = strchr(buf, '.');

		if (dot && point && point[0] && point[0] != '.' && point[1] == '\0')
			*dot = point[0];
		*fval = strtod(buf, &end);
	}
	if (errno == ERANGE || *end != '\0')
		return false;
	*p = s;
	return true;
}

/*
 * Match a whole line against a pattern (see LineRule), collecting the
 * placeholder values.  Returns the number of values, or -1 on no match.
 */
static int
match_line(const char *line, const char *pattern, Captured *out)
{
	const char *l = line;
	const char *p = pattern;
	int			n = 0;

	while (*p)
	{
		if (*p == '~')
		{
			while (*l == ' ')
				l++;
			p++;
		}
		else if (p[0] == '{' && p[1] && p[2] == '}')
		{
			Captured   *c = &out[n];

			if (n >= MAX_CAPTURES)
				return -1;
			c->kind = p[1];
			p += 3;
			if (c->kind == 's')
			{
				/* the rest of the line, less the pattern's literal tail */
				size_t		tail = strlen(p);
				size_t		rest = strlen(l);

				if (rest < tail || strcmp(l + rest - tail, p) != 0)
					return -1;
				c->s = l;
				c->slen = rest - tail;
				return n + 1;
			}
			if (!scan_number(&l, c->kind != 'f', &c->i, &c->f))
				return -1;
			if (c->kind == 'd' && (c->i < INT_MIN || c->i > INT_MAX))
				return -1;
			n++;
		}
		else if (*p++ != *l++)
			return -1;
	}
	return *l == '\0' ? n : -1;
}

/* Store captured values into the fields a rule names, in target */
static void
store_values(const LineRule *rule, const Captured *vals, int n, void *target)
{
	char	   *base = target;

	for (int k = 0; k < n; k++)
	{
		char	   *field;

		if (rule->dest[k] == 0)
			continue;
		field = base + rule->dest[k] - 1;
		switch (vals[k].kind)
		{
			case 'd':
				*(int *) field = (int) vals[k].i;
				break;
			case 'i':
				*(long long *) field = vals[k].i;
				break;
			case 'f':
				*(double *) field = vals[k].f;
				break;
			case 's':
				{
					size_t		len = vals[k].slen;

					if (len >= rule->strsize)
						len = rule->strsize - 1;
					memcpy(field, vals[k].s, len);
					field[len] = '\0';
				}
				break;
		}
	}
	if (rule->flag)
		*(bool *) (base + rule->flag - 1) = true;
}

/*
 * Find the rule a line matches.  Returns it, or NULL with *malformed set
 * when the line begins like a rule's fixed text but does not parse.
 */
static const LineRule *
find_rule(const LineRule *rules, size_t nrules, const char *line,
		  Captured *vals, int *nvals, bool *malformed)
{
	*malformed = false;
	for (size_t r = 0; r < nrules; r++)
	{
		int			n = match_line(line, rules[r].pattern, vals);

		if (n >= 0)
		{
			*nvals = n;
			return &rules[r];
		}
	}
	for (size_t r = 0; r < nrules; r++)
	{
		size_t		fixed = strcspn(rules[r].pattern, "{~");

		/* " - " alone says too little to call a line malformed */
		if (fixed >= 5 && strncmp(line, rules[r].pattern, fixed) == 0)
			*malformed = true;
	}
	return NULL;
}

static void
init_progress(PgbenchProgress *p)
{
	p->elapsed_s = p->tps = p->latency_avg_ms = p->latency_stddev_ms = NAN;
	p->lag_ms = NAN;
	p->failed = p->skipped = p->retried = p->retries = -1;
}

int
pgbench_progress_parse_line(const char *line, PgbenchProgress *out)
{
	Captured	v[MAX_CAPTURES];
	const char *rest;
	const char *end;

	init_progress(out);
	if (line == NULL ||
		match_line(line, "progress: {f} s, {f} tps, lat {f} ms stddev {f}{s}", v) != 5)
		return -1;
	out->elapsed_s = v[0].f;
	out->tps = v[1].f;
	out->latency_avg_ms = v[2].f;
	out->latency_stddev_ms = v[3].f;

	/* optional ", ..." parts: failed (15+), lag/skipped (--rate), retries */
	rest = v[4].s;
	end = rest + v[4].slen;
	while (rest < end)
	{
		char		part[64];
		const char *next;
		size_t		len;
		Captured	pv[MAX_CAPTURES];

		if (strncmp(rest, ", ", 2) != 0)
			return -1;
		rest += 2;
		next = strstr(rest, ", ");
		if (next == NULL || next > end)
			next = end;
		len = next - rest;
		if (len >= sizeof(part))
			return -1;
		memcpy(part, rest, len);
		part[len] = '\0';
		if (match_line(part, "{i} failed", pv) == 1)
			out->failed = pv[0].i;
		else if (match_line(part, "lag {f} ms", pv) == 1)
			out->lag_ms = pv[0].f;
		else if (match_line(part, "{i} skipped", pv) == 1)
			out->skipped = pv[0].i;
		else if (match_line(part, "{i} retried", pv) == 1)
			out->retried = pv[0].i;
		else if (match_line(part, "{i} retries", pv) == 1)
			out->retries = pv[0].i;
		else
			return -1;
		rest = next;
	}
	return 0;
}

static void
init_result(PgbenchResult *r)
{
	memset(r, 0, sizeof(*r));
	r->scale = r->partitions = r->clients = r->threads = -1;
	r->max_tries = r->duration_s = r->transactions_per_client = -1;
	r->transactions = r->transactions_expected = -1;
	r->failed = r->serialization_failures = r->deadlock_failures = -1;
	r->other_failures = -1;
	r->retried = r->retries = r->skipped = r->latency_late = -1;
	r->failed_pct = r->retried_pct = r->skipped_pct = NAN;
	r->latency_limit_ms = r->latency_avg_ms = r->latency_stddev_ms = NAN;
	r->lag_avg_ms = r->lag_max_ms = NAN;
	r->initial_connection_time_ms = r->average_connection_time_ms = NAN;
	r->tps = r->tps_including_connections = NAN;
}

static void
init_script(PgbenchScriptResult *s)
{
	memset(s, 0, sizeof(*s));
	s->weight = -1;
	s->weight_pct = s->transactions_pct = s->tps = NAN;
	s->transactions = s->failed = -1;
	s->serialization_failures = s->deadlock_failures = s->other_failures = -1;
	s->retried = s->retries = s->skipped = -1;
	s->latency_avg_ms = s->latency_stddev_ms = NAN;
}

/* Grow an array by one element; false when out of memory */
static bool
grow(void **array, int *count, size_t elemsize)
{
	void	   *bigger = realloc(*array, (size_t) (*count + 1) * elemsize);

	if (bigger == NULL)
		return false;
	*array = bigger;
	(*count)++;
	return true;
}

/*
 * Split a NUL-terminated text into lines in place: returns the next line
 * (trailing spaces and CR removed) and advances *cursor, or NULL at the end.
 * pgbench ends every line with a newline, so text after the last one is a
 * line cut off (output read while pgbench runs, or truncated): ignored.
 */
static char *
next_line(char **cursor)
{
	char	   *line = *cursor;
	char	   *nl = strchr(line, '\n');
	size_t		len;

	if (nl == NULL)
		return NULL;
	*nl = '\0';
	*cursor = nl + 1;
	len = nl - line;
	while (len > 0 && isspace((unsigned char) line[len - 1]))
		line[--len] = '\0';
	return line;
}

static void
copy_truncated(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

#if defined(__GNUC__)
static int	fail(char *errbuf, size_t errlen, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));
#endif

/* Put a message in errbuf; returns -1 for "return fail(...)" */
static int
fail(char *errbuf, size_t errlen, const char *fmt,...)
{
	va_list		ap;

	if (errbuf && errlen > 0)
	{
		va_start(ap, fmt);
		vsnprintf(errbuf, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* stderr: progress lines, pgbench's errors, the abort notice */
static int
parse_stderr(char *text, PgbenchResult *out, char *errbuf, size_t errlen)
{
	char	   *cursor = text;
	char	   *line;
	int			lineno = 0;

	while ((line = next_line(&cursor)) != NULL)
	{
		lineno++;
		if (strncmp(line, "progress: ", 10) == 0)
		{
			PgbenchProgress p;

			if (pgbench_progress_parse_line(line, &p) != 0)
				return fail(errbuf, errlen, "stderr line %d: malformed progress line \"%s\"",
							lineno, line);
			if (!grow((void **) &out->progress, &out->n_progress, sizeof(p)))
				return fail(errbuf, errlen, "out of memory");
			out->progress[out->n_progress - 1] = p;
		}
		else if (strstr(line, "Run was aborted") != NULL)
			out->aborted = true;
		else if (strncmp(line, "pgbench: error: ", 16) == 0 ||
				 strncmp(line, "pgbench: fatal: ", 16) == 0)
		{
			if (out->n_errors++ == 0)
				copy_truncated(out->abort_reason, sizeof(out->abort_reason), line + 16);
		}
	}
	return 0;
}

/* The banner "pgbench (15.4 (Debian ...))" or "pgbench (17.0, server 16.2)" */
static bool
parse_banner(const char *line, PgbenchResult *out)
{
	Captured	v[MAX_CAPTURES];

	if (match_line(line, "pgbench ({s})", v) != 1 || !isdigit((unsigned char) v[0].s[0]))
		return false;
	snprintf(out->pgbench_version, sizeof(out->pgbench_version), "%.*s",
			 (int) v[0].slen, v[0].s);
	return true;
}

static int
parse_stdout(char *text, PgbenchResult *out, char *errbuf, size_t errlen)
{
	char	   *cursor = text;
	char	   *line;
	int			lineno = 0;
	bool		in_summary = false;
	bool		in_statements = false;
	int			format = 0;
	PgbenchScriptResult *script = NULL;

	while ((line = next_line(&cursor)) != NULL)
	{
		const LineRule *rule = NULL;
		Captured	vals[MAX_CAPTURES];
		int			nvals = 0;
		bool		malformed = false;

		lineno++;
		if (!in_summary)
		{
			/* before the summary: only the banner matters */
			if (strncmp(line, "transaction type: ", 18) != 0)
			{
				parse_banner(line, out);
				continue;
			}
			in_summary = true;
		}

		/* -r statement lines are indented; they end at the next section */
		if (in_statements && line[0] == ' ' && strncmp(line, " - ", 3) != 0)
			continue;
		in_statements = false;

		if (script && strncmp(line, " - ", 3) == 0)
		{
			rule = find_rule(script_rules, lengthof(script_rules), line,
							 vals, &nvals, &malformed);
			if (rule)
				store_values(rule, vals, nvals, script);
		}
		else
		{
			rule = find_rule(summary_rules, lengthof(summary_rules), line,
							 vals, &nvals, &malformed);
			if (rule && rule->action == ACT_STORE)
				store_values(rule, vals, nvals, out);
		}

		if (rule == NULL)
		{
			if (malformed)
				return fail(errbuf, errlen, "stdout line %d: malformed line \"%s\"",
							lineno, line);
			if (out->n_unrecognized++ == 0)
				copy_truncated(out->first_unrecognized, sizeof(out->first_unrecognized), line);
			continue;
		}

		if (rule->format > format)
			format = rule->format;
		if (rule->tps_kind != PGBENCH_TPS_UNKNOWN)
		{
			out->tps_kind = rule->tps_kind;
			out->complete = true;
		}
		if (rule->action == ACT_STATEMENTS)
			in_statements = true;
		else if (rule->action == ACT_NEW_SCRIPT)
		{
			if (vals[0].i != out->n_scripts + 1)
				return fail(errbuf, errlen, "stdout line %d: expected SQL script %d, found \"%s\"",
							lineno, out->n_scripts + 1, line);
			if (!grow((void **) &out->scripts, &out->n_scripts, sizeof(*script)))
				return fail(errbuf, errlen, "out of memory");
			script = &out->scripts[out->n_scripts - 1];
			init_script(script);
			snprintf(script->name, sizeof(script->name), "%.*s",
					 (int) vals[1].slen, vals[1].s);
		}
	}

	if (!in_summary)
		return 1;				/* caller explains, with stderr's help */

	/*
	 * Lines unique to a generation decide it; failing those (a run stopped
	 * before them), the banner: pgbench prints one since 14.
	 */
	if (format == 0)
	{
		int			major = atoi(out->pgbench_version);

		if (out->pgbench_version[0] == '\0')
			format = PGBENCH_FORMAT_13;
		else
			format = major >= 15 ? PGBENCH_FORMAT_15 : PGBENCH_FORMAT_14;
	}
	out->server_format = format;
	return 0;
}

/* The header lines every generation prints before any result */
static const char *
missing_header(const PgbenchResult *r)
{
	if (r->scale < 0)
		return "scaling factor";
	if (r->query_mode[0] == '\0')
		return "query mode";
	if (r->clients < 0)
		return "number of clients";
	if (r->threads < 0)
		return "number of threads";
	if (r->duration_s < 0 && r->transactions_per_client < 0)
		return "duration or number of transactions per client";
	if (r->transactions < 0)
		return "number of transactions actually processed";
	return NULL;
}

int
pgbench_output_parse(const char *stdout_text, const char *stderr_text,
					 PgbenchResult *out, char *errbuf, size_t errlen)
{
	char	   *out_copy = strdup(stdout_text ? stdout_text : "");
	char	   *err_copy = strdup(stderr_text ? stderr_text : "");
	const char *missing;
	int			rc;

	init_result(out);
	if (errbuf && errlen > 0)
		errbuf[0] = '\0';
	if (out_copy == NULL || err_copy == NULL)
	{
		free(out_copy);
		free(err_copy);
		return fail(errbuf, errlen, "out of memory");
	}

	rc = parse_stderr(err_copy, out, errbuf, errlen);
	if (rc == 0)
		rc = parse_stdout(out_copy, out, errbuf, errlen);
	if (rc == 1)
	{
		if (out->abort_reason[0])
			rc = fail(errbuf, errlen, "pgbench printed no result summary: %s",
					  out->abort_reason);
		else if (stdout_text == NULL || stdout_text[0] == '\0')
			rc = fail(errbuf, errlen, "pgbench printed nothing on stdout");
		else
			rc = fail(errbuf, errlen, "no pgbench result summary (a \"transaction type:\" line) in the output");
	}
	else if (rc == 0 && (missing = missing_header(out)) != NULL)
		rc = fail(errbuf, errlen, "pgbench summary lacks its \"%s\" line", missing);
	else if (rc == 0 && !out->complete && !out->aborted)
		rc = fail(errbuf, errlen, "pgbench output is truncated: the summary has no \"tps = \" line%s%s",
				  out->abort_reason[0] ? "; pgbench said: " : "", out->abort_reason);
	else if (rc == 0 && out->complete && isnan(out->latency_avg_ms))
		rc = fail(errbuf, errlen, "pgbench summary lacks its \"latency average\" line");
	for (int i = 0; rc == 0 && !out->aborted && i < out->n_scripts; i++)
	{
		if (out->scripts[i].weight < 0 || out->scripts[i].transactions < 0)
			rc = fail(errbuf, errlen, "pgbench output is truncated in the section of SQL script %d",
					  i + 1);
	}

	free(out_copy);
	free(err_copy);
	return rc;
}

void
pgbench_result_free(PgbenchResult *r)
{
	if (r == NULL)
		return;
	free(r->scripts);
	free(r->progress);
	r->scripts = NULL;
	r->progress = NULL;
	r->n_scripts = r->n_progress = 0;
}
